// SPDX-License-Identifier: GPL-2.0-only
// conn show and probe: decoding of CONN_GET replies and connection events
// built here as the kernel sends them, their text and JSON, the grammar.

#include <array>
#include <sstream>

#include <gtest/gtest.h>
#include <linux/mrc.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "attrs.hpp"
#include "cli.hpp"
#include "conn.hpp"
#include "render_one.hpp"
#include "format.hpp"
#include "genl_msg.hpp"
#include "nl.hpp"
#include "parse_words.hpp"

using namespace mrcctl;
using mrcctl::test::parse;

namespace {

MsgPtr message(std::uint8_t cmd) { return test::genl_message(cmd); }

// The five counters (tx_pkts, tx_bytes, retx_pkts, lost_pkts, ecn_marks)
// of a connection, a plane or an EV, in the attributes of its set.
using CounterAttrs = std::array<int, 5>;
const CounterAttrs kConn = {MRC_A_CONN_TX_PKTS, MRC_A_CONN_TX_BYTES,
			    MRC_A_CONN_RETX_PKTS, MRC_A_CONN_LOST_PKTS,
			    MRC_A_CONN_ECN_MARKS};
const CounterAttrs kPlane = {MRC_A_CONN_PLANE_TX_PKTS, MRC_A_CONN_PLANE_TX_BYTES,
			     MRC_A_CONN_PLANE_RETX_PKTS,
			     MRC_A_CONN_PLANE_LOST_PKTS,
			     MRC_A_CONN_PLANE_ECN_MARKS};
const CounterAttrs kEv = {MRC_A_CONN_EV_TX_PKTS, MRC_A_CONN_EV_TX_BYTES,
			  MRC_A_CONN_EV_RETX_PKTS, MRC_A_CONN_EV_LOST_PKTS,
			  MRC_A_CONN_EV_ECN_MARKS};

void put_counters(nl_msg *m, const CounterAttrs &a, std::uint64_t base)
{
	for (std::size_t i = 0; i < a.size(); i++)
		nla_put_u64(m, a[i], base + 1 + i);
}

// A CONN_GET reply of QP 17 with one plane and EVs [first, first + n).
MsgPtr conn_reply(std::uint32_t first, std::uint32_t n, bool planes)
{
	MsgPtr msg = message(MRC_CMD_CONN_GET);
	nl_msg *m = msg.get();
	nla_put_u32(m, MRC_A_CONN_DEV_INDEX, 2);
	nla_put_string(m, MRC_A_CONN_DEV_NAME, "mrc2");
	nla_put_u32(m, MRC_A_CONN_QPN, 17);
	nla_put_u32(m, MRC_A_CONN_DEST_QPN, 18);
	nla_put_u32(m, MRC_A_CONN_STATE, 3);
	nla_put_u32(m, MRC_A_CONN_EV_PROFILE, 0);
	const std::uint8_t peer[4] = {10, 0, 0, 1};
	nla_put(m, MRC_A_CONN_PEER, 4, peer);
	nla_put_u32(m, MRC_A_CONN_STATUS, MRC_CONN_OK);
	nla_put_u32(m, MRC_A_CONN_SRTT, 1872000);
	nla_put_u32(m, MRC_A_CONN_RTO, 67108864);
	put_counters(m, kConn, 100);
	nla_put_u32(m, MRC_A_CONN_EVS_TOTAL, 48);
	if (planes) {
		nlattr *ps = nla_nest_start(m, MRC_A_CONN_PLANES);
		nlattr *p = nla_nest_start(m, MRC_A_CONN_PLANE);
		nla_put_u32(m, MRC_A_CONN_PLANE_ID, 2);
		nla_put_u32(m, MRC_A_CONN_PLANE_EVS_USABLE, 16);
		put_counters(m, kPlane, 10);
		nla_nest_end(m, p);
		nla_nest_end(m, ps);
	}
	nlattr *evs = nla_nest_start(m, MRC_A_CONN_EVS);
	nla_put_u32(m, MRC_A_CONN_EVS_OFFSET, first);
	for (std::uint32_t i = first; i < first + n; i++) {
		nlattr *e = nla_nest_start(m, MRC_A_CONN_EVS_EV);
		nla_put_u32(m, MRC_A_CONN_EV_INDEX, i);
		nla_put_u32(m, MRC_A_CONN_EV_PLANE, 1 + i % 3);
		nla_put_u32(m, MRC_A_CONN_EV_STATE,
			    i == 1 ? MRC_CONN_EV_ASSUMED_BAD : MRC_CONN_EV_GOOD);
		nla_put_u32(m, MRC_A_CONN_EV_RTT, 582000);
		nla_put_u16(m, MRC_A_CONN_EV_SPORT, 57451 + i);
		put_counters(m, kEv, 0);
		nla_nest_end(m, e);
	}
	nla_nest_end(m, evs);
	return msg;
}

} // namespace

TEST(Conn, DecodeReply)
{
	MsgPtr m = conn_reply(0, 2, true);
	Conn c = decode_conn(m.get());
	EXPECT_EQ(c.dev, "mrc2");
	EXPECT_EQ(c.dev_index, 2u);
	EXPECT_EQ(c.qpn, 17u);
	EXPECT_EQ(c.peer, "10.0.0.1");
	ASSERT_EQ(c.planes.size(), 1u);
	EXPECT_EQ(c.planes[0].id, 2u);
	EXPECT_EQ(c.planes[0].evs_usable, 16u);
	ASSERT_EQ(c.evs.size(), 2u);
	EXPECT_EQ(c.evs[1].state,
		  static_cast<std::uint32_t>(MRC_CONN_EV_ASSUMED_BAD));
	EXPECT_EQ(c.evs[1].sport, 57452);
	EXPECT_EQ(c.ev_offset, 0u);
	ASSERT_EQ(c.counters.list.size(), 5u);
	EXPECT_EQ(c.counters.list[0].first, "tx_pkts");
	EXPECT_EQ(c.counters.list[0].second, 101u);
}

TEST(Conn, Text)
{
	MsgPtr m = conn_reply(0, 2, true);
	EXPECT_EQ(mrcctl::test::text_of(print_conn, decode_conn(m.get())),
		  "dev mrc2 qpn 17 peer 10.0.0.1 dest_qpn 18 state RTS ev_profile 0 "
		  "status ok srtt 1872us rto 67ms evs 48\n"
		  "   tx_pkts 101 tx_bytes 102 retx_pkts 103 lost_pkts 104 ecn_marks 105\n"
		  "    plane 2 evs_usable 16 tx_pkts 11 tx_bytes 12 retx_pkts 13 lost_pkts 14 ecn_marks 15\n"
		  "    ev 0 plane 1 sport 57451 state good rtt 582us tx_pkts 1 tx_bytes 2 retx_pkts 3 lost_pkts 4 ecn_marks 5\n"
		  "    ev 1 plane 2 sport 57452 state assumed_bad rtt 582us tx_pkts 1 tx_bytes 2 retx_pkts 3 lost_pkts 4 ecn_marks 5\n");
}

TEST(Conn, Json)
{
	MsgPtr m = conn_reply(0, 1, false);
	EXPECT_EQ(mrcctl::test::json_of(print_conn, decode_conn(m.get())),
		  "{\"dev\":\"mrc2\",\"qpn\":17,\"peer\":\"10.0.0.1\",\"dest_qpn\":18,"
		  "\"state\":\"RTS\",\"ev_profile\":0,\"status\":\"ok\","
		  "\"srtt_ns\":1872000,\"rto_ns\":67108864,\"evs_total\":48,"
		  "\"tx_pkts\":101,\"tx_bytes\":102,\"retx_pkts\":103,"
		  "\"lost_pkts\":104,\"ecn_marks\":105,\"evs\":[{\"ev\":0,"
		  "\"plane\":1,\"sport\":57451,\"state\":\"good\",\"rtt_ns\":582000,"
		  "\"tx_pkts\":1,\"tx_bytes\":2,\"retx_pkts\":3,\"lost_pkts\":4,"
		  "\"ecn_marks\":5}]}");
}

TEST(Conn, ContinuedDumpMessageCarriesItsOffset)
{
	MsgPtr m = conn_reply(40, 3, false);
	Conn c = decode_conn(m.get());
	EXPECT_EQ(c.ev_offset, 40u);
	ASSERT_EQ(c.evs.size(), 3u);
	EXPECT_EQ(c.evs[0].index, 40u);
}

TEST(Conn, EvStateEvent)
{
	MsgPtr msg = message(MRC_CMD_EVENT);
	nl_msg *m = msg.get();
	nla_put_u32(m, MRC_A_EVENT_TYPE, MRC_EVENT_EV_STATE);
	nla_put_u32(m, MRC_A_EVENT_DEV_INDEX, 2);
	nla_put_string(m, MRC_A_EVENT_DEV_NAME, "mrc2");
	nlattr *c = nla_nest_start(m, MRC_A_EVENT_CONN);
	nla_put_u32(m, MRC_A_CONN_QPN, 17);
	nla_put_u32(m, MRC_A_CONN_DEST_QPN, 18);
	const std::uint8_t peer[4] = {10, 0, 0, 1};
	nla_put(m, MRC_A_CONN_PEER, 4, peer);
	nlattr *e = nla_nest_start(m, MRC_A_CONN_EV);
	nla_put_u32(m, MRC_A_CONN_EV_INDEX, 4);
	nla_put_u32(m, MRC_A_CONN_EV_PLANE, 2);
	nla_put_u32(m, MRC_A_CONN_EV_STATE, MRC_CONN_EV_GOOD);
	nla_put_u32(m, MRC_A_CONN_EV_OLD_STATE, MRC_CONN_EV_ASSUMED_BAD);
	nla_put_u32(m, MRC_A_CONN_EV_REASON, MRC_CONN_EVR_PROBE_OK);
	nla_put_u32(m, MRC_A_CONN_EV_RTT, 412000);
	nla_nest_end(m, e);
	nla_nest_end(m, c);
	Event ev = decode_event(m);
	EXPECT_EQ(mrcctl::test::text_of(print_event, ev),
		  "ev state dev mrc2 qpn 17 peer 10.0.0.1 ev 4 plane 2 "
		  "assumed_bad -> good reason probe_ok rtt 412us");
	EXPECT_EQ(mrcctl::test::json_of(print_event, ev),
		  "{\"event\":\"ev_state\",\"dev\":\"mrc2\",\"dev_index\":2,"
		  "\"qpn\":17,\"peer\":\"10.0.0.1\",\"dest_qpn\":18,\"ev\":4,"
		  "\"plane\":2,\"old_state\":\"assumed_bad\",\"state\":\"good\","
		  "\"reason\":\"probe_ok\",\"rtt_ns\":412000}");
}

TEST(Conn, QpErrorEvent)
{
	MsgPtr msg = message(MRC_CMD_EVENT);
	nl_msg *m = msg.get();
	nla_put_u32(m, MRC_A_EVENT_TYPE, MRC_EVENT_QP_ERROR);
	nla_put_string(m, MRC_A_EVENT_DEV_NAME, "mrc2");
	nlattr *c = nla_nest_start(m, MRC_A_EVENT_CONN);
	nla_put_u32(m, MRC_A_CONN_QPN, 17);
	nla_put_u32(m, MRC_A_CONN_STATUS, MRC_CONN_RETRY_EXCEEDED);
	nla_nest_end(m, c);
	EXPECT_EQ(mrcctl::test::text_of(print_event, decode_event(m)),
		  "qp error dev mrc2 qpn 17 status retry_exceeded");
}

TEST(Conn, Grammar)
{
	Invocation inv = parse({"conn", "show", "dev", "mrc0", "qpn", "17"});
	EXPECT_EQ(inv.req.cmd, Cmd::ConnShow);
	EXPECT_EQ(inv.req.dev, "mrc0");
	EXPECT_EQ(inv.req.id, 17u);
	EXPECT_EQ(parse({"conn"}).req.cmd, Cmd::ConnShow);
	EXPECT_THROW(parse({"conn", "show", "qpn", "x"}), UsageError);
	EXPECT_THROW(parse({"conn", "show", "id", "3"}), UsageError);
	EXPECT_EQ(parse({"conn", "help"}).req.cmd, Cmd::Help);
}

TEST(Probe, Grammar)
{
	Invocation inv = parse({"probe", "dev", "mrc0", "to", "fd00::2", "ev",
				"50000", "plane", "3", "timeout", "200"});
	EXPECT_EQ(inv.req.cmd, Cmd::Probe);
	EXPECT_EQ(inv.req.peer, "fd00::2");
	EXPECT_EQ(inv.req.ev_sport, 50000u);
	EXPECT_EQ(inv.req.ev_plane, 3u);
	EXPECT_EQ(inv.req.timeout_ms, 200u);
	EXPECT_EQ(parse({"probe", "dev", "m", "to", "10.0.0.2", "ev-profile", "7"})
			  .req.ev_profile,
		  7u);
	EXPECT_THROW(parse({"probe", "to", "10.0.0.2"}), UsageError);
	EXPECT_THROW(parse({"probe", "dev", "m"}), UsageError);
	EXPECT_THROW(parse({"probe", "dev", "m", "to", "nowhere"}), UsageError);
	EXPECT_THROW(parse({"probe", "dev", "m", "to", "10.0.0.2", "ev", "5"}),
		     UsageError);
	EXPECT_THROW(parse({"probe", "dev", "m", "to", "10.0.0.2", "ev",
			    "70000", "plane", "1"}),
		     UsageError);
	EXPECT_THROW(parse({"probe", "dev", "m", "to", "10.0.0.2", "ev", "5",
			    "plane", "1", "ev-profile", "2"}),
		     UsageError);
}
