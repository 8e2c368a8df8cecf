// SPDX-License-Identifier: GPL-2.0-only
// mrcctl ev-profile { add | set | del | show | ev ... }, ev show,
// cc-profile { add | set | del | show }
#include <iostream>

#include <linux/mrc.h>
#include <netlink/attr.h>

#include "change.hpp"
#include "commands.hpp"
#include "nl.hpp"
#include "profile_attrs.hpp"
#include "profile_format.hpp"
#include "profile_parse.hpp"

namespace mrcctl {

namespace {

void check(int rc)
{
	if (rc < 0)
		throw Failure("message too large");
}

MsgPtr request(GenlSocket &sk, std::uint8_t cmd, bool dump, const Request &r)
{
	MsgPtr req = sk.request(cmd, dump);
	if (r.dev)
		check(nla_put_string(req.get(), MRC_A_DEV_NAME, r.dev->c_str()));
	return req;
}

// add, del and set of a profile (send_change()): the instance, then what
// @put(msg, r.prof) adds.
template <class Put>
int profile_change(const Request &r, Cmd add, Cmd del,
		   const std::uint8_t (&cmds)[3], Put put)
{
	return send_change(r.cmd, add, del, cmds, [&](nl_msg *m) {
		if (r.dev)
			check(nla_put_string(m, MRC_A_DEV_NAME, r.dev->c_str()));
		put(m, r.prof);
	});
}

// One EV profile by id, from the kernel (its errors are the user's).
EvProfile get_ev_profile(GenlSocket &sk, const Request &r)
{
	MsgPtr req = request(sk, MRC_CMD_EV_PROFILE_GET, false, r);
	check(nla_put_u32(req.get(), MRC_A_EV_PROFILE_ID, *r.prof.id));
	EvProfile p;
	sk.transact(req.get(), [&](nl_msg *m) { p = decode_ev_profile(m); });
	return p;
}

int ev_profile_change(const Request &r)
{
	return profile_change(
		r, Cmd::EvProfileAdd, Cmd::EvProfileDel,
		{MRC_CMD_EV_PROFILE_ADD, MRC_CMD_EV_PROFILE_DEL,
		 MRC_CMD_EV_PROFILE_SET},
		[&](nl_msg *m, const ProfileRequest &p) {
			if (r.cmd == Cmd::EvProfileAdd) {
				put_ev_profile_add(m, p);
				return;
			}
			check(nla_put_u32(m, MRC_A_EV_PROFILE_ID, *p.id));
			if (p.state)
				check(nla_put_u8(m, MRC_A_EV_PROFILE_STATE,
						 *p.state));
			if (p.min_active)
				check(nla_put_u16(m, MRC_A_EV_PROFILE_MIN_ACTIVE,
						  static_cast<std::uint16_t>(
							  *p.min_active)));
			if (p.event_mask)
				check(nla_put_u32(m, MRC_A_EV_PROFILE_EVENT_MASK,
						  *p.event_mask));
		});
}

// ev-profile ev replace | deny | allow: one EV_PROFILE_SET. The value of
// a replacement is encoded in the profile's format, asked first.
int ev_change(const Request &r)
{
	const ProfileRequest &p = r.prof;
	GenlSocket sk;
	std::optional<std::vector<std::uint8_t>> value;
	if (r.cmd == Cmd::EvReplace) {
		EvProfile cur = get_ev_profile(sk, r);
		std::uint8_t format = cur.format.value_or(0);
		value = parse_ev_value(format, *p.ev_value);
		if (!value)
			throw Failure("invalid EV value '" + *p.ev_value +
				      "' for format " + ev_format_text(format) +
				      " of profile " + std::to_string(*p.id));
	}
	MsgPtr req = request(sk, MRC_CMD_EV_PROFILE_SET, false, r);
	nl_msg *m = req.get();
	check(nla_put_u32(m, MRC_A_EV_PROFILE_ID, *p.id));
	check(nla_put_u16(m, MRC_A_EV_PROFILE_EV_INDEX,
			  static_cast<std::uint16_t>(*p.index)));
	if (p.qpn)
		check(nla_put_u32(m, MRC_A_EV_PROFILE_QPN, *p.qpn));
	if (value) {
		check(nla_put_u8(m, MRC_A_EV_PROFILE_EV_PLANE,
				 static_cast<std::uint8_t>(*p.ev_plane)));
		check(nla_put(m, MRC_A_EV_PROFILE_EV_VALUE,
			      static_cast<int>(value->size()), value->data()));
	} else {
		check(nla_put_u8(m, MRC_A_EV_PROFILE_EV_DENY,
				 r.cmd == Cmd::EvDeny));
	}
	sk.transact(m, [](nl_msg *) {});
	return 0;
}

int ev_profile_show(const Invocation &inv)
{
	const Request &r = inv.req;
	GenlSocket sk;
	std::vector<EvProfile> list;
	if (r.prof.id) {
		list.push_back(get_ev_profile(sk, r));
	} else {
		MsgPtr req = request(sk, MRC_CMD_EV_PROFILE_GET, true, r);
		sk.transact(req.get(), [&](nl_msg *m) {
			list.push_back(decode_ev_profile(m));
		});
	}
	print_list(std::cout, inv.opts, list,
		   inv.req.cmd == Cmd::EvShow ? print_ev_show : print_ev_profile);
	return 0;
}

int cc_profile_change(const Request &r)
{
	return profile_change(
		r, Cmd::CcProfileAdd, Cmd::CcProfileDel,
		{MRC_CMD_CC_PROFILE_ADD, MRC_CMD_CC_PROFILE_DEL,
		 MRC_CMD_CC_PROFILE_SET},
		[](nl_msg *m, const ProfileRequest &p) {
			check(nla_put_u32(m, MRC_A_CC_PROFILE_ID, *p.id));
			if (p.algo)
				check(nla_put_string(m, MRC_A_CC_ALGO,
						     p.algo->c_str()));
			for (const auto &[attr, v] : p.cc) {
				const CcParam *cp = cc_param(attr);
				if (cp->kind == CcParam::Byte ||
				    cp->kind == CcParam::OnOff)
					check(nla_put_u8(m, attr,
							 static_cast<std::uint8_t>(
								 v)));
				else
					check(nla_put_u32(m, attr, v));
			}
		});
}

int cc_profile_show(const Invocation &inv)
{
	const Request &r = inv.req;
	GenlSocket sk;
	MsgPtr req = request(sk, MRC_CMD_CC_PROFILE_GET, !r.prof.id, r);
	if (r.prof.id)
		check(nla_put_u32(req.get(), MRC_A_CC_PROFILE_ID, *r.prof.id));
	std::vector<CcProfile> list;
	sk.transact(req.get(),
		    [&](nl_msg *m) { list.push_back(decode_cc_profile(m)); });
	print_list(std::cout, inv.opts, list, print_cc_profile);
	return 0;
}

} // namespace

int cmd_profile(const Invocation &inv)
{
	switch (inv.req.cmd) {
	case Cmd::EvProfileAdd:
	case Cmd::EvProfileSet:
	case Cmd::EvProfileDel: return ev_profile_change(inv.req);
	case Cmd::EvReplace:
	case Cmd::EvDeny:
	case Cmd::EvAllow: return ev_change(inv.req);
	case Cmd::EvProfileShow:
	case Cmd::EvShow: return ev_profile_show(inv);
	case Cmd::CcProfileShow: return cc_profile_show(inv);
	default: return cc_profile_change(inv.req);
	}
}

} // namespace mrcctl
