// SPDX-License-Identifier: GPL-2.0-only
// mrcctl route { add | set | del | show }
#include <iostream>

#include <linux/mrc.h>
#include <netlink/attr.h>

#include "addr.hpp"
#include "attrs.hpp"
#include "change.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "nl.hpp"

namespace mrcctl {

namespace {

void check(int rc)
{
	if (rc < 0)
		throw Failure("message too large");
}

// An address the parser already accepted, as 4 or 16 bytes.
void put_addr(nl_msg *m, int type, const std::string &text)
{
	auto bytes = parse_addr(text);
	if (!bytes)
		throw Failure("invalid address '" + text + "'");
	check(nla_put(m, type, static_cast<int>(bytes->size()), bytes->data()));
}

// A route's hops and profiles (add and set).
void put_route_body(nl_msg *m, const Request &r)
{
	nlattr *hops = nla_nest_start(m, MRC_A_ROUTE_HOPS);
	if (!hops)
		throw Failure("message too large");
	for (const auto &[plane, via] : r.hops) {
		nlattr *hop = nla_nest_start(m, MRC_A_ROUTE_HOP);
		if (!hop)
			throw Failure("message too large");
		check(nla_put_u32(m, MRC_A_ROUTE_HOP_PLANE, plane));
		put_addr(m, MRC_A_ROUTE_HOP_VIA, via);
		nla_nest_end(m, hop);
	}
	nla_nest_end(m, hops);
	if (r.ev_profile)
		check(nla_put_u32(m, MRC_A_ROUTE_EV_PROFILE, *r.ev_profile));
	if (r.cc_profile)
		check(nla_put_u32(m, MRC_A_ROUTE_CC_PROFILE, *r.cc_profile));
}

// add, set and del (send_change()).
int change(const Request &r)
{
	return send_change(r.cmd, Cmd::RouteAdd, Cmd::RouteDel,
			   {MRC_CMD_ROUTE_ADD, MRC_CMD_ROUTE_DEL,
			    MRC_CMD_ROUTE_SET},
			   [&](nl_msg *m) {
				   check(nla_put_string(m, MRC_A_DEV_NAME,
							r.dev->c_str()));
				   put_addr(m, MRC_A_ROUTE_PEER, *r.peer);
				   if (r.cmd != Cmd::RouteDel)
					   put_route_body(m, r);
			   });
}

int show(const Invocation &inv)
{
	const Request &r = inv.req;
	GenlSocket sk;
	// dev + peer names one route: a "do", so that a missing route is the
	// kernel's error. Otherwise a dump, filtered by the kernel when dev
	// is given and here by peer (and dev, for an older kernel).
	bool one = r.dev && r.peer;
	MsgPtr req = sk.request(MRC_CMD_ROUTE_GET, !one);
	if (r.dev)
		check(nla_put_string(req.get(), MRC_A_DEV_NAME, r.dev->c_str()));
	if (one)
		put_addr(req.get(), MRC_A_ROUTE_PEER, *r.peer);
	// Compare peers as addresses ("fd00::2" is "fd00:0::2").
	std::optional<std::string> want;
	if (r.peer) {
		auto bytes = parse_addr(*r.peer);
		want = addr_text(bytes->data(), bytes->size());
	}

	std::vector<Route> routes;
	sk.transact(req.get(), [&](nl_msg *m) {
		Route rt = decode_route(m);
		if (r.dev && rt.dev && *rt.dev != *r.dev)
			return;
		if (want && rt.peer != want)
			return;
		routes.push_back(std::move(rt));
	});
	print_list(std::cout, inv.opts, routes, print_route);
	return 0;
}

} // namespace

int cmd_route(const Invocation &inv)
{
	if (inv.req.cmd == Cmd::RouteShow)
		return show(inv);
	return change(inv.req);
}

} // namespace mrcctl
