// SPDX-License-Identifier: GPL-2.0-only
// One print call for text and JSON, after iproute2's print_uint(PRINT_ANY,
// "key", "fmt", v): every object has one print function (format.hpp,
// profile_format.hpp, conn.hpp) that names each value once, with its JSON
// key and its text label, and the Printer writes whichever form -j asked
// for. JSON goes through JsonWriter (json.hpp), which always writes valid
// JSON; text is words separated by single spaces, in the command
// grammar's own words, so that a line can be pasted back as arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "json.hpp"

namespace mrcctl {

// Which form a value appears in (iproute2's PRINT_ANY, PRINT_JSON,
// PRINT_FP).
enum class Out { Any, Json, Text };

class Printer {
public:
	Printer(std::ostream &os, bool json, bool pretty)
		: os_(os), json_(json), w_(os, pretty)
	{
	}

	bool json() const { return json_; }

	// JSON structure; nothing in text. `key` names the member when the
	// object or array is inside an object.
	void open_object(std::string_view key = {});
	void close_object();
	void open_array(std::string_view key = {});
	void close_array();

	// JSON: "key": v ("key" left out inside an array). Text: the word
	// "label v", or "v" alone when label is empty.
	void str(Out o, std::string_view key, std::string_view label,
		 std::string_view v);
	void num(Out o, std::string_view key, std::string_view label,
		 std::uint64_t v);
	void str(Out o, std::string_view key, std::string_view label,
		 const std::string &v)
	{
		str(o, key, label, std::string_view(v));
	}
	void str(Out o, std::string_view key, std::string_view label,
		 const char *v)
	{
		str(o, key, label, std::string_view(v));
	}
	// A JSON true/false (text has its own words for these).
	void boolean(std::string_view key, bool v);

	// The same, for values the kernel may leave out: nothing if absent.
	void str(Out o, std::string_view key, std::string_view label,
		 const std::optional<std::string> &v)
	{
		if (v)
			str(o, key, label, std::string_view(*v));
	}
	template <typename T>
	void num(Out o, std::string_view key, std::string_view label,
		 const std::optional<T> &v)
	{
		if (v)
			num(o, key, label, static_cast<std::uint64_t>(*v));
	}

	// Text only: end the line; write preformatted text (an indent, a
	// table of counters) as it is.
	void newline();
	void text(std::string_view s);

private:
	bool to_json(Out o) const { return json_ && o != Out::Text; }
	bool to_text(Out o) const { return !json_ && o != Out::Json; }
	void key(std::string_view k);
	// JSON only: @k, then what @begin starts (an object or an array).
	void open(std::string_view k, void (JsonWriter::*begin)());
	void word(std::string_view label, std::string_view v);
	// One value: @k and @v in JSON, @label and @text in text.
	template <class V>
	void field(Out o, std::string_view k, std::string_view label, V v,
		   std::string_view text);

	std::ostream &os_;
	bool json_;
	JsonWriter w_;
	char last_ = '\n'; // text: the last character written
};

// An object of one instance as every listing prints it: the instance
// (name in both forms, index in JSON), then `fields`, then the end of its
// text line; the caller opens and closes the object.
template <class Obj, class Fields>
void print_instance_object(Printer &p, const Obj &o, Fields &&fields)
{
	p.str(Out::Any, "dev", "dev", o.dev);
	p.num(Out::Json, "dev_index", "", o.dev_index);
	fields();
	p.newline();
}

} // namespace mrcctl
