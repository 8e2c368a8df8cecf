// SPDX-License-Identifier: GPL-2.0-only
// Decoding of the family's messages, built here with libnl as the kernel
// would send them (no socket involved).
#include <gtest/gtest.h>
#include <linux/mrc.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "addr.hpp"
#include "attrs.hpp"
#include "genl_msg.hpp"
#include "nl.hpp"

using namespace mrcctl;

namespace {

MsgPtr message(std::uint8_t cmd) { return test::genl_message(cmd); }

void put_plane_attrs(nl_msg *m, std::uint32_t id, const char *netdev,
		     std::uint32_t ifindex, bool admin, bool oper)
{
	nla_put_u32(m, MRC_A_PLANE_ID, id);
	nla_put_string(m, MRC_A_PLANE_IFNAME, netdev);
	nla_put_u32(m, MRC_A_PLANE_IFINDEX, ifindex);
	nla_put_u8(m, MRC_A_PLANE_ADMIN_UP, admin);
	nla_put_u8(m, MRC_A_PLANE_OPER_UP, oper);
}

TEST(Attrs, FlatPlane)
{
	MsgPtr m = message(MRC_CMD_PLANE_GET);
	nla_put_u32(m.get(), MRC_A_PLANE_DEV_INDEX, 3);
	nla_put_string(m.get(), MRC_A_PLANE_DEV_NAME, "mrc0");
	put_plane_attrs(m.get(), 2, "veth1", 7, true, false);
	Plane p = decode_plane(m.get());
	EXPECT_EQ(p.dev, "mrc0");
	EXPECT_EQ(p.dev_index, 3u);
	EXPECT_EQ(p.id, 2u);
	EXPECT_EQ(p.netdev, "veth1");
	EXPECT_EQ(p.ifindex, 7u);
	EXPECT_EQ(p.admin_up, true);
	EXPECT_EQ(p.oper_up, false);
}

TEST(Attrs, NestedPlaneOfEvent)
{
	MsgPtr m = message(MRC_CMD_EVENT);
	nla_put_u32(m.get(), MRC_A_EVENT_TYPE, MRC_EVENT_PLANE_DOWN);
	nla_put_string(m.get(), MRC_A_EVENT_DEV_NAME, "mrc0");
	nlattr *n = nla_nest_start(m.get(), MRC_A_EVENT_PLANE);
	put_plane_attrs(m.get(), 4, "p4", 11, false, false);
	nla_nest_end(m.get(), n);
	Event e = decode_event(m.get());
	EXPECT_EQ(e.dev, "mrc0");
	EXPECT_EQ(e.plane.id, 4u);
	EXPECT_EQ(e.plane.netdev, "p4");
	EXPECT_EQ(e.plane.admin_up, false);
}

TEST(Attrs, DevWithPlanes)
{
	MsgPtr m = message(MRC_CMD_DEV_GET);
	nla_put_u32(m.get(), MRC_A_DEV_INDEX, 3);
	nla_put_string(m.get(), MRC_A_DEV_NAME, "mrc0");
	nla_put_u32(m.get(), MRC_A_DEV_CAPS, MRC_CAP_EV_UDP);
	nla_put_u32(m.get(), MRC_A_DEV_MAX_PLANES, 16);
	nla_put_u16(m.get(), MRC_A_DEV_UDP_PORT, 4791);
	nlattr *planes = nla_nest_start(m.get(), MRC_A_DEV_PLANES);
	for (std::uint32_t id = 1; id <= 2; id++) {
		nlattr *p = nla_nest_start(m.get(), MRC_A_DEV_PLANE);
		put_plane_attrs(m.get(), id, id == 1 ? "p1" : "p2", 4 + id,
				true, id == 1);
		nla_nest_end(m.get(), p);
	}
	nla_nest_end(m.get(), planes);
	nla_put_u32(m.get(), 200, 1); // unknown attribute: skipped

	Dev d = decode_dev(m.get());
	EXPECT_EQ(d.name, "mrc0");
	EXPECT_EQ(d.index, 3u);
	EXPECT_EQ(d.caps, static_cast<std::uint32_t>(MRC_CAP_EV_UDP));
	EXPECT_EQ(d.max_planes, 16u);
	EXPECT_EQ(d.udp_port, 4791);
	ASSERT_EQ(d.planes.size(), 2u);
	EXPECT_EQ(d.planes[1].id, 2u);
	EXPECT_EQ(d.planes[1].netdev, "p2");
	EXPECT_EQ(d.planes[1].oper_up, false);
}

TEST(Attrs, Event)
{
	MsgPtr m = message(MRC_CMD_EVENT);
	nla_put_u32(m.get(), MRC_A_EVENT_TYPE, MRC_EVENT_PLANE_ADD);
	nla_put_string(m.get(), MRC_A_EVENT_DEV_NAME, "mrc0");
	nlattr *n = nla_nest_start(m.get(), MRC_A_EVENT_PLANE);
	nla_put_u32(m.get(), MRC_A_PLANE_ID, 2);
	nla_put_string(m.get(), MRC_A_PLANE_IFNAME, "veth1");
	nla_nest_end(m.get(), n);
	Event e = decode_event(m.get());
	EXPECT_EQ(e.type, static_cast<std::uint32_t>(MRC_EVENT_PLANE_ADD));
	EXPECT_EQ(e.dev, "mrc0");
	EXPECT_FALSE(e.plane.dev)
		<< "the instance is the event's, not the plane's";
	EXPECT_EQ(e.plane.id, 2u);
	EXPECT_EQ(e.plane.netdev, "veth1");
}

// The policy of the set checks every length: a short attribute fails the
// whole reply instead of being read out of bounds.
TEST(Attrs, ShortAttributeRefusesTheMessage)
{
	MsgPtr m = message(MRC_CMD_PLANE_GET);
	std::uint8_t one = 1;
	nla_put(m.get(), MRC_A_PLANE_ID, 1, &one); // u32 with 1 byte
	EXPECT_THROW(decode_plane(m.get()), Failure);
	MsgPtr n = message(MRC_CMD_PLANE_GET);
	nla_put(n.get(), MRC_A_PLANE_OPER_UP, 0, nullptr); // u8 with 0 bytes
	EXPECT_THROW(decode_plane(n.get()), Failure);
	MsgPtr s = message(MRC_CMD_PLANE_GET);
	nla_put(s.get(), MRC_A_PLANE_IFNAME, 3, "abc"); // no NUL
	EXPECT_THROW(decode_plane(s.get()), Failure);
}

TEST(Attrs, Names)
{
	// Names follow the set of the command's requests.
	EXPECT_EQ(attr_name(MRC_CMD_PLANE_ADD, MRC_A_PLANE_IFNAME),
		  "plane_ifname");
	EXPECT_EQ(attr_name(MRC_CMD_PLANE_ADD, MRC_A_PLANE_DEV_NAME),
		  "plane_dev_name");
	EXPECT_EQ(attr_name(MRC_CMD_DEV_GET, MRC_A_DEV_NAME), "dev_name");
	EXPECT_EQ(attr_name(MRC_CMD_ROUTE_ADD, MRC_A_ROUTE_PEER), "route_peer");
	EXPECT_EQ(attr_name(MRC_CMD_ROUTE_ADD, 3), "route_peer");
	EXPECT_EQ(attr_name(MRC_CMD_PLANE_ADD, 3), "plane_id");
	EXPECT_EQ(attr_name(MRC_CMD_PLANE_ADD, 999), "attribute 999");
}

TEST(Attrs, AttributeAtOffset)
{
	MsgPtr m = message(MRC_CMD_PLANE_ADD);
	nla_put_string(m.get(), MRC_A_PLANE_DEV_NAME, "mrc0"); // 4 + 5 -> 12 bytes
	nla_put_u32(m.get(), MRC_A_PLANE_ID, 17);
	// nlmsghdr (16) + genlmsghdr (4) = 20: the first attribute.
	EXPECT_EQ(attr_at_offset(m.get(), 20), "plane_dev_name");
	EXPECT_EQ(attr_at_offset(m.get(), 32), "plane_id");
	EXPECT_EQ(attr_at_offset(m.get(), 24), "");
}

TEST(Attrs, DevWithStats)
{
	MsgPtr m = message(MRC_CMD_DEV_GET);
	nla_put_string(m.get(), MRC_A_DEV_NAME, "mrc1");
	nlattr *planes = nla_nest_start(m.get(), MRC_A_DEV_PLANES);
	nlattr *p = nla_nest_start(m.get(), MRC_A_DEV_PLANE);
	put_plane_attrs(m.get(), 1, "e0", 2, true, true);
	nlattr *ps = nla_nest_start(m.get(), MRC_A_PLANE_STATS);
	nla_put_u64(m.get(), MRC_A_STAT_TX_PKTS, 7);
	nla_put_u64(m.get(), MRC_A_STAT_RX_BYTES, 1ULL << 40);
	nla_nest_end(m.get(), ps);
	nla_nest_end(m.get(), p);
	nla_nest_end(m.get(), planes);
	nlattr *ds = nla_nest_start(m.get(), MRC_A_DEV_STATS);
	nla_put_u64(m.get(), MRC_A_STAT_TX_PKTS, 100);
	nla_put_u64(m.get(), 250, 5); // unknown counter: skipped
	nla_put_u64(m.get(), MRC_A_STAT_RX_NO_QP, 3);
	nla_nest_end(m.get(), ds);

	Dev d = decode_dev(m.get());
	ASSERT_TRUE(d.stats.has_value());
	EXPECT_EQ(*d.stats, (Stats{{"tx_pkts", 100}, {"rx_no_qp", 3}}));
	ASSERT_EQ(d.planes.size(), 1u);
	ASSERT_TRUE(d.planes[0].stats.has_value());
	EXPECT_EQ(*d.planes[0].stats,
		  (Stats{{"tx_pkts", 7}, {"rx_bytes", 1ULL << 40}}));
}

TEST(Attrs, NoStatsUnlessSent)
{
	MsgPtr m = message(MRC_CMD_DEV_GET);
	nla_put_string(m.get(), MRC_A_DEV_NAME, "mrc1");
	Dev d = decode_dev(m.get());
	EXPECT_FALSE(d.stats.has_value());
}

TEST(Attrs, PlaneWithStats)
{
	MsgPtr m = message(MRC_CMD_PLANE_GET);
	nla_put_string(m.get(), MRC_A_PLANE_DEV_NAME, "mrc1");
	put_plane_attrs(m.get(), 1, "e0", 2, true, true);
	nlattr *ps = nla_nest_start(m.get(), MRC_A_PLANE_STATS);
	nla_put_u64(m.get(), MRC_A_STAT_TX_PKTS, 1);
	nla_put_u64(m.get(), MRC_A_STAT_TX_BYTES, 2);
	nla_put_u64(m.get(), MRC_A_STAT_RX_PKTS, 3);
	nla_put_u64(m.get(), MRC_A_STAT_RX_BYTES, 4);
	nla_nest_end(m.get(), ps);

	Plane pl = decode_plane(m.get());
	EXPECT_EQ(pl.dev, "mrc1");
	ASSERT_TRUE(pl.stats.has_value());
	EXPECT_EQ(*pl.stats, (Stats{{"tx_pkts", 1},
				    {"tx_bytes", 2},
				    {"rx_pkts", 3},
				    {"rx_bytes", 4}}));
}

TEST(Attrs, StatNames)
{
	// Every counter has a name: the names of "rdma statistic" too.
	for (std::uint32_t t = MRC_A_STAT_TX_PKTS; t <= MRC_A_STAT_RX_BAD_RESP;
	     t++)
		EXPECT_NE(stat_name(t), nullptr) << t;
	EXPECT_STREQ(stat_name(MRC_A_STAT_RETX_PKTS), "retx_pkts");
	EXPECT_STREQ(stat_name(MRC_A_STAT_RX_BAD_ICRC), "rx_bad_icrc");
	EXPECT_EQ(stat_name(MRC_A_STAT_PAD), nullptr);
	EXPECT_EQ(stat_name(MRC_A_STATS_MAX + 1), nullptr);
	EXPECT_EQ(attr_name(MRC_CMD_DEV_GET, MRC_A_DEV_WANT_STATS),
		  "dev_want_stats");
}

void put_route(nl_msg *m, const char *peer,
	       std::initializer_list<std::pair<std::uint32_t, const char *>> hops)
{
	auto p = parse_addr(peer);
	nla_put(m, MRC_A_ROUTE_PEER, static_cast<int>(p->size()), p->data());
	nlattr *hs = nla_nest_start(m, MRC_A_ROUTE_HOPS);
	for (const auto &[plane, via] : hops) {
		nlattr *h = nla_nest_start(m, MRC_A_ROUTE_HOP);
		nla_put_u32(m, MRC_A_ROUTE_HOP_PLANE, plane);
		auto v = parse_addr(via);
		nla_put(m, MRC_A_ROUTE_HOP_VIA, static_cast<int>(v->size()),
			v->data());
		nla_nest_end(m, h);
	}
	nla_nest_end(m, hs);
	nla_put_u32(m, MRC_A_ROUTE_EV_PROFILE, 7);
	nla_put_u32(m, MRC_A_ROUTE_CC_PROFILE, 1);
}

TEST(Attrs, Route)
{
	MsgPtr m = message(MRC_CMD_ROUTE_GET);
	nla_put_u32(m.get(), MRC_A_ROUTE_DEV_INDEX, 3);
	nla_put_string(m.get(), MRC_A_ROUTE_DEV_NAME, "mrc0");
	put_route(m.get(), "fd00::2", {{1, "fd01::2"}, {4, "fd04::2"}});
	Route r = decode_route(m.get());
	EXPECT_EQ(r.dev, "mrc0");
	EXPECT_EQ(r.dev_index, 3u);
	EXPECT_EQ(r.peer, "fd00::2");
	ASSERT_EQ(r.hops.size(), 2u);
	EXPECT_EQ(r.hops[0].plane, 1u);
	EXPECT_EQ(r.hops[0].via, "fd01::2");
	EXPECT_EQ(r.hops[1].plane, 4u);
	EXPECT_EQ(r.hops[1].via, "fd04::2");
	EXPECT_EQ(r.ev_profile, 7u);
	EXPECT_EQ(r.cc_profile, 1u);
}

TEST(Attrs, RouteEvent)
{
	MsgPtr m = message(MRC_CMD_EVENT);
	nla_put_u32(m.get(), MRC_A_EVENT_TYPE, MRC_EVENT_ROUTE_ADD);
	nla_put_string(m.get(), MRC_A_EVENT_DEV_NAME, "mrc0");
	nlattr *n = nla_nest_start(m.get(), MRC_A_EVENT_ROUTE);
	put_route(m.get(), "10.0.0.2", {{2, "10.2.0.2"}});
	nla_nest_end(m.get(), n);
	Event e = decode_event(m.get());
	EXPECT_EQ(e.type, static_cast<std::uint32_t>(MRC_EVENT_ROUTE_ADD));
	EXPECT_EQ(e.dev, "mrc0");
	ASSERT_TRUE(e.route);
	EXPECT_EQ(e.route->peer, "10.0.0.2");
	ASSERT_EQ(e.route->hops.size(), 1u);
	EXPECT_EQ(e.route->hops[0].via, "10.2.0.2");
	EXPECT_FALSE(e.plane.id);
}

TEST(Attrs, RouteBadAddressIsLeftOut)
{
	MsgPtr m = message(MRC_CMD_ROUTE_GET);
	const std::uint8_t five[5] = {10, 0, 0, 2, 9};
	nla_put(m.get(), MRC_A_ROUTE_PEER, 5, five);
	EXPECT_FALSE(decode_route(m.get()).peer);
}

TEST(Addr, ParseAndText)
{
	auto v4 = parse_addr("10.1.2.3");
	ASSERT_TRUE(v4);
	EXPECT_EQ(*v4, (std::vector<std::uint8_t>{10, 1, 2, 3}));
	auto v6 = parse_addr("fd00:0::2");
	ASSERT_TRUE(v6);
	EXPECT_EQ(v6->size(), 16u);
	EXPECT_EQ(addr_text(v6->data(), v6->size()), "fd00::2");
	EXPECT_FALSE(parse_addr("10.1.2.300"));
	EXPECT_FALSE(parse_addr("mrc0"));
	EXPECT_FALSE(parse_addr(""));
	EXPECT_FALSE(addr_text(v4->data(), 3));
}

} // namespace
