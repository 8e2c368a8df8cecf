// SPDX-License-Identifier: GPL-2.0-only
#include "printer.hpp"

namespace mrcctl {

void Printer::key(std::string_view k)
{
	if (!k.empty())
		w_.key(k);
}

void Printer::open(std::string_view k, void (JsonWriter::*begin)())
{
	if (!json_)
		return;
	key(k);
	(w_.*begin)();
}

void Printer::open_object(std::string_view k)
{
	open(k, &JsonWriter::begin_object);
}

void Printer::close_object()
{
	if (json_)
		w_.end_object();
}

void Printer::open_array(std::string_view k)
{
	open(k, &JsonWriter::begin_array);
}

void Printer::close_array()
{
	if (json_)
		w_.end_array();
}

// One word of a text line: a space before it unless the line (or the
// output) starts here or an indent was just written.
void Printer::word(std::string_view label, std::string_view v)
{
	if (last_ != '\n' && last_ != ' ')
		os_ << ' ';
	if (!label.empty())
		os_ << label << ' ';
	os_ << v;
	if (!v.empty())
		last_ = v.back();
	else if (!label.empty())
		last_ = ' ';
}

template <class V>
void Printer::field(Out o, std::string_view k, std::string_view label, V v,
		    std::string_view text)
{
	if (to_json(o)) {
		key(k);
		w_.value(v);
	} else if (to_text(o)) {
		word(label, text);
	}
}

void Printer::str(Out o, std::string_view k, std::string_view label,
		  std::string_view v)
{
	field(o, k, label, v, v);
}

void Printer::num(Out o, std::string_view k, std::string_view label,
		  std::uint64_t v)
{
	field(o, k, label, v, std::to_string(v));
}

void Printer::boolean(std::string_view k, bool v)
{
	if (!json_)
		return;
	key(k);
	w_.value(v);
}

void Printer::newline()
{
	if (json_)
		return;
	os_ << '\n';
	last_ = '\n';
}

void Printer::text(std::string_view s)
{
	if (json_ || s.empty())
		return;
	os_ << s;
	last_ = s.back();
}

} // namespace mrcctl
