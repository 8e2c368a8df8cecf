// SPDX-License-Identifier: GPL-2.0-only
// The one argument cursor and number grammar of every mrcctl command.
//
// Numbers: decimal digits ("17", "007" is 7: no octal), or "0x"/"0X" and
// hex digits ("0x11"); no sign, no spaces, at most 2^32 - 1 (and at most
// what the attribute holds, when a key says so). The same grammar as
// iproute2's for decimal and hex; unlike strtoul(..., 0), a leading zero
// does not mean octal.
//
// Error texts are the same for every command, so that scripts and people
// see one wording:
//   KEY needs a number | a name | a value
//   invalid KEY 'V': expected a number (decimal or 0x hex)
//   KEY V is larger than MAX
//   KEY name is empty | KEY name 'V' is longer than N characters
//   KEY given twice | missing WHAT | 'AFTER' needs 'WORD'
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace mrcctl {

// A malformed command line: exit status 2. `topic` names the help page
// that the hint points at ("plane add").
class UsageError : public std::runtime_error {
public:
	UsageError(const std::string &msg, std::string topic)
		: std::runtime_error(msg), topic_(std::move(topic))
	{
	}
	const std::string &topic() const { return topic_; }

private:
	std::string topic_;
};

struct Keyword {
	std::string_view word;
	int id;
};

// The id of the keyword that `word` names exactly or is the unique prefix
// of; aliases with the same id do not count as ambiguous. Throws
// UsageError (with `topic`) otherwise.
int match_keyword(std::string_view word, std::span<const Keyword> table,
		  const std::string &topic);

// The number grammar above; nullopt if malformed or above 2^32 - 1.
std::optional<std::uint32_t> parse_number(std::string_view s);

// Linux limits; longer names can never exist, so refusing them here gives
// a clearer message than the kernel's policy error would.
constexpr std::size_t kIfNameMax = 15; // IFNAMSIZ - 1
constexpr std::size_t kIbNameMax = 63; // IB_DEVICE_NAME_MAX - 1

// The words of one command line, read front to back. Every error it
// raises names the help topic of the action being parsed.
class Cursor {
public:
	explicit Cursor(std::span<const std::string_view> args,
			std::string topic = "")
		: args_(args), topic_(std::move(topic))
	{
	}

	bool done() const { return pos_ >= args_.size(); }
	std::string_view peek() const { return args_[pos_]; }
	std::string_view next() { return args_[pos_++]; }
	// The words not read yet.
	std::span<const std::string_view> rest() const
	{
		return args_.subspan(pos_);
	}

	const std::string &topic() const { return topic_; }
	void set_topic(std::string topic) { topic_ = std::move(topic); }

	[[noreturn]] void fail(const std::string &msg) const
	{
		throw UsageError(msg, topic_);
	}

	// The next word as a keyword of `table`.
	int keyword(std::span<const Keyword> table)
	{
		return match_keyword(next(), table, topic_);
	}

	// The value after KEY, whatever it is.
	std::string_view value(std::string_view key);
	// A name (device, netdev) of at most `max` characters.
	std::string name(std::string_view key, std::size_t max);
	// A number of the grammar above, at most `max`.
	std::uint32_t
	number(std::string_view key,
	       std::uint32_t max = std::numeric_limits<std::uint32_t>::max());
	// The next word, which must be `word` (not abbreviated).
	void expect(std::string_view word, const std::string &after);

	// "WHAT given twice" if `given`.
	void once(bool given, std::string_view what) const;
	// "missing WHAT" unless `present`.
	void require(bool present, std::string_view what) const;

private:
	std::span<const std::string_view> args_;
	std::size_t pos_ = 0;
	std::string topic_;
};

} // namespace mrcctl
