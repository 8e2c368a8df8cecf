// SPDX-License-Identifier: GPL-2.0-only
#include "profile_format.hpp"

#include <cstdio>

#include <linux/mrc.h>

#include "profile_parse.hpp"

namespace mrcctl {

namespace {

void word(std::string &s, const std::string &w)
{
	if (!s.empty())
		s += ' ';
	s += w;
}

template <typename T>
void kv(std::string &s, const char *k, const std::optional<T> &v)
{
	if (v)
		word(s, std::string(k) + ' ' + std::to_string(*v));
}

std::string hex32(std::uint32_t v)
{
	char buf[16];
	std::snprintf(buf, sizeof(buf), "0x%x", v);
	return buf;
}

std::uint8_t fmt(const EvProfile &p) { return p.format.value_or(0); }

std::string ev_line(const EvProfile &p, const Ev &e)
{
	std::string s;
	kv(s, "index", e.index);
	kv(s, "plane", e.plane);
	word(s, "value " + ev_value_text(fmt(p), e.value));
	if (e.state)
		word(s, "state " + ev_state_text(*e.state));
	return s;
}

void ev_json(JsonWriter &w, const EvProfile &p, const Ev &e)
{
	w.begin_object();
	if (e.index)
		w.field("index", *e.index);
	if (e.plane)
		w.field("plane", *e.plane);
	w.field("value", ev_value_text(fmt(p), e.value));
	if (e.state)
		w.field("state", ev_state_text(*e.state));
	w.end_object();
}

std::string field_line(const GenField &f)
{
	std::string s = "field width " + std::to_string(f.width) + " init " +
			std::to_string(f.init) + " min " +
			std::to_string(f.min) + " max " + std::to_string(f.max);
	if (f.mask)
		s += " mask " + hex32(*f.mask);
	return s;
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

std::string ev_profile_fields_text(const EvProfile &p, bool count_evs)
{
	std::string s;
	kv(s, "id", p.id);
	if (p.mode)
		word(s, "mode " + ev_mode_text(*p.mode));
	if (p.format)
		word(s, "format " + ev_format_text(*p.format));
	if (p.state)
		word(s, "state " + ev_profile_state_text(*p.state));
	kv(s, "min-active", p.min_active);
	if (p.event_mask)
		word(s, "events " + event_mask_text(*p.event_mask));
	kv(s, "count", p.count);
	if (p.plane_mask)
		word(s, "planes " + plane_list_text(*p.plane_mask));
	else if (p.mode == MRC_EV_PROFILE_MODE_AUTO)
		word(s, "planes route");
	kv(s, "shift", p.shift);
	if (p.base)
		word(s, "base " + gen_base_text(fmt(p), *p.base));
	if (count_evs && p.evs)
		word(s, "evs " + std::to_string(p.evs->size()));
	return s;
}

std::string ev_profile_line(const EvProfile &p)
{
	std::string s;
	if (p.dev)
		s = "dev " + *p.dev;
	word(s, ev_profile_fields_text(p, false));
	return s;
}

std::string ev_profile_text(const EvProfile &p)
{
	std::string s = ev_profile_line(p) + '\n';
	for (const auto &f : p.fields)
		s += "    " + field_line(f) + '\n';
	s += evs_text(p);
	return s;
}

std::string evs_text(const EvProfile &p)
{
	std::string s;
	if (p.evs)
		for (const auto &e : *p.evs)
			s += "    " + ev_line(p, e) + '\n';
	return s;
}

void evs_json(JsonWriter &w, const EvProfile &p)
{
	w.begin_array();
	if (p.evs)
		for (const auto &e : *p.evs)
			ev_json(w, p, e);
	w.end_array();
}

void ev_show_json(JsonWriter &w, const EvProfile &p)
{
	w.begin_object();
	if (p.dev)
		w.field("dev", *p.dev);
	if (p.id)
		w.field("profile", *p.id);
	w.key("evs");
	evs_json(w, p);
	w.end_object();
}

void ev_profile_fields_json(JsonWriter &w, const EvProfile &p)
{
	if (p.id)
		w.field("id", *p.id);
	if (p.mode)
		w.field("mode", ev_mode_text(*p.mode));
	if (p.format)
		w.field("format", ev_format_text(*p.format));
	if (p.state)
		w.field("state", ev_profile_state_text(*p.state));
	if (p.min_active)
		w.field("min_active", *p.min_active);
	if (p.event_mask)
		w.field("events", event_mask_text(*p.event_mask));
	if (p.count)
		w.field("count", *p.count);
	if (p.plane_mask)
		w.field("planes", plane_list_text(*p.plane_mask));
	if (!p.fields.empty()) {
		w.key("fields");
		w.begin_array();
		for (const auto &f : p.fields) {
			w.begin_object();
			w.field("width", f.width);
			w.field("init", f.init);
			w.field("min", f.min);
			w.field("max", f.max);
			if (f.mask)
				w.field("mask", *f.mask);
			w.end_object();
		}
		w.end_array();
	}
	if (p.shift)
		w.field("shift", *p.shift);
	if (p.base)
		w.field("base", gen_base_text(fmt(p), *p.base));
	if (p.evs) {
		w.key("evs");
		evs_json(w, p);
	}
}

void ev_profile_json(JsonWriter &w, const EvProfile &p)
{
	w.begin_object();
	if (p.dev)
		w.field("dev", *p.dev);
	if (p.dev_index)
		w.field("dev_index", *p.dev_index);
	ev_profile_fields_json(w, p);
	w.end_object();
}

std::string cc_profile_fields_text(const CcProfile &p)
{
	std::string s;
	kv(s, "id", p.id);
	if (p.algo)
		word(s, "algo " + *p.algo);
	for (const auto &[attr, v] : p.values)
		if (const CcParam *cp = cc_param(attr))
			word(s, std::string(cp->word) + ' ' + cc_value_text(*cp, v));
	return s;
}

std::string cc_profile_text(const CcProfile &p)
{
	std::string s;
	if (p.dev)
		s = "dev " + *p.dev;
	word(s, cc_profile_fields_text(p));
	return s + '\n';
}

void cc_profile_fields_json(JsonWriter &w, const CcProfile &p)
{
	if (p.id)
		w.field("id", *p.id);
	if (p.algo)
		w.field("algo", *p.algo);
	for (const auto &[attr, v] : p.values) {
		const CcParam *cp = cc_param(attr);
		if (!cp)
			continue;
		if (cp->kind == CcParam::OnOff)
			w.field(cp->json, v != 0);
		else
			w.field(cp->json, v);
	}
}

void cc_profile_json(JsonWriter &w, const CcProfile &p)
{
	w.begin_object();
	if (p.dev)
		w.field("dev", *p.dev);
	if (p.dev_index)
		w.field("dev_index", *p.dev_index);
	cc_profile_fields_json(w, p);
	w.end_object();
}

} // namespace mrcctl
