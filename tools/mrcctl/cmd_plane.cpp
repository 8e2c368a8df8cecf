// SPDX-License-Identifier: GPL-2.0-only
// mrcctl plane { add | del | set | show }
#include <iostream>

#include <linux/mrc.h>
#include <netlink/attr.h>

#include "attrs.hpp"
#include "change.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "nl.hpp"

namespace mrcctl {

namespace {

void put_string(nl_msg *m, int type, const std::optional<std::string> &v)
{
	if (v && nla_put_string(m, type, v->c_str()) < 0)
		throw Failure("message too large");
}

void put_u32(nl_msg *m, int type, const std::optional<std::uint32_t> &v)
{
	if (v && nla_put_u32(m, type, *v) < 0)
		throw Failure("message too large");
}

// add, del and set (send_change()).
int change(const Request &r)
{
	return send_change(r.cmd, Cmd::PlaneAdd, Cmd::PlaneDel,
			   {MRC_CMD_PLANE_ADD, MRC_CMD_PLANE_DEL,
			    MRC_CMD_PLANE_SET},
			   [&](nl_msg *m) {
				   put_string(m, MRC_A_DEV_NAME, r.dev);
				   put_u32(m, MRC_A_PLANE_ID, r.id);
				   put_string(m, MRC_A_PLANE_IFNAME, r.netdev);
				   if (r.up && nla_put_u8(m, MRC_A_PLANE_ADMIN_UP,
							  *r.up) < 0)
					   throw Failure("message too large");
			   });
}

int show(const Invocation &inv)
{
	const Request &r = inv.req;
	GenlSocket sk;
	// dev + id names one plane: a "do", so that a wrong id is the
	// kernel's error. Otherwise a dump, filtered by the kernel when dev
	// is given and here as well (an older kernel may ignore the filter).
	bool one = r.dev && r.id;
	MsgPtr req = sk.request(MRC_CMD_PLANE_GET, !one);
	put_string(req.get(), MRC_A_DEV_NAME, r.dev);
	if (one)
		put_u32(req.get(), MRC_A_PLANE_ID, r.id);
	if (inv.opts.stats && nla_put_flag(req.get(), MRC_A_PLANE_WANT_STATS) < 0)
		throw Failure("message too large");

	std::vector<Plane> planes;
	sk.transact(req.get(), [&](nl_msg *m) {
		Plane p = decode_plane(m);
		if (r.dev && p.dev && *p.dev != *r.dev)
			return;
		if (r.id && p.id && *p.id != *r.id)
			return;
		planes.push_back(std::move(p));
	});
	print_list(std::cout, inv.opts, planes, print_plane);
	return 0;
}

} // namespace

int cmd_plane(const Invocation &inv)
{
	if (inv.req.cmd == Cmd::PlaneShow)
		return show(inv);
	return change(inv.req);
}

} // namespace mrcctl
