// SPDX-License-Identifier: GPL-2.0-only
// Grammar of the profile objects:
//
//   ev-profile add dev NAME id ID mode MODE format FORMAT [min-active N]
//              [events MASK] [count N] [planes LIST]
//              [ev plane P value V]... [field width W init I min M max X
//              [mask K]]... [shift S] [base HEX]
//   ev-profile set dev NAME id ID [state STATE] [min-active N] [events MASK]
//   ev-profile ev { replace | deny | allow } dev NAME profile ID index I
//              [plane P value V] [qpn N]
//   ev-profile del dev NAME id ID
//   ev-profile show [dev NAME [id ID]]
//   ev show dev NAME profile ID
//   cc-profile { add | set } dev NAME id ID [algo ALGO] [PARAM VALUE]...
//   cc-profile del dev NAME id ID
//   cc-profile show [dev NAME [id ID]]
//
// As in cli.cpp, only the shape is checked here; ranges the kernel knows
// (plane ids, widths, EV values the format cannot use) are its to judge,
// except that a number must fit its attribute, which the kernel cannot see.
#include <limits>

#include "args.hpp"
#include "cli.hpp"
#include "profile_parse.hpp"

namespace mrcctl {

namespace {

enum Key {
	K_DEV,
	K_ID,
	K_PROFILE,
	K_MODE,
	K_FORMAT,
	K_MIN_ACTIVE,
	K_EVENTS,
	K_COUNT,
	K_PLANES,
	K_EV,
	K_FIELD,
	K_SHIFT,
	K_BASE,
	K_STATE,
	K_INDEX,
	K_PLANE,
	K_VALUE,
	K_ALGO,
	K_QPN,
	K_HELP,
	K_CC_FIRST = 100,
};

constexpr Keyword kKeys[] = {
	{"dev", K_DEV},		{"id", K_ID},
	{"profile", K_PROFILE}, {"mode", K_MODE},
	{"format", K_FORMAT},	{"min-active", K_MIN_ACTIVE},
	{"events", K_EVENTS},	{"count", K_COUNT},
	{"planes", K_PLANES},	{"ev", K_EV},
	{"field", K_FIELD},	{"shift", K_SHIFT},
	{"base", K_BASE},	{"state", K_STATE},
	{"index", K_INDEX},	{"plane", K_PLANE},
	{"value", K_VALUE},	{"algo", K_ALGO},
	{"qpn", K_QPN},
};

// "field width W init I min M max X [mask K]", after "field".
GenField parse_field(Cursor &a)
{
	GenField f;
	bool w = false, i = false, lo = false, hi = false;
	while (!a.done()) {
		std::string_view k = a.peek();
		if (k == "width") {
			a.next();
			f.width = a.number("width", 255);
			w = true;
		} else if (k == "init") {
			a.next();
			f.init = a.number("init");
			i = true;
		} else if (k == "min") {
			a.next();
			f.min = a.number("min");
			lo = true;
		} else if (k == "max") {
			a.next();
			f.max = a.number("max");
			hi = true;
		} else if (k == "mask") {
			a.next();
			f.mask = a.number("mask");
		} else {
			break;
		}
	}
	if (!w || !i || !lo || !hi)
		a.fail("'field' needs width, init, min and max");
	return f;
}

// Every key of `allowed` (and help); false if help was asked for.
bool parse_keys(Cursor &a, Request &r, std::initializer_list<int> allowed,
		bool cc_params)
{
	std::vector<Keyword> table;
	for (const auto &k : kKeys)
		for (int id : allowed)
			if (k.id == id)
				table.push_back(k);
	if (cc_params)
		for (std::size_t i = 0; i < kCcParams.size(); i++)
			table.push_back({kCcParams[i].word,
					 K_CC_FIRST + static_cast<int>(i)});
	table.push_back({"help", K_HELP});

	ProfileRequest &p = r.prof;
	while (!a.done()) {
		int key = a.keyword(table);
		switch (key) {
		case K_HELP:
			r = Request{};
			r.topic = a.topic();
			return false;
		case K_DEV:
			a.once(r.dev.has_value(), "dev");
			r.dev = a.name("dev", kIbNameMax);
			break;
		case K_ID:
		case K_PROFILE: {
			const char *what = key == K_ID ? "id" : "profile";
			a.once(p.id.has_value(), what);
			p.id = a.number(what);
			break;
		}
		case K_MODE: {
			a.once(p.mode.has_value(), "mode");
			std::string_view v = a.value("mode");
			p.mode = parse_ev_mode(v);
			if (!p.mode)
				a.fail("invalid mode '" + std::string(v) +
				       "' (expected auto, exp or gen)");
			break;
		}
		case K_FORMAT: {
			a.once(p.format.has_value(), "format");
			std::string_view v = a.value("format");
			p.format = parse_ev_format(v);
			if (!p.format)
				a.fail("invalid format '" + std::string(v) +
				       "' (expected udp, stev or srv6)");
			break;
		}
		case K_STATE: {
			a.once(p.state.has_value(), "state");
			std::string_view v = a.value("state");
			p.state = parse_ev_profile_state(v);
			if (!p.state)
				a.fail("invalid state '" + std::string(v) +
				       "' (expected init, offline or online)");
			break;
		}
		case K_MIN_ACTIVE:
			a.once(p.min_active.has_value(), "min-active");
			p.min_active = a.number("min-active", 0xffff);
			break;
		case K_EVENTS: {
			a.once(p.event_mask.has_value(), "events");
			std::string_view v = a.value("events");
			p.event_mask = parse_event_mask(v);
			if (!p.event_mask)
				a.fail("invalid events '" + std::string(v) +
				       "' (expected all, none or a list of "
				       "unknown, good, assumed-bad, denied, "
				       "profile)");
			break;
		}
		case K_COUNT:
			a.once(p.count.has_value(), "count");
			p.count = a.number("count", 0xffff);
			break;
		case K_PLANES: {
			a.once(p.plane_mask.has_value(), "planes");
			std::string_view v = a.value("planes");
			p.plane_mask = parse_plane_list(v);
			if (!p.plane_mask)
				a.fail("invalid planes '" + std::string(v) +
				       "' (expected a list like 1,2,5-8 of "
				       "planes 1..16)");
			break;
		}
		case K_EV: {
			a.expect("plane", "ev");
			std::uint32_t plane = a.number("plane", 255);
			a.expect("value", "ev plane " + std::to_string(plane));
			p.evs.emplace_back(plane, std::string(a.value("value")));
			break;
		}
		case K_FIELD: p.fields.push_back(parse_field(a)); break;
		case K_SHIFT:
			a.once(p.shift.has_value(), "shift");
			p.shift = a.number("shift", 255);
			break;
		case K_BASE:
			a.once(p.base.has_value(), "base");
			p.base = std::string(a.value("base"));
			break;
		case K_INDEX:
			a.once(p.index.has_value(), "index");
			p.index = a.number("index", 0xffff);
			break;
		case K_QPN:
			a.once(p.qpn.has_value(), "qpn");
			p.qpn = a.number("qpn", 0xffffff);
			break;
		case K_PLANE:
			a.once(p.ev_plane.has_value(), "plane");
			p.ev_plane = a.number("plane", 255);
			break;
		case K_VALUE:
			a.once(p.ev_value.has_value(), "value");
			p.ev_value = std::string(a.value("value"));
			break;
		case K_ALGO:
			a.once(p.algo.has_value(), "algo");
			p.algo = std::string(a.value("algo"));
			break;
		default: {
			const CcParam &cp = kCcParams[static_cast<std::size_t>(
				key - K_CC_FIRST)];
			std::string word = cp.word;
			for (const auto &[attr, v] : p.cc)
				if (attr == cp.attr)
					a.fail(word + " given twice");
			std::uint32_t n;
			switch (cp.kind) {
			case CcParam::Time: {
				std::string_view v = a.value(word);
				auto t = parse_time_ns(v);
				if (!t)
					a.fail("invalid " + word + " '" +
					       std::string(v) +
					       "': expected a time like 100us "
					       "(ns, us, ms; at most 4294967295 ns)");
				n = *t;
				break;
			}
			case CcParam::OnOff: {
				std::string_view v = a.value(word);
				if (v != "on" && v != "off")
					a.fail(word + " takes on or off");
				n = v == "on";
				break;
			}
			case CcParam::Byte: n = a.number(word, 255); break;
			default: n = a.number(word); break;
			}
			p.cc.emplace_back(cp.attr, n);
			break;
		}
		}
	}
	return true;
}

// ev-profile add: the EV values and the base in the profile's format.
void check_values(Cursor &a, const ProfileRequest &p)
{
	for (const auto &[plane, text] : p.evs)
		if (!parse_ev_value(*p.format, text))
			a.fail("invalid EV value '" + text + "' for format " +
			       ev_format_text(*p.format) +
			       " (udp: a port, stev: a 32-bit number, srv6: "
			       "an IPv6 address or SID,SEGMENT)");
	if (p.base && !parse_gen_base(*p.format, *p.base))
		a.fail("invalid base '" + *p.base + "' for format " +
		       ev_format_text(*p.format) +
		       " (0x and hex digits that fit the format's value)");
}

enum Action { A_SHOW, A_ADD, A_DEL, A_SET, A_EV, A_HELP };
constexpr Keyword kEvProfileActions[] = {
	{"show", A_SHOW},  {"list", A_SHOW}, {"add", A_ADD}, {"del", A_DEL},
	{"delete", A_DEL}, {"set", A_SET},   {"ev", A_EV},   {"help", A_HELP},
};
constexpr Keyword kCcProfileActions[] = {
	{"show", A_SHOW},  {"list", A_SHOW}, {"add", A_ADD},   {"del", A_DEL},
	{"delete", A_DEL}, {"set", A_SET},   {"help", A_HELP},
};

enum EvAction { E_REPLACE, E_DENY, E_ALLOW, E_HELP };
constexpr Keyword kEvActions[] = {
	{"replace", E_REPLACE},
	{"deny", E_DENY},
	{"allow", E_ALLOW},
	{"help", E_HELP},
};

Request help(const std::string &topic)
{
	Request r;
	r.topic = topic;
	return r;
}

// ev-profile ev ACTION ...
Request parse_ev_change(Cursor &a)
{
	a.set_topic("ev-profile ev");
	if (a.done())
		a.fail("missing replace, deny or allow");
	int act = a.keyword(kEvActions);
	if (act == E_HELP)
		return help(a.topic());
	Request r;
	if (act == E_REPLACE) {
		r.cmd = Cmd::EvReplace;
		if (!parse_keys(a, r,
				{K_DEV, K_PROFILE, K_INDEX, K_PLANE, K_VALUE,
				 K_QPN},
				false))
			return r;
		a.require(r.prof.ev_plane.has_value(), "'plane P'");
		a.require(r.prof.ev_value.has_value(), "'value V'");
	} else {
		r.cmd = act == E_DENY ? Cmd::EvDeny : Cmd::EvAllow;
		if (!parse_keys(a, r, {K_DEV, K_PROFILE, K_INDEX, K_QPN}, false))
			return r;
	}
	a.require(r.dev.has_value(), "'dev NAME'");
	a.require(r.prof.id.has_value(), "'profile ID'");
	a.require(r.prof.index.has_value(), "'index I'");
	return r;
}

} // namespace

Request parse_ev_profile(Cursor &a)
{
	a.set_topic("ev-profile");
	int act = A_SHOW;
	if (!a.done())
		act = a.keyword(kEvProfileActions);
	Request r;
	switch (act) {
	case A_HELP: return help(a.topic());
	case A_EV: return parse_ev_change(a);
	case A_SHOW: {
		a.set_topic("ev-profile show");
		r.cmd = Cmd::EvProfileShow;
		if (parse_keys(a, r, {K_DEV, K_ID}, false) && r.prof.id)
			a.require(r.dev.has_value(), "'dev NAME' (with id)");
		return r;
	}
	case A_DEL: {
		a.set_topic("ev-profile del");
		r.cmd = Cmd::EvProfileDel;
		if (parse_keys(a, r, {K_DEV, K_ID}, false)) {
			a.require(r.dev.has_value(), "'dev NAME'");
			a.require(r.prof.id.has_value(), "'id ID'");
		}
		return r;
	}
	case A_SET: {
		a.set_topic("ev-profile set");
		r.cmd = Cmd::EvProfileSet;
		if (parse_keys(a, r,
			       {K_DEV, K_ID, K_STATE, K_MIN_ACTIVE, K_EVENTS},
			       false)) {
			a.require(r.dev.has_value(), "'dev NAME'");
			a.require(r.prof.id.has_value(), "'id ID'");
			a.require(r.prof.state || r.prof.min_active ||
					  r.prof.event_mask,
				  "state, min-active or events");
		}
		return r;
	}
	default: {
		a.set_topic("ev-profile add");
		r.cmd = Cmd::EvProfileAdd;
		if (parse_keys(a, r,
			       {K_DEV, K_ID, K_MODE, K_FORMAT, K_MIN_ACTIVE,
				K_EVENTS, K_COUNT, K_PLANES, K_EV, K_FIELD,
				K_SHIFT, K_BASE},
			       false)) {
			a.require(r.dev.has_value(), "'dev NAME'");
			a.require(r.prof.id.has_value(), "'id ID'");
			a.require(r.prof.mode.has_value(), "'mode MODE'");
			a.require(r.prof.format.has_value(), "'format FORMAT'");
			check_values(a, r.prof);
		}
		return r;
	}
	}
}

Request parse_ev(Cursor &a)
{
	static constexpr Keyword kActions[] = {
		{"show", A_SHOW},
		{"list", A_SHOW},
		{"help", A_HELP},
	};
	a.set_topic("ev");
	int act = A_SHOW;
	if (!a.done())
		act = a.keyword(kActions);
	if (act == A_HELP)
		return help(a.topic());
	Request r;
	a.set_topic("ev show");
	r.cmd = Cmd::EvShow;
	if (parse_keys(a, r, {K_DEV, K_PROFILE}, false)) {
		a.require(r.dev.has_value(), "'dev NAME'");
		a.require(r.prof.id.has_value(), "'profile ID'");
	}
	return r;
}

Request parse_cc_profile(Cursor &a)
{
	a.set_topic("cc-profile");
	int act = A_SHOW;
	if (!a.done())
		act = a.keyword(kCcProfileActions);
	Request r;
	switch (act) {
	case A_HELP: return help(a.topic());
	case A_SHOW: {
		a.set_topic("cc-profile show");
		r.cmd = Cmd::CcProfileShow;
		if (parse_keys(a, r, {K_DEV, K_ID}, false) && r.prof.id)
			a.require(r.dev.has_value(), "'dev NAME' (with id)");
		return r;
	}
	case A_DEL: {
		a.set_topic("cc-profile del");
		r.cmd = Cmd::CcProfileDel;
		if (parse_keys(a, r, {K_DEV, K_ID}, false)) {
			a.require(r.dev.has_value(), "'dev NAME'");
			a.require(r.prof.id.has_value(), "'id ID'");
		}
		return r;
	}
	default: {
		bool add = act == A_ADD;
		a.set_topic(add ? "cc-profile add" : "cc-profile set");
		r.cmd = add ? Cmd::CcProfileAdd : Cmd::CcProfileSet;
		if (parse_keys(a, r, {K_DEV, K_ID, K_ALGO}, true)) {
			a.require(r.dev.has_value(), "'dev NAME'");
			a.require(r.prof.id.has_value(), "'id ID'");
			if (add)
				a.require(r.prof.algo.has_value(),
					  "'algo uet-1.0-nscc' or 'algo none'");
			else
				a.require(!r.prof.cc.empty() ||
						  r.prof.algo.has_value(),
					  "a value to change");
		}
		return r;
	}
	}
}

} // namespace mrcctl
