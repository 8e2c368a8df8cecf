// SPDX-License-Identifier: GPL-2.0-only
// A small streaming JSON writer: mrcctl's -j output. It tracks nesting so
// that callers never place commas themselves, and it always produces valid
// JSON even from arbitrary kernel strings (netdev names are bytes, not
// UTF-8), because scripts parse this output.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mrcctl {

// Append s to out as a quoted JSON string. Invalid UTF-8 becomes U+FFFD.
void json_quote(std::string &out, std::string_view s);

class JsonWriter {
public:
	JsonWriter(std::ostream &os, bool pretty) : os_(os), pretty_(pretty) {}

	void begin_object();
	void end_object();
	void begin_array();
	void end_array();

	// Inside an object every value is preceded by exactly one key().
	void key(std::string_view k);

	void value(std::string_view s);
	void value(const char *s) { value(std::string_view(s)); }
	void value(const std::string &s) { value(std::string_view(s)); }
	void value(bool b);
	void value(std::uint64_t n);
	void value(std::int64_t n);
	void value(std::uint32_t n) { value(static_cast<std::uint64_t>(n)); }
	void value(int n) { value(static_cast<std::int64_t>(n)); }
	void null();

	template <typename T> void field(std::string_view k, const T &v)
	{
		key(k);
		value(v);
	}

	// True once the top-level value is complete.
	bool done() const { return stack_.empty() && wrote_top_; }

private:
	struct Level {
		bool object;
		bool empty = true;
	};

	void before_value();
	void newline_indent(std::size_t depth);
	void close(bool object);

	std::ostream &os_;
	bool pretty_;
	bool after_key_ = false;
	bool wrote_top_ = false;
	std::vector<Level> stack_;
};

} // namespace mrcctl
