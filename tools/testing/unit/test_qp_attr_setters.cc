// SPDX-License-Identifier: GPL-2.0-only
// The setters the MRC QP attributes use on a running connection
// (net/mrc/uverbs_mrc.c): the exponential retry budget and the peer's
// reorder window.  mrc_conn_set_retry() has its tests in test_engine.cc.
#include <gtest/gtest.h>

#include "engine_harness.h"

using namespace mrc_test;

TEST(EngineSetters, BackoffSetsTheExponentialBudget)
{
	auto cfg = retry_config(1, 0);

	cfg.ack_timeout_exp = 4;
	Solo s(cfg);

	EXPECT_EQ(mrc_conn_set_backoff(s.c, MRC_BACKOFF_INFINITE + 1), -EINVAL);
	ASSERT_EQ(mrc_conn_set_backoff(s.c, 2), 0);
	s.send(100);
	s.drain();
	// 1 linear + 2 doubling expiries pass; the 4th fails.
	for (int k = 1; k <= 3; k++) {
		s.timer_to(mrc_conn_next_deadline(s.c));
		s.drain();
		ASSERT_EQ(mrc_conn_status(s.c), 0) << "expiry " << k;
	}
	uint64_t wait = mrc_conn_next_deadline(s.c) - s.now;

	EXPECT_EQ(wait, mrc_ack_timeout_ns(4) << 2);
	s.timer_to(mrc_conn_next_deadline(s.c));
	EXPECT_EQ(mrc_conn_status(s.c), MRC_ST_RETRY_EXCEEDED);
	EXPECT_EQ(s.stats().timeouts, 4u);
}

TEST(EngineSetters, InfiniteBackoffSetLaterNeverFails)
{
	auto cfg = retry_config(0, 0);

	cfg.ack_timeout_exp = 0;
	Solo s(cfg);

	s.send(100);
	s.drain();
	ASSERT_EQ(mrc_conn_set_backoff(s.c, MRC_BACKOFF_INFINITE), 0);
	for (int i = 0; i < 40; i++) {
		s.timer_to(mrc_conn_next_deadline(s.c));
		s.drain();
	}
	EXPECT_EQ(mrc_conn_status(s.c), 0);
	EXPECT_EQ(s.stats().timeouts, 40u);
}

TEST(EngineSetters, PeerMprBoundsWhatIsInFlight)
{
	auto cfg = solo_config();

	cfg.peer_mpr = MRC_MAX_MPR;
	cfg.cc.init_cwnd = cfg.cc.max_cwnd = 1u << 24;
	Solo s(cfg);

	EXPECT_EQ(mrc_conn_set_peer_mpr(s.c, 0), -EINVAL);
	EXPECT_EQ(mrc_conn_set_peer_mpr(s.c, MRC_MAX_MPR + 1), -EINVAL);
	ASSERT_EQ(mrc_conn_set_peer_mpr(s.c, 2), 0);
	s.send(1000 * 1000);
	auto v = s.drain();

	EXPECT_EQ(v.size(), 2u * MRC_MPR_UNIT);
	// Shrinking below what is in flight pauses new data...
	ASSERT_EQ(mrc_conn_set_peer_mpr(s.c, 1), 0);
	s.rx(s.ack(v[10].psn, {}, &v[9]));
	EXPECT_TRUE(s.drain().empty());
	// ... until the flight fits the new window again.
	s.rx(s.ack(v[MRC_MPR_UNIT + 5].psn, {}, &v[MRC_MPR_UNIT + 4]));
	EXPECT_EQ(s.drain().size(), 5u);
}
