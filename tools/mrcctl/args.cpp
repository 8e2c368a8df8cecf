// SPDX-License-Identifier: GPL-2.0-only
#include "args.hpp"

namespace mrcctl {

namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

int digit(char ch, unsigned base)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (base == 16 && ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (base == 16 && ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

} // namespace

int match_keyword(std::string_view word, std::span<const Keyword> table,
		  const std::string &topic)
{
	const Keyword *found = nullptr;
	bool ambiguous = false;
	std::string candidates;

	if (!word.empty()) {
		for (const auto &k : table) {
			if (k.word == word)
				return k.id;
			if (!k.word.starts_with(word))
				continue;
			candidates += (candidates.empty() ? "" : ", ") +
				      std::string(k.word);
			if (found && found->id != k.id)
				ambiguous = true;
			found = found ? found : &k;
		}
	}
	if (ambiguous)
		throw UsageError(quoted(word) + " is ambiguous (" + candidates +
					 ")",
				 topic);
	if (!found) {
		std::string expected;
		for (const auto &k : table)
			expected += (expected.empty() ? "" : ", ") +
				    std::string(k.word);
		throw UsageError("unknown " +
					 (word.empty() ?
						  std::string("empty word") :
						  "word " + quoted(word)) +
					 " (expected one of: " + expected + ")",
				 topic);
	}
	return found->id;
}

std::optional<std::uint32_t> parse_number(std::string_view s)
{
	unsigned base = 10;
	if (s.starts_with("0x") || s.starts_with("0X")) {
		base = 16;
		s.remove_prefix(2);
	}
	if (s.empty())
		return std::nullopt;
	std::uint64_t v = 0;
	for (char ch : s) {
		int d = digit(ch, base);
		if (d < 0)
			return std::nullopt;
		v = v * base + static_cast<unsigned>(d);
		// Checked per digit: no number of digits can wrap around.
		if (v > std::numeric_limits<std::uint32_t>::max())
			return std::nullopt;
	}
	return static_cast<std::uint32_t>(v);
}

std::string_view Cursor::value(std::string_view key)
{
	if (done())
		fail(std::string(key) + " needs a value");
	return next();
}

std::string Cursor::name(std::string_view key, std::size_t max)
{
	if (done())
		fail(std::string(key) + " needs a name");
	std::string_view v = next();
	if (v.empty())
		fail(std::string(key) + " name is empty");
	if (v.size() > max)
		fail(std::string(key) + " name " + quoted(v) +
		     " is longer than " + std::to_string(max) + " characters");
	return std::string(v);
}

std::uint32_t Cursor::number(std::string_view key, std::uint32_t max)
{
	if (done())
		fail(std::string(key) + " needs a number");
	std::string_view v = next();
	auto n = parse_number(v);
	if (!n)
		fail("invalid " + std::string(key) + " " + quoted(v) +
		     ": expected a number (decimal or 0x hex)");
	if (*n > max)
		fail(std::string(key) + " " + std::string(v) +
		     " is larger than " + std::to_string(max));
	return *n;
}

void Cursor::expect(std::string_view word, const std::string &after)
{
	if (done() || peek() != word)
		fail(quoted(after) + " needs " + quoted(word));
	next();
}

void Cursor::once(bool given, std::string_view what) const
{
	if (given)
		fail(std::string(what) + " given twice");
}

void Cursor::require(bool present, std::string_view what) const
{
	if (!present)
		fail("missing " + std::string(what));
}

} // namespace mrcctl
