// SPDX-License-Identifier: GPL-2.0-only
#include "attrs.hpp"

#include <cstring>
#include <iterator>

#include "addr.hpp"
#include "conn.hpp"
#include "nla_get.hpp"
#include "profile_attrs.hpp"

#include <linux/mrc.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

namespace mrcctl {

namespace pol = mrc::policy;
using nla::Attrs;

namespace {

// A stats nest (set "stats"): the counters it carries, in set order.
Stats decode_stats(nlattr *nest)
{
	Stats st;
	Attrs tb = nla::parse_nested(nest, pol::stats);
	for (int t = 1; t <= tb.maxtype(); t++) {
		const char *name = stat_name(static_cast<std::uint32_t>(t));
		if (auto v = tb.u64(t); name && v)
			st.emplace_back(name, *v);
	}
	return st;
}

// Set "plane", at the top level of a plane message or in a nest.
Plane plane_of(const Attrs &tb)
{
	Plane p;
	p.dev = tb.str(MRC_A_PLANE_DEV_NAME);
	p.dev_index = tb.u32(MRC_A_PLANE_DEV_INDEX);
	p.id = tb.u32(MRC_A_PLANE_ID);
	p.ifindex = tb.u32(MRC_A_PLANE_IFINDEX);
	p.netdev = tb.str(MRC_A_PLANE_IFNAME);
	p.admin_up = tb.flag_u8(MRC_A_PLANE_ADMIN_UP);
	p.oper_up = tb.flag_u8(MRC_A_PLANE_OPER_UP);
	if (nlattr *st = tb[MRC_A_PLANE_STATS])
		p.stats = decode_stats(st);
	return p;
}

std::optional<std::string> get_addr(const Attrs &tb, int type)
{
	nlattr *a = tb[type];
	if (!a)
		return std::nullopt;
	return addr_text(nla_data(a), static_cast<std::size_t>(nla_len(a)));
}

// Set "route", at the top level of a route message or in a nest.
Route route_of(const Attrs &tb)
{
	Route r;
	r.dev = tb.str(MRC_A_ROUTE_DEV_NAME);
	r.dev_index = tb.u32(MRC_A_ROUTE_DEV_INDEX);
	r.peer = get_addr(tb, MRC_A_ROUTE_PEER);
	r.ev_profile = tb.u32(MRC_A_ROUTE_EV_PROFILE);
	r.cc_profile = tb.u32(MRC_A_ROUTE_CC_PROFILE);
	nla::for_each_entry(tb[MRC_A_ROUTE_HOPS], MRC_A_ROUTE_HOP,
			    pol::route_hop, [&](const Attrs &hop) {
				    auto plane = hop.u32(MRC_A_ROUTE_HOP_PLANE);
				    auto via = get_addr(hop, MRC_A_ROUTE_HOP_VIA);
				    if (plane && via)
					    r.hops.push_back({*plane, *via});
			    });
	return r;
}

nlattr *attrs_of(nl_msg *msg, int *len)
{
	nlmsghdr *h = nlmsg_hdr(msg);
	*len = genlmsg_attrlen(static_cast<genlmsghdr *>(nlmsg_data(h)), 0);
	return genlmsg_attrdata(static_cast<genlmsghdr *>(nlmsg_data(h)), 0);
}

int cmd_of(nl_msg *msg)
{
	return static_cast<genlmsghdr *>(nlmsg_data(nlmsg_hdr(msg)))->cmd;
}

} // namespace

std::string attr_name(int cmd, std::uint32_t type)
{
	if (const char *n = pol::request_attr_name(cmd, static_cast<int>(type)))
		return n;
	return "attribute " + std::to_string(type);
}

const char *stat_name(std::uint32_t type)
{
	if (type == MRC_A_STAT_PAD || type >= std::size(pol::stats_names))
		return nullptr;
	// "stat_tx_pkts" -> "tx_pkts"
	const char *n = pol::stats_names[type];
	return n ? n + 5 : nullptr;
}

std::string attr_at_offset(nl_msg *req, std::uint32_t offset)
{
	nlmsghdr *h = nlmsg_hdr(req);
	int len;
	nlattr *head = attrs_of(req, &len);
	std::string name;
	nlattr *a;
	int rem;
	nla_for_each_attr(a, head, len, rem)
	{
		auto off = reinterpret_cast<const char *>(a) -
			   reinterpret_cast<const char *>(h);
		if (off == static_cast<std::ptrdiff_t>(offset))
			name = attr_name(cmd_of(req),
					 static_cast<std::uint32_t>(nla_type(a)));
	}
	return name;
}

Dev decode_dev(nl_msg *msg)
{
	Dev d;
	Attrs tb = nla::parse(msg, pol::dev);
	d.name = tb.str(MRC_A_DEV_NAME);
	d.index = tb.u32(MRC_A_DEV_INDEX);
	d.caps = tb.u32(MRC_A_DEV_CAPS);
	d.max_planes = tb.u32(MRC_A_DEV_MAX_PLANES);
	d.udp_port = tb.u16(MRC_A_DEV_UDP_PORT);
	nla::for_each_entry(tb[MRC_A_DEV_PLANES], MRC_A_DEV_PLANE, pol::plane,
			    [&](const Attrs &p) {
				    d.planes.push_back(plane_of(p));
			    });
	if (nlattr *st = tb[MRC_A_DEV_STATS])
		d.stats = decode_stats(st);
	return d;
}

Plane decode_plane(nl_msg *msg)
{
	return plane_of(nla::parse(msg, pol::plane));
}

Event decode_event(nl_msg *msg)
{
	Event e;
	Attrs tb = nla::parse(msg, pol::event);
	e.type = tb.u32(MRC_A_EVENT_TYPE).value_or(0);
	e.dev = tb.str(MRC_A_EVENT_DEV_NAME);
	e.dev_index = tb.u32(MRC_A_EVENT_DEV_INDEX);
	if (nlattr *a = tb[MRC_A_EVENT_PLANE])
		e.plane = plane_of(nla::parse_nested(a, pol::plane));
	if (nlattr *a = tb[MRC_A_EVENT_ROUTE])
		e.route = route_of(nla::parse_nested(a, pol::route));
	if (nlattr *a = tb[MRC_A_EVENT_CONN])
		e.conn = decode_conn_nest(a);
	if (nlattr *a = tb[MRC_A_EVENT_EV_PROFILE])
		e.ev_profile = decode_ev_profile_nest(a);
	if (nlattr *a = tb[MRC_A_EVENT_CC_PROFILE])
		e.cc_profile = decode_cc_profile_nest(a);
	return e;
}

Route decode_route(nl_msg *msg)
{
	return route_of(nla::parse(msg, pol::route));
}

} // namespace mrcctl
