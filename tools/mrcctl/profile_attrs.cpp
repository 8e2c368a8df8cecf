// SPDX-License-Identifier: GPL-2.0-only
#include "profile_attrs.hpp"

#include <algorithm>

#include <linux/mrc.h>
#include <netlink/genl/genl.h>

#include "nl.hpp"
#include "nla_get.hpp"
#include "profile_parse.hpp"

namespace mrcctl {

namespace {

using nla::for_each_nested;
using nla::get_string;
using nla::get_u16;
using nla::get_u32;

std::optional<std::uint8_t> get_u8(nlattr *a)
{
	if (nla_len(a) < 1)
		return std::nullopt;
	return nla_get_u8(a);
}

std::optional<std::uint32_t> get_u8_32(nlattr *a)
{
	if (nla_len(a) < 1)
		return std::nullopt;
	return nla_get_u8(a);
}

std::vector<std::uint8_t> get_bytes(nlattr *a)
{
	auto *p = static_cast<const std::uint8_t *>(nla_data(a));
	return {p, p + std::max(nla_len(a), 0)};
}

template <typename F> void for_each_top(nl_msg *msg, F f)
{
	auto *g = static_cast<genlmsghdr *>(nlmsg_data(nlmsg_hdr(msg)));
	nla::for_each_attr(genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), f);
}

// A GET reply or an event: the instance's name and index at the top level,
// then the profile's attributes, which @attr (ev_profile_attr or
// cc_profile_attr) takes.
template <typename P> P decode_profile(nl_msg *msg, bool (*attr)(P &, nlattr *))
{
	P p;
	for_each_top(msg, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_DEV_NAME: p.dev = get_string(a); break;
		case MRC_A_DEV_INDEX: p.dev_index = get_u32(a); break;
		default: attr(p, a); break;
		}
	});
	return p;
}

Ev decode_ev(nlattr *nest)
{
	Ev e;
	for_each_nested(nest, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_EV_INDEX: e.index = get_u16(a); break;
		case MRC_A_EV_PLANE: e.plane = get_u8(a); break;
		case MRC_A_EV_VALUE: e.value = get_bytes(a); break;
		case MRC_A_EV_STATE: e.state = get_u8(a); break;
		default: break;
		}
	});
	return e;
}

GenField decode_field(nlattr *nest)
{
	GenField f;
	for_each_nested(nest, [&](nlattr *a) {
		auto v = nla_type(a) == MRC_A_EV_GEN_WIDTH ?
				 get_u8_32(a) :
				 get_u32(a);
		switch (nla_type(a)) {
		case MRC_A_EV_GEN_WIDTH: f.width = v.value_or(0); break;
		case MRC_A_EV_GEN_INIT: f.init = v.value_or(0); break;
		case MRC_A_EV_GEN_MIN: f.min = v.value_or(0); break;
		case MRC_A_EV_GEN_MAX: f.max = v.value_or(0); break;
		case MRC_A_EV_GEN_MASK: f.mask = v; break;
		default: break;
		}
	});
	return f;
}

void check(int rc)
{
	if (rc < 0)
		throw Failure("message too large");
}

nlattr *nest_start(nl_msg *m, int type)
{
	nlattr *nest = nla_nest_start(m, type);
	if (!nest)
		throw Failure("message too large");
	return nest;
}

} // namespace

bool ev_profile_attr(EvProfile &p, nlattr *a)
{
	switch (nla_type(a)) {
	case MRC_A_EV_PROFILE_ID: p.id = get_u32(a); return true;
	case MRC_A_EV_PROFILE_MODE: p.mode = get_u8(a); return true;
	case MRC_A_EV_PROFILE_FORMAT: p.format = get_u8(a); return true;
	case MRC_A_EV_PROFILE_STATE: p.state = get_u8(a); return true;
	case MRC_A_EV_PROFILE_MIN_ACTIVE: p.min_active = get_u16(a); return true;
	case MRC_A_EV_PROFILE_EVENT_MASK: p.event_mask = get_u32(a); return true;
	case MRC_A_EV_PROFILE_COUNT: p.count = get_u16(a); return true;
	case MRC_A_EV_PROFILE_PLANE_MASK: p.plane_mask = get_u16(a); return true;
	case MRC_A_EV_PROFILE_GEN_SHIFT: p.shift = get_u8(a); return true;
	case MRC_A_EV_PROFILE_GEN_BASE: p.base = get_bytes(a); return true;
	case MRC_A_EV_PROFILE_GEN_FIELDS:
		for_each_nested(a, [&](nlattr *f) {
			p.fields.push_back(decode_field(f));
		});
		return true;
	case MRC_A_EV_PROFILE_EVS:
		p.evs.emplace();
		for_each_nested(a, [&](nlattr *e) {
			p.evs->push_back(decode_ev(e));
		});
		return true;
	case MRC_A_EV_PROFILE:
		for_each_nested(a, [&](nlattr *f) { ev_profile_attr(p, f); });
		return true;
	default: return false;
	}
}

bool cc_profile_attr(CcProfile &p, nlattr *a)
{
	int t = nla_type(a);
	switch (t) {
	case MRC_A_CC_PROFILE_ID: p.id = get_u32(a); return true;
	case MRC_A_CC_ALGO: p.algo = get_string(a); return true;
	case MRC_A_CC_PROFILE:
		for_each_nested(a, [&](nlattr *f) { cc_profile_attr(p, f); });
		return true;
	default:
		break;
	}
	const CcParam *cp = cc_param(static_cast<std::uint16_t>(t));
	if (!cp)
		return false;
	auto v = cp->kind == CcParam::Byte || cp->kind == CcParam::OnOff ?
			 get_u8_32(a) :
			 get_u32(a);
	if (v)
		p.values.emplace_back(cp->attr, *v);
	return true;
}

EvProfile decode_ev_profile(nl_msg *msg)
{
	return decode_profile(msg, ev_profile_attr);
}

CcProfile decode_cc_profile(nl_msg *msg)
{
	return decode_profile(msg, cc_profile_attr);
}

void put_ev_profile_add(nl_msg *m, const ProfileRequest &r)
{
	check(nla_put_u32(m, MRC_A_EV_PROFILE_ID, *r.id));
	check(nla_put_u8(m, MRC_A_EV_PROFILE_MODE, *r.mode));
	check(nla_put_u8(m, MRC_A_EV_PROFILE_FORMAT, *r.format));
	if (r.min_active)
		check(nla_put_u16(m, MRC_A_EV_PROFILE_MIN_ACTIVE,
				  static_cast<std::uint16_t>(*r.min_active)));
	if (r.event_mask)
		check(nla_put_u32(m, MRC_A_EV_PROFILE_EVENT_MASK, *r.event_mask));
	if (r.count)
		check(nla_put_u16(m, MRC_A_EV_PROFILE_COUNT,
				  static_cast<std::uint16_t>(*r.count)));
	if (r.plane_mask)
		check(nla_put_u16(m, MRC_A_EV_PROFILE_PLANE_MASK, *r.plane_mask));
	if (!r.evs.empty()) {
		nlattr *evs = nest_start(m, MRC_A_EV_PROFILE_EVS);
		for (const auto &[plane, text] : r.evs) {
			auto v = parse_ev_value(*r.format, text);
			if (!v)
				throw Failure("invalid EV value '" + text +
					      "' for format " +
					      ev_format_text(*r.format));
			nlattr *ev = nest_start(m, MRC_A_EV);
			check(nla_put_u8(m, MRC_A_EV_PLANE,
					 static_cast<std::uint8_t>(plane)));
			check(nla_put(m, MRC_A_EV_VALUE, static_cast<int>(v->size()),
				      v->data()));
			nla_nest_end(m, ev);
		}
		nla_nest_end(m, evs);
	}
	if (!r.fields.empty()) {
		nlattr *fields = nest_start(m, MRC_A_EV_PROFILE_GEN_FIELDS);
		for (const auto &f : r.fields) {
			nlattr *n = nest_start(m, MRC_A_EV_GEN_FIELD);
			check(nla_put_u8(m, MRC_A_EV_GEN_WIDTH,
					 static_cast<std::uint8_t>(f.width)));
			check(nla_put_u32(m, MRC_A_EV_GEN_INIT, f.init));
			check(nla_put_u32(m, MRC_A_EV_GEN_MIN, f.min));
			check(nla_put_u32(m, MRC_A_EV_GEN_MAX, f.max));
			if (f.mask)
				check(nla_put_u32(m, MRC_A_EV_GEN_MASK, *f.mask));
			nla_nest_end(m, n);
		}
		nla_nest_end(m, fields);
	}
	if (r.shift)
		check(nla_put_u8(m, MRC_A_EV_PROFILE_GEN_SHIFT,
				 static_cast<std::uint8_t>(*r.shift)));
	if (r.base) {
		auto b = parse_gen_base(*r.format, *r.base);
		if (!b)
			throw Failure("invalid base '" + *r.base + "' for format " +
				      ev_format_text(*r.format) +
				      " (0x and hex digits" +
				      (*r.format == MRC_EV_PROFILE_FORMAT_SRV6 ?
					       ", or an IPv6 address)" : ")"));
		check(nla_put(m, MRC_A_EV_PROFILE_GEN_BASE,
			      static_cast<int>(b->size()), b->data()));
	}
}

} // namespace mrcctl
