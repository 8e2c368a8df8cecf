// SPDX-License-Identifier: GPL-2.0-only
#include "json.hpp"

#include <stdexcept>

namespace mrcctl {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
std::size_t utf8_len(std::string_view s, std::size_t i)
{
	auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
	unsigned char c = b(i);
	std::size_t n;
	std::uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (i + n > s.size())
		return 0;
	for (std::size_t k = 1; k < n; k++) {
		if ((b(i + k) & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (b(i + k) & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

} // namespace

void json_quote(std::string &out, std::string_view s)
{
	static const char hex[] = "0123456789abcdef";

	out += '"';
	for (std::size_t i = 0; i < s.size();) {
		unsigned char c = static_cast<unsigned char>(s[i]);
		switch (c) {
		case '"':
			out += "\\\"";
			i++;
			continue;
		case '\\':
			out += "\\\\";
			i++;
			continue;
		case '\b':
			out += "\\b";
			i++;
			continue;
		case '\f':
			out += "\\f";
			i++;
			continue;
		case '\n':
			out += "\\n";
			i++;
			continue;
		case '\r':
			out += "\\r";
			i++;
			continue;
		case '\t':
			out += "\\t";
			i++;
			continue;
		default: break;
		}
		if (c < 0x20) {
			out += "\\u00";
			out += hex[c >> 4];
			out += hex[c & 0xf];
			i++;
			continue;
		}
		std::size_t n = utf8_len(s, i);
		if (n == 0) {
			out += "\\ufffd";
			i++;
			continue;
		}
		out.append(s.substr(i, n));
		i += n;
	}
	out += '"';
}

void JsonWriter::newline_indent(std::size_t depth)
{
	if (!pretty_)
		return;
	os_ << '\n';
	for (std::size_t i = 0; i < depth; i++)
		os_ << "  ";
}

void JsonWriter::before_value()
{
	if (stack_.empty()) {
		if (wrote_top_)
			throw std::logic_error("json: second top-level value");
		return;
	}
	Level &l = stack_.back();
	if (l.object) {
		if (!after_key_)
			throw std::logic_error("json: object member without key");
		after_key_ = false;
		return;
	}
	if (!l.empty)
		os_ << ',';
	l.empty = false;
	newline_indent(stack_.size());
}

void JsonWriter::key(std::string_view k)
{
	if (stack_.empty() || !stack_.back().object || after_key_)
		throw std::logic_error("json: key outside an object");
	Level &l = stack_.back();
	if (!l.empty)
		os_ << ',';
	l.empty = false;
	newline_indent(stack_.size());
	std::string q;
	json_quote(q, k);
	os_ << q << (pretty_ ? ": " : ":");
	after_key_ = true;
}

void JsonWriter::begin_object()
{
	before_value();
	os_ << '{';
	stack_.push_back({true});
}

void JsonWriter::begin_array()
{
	before_value();
	os_ << '[';
	stack_.push_back({false});
}

void JsonWriter::close(bool object)
{
	if (stack_.empty() || stack_.back().object != object || after_key_)
		throw std::logic_error("json: unbalanced close");
	bool empty = stack_.back().empty;
	stack_.pop_back();
	if (!empty)
		newline_indent(stack_.size());
	os_ << (object ? '}' : ']');
	if (stack_.empty())
		wrote_top_ = true;
}

void JsonWriter::end_object() { close(true); }
void JsonWriter::end_array() { close(false); }

void JsonWriter::value(std::string_view s)
{
	before_value();
	std::string q;
	json_quote(q, s);
	os_ << q;
	if (stack_.empty())
		wrote_top_ = true;
}

void JsonWriter::value(bool b)
{
	before_value();
	os_ << (b ? "true" : "false");
	if (stack_.empty())
		wrote_top_ = true;
}

void JsonWriter::value(std::uint64_t n)
{
	before_value();
	os_ << n;
	if (stack_.empty())
		wrote_top_ = true;
}

void JsonWriter::value(std::int64_t n)
{
	before_value();
	os_ << n;
	if (stack_.empty())
		wrote_top_ = true;
}

void JsonWriter::null()
{
	before_value();
	os_ << "null";
	if (stack_.empty())
		wrote_top_ = true;
}

} // namespace mrcctl
