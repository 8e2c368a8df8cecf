// SPDX-License-Identifier: GPL-2.0-only
// Engine unit tests: segmentation, windows, ACK timeout with its retry
// counts, NACK handling, receiver window/duplicates/in-order completion,
// ACK coalescing and service time.  The test plays the peer by hand.
#include <gtest/gtest.h>

#include "engine_harness.h"

using namespace mrc_test;

TEST(EngineTx, SegmentsMessagesIntoMtuPackets)
{
	Solo s(solo_config());

	s.send(3500);
	s.send(0);
	s.send(1000);
	auto v = s.drain();

	ASSERT_EQ(v.size(), 4u + 1u + 1u);
	uint32_t psn0 = v[0].psn;

	for (size_t i = 0; i < v.size(); i++)
		EXPECT_EQ(v[i].psn, psn0 + i);
	for (size_t i = 0; i < 4; i++) {
		EXPECT_EQ(v[i].msn, 0u);
		EXPECT_EQ(v[i].offset, 1000 * i);
		EXPECT_EQ(v[i].len, i < 3 ? 1000u : 500u);
		EXPECT_EQ(v[i].msg_len, 3500u);
		EXPECT_EQ(!!(v[i].flags & MRC_F_FIRST), i == 0);
		EXPECT_EQ(!!(v[i].flags & MRC_F_LAST), i == 3);
		EXPECT_FALSE(v[i].flags & MRC_F_RETX);
	}
	// A zero-length message is one packet, first and last.
	EXPECT_EQ(v[4].msn, 1u);
	EXPECT_EQ(v[4].len, 0u);
	EXPECT_EQ(v[4].flags & (MRC_F_FIRST | MRC_F_LAST),
		  MRC_F_FIRST | MRC_F_LAST);
	EXPECT_EQ(v[5].msn, 2u);
	EXPECT_EQ(v[5].flags & (MRC_F_FIRST | MRC_F_LAST),
		  MRC_F_FIRST | MRC_F_LAST);
	EXPECT_EQ(v[0].cookie, 3500u);
	EXPECT_EQ(v[0].opcode, MRC_OP_WRITE);
}

TEST(EngineTx, CumulativeAckCompletesMessagesInOrder)
{
	Solo s(solo_config());

	s.send(2500);
	s.send(10);
	auto v = s.drain();

	ASSERT_EQ(v.size(), 4u);
	// Everything of message 0 but its last packet: nothing completes.
	auto a = s.ack(v[2].psn, {}, &v[1]);
	EXPECT_EQ(s.rx(a), MRC_RX_CONTROL);
	EXPECT_TRUE(s.send_done.empty());
	// The second message SACKed, the first still incomplete: nothing.
	a = s.ack(v[2].psn, {v[3].psn}, &v[3]);
	s.rx(a);
	EXPECT_TRUE(s.send_done.empty());
	a = s.ack(v[3].psn + 1, {}, &v[2]);
	s.rx(a);
	ASSERT_EQ(s.send_done.size(), 2u);
	EXPECT_EQ(s.send_done[0], std::make_pair(0u, (int)MRC_ST_OK));
	EXPECT_EQ(s.send_done[1], std::make_pair(1u, (int)MRC_ST_OK));
	EXPECT_TRUE(mrc_conn_idle(s.c));
	EXPECT_EQ(mrc_conn_next_deadline(s.c), MRC_TIME_NEVER);
}

TEST(EngineTx, WindowBoundedByPeerReorderWindow)
{
	auto cfg = solo_config();

	cfg.peer_mpr = 1;
	cfg.cc.init_cwnd = cfg.cc.max_cwnd = 1u << 24;
	Solo s(cfg);

	s.send(1000 * 1000);
	auto v = s.drain();

	EXPECT_EQ(v.size(), (size_t)MRC_MPR_UNIT);
	// Acknowledging 10 opens the window by exactly 10.
	s.rx(s.ack(v[10].psn, {}, &v[9]));
	EXPECT_EQ(s.drain().size(), 10u);
}

TEST(EngineTx, WindowBoundedByCwnd)
{
	auto cfg = solo_config();

	cfg.cc.init_cwnd = 5500;
	Solo s(cfg);

	s.send(20000);
	auto v = s.drain();

	EXPECT_EQ(v.size(), 5u); // 5 x 1000 <= 5500 < 6 x 1000
	EXPECT_EQ(s.stats().inflight, 5000u);
}

TEST(EngineTimer, AckTimeoutDeadlineAndLinearThenExponentialBackoff)
{
	auto cfg = retry_config(3, 4);

	cfg.ack_timeout_exp = 8; // 262.144 us
	Solo s(cfg);
	uint64_t base = mrc_ack_timeout_ns(8);
	uint64_t t0 = s.now;

	EXPECT_EQ(base, 262144u);
	s.send(100);
	auto v = s.drain();

	ASSERT_EQ(v.size(), 1u);
	EXPECT_EQ(mrc_conn_next_deadline(s.c), t0 + base);

	// Expiry k waits base while k <= retry_cnt, then base << (k - 3).
	uint64_t t = t0 + base;

	for (uint32_t k = 1; k <= 3u + 4u; k++) {
		ASSERT_EQ(mrc_conn_next_deadline(s.c), t) << "expiry " << k;
		s.timer_to(t);
		auto r = s.drain();

		ASSERT_EQ(r.size(), 1u) << "expiry " << k;
		EXPECT_TRUE(r[0].flags & MRC_F_RETX);
		EXPECT_EQ(r[0].psn, v[0].psn);
		EXPECT_EQ(mrc_conn_status(s.c), 0);
		t += k <= 3 ? base : base << (k - 3);
	}
	EXPECT_TRUE(s.send_done.empty());
	// retry_cnt + backoff_cnt + 1-th expiry: the connection fails.
	s.timer_to(t);
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RETRY_EXCEEDED);
	ASSERT_EQ(s.send_done.size(), 1u);
	EXPECT_EQ(s.send_done[0].second, MRC_ST_RETRY_EXCEEDED);
	ASSERT_FALSE(s.events.empty());
	EXPECT_EQ(s.events.back().type, MRC_EVT_CONN_FAILED);
	EXPECT_EQ(s.events.back().status, MRC_ST_RETRY_EXCEEDED);
	EXPECT_EQ(mrc_conn_next_deadline(s.c), MRC_TIME_NEVER);
	EXPECT_TRUE(s.drain().empty());
	struct mrc_msg m {};
	uint32_t msn;

	EXPECT_EQ(mrc_conn_send(s.c, &m, &msn, s.now), -EPIPE);
	EXPECT_EQ(s.stats().timeouts, 8u);
}

TEST(EngineTimer, LaterMessagesAreFlushedOnFailure)
{
	auto cfg = retry_config(0, 0);
	Solo s(cfg);

	s.send(100);
	s.send(100);
	s.send(100);
	s.drain();
	s.run_timers_until(s.now + 10 * mrc_ack_timeout_ns(cfg.ack_timeout_exp));
	ASSERT_EQ(s.send_done.size(), 3u);
	EXPECT_EQ(s.send_done[0], std::make_pair(0u, (int)MRC_ST_RETRY_EXCEEDED));
	EXPECT_EQ(s.send_done[1], std::make_pair(1u, (int)MRC_ST_FLUSHED));
	EXPECT_EQ(s.send_done[2], std::make_pair(2u, (int)MRC_ST_FLUSHED));
}

TEST(EngineTimer, InfiniteBackoffNeverFails)
{
	auto cfg = retry_config(1, MRC_BACKOFF_INFINITE);

	cfg.ack_timeout_exp = 0;
	Solo s(cfg);

	s.send(100);
	s.drain();
	for (int i = 0; i < 60; i++) {
		s.timer_to(mrc_conn_next_deadline(s.c));
		s.drain();
	}
	EXPECT_EQ(mrc_conn_status(s.c), 0);
	EXPECT_EQ(s.stats().timeouts, 60u);
	// The wait is capped: 1024 << 25 ns, not an overflowed shift.
	EXPECT_EQ(mrc_conn_next_deadline(s.c) - s.now, 1024ull << 25);
}

TEST(EngineTimer, ProgressResetsTheRetryCount)
{
	auto cfg = retry_config(1, 0);
	Solo s(cfg);
	uint64_t rto = mrc_ack_timeout_ns(cfg.ack_timeout_exp);

	s.send(2000);
	auto v = s.drain();

	s.timer_to(s.now + rto); // expiry 1 of 1
	s.drain();
	s.rx(s.ack(v[1].psn, {}, nullptr)); // progress
	// The timer restarts with the ACK timeout, or the RTT bound the
	// ACK just taught if that is longer (mrc_tx_rto()).
	EXPECT_EQ(mrc_conn_next_deadline(s.c), s.now + s.stats().rto);
	EXPECT_GE(s.stats().rto, rto);
	s.timer_to(mrc_conn_next_deadline(s.c)); // expiry 1 again, not 2
	EXPECT_EQ(mrc_conn_status(s.c), 0);
	EXPECT_EQ(s.drain().size(), 1u);
	s.timer_to(mrc_conn_next_deadline(s.c));
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RETRY_EXCEEDED);
}

// Round trips longer than the ACK timeout (a loaded host, a slow guest):
// once ACKs have measured them, the timer waits for the RTT bound instead
// of expiring before any ACK can come back.  Such expiries resent packets
// that were not lost and blamed their EVs, and with a small retry budget
// failed a working connection (RETRY_EXC_ERR).
TEST(EngineTimer, RoundTripsLongerThanTheAckTimeoutDoNotExpire)
{
	auto cfg = retry_config(3, 0);
	Solo s(cfg, 4);
	const uint64_t rto = mrc_ack_timeout_ns(cfg.ack_timeout_exp);
	const uint64_t rtt = 3 * rto;

	for (int m = 0; m < 40 && !mrc_conn_status(s.c); m++) {
		s.send(1000);
		auto v = s.drain();

		ASSERT_EQ(v.size(), 1u) << "message " << m;
		// The peer answers one RTT later; the timers run meanwhile.
		s.run_timers_until(v[0].ts + rtt);
		s.drain(); // what the expiries resent, if any
		s.rx(s.ack(v[0].psn + 1, {}, &v[0]));
	}
	ASSERT_EQ(mrc_conn_status(s.c), 0);
	// Only the first message's timer, with no RTT sample yet, expires
	// (three times in its round trip); then none of 39 messages' does.
	EXPECT_LE(s.stats().timeouts, 3u);
	EXPECT_GE(s.stats().rto, rtt);
}

TEST(EngineTx, SackedPacketIsNotRetransmittedAndLossWaitsForItsPath)
{
	auto cfg = solo_config();
	Solo s(cfg, 4);

	s.send(4000);
	auto v = s.drain();

	ASSERT_EQ(v.size(), 4u);
	// Teach every path an RTT of 10 us.
	s.now += 10000;
	s.rx(s.ack(v[0].psn, {v[1].psn}, &v[1]));
	for (int i = 0; i < 4; i++) {
		struct mrc_tx_desc d = v[i];

		d.ts = (uint32_t)(s.now - 10000);
		s.rx(s.ack(v[0].psn, {v[1].psn}, &d));
	}
	EXPECT_TRUE(s.drain().empty());
	EXPECT_EQ(s.stats().lost_pkts, 0u); // path 0 not yet overdue
	// Once path 0's expected time passed, v[0] (behind the SACKed
	// v[1]) is lost; v[2], v[3] are not behind anything delivered.
	uint64_t d = mrc_conn_next_deadline(s.c);

	ASSERT_LT(d, s.now + mrc_ack_timeout_ns(cfg.ack_timeout_exp));
	s.timer_to(d);
	auto r = s.drain();

	ASSERT_EQ(r.size(), 1u) << s.stats().lost_pkts << " " << d - s.now;
	EXPECT_EQ(r[0].psn, v[0].psn);
	EXPECT_TRUE(r[0].flags & MRC_F_RETX);
	EXPECT_NE(r[0].ev, v[0].ev); // another path
	EXPECT_EQ(s.stats().retx_pkts, 1u);
	EXPECT_EQ(mrc_conn_ev_state(s.c, v[0].ev), MRC_EV_ASSUMED_BAD);
}

// v[1] SACKed, v[0] behind it; the connection (and path 1) has learned
// an RTT of 10 us from many samples, path 0 from one only, so path 0's
// own bound is about three RTTs (rttvar starts at half the RTT).
static void tail_setup(Solo &s, const std::vector<struct mrc_tx_desc> &v)
{
	struct mrc_tx_desc d0 = v[0], d1 = v[1];

	s.now += 10000;
	d0.ts = (uint32_t)(s.now - 10000);
	s.rx(s.ack(v[0].psn, {v[1].psn}, &d0));
	for (int i = 0; i < 12; i++) {
		d1.ts = (uint32_t)(s.now - 10000);
		s.rx(s.ack(v[0].psn, {v[1].psn}, &d1));
	}
}

// Sends @bytes (four packets, each on its own path), then tail_setup();
// the four packets as sent, or fewer if the window did not let them out.
static std::vector<struct mrc_tx_desc> tail_start(Solo &s, uint32_t bytes)
{
	s.send(bytes);
	auto v = s.drain();

	if (v.size() == 4)
		tail_setup(s, v);
	return v;
}

TEST(EngineTx, TailLossIsResentByTheConnectionsRtt)
{
	auto cfg = solo_config();

	cfg.tail_resend = 1;
	Solo s(cfg, 4);

	auto v = tail_start(s, 4000);

	ASSERT_EQ(v.size(), 4u);
	EXPECT_TRUE(s.drain().empty());
	const uint32_t cwnd = s.stats().cwnd;
	// Everything is in flight: v[0] is resent once the connection's
	// own bound (srtt + 2 rttvar + allowance) passed, within two RTTs
	// of its send, not after path 0's three.
	uint64_t d = mrc_conn_next_deadline(s.c);

	ASSERT_LT(d, v[0].ts + 20000ull);
	s.timer_to(d);
	auto r = s.drain();

	ASSERT_EQ(r.size(), 1u);
	EXPECT_EQ(r[0].psn, v[0].psn);
	EXPECT_TRUE(r[0].flags & MRC_F_RETX);
	EXPECT_NE(r[0].ev, v[0].ev);
	// Charged to its path as a loss, but not to the window.
	EXPECT_EQ(mrc_conn_ev_state(s.c, v[0].ev), MRC_EV_ASSUMED_BAD);
	EXPECT_EQ(s.stats().cwnd, cwnd);
}

// The resend at the tail is lost, or its ACK is (the ACK takes the
// data's EV index, which at the peer may name the dead path): nothing
// sent after it is left to reveal it, so it is resent again once the
// connection's bound has passed, not after the ACK timeout.
TEST(EngineTx, LostTailResendIsResentByTheConnectionsRtt)
{
	auto cfg = solo_config();

	cfg.tail_resend = 1;
	Solo s(cfg, 4);

	auto v = tail_start(s, 4000);

	ASSERT_EQ(v.size(), 4u);
	s.timer_to(mrc_conn_next_deadline(s.c));
	auto r = s.drain();

	ASSERT_EQ(r.size(), 1u);
	ASSERT_EQ(r[0].psn, v[0].psn);
	// Everything but the resend is delivered (sent before it).
	s.now += 1000;
	for (int i = 2; i < 4; i++) {
		struct mrc_tx_desc d = v[i];

		d.ts = (uint32_t)(s.now - 10000);
		s.rx(s.ack(v[0].psn, {v[1].psn, v[2].psn, v[3].psn}, &d));
	}
	EXPECT_TRUE(s.drain().empty());
	uint64_t d = mrc_conn_next_deadline(s.c);

	ASSERT_LT(d, r[0].ts + 20000ull);
	ASSERT_LT(d, s.now + mrc_ack_timeout_ns(cfg.ack_timeout_exp));
	s.timer_to(d);
	auto r2 = s.drain();

	ASSERT_EQ(r2.size(), 1u);
	EXPECT_EQ(r2[0].psn, v[0].psn);
	EXPECT_TRUE(r2[0].flags & MRC_F_RETX);
	EXPECT_NE(r2[0].ev, r[0].ev);
	EXPECT_EQ(s.stats().timeouts, 0u);
}

TEST(EngineTx, LossBeforeTheTailWaitsForItsPath)
{
	auto cfg = solo_config();

	cfg.tail_resend = 1;
	cfg.cc.init_cwnd = cfg.cc.max_cwnd = 4000;
	Solo s(cfg, 4);

	auto v = tail_start(s, 40000);

	ASSERT_EQ(v.size(), 4u);
	s.drain();
	// More to send: later deliveries will judge v[0]; its path's own
	// bound applies.
	EXPECT_GT(mrc_conn_next_deadline(s.c), v[0].ts + 25000ull);
}

TEST(EngineTx, TailResendIsOffByDefault)
{
	Solo s(solo_config(), 4);

	auto v = tail_start(s, 4000);

	ASSERT_EQ(v.size(), 4u);
	// Paths of different delays: path 0's own bound, however long.
	EXPECT_GT(mrc_conn_next_deadline(s.c), v[0].ts + 25000ull);
}

TEST(EngineNack, TrimmedIsRetransmittedAtOnceWithoutBlamingThePath)
{
	Solo s(solo_config(), 4);

	s.send(3000);
	auto v = s.drain();

	s.rx(s.nack(v[1].psn, v[0].psn, MRC_NACK_TRIMMED));
	auto r = s.drain();

	ASSERT_EQ(r.size(), 1u);
	EXPECT_EQ(r[0].psn, v[1].psn);
	EXPECT_TRUE(r[0].flags & MRC_F_RETX);
	EXPECT_EQ(mrc_conn_ev_state(s.c, v[1].ev), MRC_EV_GOOD);
	EXPECT_EQ(s.stats().nacks_rx, 1u);
}

TEST(EngineNack, RemoteAccessErrorFailsTheMessageAndConnection)
{
	Solo s(solo_config());

	s.send(1000);
	s.send(2000);
	s.send(1000);
	auto v = s.drain();

	// Message 0 acknowledged with the NACK's cumulative PSN.
	s.rx(s.nack(v[2].psn, v[1].psn, MRC_NACK_REMOTE_ACCESS_ERROR));
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_REMOTE_ACCESS);
	ASSERT_EQ(s.send_done.size(), 3u);
	EXPECT_EQ(s.send_done[0], std::make_pair(0u, (int)MRC_ST_OK));
	EXPECT_EQ(s.send_done[1], std::make_pair(1u, (int)MRC_ST_REMOTE_ACCESS));
	EXPECT_EQ(s.send_done[2], std::make_pair(2u, (int)MRC_ST_FLUSHED));
	EXPECT_EQ(s.rx(s.ack(v[3].psn, {})), -EPIPE);
}

TEST(EngineNack, InvalidRequestFailsTheConnection)
{
	Solo s(solo_config());

	s.send(1000);
	auto v = s.drain();

	s.rx(s.nack(v[0].psn, v[0].psn, MRC_NACK_INVALID_REQUEST));
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_INVALID_REQUEST);
	ASSERT_EQ(s.send_done.size(), 1u);
	EXPECT_EQ(s.send_done[0].second, MRC_ST_INVALID_REQUEST);
}

TEST(EngineNack, RnrWaitsTheTimerThenRetries)
{
	auto cfg = solo_config();

	cfg.rnr_retry = 2;
	Solo s(cfg);

	s.send(1000);
	auto v = s.drain();

	for (int round = 1; round <= 2; round++) {
		s.rx(s.nack(v[0].psn, v[0].psn, MRC_NACK_RNR, 50));
		EXPECT_TRUE(s.drain().empty()); // not before the timer
		EXPECT_EQ(mrc_conn_next_deadline(s.c), s.now + 50000);
		s.timer_to(s.now + 50000);
		auto r = s.drain();

		ASSERT_EQ(r.size(), 1u) << round;
		EXPECT_TRUE(r[0].flags & MRC_F_RETX);
		EXPECT_EQ(mrc_conn_status(s.c), 0);
	}
	// Third RNR in a row without progress: retries exhausted.
	s.rx(s.nack(v[0].psn, v[0].psn, MRC_NACK_RNR, 50));
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RNR_EXCEEDED);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 0), MRC_EV_GOOD);
}

TEST(EngineNack, OutOfWindowIsResentLaterWithoutBlame)
{
	Solo s(solo_config(), 2);

	s.send(2000);
	auto v = s.drain();

	s.rx(s.nack(v[0].psn, v[0].psn, MRC_NACK_OUT_OF_WINDOW));
	EXPECT_TRUE(s.drain().empty()); // not at once
	s.run_timers_until(s.now + 2 * mrc_ack_timeout_ns(12));
	auto r = s.drain();

	ASSERT_FALSE(r.empty());
	EXPECT_EQ(r[0].psn, v[0].psn);
	EXPECT_EQ(mrc_conn_ev_state(s.c, v[0].ev), MRC_EV_GOOD);
}

TEST(EngineRx, InOrderCompletionWithOutOfOrderArrival)
{
	Solo s(solo_config());
	// Messages: 0 = psn 0..2, 1 = psn 3, 2 = psn 4..5; arrive reversed.
	std::vector<struct mrc_pkt> p = {
		Solo::data(0, 0, 0, 1000, 2500),
		Solo::data(1, 0, 1000, 1000, 2500),
		Solo::data(2, 0, 2000, 500, 2500),
		Solo::data(3, 1, 0, 10, 10),
		Solo::data(4, 2, 0, 1000, 1001),
		Solo::data(5, 2, 1000, 1, 1001),
	};

	for (int i = 5; i >= 1; i--) {
		EXPECT_EQ(s.rx(p[i]), MRC_RX_ACCEPTED);
		EXPECT_TRUE(s.recv_done.empty()) << i;
	}
	EXPECT_EQ(s.placed.size(), 5u); // placed on arrival
	EXPECT_EQ(s.rx(p[0]), MRC_RX_ACCEPTED);
	EXPECT_EQ(s.recv_done, (std::vector<uint32_t>{0, 1, 2}));
	// Each completion names its message's last PSN (the glue's key).
	EXPECT_EQ(s.recv_last, (std::vector<uint32_t>{2, 3, 5}));
	EXPECT_EQ(s.stats().rcv_nxt, 6u);
}

TEST(EngineTx, AbortFlushesEveryMessageThenFails)
{
	Solo s(solo_config());

	s.send(2500);
	s.send(10);
	s.drain();
	mrc_conn_abort(s.c, s.now);
	ASSERT_EQ(s.send_done.size(), 2u);
	EXPECT_EQ(s.send_done[0].second, (int)MRC_ST_FLUSHED);
	EXPECT_EQ(s.send_done[1].second, (int)MRC_ST_FLUSHED);
	ASSERT_FALSE(s.events.empty());
	EXPECT_EQ(s.events.back().type, MRC_EVT_CONN_FAILED);
	EXPECT_EQ(mrc_conn_status(s.c), (int)MRC_ST_FLUSHED);
	mrc_conn_abort(s.c, s.now); // idempotent
	EXPECT_EQ(s.send_done.size(), 2u);
}

TEST(EngineTx, StaleRetransmissionDoesNotBlockNewData)
{
	Solo s(solo_config());

	s.send(1000);
	auto v = s.drain();
	ASSERT_EQ(v.size(), 1u);
	// The ACK timeout declares it lost; its ACK then arrives late, so the
	// retransmit queue holds only a stale entry.
	s.run_timers_until(s.now + mrc_ack_timeout_ns(12) + 1);
	s.rx(s.ack(v[0].psn + 1, {}, &v[0]));
	ASSERT_EQ(s.send_done.size(), 1u);
	// Nothing is in flight: the first call must send the new message.
	s.send(1000);
	struct mrc_tx_desc d;
	ASSERT_TRUE(mrc_conn_tx_next(s.c, s.now, &d));
	EXPECT_EQ(d.psn, v[0].psn + 1);
	EXPECT_FALSE(d.flags & MRC_F_RETX);
}

TEST(EngineTimer, SetRetryAppliesToTheRunningConnection)
{
	Solo s(solo_config());

	// A QP in RTR may already send (READ responses); RTS sets these.
	EXPECT_EQ(mrc_conn_set_retry(s.c, 10, 3, 2), 0);
	s.send(2500);
	s.drain();
	EXPECT_EQ(mrc_conn_set_retry(s.c, 25, 3, 2), -EINVAL);
	EXPECT_EQ(mrc_conn_set_retry(s.c, 10, 8, 2), -EINVAL);
	EXPECT_EQ(s.stats().rto, mrc_ack_timeout_ns(10));
	s.run_timers_until(s.now + mrc_ack_timeout_ns(10) + 1);
	EXPECT_EQ(s.stats().timeouts, 1u);
}

TEST(EngineRx, DuplicatesAreReAckedNotPlacedTwice)
{
	Solo s(solo_config());
	auto a = Solo::data(0, 0, 0, 1000, 2000);
	auto b = Solo::data(3, 1, 0, 10, 10);

	EXPECT_EQ(s.rx(a), MRC_RX_ACCEPTED);
	EXPECT_EQ(s.rx(b), MRC_RX_ACCEPTED); // beyond a gap
	size_t acks = s.count_ctrl(MRC_OP_ACK);

	EXPECT_EQ(s.rx(a), MRC_RX_DUPLICATE);	       // below rcv_nxt
	EXPECT_EQ(s.rx(b), MRC_RX_DUPLICATE);	       // SACKed already
	EXPECT_EQ(s.count_ctrl(MRC_OP_ACK), acks + 2); // each re-ACKed
	EXPECT_EQ(s.placed.size(), 2u);
	EXPECT_EQ(s.stats().rx_dup, 2u);
	const auto &last = s.ctrl.back().u.ack;

	EXPECT_EQ(last.cum_psn, 1u);
	EXPECT_EQ(last.sack_base, 1u);
	EXPECT_EQ(last.sack[0], 1ull << 2); // PSN 3
}

TEST(EngineRx, BeyondTheReorderWindowIsNackedAndDropped)
{
	auto cfg = solo_config();

	cfg.mpr = 2;
	Solo s(cfg);

	EXPECT_EQ(s.rx(Solo::data(2 * 128 - 1, 0, 0, 10, 10)), MRC_RX_ACCEPTED);
	EXPECT_EQ(s.rx(Solo::data(2 * 128, 1, 0, 10, 10)), MRC_RX_OUT_OF_WINDOW);
	ASSERT_EQ(s.count_ctrl(MRC_OP_NACK), 1u);
	EXPECT_EQ(s.ctrl.back().u.nack.reason, MRC_NACK_OUT_OF_WINDOW);
	EXPECT_EQ(s.ctrl.back().u.nack.psn, 256u);
	EXPECT_EQ(s.placed.size(), 1u);
	EXPECT_EQ(s.stats().rx_oow, 1u);
	// Far behind is a duplicate, not out of window.
	EXPECT_EQ(s.rx(Solo::data(0u - 5, 0, 0, 10, 10)), MRC_RX_DUPLICATE);
}

TEST(EngineRx, PlaceRefusalIsNackedWithItsReason)
{
	Solo s(solo_config());

	s.place_ret = MRC_NACK_RNR;
	EXPECT_EQ(s.rx(Solo::data(0, 0, 0, 10, 10)), MRC_RX_NACKED);
	ASSERT_EQ(s.count_ctrl(MRC_OP_NACK), 1u);
	EXPECT_EQ(s.ctrl.back().u.nack.reason, MRC_NACK_RNR);
	EXPECT_GT(s.ctrl.back().u.nack.rnr_timer_us, 0u);
	EXPECT_EQ(s.stats().rcv_nxt, 0u); // not received
	s.place_ret = 0;
	EXPECT_EQ(s.rx(Solo::data(0, 0, 0, 10, 10)), MRC_RX_ACCEPTED);
	EXPECT_EQ(s.recv_done.size(), 1u);
	EXPECT_EQ(s.rx(Solo::data(1, 1, 0, 10, 10), MRC_RX_TRIMMED),
		  MRC_RX_NACKED);
	EXPECT_EQ(s.ctrl.back().u.nack.reason, MRC_NACK_TRIMMED);
}

TEST(EngineRx, AckCoalescingEveryNOrAfterDelay)
{
	auto cfg = solo_config();

	cfg.ack_every = 4;
	cfg.ack_delay = 7000;
	Solo s(cfg);

	for (uint32_t i = 0; i < 3; i++)
		s.rx(Solo::data(i, i, 0, 10, 10));
	EXPECT_EQ(s.count_ctrl(MRC_OP_ACK), 0u);
	EXPECT_EQ(mrc_conn_next_deadline(s.c), s.now + 7000);
	s.rx(Solo::data(3, 3, 0, 10, 10));
	ASSERT_EQ(s.count_ctrl(MRC_OP_ACK), 1u); // the 4th
	EXPECT_EQ(s.ctrl.back().u.ack.cum_psn, 4u);
	EXPECT_EQ(s.ctrl.back().u.ack.msn, 4u);
	EXPECT_EQ(mrc_conn_next_deadline(s.c), MRC_TIME_NEVER);

	uint64_t arrival = s.now;

	s.rx(Solo::data(4, 4, 0, 10, 10));
	s.timer_to(arrival + 7000);
	ASSERT_EQ(s.count_ctrl(MRC_OP_ACK), 2u); // the delay
	EXPECT_EQ(s.ctrl.back().u.ack.cum_psn, 5u);
	// Service time: arrival of the echoed packet to the ACK.
	EXPECT_EQ(s.ctrl.back().u.ack.svc_time, 7000u);
}

TEST(EngineRx, AckAtOnceOnGapEcnAndAckRequest)
{
	Solo s(solo_config());

	s.rx(Solo::data(1, 0, 0, 10, 10)); // gap: 0 missing
	EXPECT_EQ(s.count_ctrl(MRC_OP_ACK), 1u);
	s.rx(Solo::data(0, 0, 0, 10, 10)); // fills the gap
	EXPECT_EQ(s.count_ctrl(MRC_OP_ACK), 2u);
	EXPECT_EQ(s.ctrl.back().u.ack.cum_psn, 2u);
	s.rx(Solo::data(2, 1, 0, 10, 10), MRC_RX_ECN_CE);
	EXPECT_EQ(s.count_ctrl(MRC_OP_ACK), 3u);
	EXPECT_EQ(s.ctrl.back().u.ack.ecn, MRC_ACK_ECN_CE);
	auto p = Solo::data(3, 2, 0, 10, 10);

	p.hdr.flags |= MRC_F_ACK_REQ;
	s.rx(p);
	EXPECT_EQ(s.count_ctrl(MRC_OP_ACK), 4u);
	EXPECT_EQ(s.ctrl.back().u.ack.ecn, 0);
	EXPECT_EQ(s.stats().acks_tx, 4u);
}

TEST(EngineRx, AckEchoesPathAndTimestampAndSacksFarPackets)
{
	Solo s(solo_config(), 8);
	auto p = Solo::data(300, 0, 0, 10, 10, 5);

	p.hdr.ts = 0x12345678;
	p.hdr.plane = 1;
	s.rx(p);
	ASSERT_EQ(s.count_ctrl(MRC_OP_ACK), 1u);
	const auto &k = s.ctrl.back();

	EXPECT_EQ(k.hdr.ev, 5); // back on the same index
	EXPECT_EQ(k.u.ack.echo_ev, 5);
	EXPECT_EQ(k.u.ack.ts_echo, 0x12345678u);
	EXPECT_EQ(k.u.ack.cum_psn, 0u);
	// 300 is beyond a bitmap starting at 0: it ends at 300 instead.
	uint32_t i = 300 - k.u.ack.sack_base;

	ASSERT_LT(i, (uint32_t)MRC_SACK_BITS);
	EXPECT_TRUE(k.u.ack.sack[i / 64] >> (i % 64) & 1);
	uint32_t bits = 0;

	for (uint64_t w : k.u.ack.sack)
		bits += (uint32_t)__builtin_popcountll(w);
	EXPECT_EQ(bits, 1u);
}

TEST(EngineRx, AckedSackRoundTripsThroughTheWire)
{
	Solo s(solo_config());
	std::vector<uint8_t> buf(512);
	struct mrc_pkt back;

	s.rx(Solo::data(2, 0, 0, 10, 10));
	s.rx(Solo::data(5, 0, 0, 10, 10));
	ASSERT_FALSE(s.ctrl.empty());
	int n = mrc_pkt_encode(&s.ctrl.back(), buf.data(), (uint32_t)buf.size());

	ASSERT_GT(n, 0) << mrc_wire_strerror(n);
	ASSERT_EQ(mrc_pkt_decode(buf.data(), (uint32_t)n, &back), 0);
	EXPECT_EQ(back.u.ack.sack[0], s.ctrl.back().u.ack.sack[0]);
	EXPECT_EQ(back.u.ack.sack[0], (1ull << 2) | (1ull << 5));
}

TEST(EngineTx, DescriptorBecomesAValidWirePacket)
{
	Solo s(solo_config(), 3);

	s.send(2500);
	auto v = s.drain();
	std::vector<uint8_t> buf(4096);
	static const uint8_t payload[1000] = {};

	ASSERT_EQ(v.size(), 3u);
	for (const auto &d : v) {
		struct mrc_pkt pkt, back;

		mrc_tx_desc_to_pkt(&d, &pkt);
		pkt.u.write.va = 0x10000 + d.offset;
		pkt.u.write.rkey = 7;
		pkt.payload = payload;
		int n = mrc_pkt_encode(&pkt, buf.data(), (uint32_t)buf.size());

		ASSERT_GT(n, 0) << mrc_wire_strerror(n);
		ASSERT_EQ(mrc_pkt_decode(buf.data(), (uint32_t)n, &back), 0);
		EXPECT_EQ(back.hdr.psn, d.psn);
		EXPECT_EQ(back.hdr.ev, d.ev);
		EXPECT_EQ(back.hdr.plane, d.plane);
		EXPECT_EQ(back.hdr.flags, d.flags);
		EXPECT_EQ(back.u.write.msg.offset, d.offset);
		EXPECT_EQ(back.u.write.msg.msg_len, 2500u);
		EXPECT_EQ(back.payload_len, d.len);
	}
}

TEST(EngineTimer, StatsReportTheBackedOffTimeout)
{
	auto cfg = retry_config(1, 5);
	Solo s(cfg);
	uint64_t base = mrc_ack_timeout_ns(cfg.ack_timeout_exp);

	s.send(10);
	s.drain();
	EXPECT_EQ(s.stats().rto, base);
	for (int k = 1; k <= 3; k++) {
		s.timer_to(mrc_conn_next_deadline(s.c));
		s.drain();
		EXPECT_EQ(s.stats().rto, k <= 1 ? base : base << (k - 1)) << k;
	}
}

TEST(EngineTimer, NoUsablePathFailsWithNoPathAfterTheRetries)
{
	auto cfg = retry_config(1, 1);
	for (bool in_flight : {false, true}) {
		Solo s(cfg, 2);

		if (in_flight) {
			s.send(100);
			ASSERT_EQ(s.drain().size(), 1u);
		}
		mrc_conn_plane_set(s.c, 1, false, s.now);
		s.send(100);
		EXPECT_TRUE(s.drain().empty());
		ASSERT_NE(mrc_conn_next_deadline(s.c), MRC_TIME_NEVER);
		for (int k = 1; k <= 2; k++) {
			s.timer_to(mrc_conn_next_deadline(s.c));
			EXPECT_TRUE(s.drain().empty());
			EXPECT_EQ(mrc_conn_status(s.c), 0) << k;
		}
		s.timer_to(mrc_conn_next_deadline(s.c));
		EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_NO_PATH) << in_flight;
		ASSERT_FALSE(s.send_done.empty());
		EXPECT_EQ(s.send_done[0].second, MRC_ST_NO_PATH);
	}
}

TEST(EngineTimer, PathBackInTimeRecovers)
{
	auto cfg = retry_config(1, 1);
	Solo s(cfg, 2);

	s.send(100);
	auto v = s.drain();

	mrc_conn_plane_set(s.c, 1, false, s.now);
	s.timer_to(mrc_conn_next_deadline(s.c));
	EXPECT_TRUE(s.drain().empty());
	mrc_conn_plane_set(s.c, 1, true, s.now);
	auto r = s.drain();

	ASSERT_EQ(r.size(), 1u);
	EXPECT_TRUE(r[0].flags & MRC_F_RETX);
	s.rx(s.ack(r[0].psn + 1, {}, &r[0]));
	ASSERT_EQ(s.send_done.size(), 1u);
	EXPECT_EQ(s.send_done[0].second, MRC_ST_OK);
	EXPECT_TRUE(mrc_conn_idle(s.c));
	// Only probes of the EV blamed for the timeout remain scheduled.
	s.run_timers_until(s.now + 100 * mrc_ack_timeout_ns(12));
	EXPECT_EQ(mrc_conn_status(s.c), 0);
	EXPECT_EQ(s.stats().timeouts, 1u);
	EXPECT_GT(s.count_ctrl(MRC_OP_PROBE_REQ), 0u);
}

// The responder's service time in an ACK is not path delay: the RTT
// sample leaves it out, unless the peer does not report one (OCP
// SVC_TIME_DEST_UNSUPPORTED: mrc_conn_set_peer_svc_time(false)), whose
// field is then ignored whatever it holds.
TEST(EngineTimer, RttSampleLeavesOutTheServiceTime)
{
	for (bool reported : {true, false}) {
		Solo s(solo_config());
		struct mrc_ev_cfg ev = {};

		ev.plane = 1;
		ASSERT_EQ(mrc_conn_set_evs(s.c, &ev, 1, s.now), 0);
		mrc_conn_set_peer_svc_time(s.c, reported);
		s.send(1000);
		auto v = s.drain();
		ASSERT_EQ(v.size(), 1u);
		// 50 us round trip, of which the responder held 30 us.
		s.now += 50000;
		s.rx(s.ack(v[0].psn + 1, {}, &v[0], false, 30000));
		struct mrc_conn_stats st;
		mrc_conn_get_stats(s.c, &st);
		EXPECT_EQ(st.srtt, reported ? 20000u : 50000u)
			<< (reported ? "reported" : "not reported");
	}
}
