// SPDX-License-Identifier: GPL-2.0-only
#include "profile_format.hpp"

#include <cstdio>

#include <linux/mrc.h>

#include "profile_parse.hpp"

namespace mrcctl {

namespace {

std::string hex32(std::uint32_t v)
{
	char buf[16];
	std::snprintf(buf, sizeof(buf), "0x%x", v);
	return buf;
}

std::uint8_t fmt(const EvProfile &p) { return p.format.value_or(0); }

// One EV: a line in text, an object in JSON (the caller opens it).
void ev_fields(Printer &p, const EvProfile &prof, const Ev &e)
{
	p.num(Out::Any, "index", "index", e.index);
	p.num(Out::Any, "plane", "plane", e.plane);
	p.str(Out::Any, "value", "value", ev_value_text(fmt(prof), e.value));
	if (e.state)
		p.str(Out::Any, "state", "state", ev_state_text(*e.state));
}

// "field width 8 init 0 min 0 max 255 mask 0xff"; in JSON the mask is a
// number.
void gen_field(Printer &p, const GenField &f)
{
	p.open_object();
	p.str(Out::Text, "", "", "field");
	p.num(Out::Any, "width", "width", f.width);
	p.num(Out::Any, "init", "init", f.init);
	p.num(Out::Any, "min", "min", f.min);
	p.num(Out::Any, "max", "max", f.max);
	if (f.mask) {
		p.num(Out::Json, "mask", "", *f.mask);
		p.str(Out::Text, "", "mask", hex32(*f.mask));
	}
	p.close_object();
}

// The EVs: one indented line each, or the "evs" array of objects.
void evs(Printer &p, const EvProfile &prof)
{
	p.open_array("evs");
	if (prof.evs) {
		for (const auto &e : *prof.evs) {
			p.open_object();
			p.text("    ");
			ev_fields(p, prof, e);
			p.newline();
			p.close_object();
		}
	}
	p.close_array();
}

std::string cc_value_text(const CcParam &cp, std::uint32_t v)
{
	switch (cp.kind) {
	case CcParam::Time: return time_text(v);
	case CcParam::OnOff: return v ? "on" : "off";
	default: return std::to_string(v);
	}
}

} // namespace

void print_ev_profile_fields(Printer &p, const EvProfile &prof, bool count_evs)
{
	p.num(Out::Any, "id", "id", prof.id);
	if (prof.mode)
		p.str(Out::Any, "mode", "mode", ev_mode_text(*prof.mode));
	if (prof.format)
		p.str(Out::Any, "format", "format", ev_format_text(*prof.format));
	if (prof.state)
		p.str(Out::Any, "state", "state",
		      ev_profile_state_text(*prof.state));
	p.num(Out::Any, "min_active", "min-active", prof.min_active);
	if (prof.event_mask)
		p.str(Out::Any, "events", "events",
		      event_mask_text(*prof.event_mask));
	p.num(Out::Any, "count", "count", prof.count);
	if (prof.plane_mask)
		p.str(Out::Any, "planes", "planes",
		      plane_list_text(*prof.plane_mask));
	else if (prof.mode == MRC_EV_PROFILE_MODE_AUTO)
		p.str(Out::Text, "", "planes", "route");
	// Text shows the fields and EVs on lines of their own (show) or
	// only counts the EVs (events).
	if (p.json() && !prof.fields.empty()) {
		p.open_array("fields");
		for (const auto &f : prof.fields)
			gen_field(p, f);
		p.close_array();
	}
	p.num(Out::Any, "shift", "shift", prof.shift);
	if (prof.base)
		p.str(Out::Any, "base", "base",
		      gen_base_text(fmt(prof), *prof.base));
	if (count_evs && prof.evs)
		p.num(Out::Text, "", "evs", prof.evs->size());
	if (p.json() && prof.evs)
		evs(p, prof);
}

void print_ev_profile(Printer &p, const EvProfile &prof)
{
	p.open_object();
	p.str(Out::Any, "dev", "dev", prof.dev);
	p.num(Out::Json, "dev_index", "", prof.dev_index);
	print_ev_profile_fields(p, prof, false);
	p.newline();
	if (!p.json()) {
		for (const auto &f : prof.fields) {
			p.text("    ");
			gen_field(p, f);
			p.newline();
		}
		evs(p, prof);
	}
	p.close_object();
}

void print_ev_show(Printer &p, const EvProfile &prof)
{
	p.open_object();
	p.str(Out::Json, "dev", "", prof.dev);
	p.num(Out::Json, "profile", "", prof.id);
	evs(p, prof);
	p.close_object();
}

void print_cc_profile_fields(Printer &p, const CcProfile &c)
{
	p.num(Out::Any, "id", "id", c.id);
	p.str(Out::Any, "algo", "algo", c.algo);
	for (const auto &[attr, v] : c.values) {
		const CcParam *cp = cc_param(attr);
		if (!cp)
			continue;
		p.str(Out::Text, "", cp->word, cc_value_text(*cp, v));
		if (cp->kind == CcParam::OnOff)
			p.boolean(cp->json, v != 0);
		else
			p.num(Out::Json, cp->json, "", v);
	}
}

void print_cc_profile(Printer &p, const CcProfile &c)
{
	p.open_object();
	print_instance_object(p, c, [&] { print_cc_profile_fields(p, c); });
	p.close_object();
}

} // namespace mrcctl
