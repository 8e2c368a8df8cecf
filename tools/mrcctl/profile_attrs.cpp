// SPDX-License-Identifier: GPL-2.0-only
#include "profile_attrs.hpp"

#include <algorithm>

#include <linux/mrc.h>
#include <netlink/genl/genl.h>

#include "nl.hpp"
#include "nla_get.hpp"
#include "profile_parse.hpp"

namespace mrcctl {

namespace pol = mrc::policy;
using nla::Attrs;

namespace {

Ev ev_of(const Attrs &tb)
{
	Ev e;
	e.index = tb.u16(MRC_A_EV_INDEX);
	e.plane = tb.u8(MRC_A_EV_PLANE);
	e.value = tb.bytes(MRC_A_EV_VALUE).value_or(std::vector<std::uint8_t>{});
	e.state = tb.u8(MRC_A_EV_STATE);
	return e;
}

GenField field_of(const Attrs &tb)
{
	GenField f;
	f.width = tb.u8(MRC_A_EV_GEN_WIDTH).value_or(0);
	f.init = tb.u32(MRC_A_EV_GEN_INIT).value_or(0);
	f.min = tb.u32(MRC_A_EV_GEN_MIN).value_or(0);
	f.max = tb.u32(MRC_A_EV_GEN_MAX).value_or(0);
	f.mask = tb.u32(MRC_A_EV_GEN_MASK);
	return f;
}

// Set "ev-profile", at the top level of a GET reply or in an event's nest.
EvProfile ev_profile_of(const Attrs &tb)
{
	EvProfile p;
	p.dev = tb.str(MRC_A_EV_PROFILE_DEV_NAME);
	p.dev_index = tb.u32(MRC_A_EV_PROFILE_DEV_INDEX);
	p.id = tb.u32(MRC_A_EV_PROFILE_ID);
	p.mode = tb.u8(MRC_A_EV_PROFILE_MODE);
	p.format = tb.u8(MRC_A_EV_PROFILE_FORMAT);
	p.state = tb.u8(MRC_A_EV_PROFILE_STATE);
	p.min_active = tb.u16(MRC_A_EV_PROFILE_MIN_ACTIVE);
	p.event_mask = tb.u32(MRC_A_EV_PROFILE_EVENT_MASK);
	p.count = tb.u16(MRC_A_EV_PROFILE_COUNT);
	p.plane_mask = tb.u16(MRC_A_EV_PROFILE_PLANE_MASK);
	p.shift = tb.u8(MRC_A_EV_PROFILE_GEN_SHIFT);
	p.base = tb.bytes(MRC_A_EV_PROFILE_GEN_BASE);
	nla::for_each_entry(tb[MRC_A_EV_PROFILE_GEN_FIELDS], MRC_A_EV_GEN_FIELD,
			    pol::ev_gen_field, [&](const Attrs &f) {
				    p.fields.push_back(field_of(f));
			    });
	if (nlattr *evs = tb[MRC_A_EV_PROFILE_EVS]) {
		p.evs.emplace();
		nla::for_each_entry(evs, MRC_A_EV, pol::ev, [&](const Attrs &e) {
			p.evs->push_back(ev_of(e));
		});
	}
	return p;
}

// Set "cc-profile": the values in the set's (the kernel's) order.
CcProfile cc_profile_of(const Attrs &tb)
{
	CcProfile p;
	p.dev = tb.str(MRC_A_CC_DEV_NAME);
	p.dev_index = tb.u32(MRC_A_CC_DEV_INDEX);
	p.id = tb.u32(MRC_A_CC_PROFILE_ID);
	p.algo = tb.str(MRC_A_CC_ALGO);
	for (int t = 1; t <= tb.maxtype(); t++) {
		const CcParam *cp = cc_param(static_cast<std::uint16_t>(t));
		if (!cp || !tb.has(t))
			continue;
		auto v = cp->kind == CcParam::Byte || cp->kind == CcParam::OnOff ?
				 std::optional<std::uint32_t>(tb.u8(t)) :
				 tb.u32(t);
		if (v)
			p.values.emplace_back(cp->attr, *v);
	}
	return p;
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

EvProfile decode_ev_profile(nl_msg *msg)
{
	return ev_profile_of(nla::parse(msg, pol::ev_profile));
}

CcProfile decode_cc_profile(nl_msg *msg)
{
	return cc_profile_of(nla::parse(msg, pol::cc_profile));
}

EvProfile decode_ev_profile_nest(nlattr *nest)
{
	return ev_profile_of(nla::parse_nested(nest, pol::ev_profile));
}

CcProfile decode_cc_profile_nest(nlattr *nest)
{
	return cc_profile_of(nla::parse_nested(nest, pol::cc_profile));
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
			check(nla_put(m, MRC_A_EV_VALUE,
				      static_cast<int>(v->size()), v->data()));
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
			throw Failure("invalid base '" + *r.base +
				      "' for format " + ev_format_text(*r.format) +
				      " (0x and hex digits" +
				      (*r.format == MRC_EV_PROFILE_FORMAT_SRV6 ?
					       ", or an IPv6 address)" :
					       ")"));
		check(nla_put(m, MRC_A_EV_PROFILE_GEN_BASE,
			      static_cast<int>(b->size()), b->data()));
	}
}

} // namespace mrcctl
