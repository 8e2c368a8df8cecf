// SPDX-License-Identifier: GPL-2.0-only
#include <sstream>

#include <gtest/gtest.h>
#include <linux/mrc.h>

#include "format.hpp"
#include "render_one.hpp"

using namespace mrcctl;
using mrcctl::test::json_of;
using mrcctl::test::text_of;

namespace {

Plane plane(std::uint32_t id, const char *netdev, std::uint32_t ifindex,
	    bool admin, bool oper)
{
	Plane p;
	p.id = id;
	p.netdev = netdev;
	p.ifindex = ifindex;
	p.admin_up = admin;
	p.oper_up = oper;
	return p;
}

TEST(Format, CapsWords)
{
	EXPECT_TRUE(caps_words(0).empty());
	auto w = caps_words(MRC_CAP_TRIM_NACK | MRC_CAP_EV_UDP | MRC_CAP_EV_SRV6);
	EXPECT_EQ(w,
		  (std::vector<std::string>{"trim_nack", "ev_udp", "ev_srv6"}));
	w = caps_words(MRC_CAP_SVC_TIME | (1u << 31));
	EXPECT_EQ(w, (std::vector<std::string>{"svc_time", "bit31"}));
}

TEST(Format, PlaneText)
{
	Plane p = plane(2, "veth1", 7, true, false);
	p.dev = "mrc0";
	EXPECT_EQ(text_of(print_plane, p),
		  "dev mrc0 id 2 netdev veth1 ifindex 7 admin up oper down\n");
	Plane partial;
	partial.id = 3;
	EXPECT_EQ(text_of(print_plane, partial), "id 3\n");
}

TEST(Format, PlaneJson)
{
	Plane p = plane(1, "p1", 5, true, true);
	p.dev = "mrc0";
	p.dev_index = 3;
	EXPECT_EQ(json_of(print_plane, p),
		  "{\"dev\":\"mrc0\",\"dev_index\":3,\"id\":1,\"netdev\":\"p1\","
		  "\"ifindex\":5,\"admin_state\":\"up\",\"oper_state\":\"up\"}");
}

TEST(Format, DevTextAndJson)
{
	Dev d;
	d.name = "mrc0";
	d.index = 3;
	d.caps = MRC_CAP_TRIM_NACK | MRC_CAP_EV_UDP;
	d.max_planes = 16;
	d.udp_port = 4791;
	d.planes = {plane(1, "p1", 5, true, true),
		    plane(2, "p2", 6, false, false)};
	EXPECT_EQ(text_of(print_dev, d),
		  "mrc0: index 3 caps trim_nack,ev_udp max_planes 16 udp_port "
		  "4791 planes 2 (1 up)\n"
		  "    plane id 1 netdev p1 ifindex 5 admin up oper up\n"
		  "    plane id 2 netdev p2 ifindex 6 admin down oper down\n");
	EXPECT_EQ(json_of(print_dev, d),
		  "{\"name\":\"mrc0\",\"index\":3,\"caps\":[\"trim_nack\","
		  "\"ev_udp\"],\"max_planes\":16,\"udp_port\":4791,\"planes\":["
		  "{\"id\":1,\"netdev\":\"p1\",\"ifindex\":5,\"admin_state\":"
		  "\"up\",\"oper_state\":\"up\"},{\"id\":2,\"netdev\":\"p2\","
		  "\"ifindex\":6,\"admin_state\":\"down\",\"oper_state\":"
		  "\"down\"}]}");
}

TEST(Format, DevWithoutCaps)
{
	Dev d;
	d.name = "mrc1";
	d.caps = 0;
	EXPECT_EQ(text_of(print_dev, d), "mrc1: caps none planes 0 (0 up)\n");
	EXPECT_EQ(json_of(print_dev, d),
		  "{\"name\":\"mrc1\",\"caps\":[],\"planes\":[]}");
}

TEST(Format, EventText)
{
	Event e;
	e.type = MRC_EVENT_PLANE_ADD;
	e.dev = "mrc0";
	e.plane.id = 2;
	e.plane.netdev = "veth1";
	EXPECT_EQ(text_of(print_event, e),
		  "plane add dev mrc0 id 2 netdev veth1");

	Event down;
	down.type = MRC_EVENT_PLANE_DOWN;
	down.dev = "mrc0";
	down.plane.id = 2;
	EXPECT_EQ(text_of(print_event, down), "plane down dev mrc0 id 2");
	down.plane.admin_up = true;
	down.plane.oper_up = false;
	EXPECT_EQ(text_of(print_event, down),
		  "plane down dev mrc0 id 2 admin up oper down");

	Event up = down;
	up.type = MRC_EVENT_PLANE_UP;
	up.plane.oper_up = true;
	EXPECT_EQ(text_of(print_event, up),
		  "plane up dev mrc0 id 2 admin up oper up");

	Event del;
	del.type = MRC_EVENT_PLANE_DEL;
	del.dev = "mrc0";
	del.plane.id = 4;
	EXPECT_EQ(text_of(print_event, del), "plane del dev mrc0 id 4");

	Event dev;
	dev.type = MRC_EVENT_DEV_ADD;
	dev.dev = "mrc1";
	dev.dev_index = 9;
	EXPECT_EQ(text_of(print_event, dev), "dev add dev mrc1 index 9");
	dev.type = MRC_EVENT_DEV_DEL;
	EXPECT_EQ(text_of(print_event, dev), "dev del dev mrc1 index 9");

	Event odd;
	odd.type = 99;
	odd.dev = "mrc0";
	EXPECT_EQ(text_of(print_event, odd), "event 99 dev mrc0");
}

TEST(Format, EventJson)
{
	Event e;
	e.type = MRC_EVENT_PLANE_DOWN;
	e.dev = "mrc0";
	e.dev_index = 3;
	e.plane.id = 2;
	e.plane.oper_up = false;
	EXPECT_EQ(json_of(print_event, e),
		  "{\"event\":\"plane_down\",\"dev\":\"mrc0\",\"dev_index\":3,"
		  "\"id\":2,\"oper_state\":\"down\"}");
	EXPECT_EQ(event_name(MRC_EVENT_PLANE_ADD), "plane_add");
	EXPECT_EQ(event_name(MRC_EVENT_DEV_DEL), "dev_del");
	EXPECT_EQ(event_name(1234), "event_1234");
}

TEST(Format, StatsText)
{
	Stats st = {{"tx_pkts", 123456},
		    {"tx_bytes", 7},
		    {"rx_pkts", 5},
		    {"rx_no_qp", 0}};
	EXPECT_EQ(stats_text(st, "  "), "  tx_pkts tx_bytes\n"
					"   123456        7\n"
					"  rx_pkts\n"
					"        5\n"
					"  rx_no_qp\n"
					"         0\n");
	EXPECT_EQ(stats_text({}, "  "), "");
	// A counter of a newer kernel that has no group: a group of its own.
	Stats odd = {{"new_thing", 1}};
	EXPECT_EQ(stats_text(odd, ""), "new_thing\n        1\n");
}

TEST(Format, DevTextAndJsonWithStats)
{
	Dev d;
	d.name = "mrc1";
	d.planes = {plane(1, "e0", 2, true, true)};
	d.planes[0].stats = Stats{{"tx_pkts", 3}, {"rx_pkts", 4}};
	d.stats = Stats{{"tx_pkts", 3}, {"rx_pkts", 4}, {"rx_malformed", 10}};
	EXPECT_EQ(text_of(print_dev, d),
		  "mrc1: planes 1 (1 up)\n"
		  "    plane id 1 netdev e0 ifindex 2 admin up oper up\n"
		  "        tx_pkts\n"
		  "              3\n"
		  "        rx_pkts\n"
		  "              4\n"
		  "    tx_pkts\n"
		  "          3\n"
		  "    rx_pkts\n"
		  "          4\n"
		  "    rx_malformed\n"
		  "              10\n");
	EXPECT_EQ(json_of(print_dev, d),
		  "{\"name\":\"mrc1\",\"planes\":[{\"id\":1,\"netdev\":\"e0\","
		  "\"ifindex\":2,\"admin_state\":\"up\",\"oper_state\":\"up\","
		  "\"stats\":{\"tx_pkts\":3,\"rx_pkts\":4}}],"
		  "\"stats\":{\"tx_pkts\":3,\"rx_pkts\":4,\"rx_malformed\":10}}");
}

TEST(Format, PlaneTextAndJsonWithStats)
{
	Plane p = plane(1, "e0", 2, true, true);
	p.dev = "mrc1";
	p.stats = Stats{{"tx_pkts", 10},
			{"tx_bytes", 2000},
			{"rx_pkts", 11},
			{"rx_bytes", 2100}};
	EXPECT_EQ(text_of(print_plane, p),
		  "dev mrc1 id 1 netdev e0 ifindex 2 admin up oper up\n"
		  "    tx_pkts tx_bytes\n"
		  "         10     2000\n"
		  "    rx_pkts rx_bytes\n"
		  "         11     2100\n");
	EXPECT_EQ(json_of(print_plane, p),
		  "{\"dev\":\"mrc1\",\"id\":1,\"netdev\":\"e0\",\"ifindex\":2,"
		  "\"admin_state\":\"up\",\"oper_state\":\"up\",\"stats\":{"
		  "\"tx_pkts\":10,\"tx_bytes\":2000,\"rx_pkts\":11,"
		  "\"rx_bytes\":2100}}");
}

Route sample_route()
{
	Route r;
	r.dev = "mrc0";
	r.dev_index = 3;
	r.peer = "10.0.0.2";
	r.hops = {{1, "10.1.0.2"}, {2, "10.2.0.2"}};
	r.ev_profile = 7;
	r.cc_profile = 1;
	return r;
}

TEST(Format, RouteText)
{
	EXPECT_EQ(text_of(print_route, sample_route()),
		  "dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 plane 2 via 10.2.0.2 "
		  "ev-profile 7 cc-profile 1\n");
	Route r;
	r.peer = "fd00::2";
	EXPECT_EQ(text_of(print_route, r), "fd00::2\n")
		<< "absent fields are left out";
}

TEST(Format, RouteJson)
{
	EXPECT_EQ(json_of(print_route, sample_route()),
		  R"({"dev":"mrc0","dev_index":3,"peer":"10.0.0.2","hops":[)"
		  R"({"plane":1,"via":"10.1.0.2"},{"plane":2,"via":"10.2.0.2"}],)"
		  R"("ev_profile":7,"cc_profile":1})");
}

TEST(Format, RouteEvents)
{
	Event e;
	e.type = MRC_EVENT_ROUTE_ADD;
	e.dev = "mrc0";
	e.dev_index = 3;
	Route r = sample_route();
	r.dev.reset();
	r.dev_index.reset();
	e.route = r;
	EXPECT_EQ(event_name(e.type), "route_add");
	EXPECT_EQ(text_of(print_event, e),
		  "route add dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 plane 2 via "
		  "10.2.0.2 ev-profile 7 cc-profile 1");
	e.type = MRC_EVENT_ROUTE_DEL;
	EXPECT_EQ(json_of(print_event, e),
		  R"({"event":"route_del","dev":"mrc0","dev_index":3,)"
		  R"("peer":"10.0.0.2","hops":[{"plane":1,"via":"10.1.0.2"},)"
		  R"({"plane":2,"via":"10.2.0.2"}],"ev_profile":7,"cc_profile":1})");
}

} // namespace
