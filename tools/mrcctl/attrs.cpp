// SPDX-License-Identifier: GPL-2.0-only
#include "attrs.hpp"

#include <cstring>

#include "addr.hpp"
#include "nla_get.hpp"
#include "profile_attrs.hpp"

#include <linux/mrc.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

namespace mrcctl {

using nla::for_each_attr;
using nla::for_each_nested;
using nla::get_flag_u8;
using nla::get_string;
using nla::get_u16;
using nla::get_u32;

namespace {

// An MRC_A_DEV_STATS or MRC_A_PLANE_STATS nest: u64 counters.
Stats decode_stats(nlattr *nest)
{
	Stats st;
	for_each_nested(nest, [&](nlattr *a) {
		const char *name = stat_name(static_cast<std::uint32_t>(nla_type(a)));
		if (name && nla_len(a) >= 8)
			st.emplace_back(name, nla_get_u64(a));
	});
	return st;
}

// Plane attributes; returns false for attributes that are not.
bool plane_attr(Plane &p, nlattr *a)
{
	switch (nla_type(a)) {
	case MRC_A_PLANE_ID: p.id = get_u32(a); return true;
	case MRC_A_PLANE_IFINDEX: p.ifindex = get_u32(a); return true;
	case MRC_A_PLANE_IFNAME: p.netdev = get_string(a); return true;
	case MRC_A_PLANE_ADMIN_UP: p.admin_up = get_flag_u8(a); return true;
	case MRC_A_PLANE_OPER_UP: p.oper_up = get_flag_u8(a); return true;
	case MRC_A_PLANE_STATS: p.stats = decode_stats(a); return true;
	default: return false;
	}
}

Plane decode_plane_nest(nlattr *nest)
{
	Plane p;
	for_each_nested(nest, [&](nlattr *a) { plane_attr(p, a); });
	return p;
}

std::optional<std::string> get_addr(nlattr *a)
{
	return addr_text(nla_data(a), static_cast<std::size_t>(nla_len(a)));
}

// Route fields, flat or inside MRC_A_ROUTE; false for other attributes.
bool route_attr(Route &r, nlattr *a)
{
	switch (nla_type(a)) {
	case MRC_A_ROUTE_PEER: r.peer = get_addr(a); return true;
	case MRC_A_ROUTE_EV_PROFILE: r.ev_profile = get_u32(a); return true;
	case MRC_A_ROUTE_CC_PROFILE: r.cc_profile = get_u32(a); return true;
	case MRC_A_ROUTE_HOPS:
		for_each_nested(a, [&](nlattr *hop) {
			RouteHop h;
			std::optional<std::uint32_t> plane;
			std::optional<std::string> via;
			for_each_nested(hop, [&](nlattr *f) {
				if (nla_type(f) == MRC_A_ROUTE_HOP_PLANE)
					plane = get_u32(f);
				else if (nla_type(f) == MRC_A_ROUTE_HOP_VIA)
					via = get_addr(f);
			});
			if (plane && via)
				r.hops.push_back({*plane, *via});
		});
		return true;
	case MRC_A_ROUTE:
		for_each_nested(a, [&](nlattr *f) { route_attr(r, f); });
		return true;
	default: return false;
	}
}

nlattr *attrs_of(nl_msg *msg, int *len)
{
	nlmsghdr *h = nlmsg_hdr(msg);
	*len = genlmsg_attrlen(static_cast<genlmsghdr *>(nlmsg_data(h)), 0);
	return genlmsg_attrdata(static_cast<genlmsghdr *>(nlmsg_data(h)), 0);
}

// Plane fields of a plane or event message, flat or nested.
void decode_plane_into(nl_msg *msg, Plane &p)
{
	int len;
	nlattr *head = attrs_of(msg, &len);
	for_each_attr(head, len, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_DEV_NAME: p.dev = get_string(a); break;
		case MRC_A_DEV_INDEX: p.dev_index = get_u32(a); break;
		case MRC_A_PLANE: {
			Plane n = decode_plane_nest(a);
			p.id = n.id ? n.id : p.id;
			p.ifindex = n.ifindex ? n.ifindex : p.ifindex;
			p.netdev = n.netdev ? n.netdev : p.netdev;
			p.admin_up = n.admin_up ? n.admin_up : p.admin_up;
			p.oper_up = n.oper_up ? n.oper_up : p.oper_up;
			p.stats = n.stats ? n.stats : p.stats;
			break;
		}
		default: plane_attr(p, a); break;
		}
	});
}

} // namespace

std::string attr_name(std::uint32_t type)
{
	switch (type) {
	case MRC_A_DEV_INDEX: return "dev_index";
	case MRC_A_DEV_NAME: return "dev_name";
	case MRC_A_DEV_CAPS: return "dev_caps";
	case MRC_A_DEV_MAX_PLANES: return "dev_max_planes";
	case MRC_A_DEV_UDP_PORT: return "dev_udp_port";
	case MRC_A_DEV_PLANES: return "dev_planes";
	case MRC_A_PLANE: return "plane";
	case MRC_A_PLANE_ID: return "plane_id";
	case MRC_A_PLANE_IFINDEX: return "plane_ifindex";
	case MRC_A_PLANE_IFNAME: return "plane_ifname";
	case MRC_A_PLANE_ADMIN_UP: return "plane_admin_up";
	case MRC_A_PLANE_OPER_UP: return "plane_oper_up";
	case MRC_A_EVENT_TYPE: return "event_type";
	case MRC_A_PAD: return "pad";
	case MRC_A_STATS: return "stats";
	case MRC_A_DEV_STATS: return "dev_stats";
	case MRC_A_PLANE_STATS: return "plane_stats";
	case MRC_A_ROUTE: return "route";
	case MRC_A_ROUTE_PEER: return "route_peer";
	case MRC_A_ROUTE_HOPS: return "route_hops";
	case MRC_A_ROUTE_HOP: return "route_hop";
	case MRC_A_ROUTE_HOP_PLANE: return "route_hop_plane";
	case MRC_A_ROUTE_HOP_VIA: return "route_hop_via";
	case MRC_A_ROUTE_EV_PROFILE: return "route_ev_profile";
	case MRC_A_ROUTE_CC_PROFILE: return "route_cc_profile";
	case MRC_A_EV_PROFILE: return "ev_profile";
	case MRC_A_EV_PROFILE_ID: return "ev_profile_id";
	case MRC_A_EV_PROFILE_MODE: return "ev_profile_mode";
	case MRC_A_EV_PROFILE_FORMAT: return "ev_profile_format";
	case MRC_A_EV_PROFILE_STATE: return "ev_profile_state";
	case MRC_A_EV_PROFILE_MIN_ACTIVE: return "ev_profile_min_active";
	case MRC_A_EV_PROFILE_EVENT_MASK: return "ev_profile_event_mask";
	case MRC_A_EV_PROFILE_COUNT: return "ev_profile_count";
	case MRC_A_EV_PROFILE_PLANE_MASK: return "ev_profile_plane_mask";
	case MRC_A_EV_PROFILE_EVS: return "ev_profile_evs";
	case MRC_A_EV: return "ev";
	case MRC_A_EV_INDEX: return "ev_index";
	case MRC_A_EV_PLANE: return "ev_plane";
	case MRC_A_EV_VALUE: return "ev_value";
	case MRC_A_EV_STATE: return "ev_state";
	case MRC_A_EV_PROFILE_GEN_FIELDS: return "ev_profile_gen_fields";
	case MRC_A_EV_GEN_FIELD: return "ev_gen_field";
	case MRC_A_EV_GEN_WIDTH: return "ev_gen_width";
	case MRC_A_EV_GEN_INIT: return "ev_gen_init";
	case MRC_A_EV_GEN_MIN: return "ev_gen_min";
	case MRC_A_EV_GEN_MAX: return "ev_gen_max";
	case MRC_A_EV_GEN_MASK: return "ev_gen_mask";
	case MRC_A_EV_PROFILE_GEN_SHIFT: return "ev_profile_gen_shift";
	case MRC_A_EV_PROFILE_GEN_BASE: return "ev_profile_gen_base";
	case MRC_A_EV_DENY: return "ev_deny";
	case MRC_A_CC_PROFILE: return "cc_profile";
	case MRC_A_CC_PROFILE_ID: return "cc_profile_id";
	case MRC_A_CC_ALGO: return "cc_algo";
	default: break;
	}
	if (const CcParam *cp = cc_param(static_cast<std::uint16_t>(type)))
		return std::string("cc_") + cp->json;
	if (const char *s = stat_name(type))
		return std::string("stat_") + s;
	return "attribute " + std::to_string(type);
}

const char *stat_name(std::uint32_t type)
{
	switch (type) {
	case MRC_A_STAT_TX_PKTS: return "tx_pkts";
	case MRC_A_STAT_TX_BYTES: return "tx_bytes";
	case MRC_A_STAT_RX_PKTS: return "rx_pkts";
	case MRC_A_STAT_RX_BYTES: return "rx_bytes";
	case MRC_A_STAT_RETX_PKTS: return "retx_pkts";
	case MRC_A_STAT_RX_DUP: return "rx_dup";
	case MRC_A_STAT_RX_OOW: return "rx_oow";
	case MRC_A_STAT_NACK_TX: return "nack_tx";
	case MRC_A_STAT_NACK_RX: return "nack_rx";
	case MRC_A_STAT_RX_BAD_RKEY: return "rx_bad_rkey";
	case MRC_A_STAT_RX_SPOOFED: return "rx_spoofed";
	case MRC_A_STAT_RX_BAD_STATE: return "rx_bad_state";
	case MRC_A_STAT_TX_DROP: return "tx_drop";
	case MRC_A_STAT_RX_MALFORMED: return "rx_malformed";
	case MRC_A_STAT_RX_BAD_ICRC: return "rx_bad_icrc";
	case MRC_A_STAT_RX_NO_QP: return "rx_no_qp";
	case MRC_A_STAT_RX_PROTO_ERR: return "rx_proto_err";
	case MRC_A_STAT_RX_CTRL_INVALID: return "rx_ctrl_invalid";
	case MRC_A_STAT_PROBE_LIMITED: return "probe_limited";
	case MRC_A_STAT_RX_PROBE_STRAY: return "rx_probe_stray";
	case MRC_A_STAT_RX_BAD_RESP: return "rx_bad_resp";
	default: return nullptr;
	}
}

std::string attr_at_offset(nl_msg *req, std::uint32_t offset)
{
	nlmsghdr *h = nlmsg_hdr(req);
	int len;
	nlattr *head = attrs_of(req, &len);
	std::string name;
	for_each_attr(head, len, [&](nlattr *a) {
		auto off = reinterpret_cast<const char *>(a) -
			   reinterpret_cast<const char *>(h);
		if (off == static_cast<std::ptrdiff_t>(offset))
			name = attr_name(static_cast<std::uint32_t>(nla_type(a)));
	});
	return name;
}

Dev decode_dev(nl_msg *msg)
{
	Dev d;
	int len;
	nlattr *head = attrs_of(msg, &len);
	for_each_attr(head, len, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_DEV_NAME: d.name = get_string(a); break;
		case MRC_A_DEV_INDEX: d.index = get_u32(a); break;
		case MRC_A_DEV_CAPS: d.caps = get_u32(a); break;
		case MRC_A_DEV_MAX_PLANES: d.max_planes = get_u32(a); break;
		case MRC_A_DEV_UDP_PORT: d.udp_port = get_u16(a); break;
		case MRC_A_DEV_PLANES:
			// Each entry is a plane nest, whatever its type.
			for_each_nested(a, [&](nlattr *p) {
				d.planes.push_back(decode_plane_nest(p));
			});
			break;
		case MRC_A_DEV_STATS: d.stats = decode_stats(a); break;
		default: break;
		}
	});
	return d;
}

Plane decode_plane(nl_msg *msg)
{
	Plane p;
	decode_plane_into(msg, p);
	return p;
}

Event decode_event(nl_msg *msg)
{
	Event e;
	int len;
	nlattr *head = attrs_of(msg, &len);
	for_each_attr(head, len, [&](nlattr *a) {
		if (nla_type(a) == MRC_A_EVENT_TYPE)
			e.type = get_u32(a).value_or(0);
		if (nla_type(a) == MRC_A_ROUTE) {
			e.route.emplace();
			route_attr(*e.route, a);
		}
		if (nla_type(a) == MRC_A_CONN)
			e.conn = decode_conn_nest(a);
		if (nla_type(a) == MRC_A_EV_PROFILE) {
			e.ev_profile.emplace();
			ev_profile_attr(*e.ev_profile, a);
		}
		if (nla_type(a) == MRC_A_CC_PROFILE) {
			e.cc_profile.emplace();
			cc_profile_attr(*e.cc_profile, a);
		}
	});
	decode_plane_into(msg, e.plane);
	e.dev = e.plane.dev;
	e.dev_index = e.plane.dev_index;
	e.plane.dev.reset();
	e.plane.dev_index.reset();
	return e;
}

Route decode_route(nl_msg *msg)
{
	Route r;
	int len;
	nlattr *head = attrs_of(msg, &len);
	for_each_attr(head, len, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_DEV_NAME: r.dev = get_string(a); break;
		case MRC_A_DEV_INDEX: r.dev_index = get_u32(a); break;
		default: route_attr(r, a); break;
		}
	});
	return r;
}

} // namespace mrcctl
