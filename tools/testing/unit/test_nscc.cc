// SPDX-License-Identifier: GPL-2.0-only
// NSCC: each ECN x delay quadrant, the MD rate limit and cap, quick adapt
// with its gate, and the window bounds.
#include <gtest/gtest.h>

extern "C" {
#include "nscc.h"
}

namespace {

constexpr uint32_t kMtu = 1000;
constexpr uint64_t kT0 = 1000000;

struct mrc_nscc_params params()
{
	struct mrc_nscc_params p;

	mrc_nscc_params_default(&p);
	p.base_rtt = 10000;
	p.target_delay = 5000;
	p.qa_threshold = 40000;
	p.adjust_bytes = 1; // apply every increase at once
	p.adjust_period = 1000000;
	p.max_cwnd = 1 << 20;
	p.init_cwnd = 100000;
	return p;
}

struct mrc_nscc make(const struct mrc_nscc_params &p)
{
	struct mrc_nscc cc;

	mrc_nscc_init(&cc, &p, kMtu, kT0);
	return cc;
}

} // namespace

TEST(Nscc, ProportionalIncreaseScalesWithDistanceToTarget)
{
	auto p = params();
	auto at0 = make(p), near = make(p);

	EXPECT_EQ(mrc_nscc_on_ack(&at0, 10000, false, 0, kT0 + 1), MRC_NSCC_PI);
	EXPECT_EQ(mrc_nscc_on_ack(&near, 10000, false, 4000, kT0 + 1),
		  MRC_NSCC_PI);
	uint32_t g0 = at0.cwnd - p.init_cwnd, g1 = near.cwnd - p.init_cwnd;

	// eta MTUs per cwnd acked at zero delay: 10000 B acked of 100000.
	EXPECT_EQ(g0, (uint32_t)(10000ull * p.eta * kMtu / p.init_cwnd));
	// 1000 ns below target instead of 5000: a fifth of the growth.
	EXPECT_GT(g1, 0u);
	EXPECT_LT(g1, g0 / 4);
}

TEST(Nscc, FairIncreaseIsConstantAndSmall)
{
	auto p = params();
	auto a = make(p), b = make(p), pi = make(p);

	EXPECT_EQ(mrc_nscc_on_ack(&a, 10000, false, 6000, kT0 + 1), MRC_NSCC_FI);
	EXPECT_EQ(mrc_nscc_on_ack(&b, 10000, false, 30000, kT0 + 1), MRC_NSCC_FI);
	mrc_nscc_on_ack(&pi, 10000, false, 0, kT0 + 1);
	EXPECT_GT(a.cwnd, p.init_cwnd);
	EXPECT_EQ(a.cwnd, b.cwnd); // independent of the delay
	EXPECT_EQ(a.cwnd - p.init_cwnd,
		  (uint32_t)(10000ull * p.fi * kMtu / p.fi_scale / p.init_cwnd));
	EXPECT_LT(a.cwnd, pi.cwnd);
}

TEST(Nscc, EcnWithShortQueueHolds)
{
	auto p = params();
	auto cc = make(p);

	for (int i = 0; i < 50; i++)
		EXPECT_EQ(mrc_nscc_on_ack(&cc, 4000, true, 4999,
					  kT0 + 100 * (uint64_t)i),
			  MRC_NSCC_HOLD);
	EXPECT_EQ(cc.cwnd, p.init_cwnd);
}

TEST(Nscc, MultiplicativeDecreaseProportionalOncePerRoundTrip)
{
	auto p = params();
	auto cc = make(p);
	uint64_t t = kT0 + p.base_rtt;

	// Delay 8000 vs target 5000: cut by 3/8 of the window.
	EXPECT_EQ(mrc_nscc_on_ack(&cc, 1000, true, 8000, t), MRC_NSCC_MD);
	uint32_t want = p.init_cwnd - p.init_cwnd * 3 / 8;

	EXPECT_NEAR((double)cc.cwnd, (double)want, 2.0);
	uint32_t after = cc.cwnd;

	// Within the round trip (base RTT + the smoothed 8000 ns of queue)
	// the ACKs still show the queue before the cut: no second cut.
	uint64_t rtt = p.base_rtt + 8000;

	EXPECT_EQ(mrc_nscc_on_ack(&cc, 1000, true, 8000, t + p.base_rtt),
		  MRC_NSCC_MD);
	EXPECT_EQ(mrc_nscc_on_ack(&cc, 1000, true, 8000, t + rtt - 1),
		  MRC_NSCC_MD);
	EXPECT_EQ(cc.cwnd, after);
	mrc_nscc_on_ack(&cc, 1000, true, 8000, t + rtt);
	EXPECT_LT(cc.cwnd, after);
	EXPECT_EQ(cc.stat_md, 2u);
}

TEST(Nscc, MultiplicativeDecreaseFollowsTheSmoothedDelay)
{
	auto p = params();
	auto cc = make(p);
	uint64_t t = kT0 + p.base_rtt;

	// A sprayed connection whose ACKs show no queue, but one marked ACK
	// from a hot path with a long queue: that path is avoided by the
	// spraying; the connection's window is not cut.
	for (int i = 0; i < 64; i++)
		mrc_nscc_on_ack(&cc, 1000, false, 0, t);
	uint32_t before = cc.cwnd;

	EXPECT_EQ(mrc_nscc_on_ack(&cc, 0, true, 20000, t), MRC_NSCC_MD);
	EXPECT_EQ(cc.cwnd, before);
	EXPECT_EQ(cc.stat_md, 0u);
	// A queue on every path: the smoothed delay rises above the target
	// and the window is cut, in proportion to the excess.
	for (int i = 0; i < 64; i++)
		mrc_nscc_on_ack(&cc, 0, true, 20000, t + p.base_rtt);
	EXPECT_LT(cc.cwnd, before);
	EXPECT_EQ(cc.stat_md, 1u);
}

TEST(Nscc, MultiplicativeDecreaseIsCappedByMaxMdJump)
{
	auto p = params();
	auto cc = make(p);

	p.qa_threshold = 1u << 30; // keep quick adapt out of this test
	cc = make(p);
	mrc_nscc_on_ack(&cc, 1000, true, 1000000, kT0 + p.base_rtt);
	EXPECT_EQ(cc.cwnd, p.init_cwnd - (p.init_cwnd * p.max_md_jump >> 10));
}

TEST(Nscc, QuickAdaptOnLossCutsToAchieved)
{
	auto p = params();
	auto cc = make(p);
	uint64_t period = p.base_rtt + p.target_delay;

	// First period: only 20000 B acked, far below cwnd >> qa_gate.
	mrc_nscc_on_ack(&cc, 20000, false, 6000, kT0 + 10);
	uint32_t before = cc.cwnd;

	EXPECT_FALSE(mrc_nscc_on_loss(&cc, kT0 + 20)); // period not over
	EXPECT_EQ(cc.cwnd, before);
	EXPECT_EQ(mrc_nscc_on_ack(&cc, 0, false, 6000, kT0 + period),
		  MRC_NSCC_QA);
	EXPECT_EQ(cc.cwnd, 20000u);
	EXPECT_EQ(cc.stat_qa, 1u);
	// The next period starts clean: no trigger, no cut.
	mrc_nscc_on_ack(&cc, 1000, false, 6000, kT0 + 2 * period + 1);
	EXPECT_EQ(cc.stat_qa, 1u);
}

TEST(Nscc, QuickAdaptOnHighDelay)
{
	auto p = params();
	auto cc = make(p);
	uint64_t period = p.base_rtt + p.target_delay;

	mrc_nscc_on_ack(&cc, 5000, false, p.qa_threshold + 1, kT0 + 1);
	EXPECT_EQ(mrc_nscc_on_ack(&cc, 5000, false, 0, kT0 + period),
		  MRC_NSCC_QA);
	EXPECT_EQ(cc.cwnd, 10000u);
}

// A path slower than base_rtt assumes (a software path: 30 us of queue
// here, round trip 40 us): the period runs a whole round trip, so that a
// window's ACKs fit in it and a healthy connection is not cut.
TEST(Nscc, QuickAdaptPeriodCoversTheRoundTrip)
{
	auto p = params();
	auto cc = make(p);
	uint64_t rtt = p.base_rtt + 30000;

	// The first ACK shows the 30 us queue; the period then in progress
	// was armed at init and ends at base_rtt + target_delay.
	mrc_nscc_on_ack(&cc, 1000, false, 30000, kT0 + 1);
	mrc_nscc_on_ack(&cc, 0, false, 30000, kT0 + p.base_rtt + p.target_delay);
	uint32_t w = cc.cwnd;
	uint64_t start = kT0 + p.base_rtt + p.target_delay;

	// A loss, then the window's ACKs spread over the round trip.
	mrc_nscc_on_loss(&cc, start + 1);
	for (int i = 1; i <= 8; i++)
		EXPECT_NE(mrc_nscc_on_ack(&cc, w / 8, false, 30000,
					  start + rtt * i / 8 - 1),
			  MRC_NSCC_QA);
	EXPECT_GE(cc.cwnd, w);
	EXPECT_EQ(cc.stat_qa, 0u);
	// The next loss ends that period (uncut: the window was acked) and
	// opens another; in it only a quarter of the window is acked: cut.
	uint64_t next = start + rtt + 1;

	EXPECT_FALSE(mrc_nscc_on_loss(&cc, next));
	EXPECT_EQ(cc.stat_qa, 0u);
	mrc_nscc_on_loss(&cc, next + 1);
	mrc_nscc_on_ack(&cc, w / 4, false, 30000, next + 2);
	EXPECT_EQ(mrc_nscc_on_ack(&cc, 0, false, 30000, next + rtt), MRC_NSCC_QA);
	EXPECT_EQ(cc.cwnd, w / 4);
}

TEST(Nscc, QuickAdaptGateAndDisable)
{
	auto p = params();
	uint64_t period = p.base_rtt + p.target_delay;
	auto gated = make(p);

	// Acked more than cwnd >> qa_gate: the path delivers, no cut.
	mrc_nscc_on_ack(&gated, p.init_cwnd / 2 + 1000, false, 6000, kT0 + 1);
	uint32_t w = gated.cwnd;

	mrc_nscc_on_loss(&gated, kT0 + 2);
	EXPECT_NE(mrc_nscc_on_ack(&gated, 0, false, 6000, kT0 + period),
		  MRC_NSCC_QA);
	EXPECT_EQ(gated.cwnd, w);

	p.disable_qa = 1;
	auto off = make(p);

	mrc_nscc_on_ack(&off, 1000, false, 6000, kT0 + 1);
	w = off.cwnd;
	mrc_nscc_on_loss(&off, kT0 + 2);
	EXPECT_FALSE(mrc_nscc_on_loss(&off, kT0 + period));
	EXPECT_EQ(off.cwnd, w);
	EXPECT_EQ(off.stat_qa, 0u);
}

TEST(Nscc, WindowStaysWithinBounds)
{
	auto p = params();
	auto cc = make(p);
	uint64_t t = kT0;

	for (int i = 0; i < 20000; i++)
		mrc_nscc_on_ack(&cc, 64000, false, 0, t += 10);
	EXPECT_EQ(cc.cwnd, p.max_cwnd);
	// One round trip (base RTT + 1 ms of queue) between the marks.
	for (int i = 0; i < 200; i++)
		mrc_nscc_on_ack(&cc, 1000, true, 1000000,
				t += p.base_rtt + 1000000);
	EXPECT_EQ(cc.cwnd, kMtu); // never below one MTU
}

TEST(Nscc, AdjustBatchesIncreases)
{
	auto p = params();

	p.adjust_bytes = 50000;
	auto cc = make(p);

	mrc_nscc_on_ack(&cc, 10000, false, 0, kT0 + 1);
	EXPECT_EQ(cc.cwnd, p.init_cwnd); // pending, not applied
	for (int i = 0; i < 4; i++)
		mrc_nscc_on_ack(&cc, 10000, false, 0, kT0 + 2 + i);
	EXPECT_GT(cc.cwnd, p.init_cwnd); // 50000 B reached
}

// A CC profile changed under a running window (mrc_nscc_set_params()):
// the window keeps its size within the new bounds, the new gains apply
// from the next ACK, and an increase computed with the old ones is gone.
TEST(Nscc, NewParametersKeepTheWindowWithinTheNewBounds)
{
	auto p = params();
	auto cc = make(p);
	uint64_t t = kT0;

	for (int i = 0; i < 100; i++)
		mrc_nscc_on_ack(&cc, 10000, false, 0, t += 10);
	uint32_t grown = cc.cwnd;
	ASSERT_GT(grown, p.init_cwnd);

	// A larger max_cwnd and another init_cwnd: nothing to clamp, and
	// the start value does not reset a running window.
	auto wider = p;
	wider.max_cwnd = 4 << 20;
	wider.init_cwnd = 10000;
	mrc_nscc_set_params(&cc, &wider, t);
	EXPECT_EQ(cc.cwnd, grown);

	// A max_cwnd below the window: cut to it at once.
	auto small = p;
	small.max_cwnd = 20000;
	mrc_nscc_set_params(&cc, &small, t);
	EXPECT_EQ(cc.cwnd, 20000u);
	for (int i = 0; i < 100; i++)
		mrc_nscc_on_ack(&cc, 10000, false, 0, t += 10);
	EXPECT_EQ(cc.cwnd, 20000u) << "the new max holds";

	// A min_cwnd above it: raised at once.
	auto floor = p;
	floor.min_cwnd = 300000;
	mrc_nscc_set_params(&cc, &floor, t);
	EXPECT_EQ(cc.cwnd, 300000u);

	// A max below one MTU is one MTU, as at the start.
	auto tiny = p;
	tiny.max_cwnd = 10;
	mrc_nscc_set_params(&cc, &tiny, t);
	EXPECT_EQ(cc.cwnd, kMtu);
}

TEST(Nscc, NewGainsApplyFromTheNextAck)
{
	auto p = params();
	auto a = make(p), b = make(p);

	auto fast = p;
	fast.eta = 4 * p.eta;
	mrc_nscc_set_params(&b, &fast, kT0);
	mrc_nscc_on_ack(&a, 10000, false, 0, kT0 + 1);
	mrc_nscc_on_ack(&b, 10000, false, 0, kT0 + 1);
	EXPECT_EQ(b.cwnd - p.init_cwnd, 4 * (a.cwnd - p.init_cwnd));

	// An increase pending under the old gains is dropped with them.
	auto batched = p;
	batched.adjust_bytes = 50000;
	auto c = make(batched);
	mrc_nscc_on_ack(&c, 40000, false, 0, kT0 + 1);
	ASSERT_EQ(c.cwnd, p.init_cwnd); // pending
	mrc_nscc_set_params(&c, &batched, kT0 + 2);
	mrc_nscc_on_ack(&c, 10000, false, 0, kT0 + 3);
	EXPECT_EQ(c.cwnd, p.init_cwnd) << "40000 B of the old count are gone";
}

// No congestion control (the "none" algorithm, the OCP API's NULL one):
// the window is max_cwnd from the start and no signal moves it.
TEST(Nscc, NoCcHoldsTheWindowAtMax)
{
	auto p = params();
	p.no_cc = 1;
	auto cc = make(p);
	uint64_t t = kT0;

	EXPECT_EQ(cc.cwnd, p.max_cwnd);
	EXPECT_EQ(mrc_nscc_on_ack(&cc, 10000, true, 1000000, t += 100000),
		  MRC_NSCC_HOLD);
	EXPECT_FALSE(mrc_nscc_on_loss(&cc, t += 100000));
	for (int i = 0; i < 100; i++) {
		mrc_nscc_on_ack(&cc, 1000, true, 1000000, t += 100000);
		mrc_nscc_on_loss(&cc, t);
	}
	EXPECT_EQ(cc.cwnd, p.max_cwnd);

	// A running NSCC window switched to none goes to max_cwnd, and back.
	auto q = params();
	auto d = make(q);
	mrc_nscc_on_ack(&d, 1000, true, 1000000, kT0 + 100000);
	ASSERT_LT(d.cwnd, q.max_cwnd);
	q.no_cc = 1;
	mrc_nscc_set_params(&d, &q, kT0 + 200000);
	EXPECT_EQ(d.cwnd, q.max_cwnd);
	q.no_cc = 0;
	mrc_nscc_set_params(&d, &q, kT0 + 300000);
	EXPECT_EQ(d.cwnd, q.max_cwnd) << "NSCC starts from the window it finds";
}
