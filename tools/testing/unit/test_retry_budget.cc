// SPDX-License-Identifier: GPL-2.0-only
// The ACK timeout's retry budget against a peer that vanished: it counts
// from the oldest unacknowledged packet, and new work posted meanwhile
// (a liveness probe every second, say) must not push the failure out.  A
// READ or ATOMIC the peer ACKed but never answered counts as unacknowledged.
#include <gtest/gtest.h>

#include "engine_harness.h"

using namespace mrc_test;

namespace {

constexpr uint64_t kSec = 1000000000ull;

// Sum of every wait before the failing expiry: retry_cnt + 1 waits of the
// base timeout, then base x 2, x 4, ... x 2^backoff_cnt.
uint64_t budget(const struct mrc_conn_config &cfg)
{
	uint64_t base = mrc_ack_timeout_ns(cfg.ack_timeout_exp);
	uint64_t t = base * (cfg.retry_cnt + 1u);

	for (uint32_t k = 1; k <= cfg.backoff_cnt; k++)
		t += base << k;
	return t;
}

// A first message acknowledged so that every EV has an RTT estimate, as
// on a connection that worked until the peer went away.
void warm_up(Solo &s, uint32_t n_evs)
{
	s.send(1024 * n_evs);
	auto v = s.drain();

	s.now += 20000;
	for (const auto &d : v)
		s.rx(s.ack(d.psn + 1, {}, &d));
	ASSERT_TRUE(mrc_conn_idle(s.c));
}

// The caller's side while the peer is silent from @t0: a 64-byte message
// posted every second (the first at t0), the timers run in between,
// until the connection fails or 200 s have passed.  After each step's
// drain, @after(seen), seen the number of control packets before the
// step.  Returns the number of messages posted.
template <class After>
uint32_t post_every_second(Solo &s, uint64_t t0, After after)
{
	uint64_t next_post = t0;
	uint32_t posted = 0;

	while (!mrc_conn_status(s.c) && s.now < t0 + 200 * kSec) {
		uint64_t d = mrc_conn_next_deadline(s.c);
		size_t seen = s.ctrl.size();

		if (next_post <= d) {
			s.now = std::max(s.now, next_post);
			s.send(64);
			posted++;
			next_post += kSec;
		} else {
			s.timer_to(std::max(s.now, d));
		}
		s.drain();
		after(seen);
	}
	return posted;
}

} // namespace

// The peer drops everything from t0; the caller posts a 64-byte message
// every second.  The connection fails with RETRY_EXCEEDED no later than
// the budget after the first unacknowledged packet was sent.
TEST(EngineRetryBudget, NewWorkDoesNotPostponeFailure)
{
	const auto cfg = kernel_config();

	for (uint32_t n_evs : {1u, 4u, 16u}) {
		Solo s(cfg, n_evs);

		warm_up(s, n_evs);
		const uint64_t t0 = s.now;
		const uint64_t limit = t0 + budget(cfg);
		const uint32_t posted = post_every_second(s, t0, [](size_t) {});

		EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RETRY_EXCEEDED) << n_evs;
		EXPECT_LE(s.now, limit)
			<< n_evs << " EVs: failed " << (s.now - t0) / 1000000
			<< " ms after the first loss";
		// Failing sooner than the budget would cut retries short.
		EXPECT_GE(s.now, limit) << n_evs;
		ASSERT_FALSE(s.send_done.empty());
		// Message 0 was the warm-up; the first lost one fails, the rest
		// are flushed.
		EXPECT_EQ(s.send_done[1],
			  std::make_pair(1u, (int)MRC_ST_RETRY_EXCEEDED));
		EXPECT_EQ(s.send_done.size(), posted + 1u);
		for (size_t i = 2; i < s.send_done.size(); i++)
			EXPECT_EQ(s.send_done[i].second, MRC_ST_FLUSHED) << i;
		ASSERT_FALSE(s.events.empty());
		EXPECT_EQ(s.events.back().type, MRC_EVT_CONN_FAILED);
		EXPECT_EQ(s.events.back().status, MRC_ST_RETRY_EXCEEDED);
	}
}

// A connection whose round trips are longer than the ACK timeout (a slow
// guest): each wait is at least its RTT bound (mrc_tx_rto()), but the
// bound is a floor under each of them, not a new base for the back-off,
// so a vanished peer is still found soon: within the budget plus one RTT
// bound per expiry (at most 23 s here), not the budget scaled by the bound
// over the ACK timeout (97 s).
TEST(EngineRetryBudget, SlowRoundTripsLengthenEachWaitByOneRttAtMost)
{
	const auto cfg = kernel_config();
	Solo s(cfg, 4);
	const uint64_t rtt = 200000000; // 200 ms, three ACK timeouts

	s.send(4096);
	auto v = s.drain();
	ASSERT_EQ(v.size(), 4u);
	s.run_timers_until(s.now + rtt);
	s.drain();
	for (const auto &d : v)
		s.rx(s.ack(v.back().psn + 1, {}, &d));
	ASSERT_TRUE(mrc_conn_idle(s.c));
	// No expiry yet: the timeout is the RTT bound, above the ACK timeout.
	const uint64_t bound = s.stats().rto;
	ASSERT_GT(bound, mrc_ack_timeout_ns(cfg.ack_timeout_exp));

	const uint64_t t0 = s.now;
	const uint32_t waits = cfg.retry_cnt + 1u + cfg.backoff_cnt;

	post_every_second(s, t0, [](size_t) {});
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RETRY_EXCEEDED);
	EXPECT_GT(s.now, t0 + budget(cfg));
	EXPECT_LE(s.now, t0 + budget(cfg) + waits * bound)
		<< "failed " << (s.now - t0) / 1000000
		<< " ms after the loss, bound " << bound / 1000000 << " ms";
}

// Every EV retired (ev_min_active 0) and only probes going out, none of
// them answered: the budget still runs from the first unacknowledged
// packet, and the failure says no path was left.
TEST(EngineRetryBudget, AllEvsBadWithOnlyProbesFailsNoPathInBudget)
{
	auto cfg = kernel_config();

	cfg.ev_min_active = 0;
	Solo s(cfg, 4);

	warm_up(s, 4);
	const uint64_t t0 = s.now;
	bool all_bad_seen = false;

	post_every_second(s, t0, [&](size_t) {
		if (!mrc_conn_status(s.c) && !s.stats().evs_usable)
			all_bad_seen = true;
	});
	EXPECT_TRUE(all_bad_seen);
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_NO_PATH);
	EXPECT_EQ(s.now, t0 + budget(cfg));
	EXPECT_GT(s.count_ctrl(MRC_OP_PROBE_REQ), 4u);
	ASSERT_GE(s.send_done.size(), 2u);
	EXPECT_EQ(s.send_done[1], std::make_pair(1u, (int)MRC_ST_NO_PATH));
}

// Probes come back (the paths look alive) but data never is
// acknowledged: probe answers are no progress and reset nothing.
TEST(EngineRetryBudget, AnsweredProbesDoNotResetTheBudget)
{
	auto cfg = kernel_config();

	cfg.ev_min_active = 0;
	Solo s(cfg, 4);

	warm_up(s, 4);
	const uint64_t t0 = s.now;
	uint64_t answered = 0;

	post_every_second(s, t0, [&](size_t seen) {
		for (size_t i = seen; i < s.ctrl.size(); i++) {
			const struct mrc_pkt req = s.ctrl[i];
			struct mrc_pkt resp;

			if (req.hdr.opcode != MRC_OP_PROBE_REQ)
				continue;
			mrc_pkt_init(&resp, MRC_OP_PROBE_RESP);
			resp.hdr.ev = req.hdr.ev;
			resp.hdr.plane = req.hdr.plane;
			resp.u.probe = req.u.probe;
			resp.u.probe.ts_echo = req.hdr.ts;
			s.rx(resp);
			answered++;
		}
		s.drain();
	});
	EXPECT_GT(answered, 0u);
	EXPECT_EQ(s.stats().probes_ok, answered);
	EXPECT_NE(mrc_conn_status(s.c), 0);
	EXPECT_EQ(s.now, t0 + budget(cfg));
	ASSERT_GE(s.send_done.size(), 2u);
	EXPECT_NE(s.send_done[1].second, MRC_ST_OK);
}

// End to end through the simulated link: the server's packets stop
// arriving (its egress cut, as netem loss 100% does) either while the
// client is idle between batches or in the middle of a transfer.  The
// client then keeps one small message outstanding as its liveness check
// (mrc_verify's 8-byte READ; the harness places SENDs), a new one as soon
// as the previous completed.  It fails one budget after the silence.
TEST(EngineRetryBudget, SilentPeerEndToEndBetweenBatchesAndMidTransfer)
{
	auto cfg = kernel_config();

	for (bool mid : {false, true}) {
		Harness h(3, &cfg, std::vector<PathModel>(4));

		for (int m = 0; m < 4; m++)
			h.send(0, 8192);
		ASSERT_TRUE(h.run_until_idle(h.now + kSec)) << h.failure;
		if (mid) {
			for (int m = 0; m < 64; m++)
				h.send(0, 65536);
			h.run_for(200000);
			ASSERT_FALSE(mrc_conn_idle(h.ep[0].c));
		}
		h.silent[1] = true;
		const uint64_t t_sil = h.now;
		// ACKs already on the wire (one path delay) still land.
		const uint64_t slack = 2 * h.paths[0].delay;

		while (!mrc_conn_status(h.ep[0].c) && h.now < t_sil + 200 * kSec) {
			if (mrc_conn_idle(h.ep[0].c))
				h.send(0, 8);
			h.run_for(kSec / 10);
		}
		ASSERT_TRUE(h.failure.empty()) << h.failure;
		EXPECT_EQ(mrc_conn_status(h.ep[0].c), MRC_ST_RETRY_EXCEEDED)
			<< mid;
		ASSERT_FALSE(h.ep[0].events.empty());
		const uint64_t t_fail = h.ep[0].events.back().time;

		EXPECT_EQ(h.ep[0].events.back().type, MRC_EVT_CONN_FAILED);
		EXPECT_GT(h.silenced, 0u);
		EXPECT_LE(t_fail, t_sil + slack + budget(cfg))
			<< (mid ? "mid-transfer" : "between batches") << ": "
			<< (t_fail - t_sil) / 1000000 << " ms";
		// Between batches the first liveness message goes out at once.
		EXPECT_GE(t_fail, t_sil + budget(cfg)) << mid;
	}
}

namespace {

uint32_t post(Solo &s, uint8_t op, uint32_t len)
{
	struct mrc_msg m {};
	uint32_t msn = ~0u;

	m.opcode = op;
	m.len = len;
	m.ack_req = 1;
	EXPECT_EQ(mrc_conn_send(s.c, &m, &msn, s.now), 0);
	return msn;
}

// Packet @i of an @n-packet READ response of the peer's stream.
struct mrc_pkt resp_pkt(uint32_t psn, uint32_t rsn, uint32_t i, uint32_t n)
{
	struct mrc_pkt p = Solo::data(psn, rsn, i * 1024, 1024, n * 1024);

	p.hdr.opcode = MRC_OP_READ_RESP;
	return p;
}

} // namespace

// The peer ACKs a READ request and then vanishes before answering: the
// request is complete on our stream, but the response it owes keeps the
// ACK timeout running, and the connection fails one budget after the ACK
// (in IB the response is the acknowledgement, so the requester's retries
// cover it; without this the work request would wait forever).
TEST(EngineRetryBudget, ReadAckedButNeverAnsweredFailsInBudget)
{
	const auto cfg = kernel_config();

	for (uint8_t op : {MRC_OP_READ_REQ, MRC_OP_ATOMIC_FA}) {
		Solo s(cfg, 4);

		warm_up(s, 4);
		post(s, op, op == MRC_OP_READ_REQ ? 0 : 8);
		auto v = s.drain();

		ASSERT_EQ(v.size(), 1u);
		s.now += 20000;
		s.rx(s.ack(v[0].psn + 1, {}, &v[0]));
		ASSERT_EQ(s.send_done.size(), 2u);
		EXPECT_EQ(s.send_done[1], std::make_pair(1u, (int)MRC_ST_OK));
		const uint64_t t_ack = s.now;

		EXPECT_EQ(mrc_conn_next_deadline(s.c),
			  t_ack + mrc_ack_timeout_ns(cfg.ack_timeout_exp));
		s.run_timers_until(t_ack + 200 * kSec);
		EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RETRY_EXCEEDED) << +op;
		ASSERT_FALSE(s.events.empty());
		EXPECT_EQ(s.events.back().type, MRC_EVT_CONN_FAILED);
		EXPECT_EQ(s.events.back().time, t_ack + budget(cfg)) << +op;
		// Nothing of ours was in flight: nothing resent.
		EXPECT_EQ(s.stats().retx_pkts, 0u);
		EXPECT_EQ(s.send_done.size(), 2u);
	}
}

// A response that keeps arriving, however slowly, is progress; once it
// completed nothing is owed and no timer is left.
TEST(EngineRetryBudget, ResponsePacketsAreProgressUntilTheResponseCompletes)
{
	const auto cfg = kernel_config();
	const uint64_t base = mrc_ack_timeout_ns(cfg.ack_timeout_exp);
	const uint32_t n = 400;
	Solo s(cfg, 4);

	post(s, MRC_OP_READ_REQ, 0);
	auto v = s.drain();

	s.now += 20000;
	s.rx(s.ack(v[0].psn + 1, {}, &v[0]));
	// One response packet every 1.5 base timeouts: one expiry before
	// each, and 400 of them take far longer than the whole budget.
	for (uint32_t i = 0; i < n; i++) {
		s.run_timers_until(s.now + base + base / 2);
		ASSERT_EQ(s.rx(resp_pkt(i, 0, i, n)), MRC_RX_ACCEPTED) << i;
		ASSERT_EQ(mrc_conn_status(s.c), 0) << i;
	}
	EXPECT_GT((uint64_t)n * (base + base / 2), budget(cfg));
	EXPECT_EQ(s.recv_done.size(), 1u);
	EXPECT_EQ(s.stats().timeouts, (uint64_t)n);
	EXPECT_EQ(s.stats().retx_pkts, 0u);
	s.run_timers_until(s.now + 200 * kSec);
	EXPECT_EQ(mrc_conn_status(s.c), 0);
	EXPECT_EQ(mrc_conn_next_deadline(s.c), MRC_TIME_NEVER);
}

// While packets of ours are unacknowledged, response packets arriving
// are no progress for them: their budget runs out as usual.
TEST(EngineRetryBudget, ResponsesDoNotExtendTheBudgetOfOurUnackedPackets)
{
	const auto cfg = kernel_config();
	Solo s(cfg, 4);

	warm_up(s, 4);
	post(s, MRC_OP_READ_REQ, 0);
	auto v = s.drain();

	s.now += 20000;
	s.rx(s.ack(v[0].psn + 1, {}, &v[0]));
	post(s, MRC_OP_WRITE, 64);
	ASSERT_EQ(s.drain().size(), 1u);
	const uint64_t t0 = s.now;
	uint32_t psn = 0;

	while (!mrc_conn_status(s.c) && s.now < t0 + 200 * kSec) {
		s.run_timers_until(s.now + kSec / 4);
		s.drain();
		if (!mrc_conn_status(s.c)) {
			s.rx(resp_pkt(psn, 0, psn, 10000));
			psn++;
		}
	}
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RETRY_EXCEEDED);
	ASSERT_FALSE(s.events.empty());
	EXPECT_EQ(s.events.back().time, t0 + budget(cfg));
	EXPECT_GT(psn, 10u);
}
