// SPDX-License-Identifier: GPL-2.0-only
// Forged control packets: an ACK, NACK, PORT_STATUS or probe that names
// PSNs the connection never used is refused (MRC_RX_INVALID), counted
// (ctrl_invalid) and changes nothing; the real peer's, inside the
// window, still work.  And the start PSNs the glue sets at RTS: the
// application's sq_psn, and the agreed early start of a peer that
// answered in RTR.
#include <gtest/gtest.h>

#include "engine_harness.h"

extern "C" {
#include "conn.h" // mrc_path_on_loss(): retire a path by hand
}

using namespace mrc_test;

namespace {

constexpr uint32_t kInit = 0x5a5a00; // our stream's start
constexpr uint32_t kPeerInit = 0x123456;

struct mrc_conn_config cfg_forge()
{
	struct mrc_conn_config cfg = solo_config();

	cfg.init_psn = kInit;
	cfg.peer_init_psn = kPeerInit;
	return cfg;
}

struct mrc_pkt port_status(uint32_t psn, uint32_t seq, uint16_t up)
{
	struct mrc_pkt p;

	mrc_pkt_init(&p, MRC_OP_PORT_STATUS);
	p.hdr.plane = 1;
	p.hdr.psn = psn;
	p.u.port_status.seq = seq;
	p.u.port_status.up_planes = up;
	return p;
}

} // namespace

TEST(ForgedCtrl, AckBeyondSndNxtIsRefusedAndCounted)
{
	Solo s(cfg_forge());

	s.send(3000);
	auto v = s.drain();
	ASSERT_EQ(v.size(), 3u);
	auto a = s.ack(v[2].psn + 2, {}, &v[0]);
	EXPECT_EQ(s.rx(a), MRC_RX_INVALID);
	EXPECT_EQ(s.stats().ctrl_invalid, 1u);
	EXPECT_EQ(s.stats().acks_rx, 0u);
	EXPECT_TRUE(s.send_done.empty());
	// The peer's own ACK still completes the message.
	a = s.ack(v[2].psn + 1, {}, &v[2]);
	EXPECT_EQ(s.rx(a), MRC_RX_CONTROL);
	EXPECT_EQ(s.send_done.size(), 1u);
	EXPECT_EQ(s.stats().ctrl_invalid, 1u);
}

TEST(ForgedCtrl, AckFarBehindSndUnaCannotCutTheWindow)
{
	Solo s(cfg_forge());

	s.send(3000);
	auto v = s.drain();
	uint32_t cwnd = s.stats().cwnd;
	// Half the PSN space behind: "an older ACK" to a lax check.  With
	// an ECN mark it would cut cwnd and mark the EV.
	auto a = s.ack(v[0].psn - 0x400000, {}, &v[0], true);
	EXPECT_EQ(s.rx(a), MRC_RX_INVALID);
	EXPECT_EQ(s.stats().ecn_acks, 0u);
	EXPECT_EQ(s.stats().cwnd, cwnd);
	// Before the stream's start, even if within a window of snd_una.
	a = s.ack(kInit - 10, {}, &v[0], true);
	EXPECT_EQ(s.rx(a), MRC_RX_INVALID);
	EXPECT_EQ(s.stats().ctrl_invalid, 2u);
	EXPECT_EQ(s.stats().ecn_acks, 0u);
}

TEST(ForgedCtrl, AckWithSackBitsBeyondSndNxtIsRefused)
{
	Solo s(cfg_forge());

	s.send(3000);
	auto v = s.drain();
	auto a = s.ack(v[0].psn, {v[1].psn, v[2].psn + 5});
	EXPECT_EQ(s.rx(a), MRC_RX_INVALID);
	// Nothing was taken from it: v[1] is not SACKed, so a later ACK
	// for v[1] is news (progress resets the timeout).
	a = s.ack(v[0].psn, {v[1].psn});
	EXPECT_EQ(s.rx(a), MRC_RX_CONTROL);
	// A SACK base far from the cumulative PSN.
	a = s.ack(v[0].psn, {});
	a.u.ack.sack_base = v[0].psn + 0x100000;
	EXPECT_EQ(s.rx(a), MRC_RX_INVALID);
	EXPECT_EQ(s.stats().ctrl_invalid, 2u);
}

TEST(ForgedCtrl, OlderAckOvertakenByANewerOneIsStillTaken)
{
	Solo s(cfg_forge());

	s.send(5000);
	auto v = s.drain();
	ASSERT_EQ(v.size(), 5u);
	EXPECT_EQ(s.rx(s.ack(v[3].psn, {})), MRC_RX_CONTROL);
	// Sprayed ACKs reorder: one from before, with a SACK bit of news.
	EXPECT_EQ(s.rx(s.ack(v[1].psn, {v[4].psn})), MRC_RX_CONTROL);
	EXPECT_EQ(s.stats().ctrl_invalid, 0u);
	EXPECT_EQ(s.stats().acks_rx, 2u);
}

TEST(ForgedCtrl, NackOutsideTheWindowCannotFailTheConnection)
{
	Solo s(cfg_forge());

	s.send(3000);
	auto v = s.drain();
	// The NACKed PSN is in flight, the cumulative PSN is not ours.
	auto n = s.nack(v[1].psn, v[0].psn - 0x300000, MRC_NACK_INVALID_REQUEST);
	EXPECT_EQ(s.rx(n), MRC_RX_INVALID);
	// The cumulative PSN fits, the NACKed one was never sent.
	n = s.nack(v[2].psn + 7, v[0].psn, MRC_NACK_REMOTE_ACCESS_ERROR);
	EXPECT_EQ(s.rx(n), MRC_RX_INVALID);
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_OK);
	EXPECT_EQ(s.stats().nacks_rx, 0u);
	EXPECT_EQ(s.stats().ctrl_invalid, 2u);
	// The peer's real NACK still fails it.
	n = s.nack(v[1].psn, v[0].psn, MRC_NACK_INVALID_REQUEST);
	EXPECT_EQ(s.rx(n), MRC_RX_CONTROL);
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_INVALID_REQUEST);
}

TEST(ForgedCtrl, PortStatusOutsideTheWindowIsRefused)
{
	Solo s(cfg_forge(), 4);

	ASSERT_EQ(s.stats().evs_usable, 4u);
	// Every plane down, with a "later" number that would hide the real
	// updates: the PSN is not near the peer's stream.
	auto ps = port_status(kPeerInit + 0x10000, 1u << 30, 0);
	EXPECT_EQ(s.rx(ps), MRC_RX_INVALID);
	ps = port_status(kPeerInit - 3 * MRC_MAX_WINDOW, 1u << 30, 0);
	EXPECT_EQ(s.rx(ps), MRC_RX_INVALID);
	EXPECT_EQ(s.stats().evs_usable, 4u);
	EXPECT_EQ(s.stats().ctrl_invalid, 2u);
	// The peer's, carrying its snd_nxt a little ahead of our rcv_nxt.
	ps = port_status(kPeerInit + 100, 5, 0x2);
	EXPECT_EQ(s.rx(ps), MRC_RX_CONTROL);
	EXPECT_EQ(s.stats().evs_usable, 0u); // all four EVs on plane 1
	ps = port_status(kPeerInit + 100, 6, 0x1);
	EXPECT_EQ(s.rx(ps), MRC_RX_CONTROL);
	EXPECT_EQ(s.stats().evs_usable, 4u);
}

TEST(ForgedCtrl, OurPortStatusAndProbesCarryOurSndNxt)
{
	struct mrc_conn_config cfg = cfg_forge();

	cfg.probe_seed = 0xdeadbeef;
	Solo s(cfg, 2);
	s.send(2000);
	auto v = s.drain();
	mrc_conn_send_port_status(s.c, 1, 0x1, s.now);
	ASSERT_EQ(s.count_ctrl(MRC_OP_PORT_STATUS), 1u);
	EXPECT_EQ(s.ctrl.back().hdr.psn, v[1].psn + 1);
	// A probe: its id follows the seed, not a count from 1.
	mrc_path_on_loss(s.c, 1, MRC_EVR_LOSS, s.now);
	s.run_timers_until(s.now + 100 * cfg.probe_interval);
	ASSERT_GE(s.count_ctrl(MRC_OP_PROBE_REQ), 1u);
	const struct mrc_pkt *req = nullptr;

	for (const auto &p : s.ctrl)
		if (p.hdr.opcode == MRC_OP_PROBE_REQ && !req)
			req = &p;
	ASSERT_NE(req, nullptr);
	EXPECT_EQ(req->u.probe.probe_id, 0xdeadbeefu + 1);
	EXPECT_EQ(req->hdr.psn, v[1].psn + 1);
}

TEST(ForgedCtrl, ProbeAnswerOutsideTheWindowDoesNotReviveAPath)
{
	Solo s(cfg_forge(), 2);

	mrc_path_on_loss(s.c, 1, MRC_EVR_LOSS, s.now);
	s.run_timers_until(s.now + 100 * 50000);
	const struct mrc_pkt *req = nullptr;

	for (const auto &p : s.ctrl)
		if (p.hdr.opcode == MRC_OP_PROBE_REQ)
			req = &p;
	ASSERT_NE(req, nullptr);
	struct mrc_pkt resp;

	mrc_pkt_init(&resp, MRC_OP_PROBE_RESP);
	resp.hdr.plane = 1;
	resp.u.probe = req->u.probe;
	resp.hdr.psn = kPeerInit ^ 0x800000; // right id, wrong PSN
	EXPECT_EQ(s.rx(resp), MRC_RX_INVALID);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_ASSUMED_BAD);
	// A forged request is not answered either.
	size_t before = s.ctrl.size();
	struct mrc_pkt fr = *req;

	fr.hdr.psn = kPeerInit + 0x40000;
	EXPECT_EQ(s.rx(fr), MRC_RX_INVALID);
	EXPECT_EQ(s.ctrl.size(), before);
	resp.hdr.psn = kPeerInit;
	EXPECT_EQ(s.rx(resp), MRC_RX_CONTROL);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_GOOD);
	EXPECT_EQ(s.stats().ctrl_invalid, 2u);
}

TEST(StartPsn, SqPsnAtRtsMovesAStreamNothingWasSentOn)
{
	Solo s(cfg_forge());

	EXPECT_EQ(mrc_conn_set_init_psn(s.c, 0x777777), 0);
	s.send(2000);
	auto v = s.drain();
	ASSERT_EQ(v.size(), 2u);
	EXPECT_EQ(v[0].psn, 0x777777u);
	EXPECT_EQ(v[1].psn, 0x777778u);
	// Packets of the stream exist: it keeps its start.
	EXPECT_EQ(mrc_conn_set_init_psn(s.c, 0x100), -EBUSY);
	s.send(10);
	v = s.drain();
	ASSERT_EQ(v.size(), 1u);
	EXPECT_EQ(v[0].psn, 0x777779u);
	// ACKs are judged against the new start.
	EXPECT_EQ(s.rx(s.ack(0x77777a, {})), MRC_RX_CONTROL);
	EXPECT_EQ(s.send_done.size(), 2u);
}

TEST(StartPsn, PeerThatAnsweredInRtrIsFollowedToItsEarlyStart)
{
	constexpr uint32_t kAlt = (kPeerInit + 0x800000) & 0xffffff;
	Solo s(cfg_forge());

	mrc_conn_set_peer_alt_psn(s.c, kAlt);
	// Its control packets carry the early start too.
	EXPECT_EQ(s.rx(port_status(kAlt, 1, 0xffff)), MRC_RX_CONTROL);
	EXPECT_EQ(s.rx(Solo::data(kAlt, 0, 0, 100, 100)), MRC_RX_ACCEPTED);
	EXPECT_EQ(s.stats().rcv_nxt, kAlt + 1);
	ASSERT_EQ(s.recv_done.size(), 1u);
	// The stream has started: the rq_psn start is gone for good.
	EXPECT_NE(s.rx(Solo::data(kPeerInit, 1, 0, 100, 100)), MRC_RX_ACCEPTED);
	mrc_conn_set_peer_alt_psn(s.c, kPeerInit);
	EXPECT_NE(s.rx(Solo::data(kPeerInit, 1, 0, 100, 100)), MRC_RX_ACCEPTED);
	EXPECT_EQ(s.rx(Solo::data(kAlt + 1, 1, 0, 100, 100)), MRC_RX_ACCEPTED);
}

TEST(StartPsn, WithoutAnEarlyStartThePeerStreamBeginsAtRqPsn)
{
	Solo s(cfg_forge());

	EXPECT_NE(s.rx(Solo::data(kPeerInit + 0x800000, 0, 0, 100, 100)),
		  MRC_RX_ACCEPTED);
	EXPECT_EQ(s.rx(Solo::data(kPeerInit, 0, 0, 100, 100)), MRC_RX_ACCEPTED);
	// Once started, an early start offered later is ignored.
	mrc_conn_set_peer_alt_psn(s.c, kPeerInit + 0x800000);
	EXPECT_NE(s.rx(Solo::data(kPeerInit + 0x800000, 1, 0, 100, 100)),
		  MRC_RX_ACCEPTED);
}

TEST(StartPsn, EarlyStartNeverTakesAPacketOfTheRqPsnWindow)
{
	Solo s(cfg_forge());

	// An early start that happens to fall inside the rq_psn window.
	mrc_conn_set_peer_alt_psn(s.c, kPeerInit + 10);
	EXPECT_EQ(s.rx(Solo::data(kPeerInit + 10, 1, 0, 100, 100)),
		  MRC_RX_ACCEPTED);
	EXPECT_EQ(s.stats().rcv_nxt, kPeerInit); // a gap, not a move
	EXPECT_EQ(s.rx(Solo::data(kPeerInit, 0, 0, 100, 100)), MRC_RX_ACCEPTED);
	EXPECT_EQ(s.stats().rcv_nxt, kPeerInit + 1);
}
