// SPDX-License-Identifier: GPL-2.0-only
// Every plane's queue builds up and drains again, over and over, each at
// its own time (rate-limited planes under a window that overshoots):
// nothing is lost, so nothing may be declared lost.  Each EV carries one
// packet in 32 and its own RTT estimate lags its plane's queue; loss
// detection must not judge a packet by that stale estimate when the
// plane's other EVs, sampled all the time, show the queue.
#include <gtest/gtest.h>

#include <cstdio>

#include "engine_harness.h"

using namespace mrc_test;

namespace {

constexpr uint64_t kMs = 1000000ull;
constexpr uint32_t kEvs = 32;
constexpr uint32_t kPlanes = 4;

struct RampResult {
	uint64_t lost = 0, retx = 0, timeouts = 0, bad_events = 0;
	uint32_t msgs = 0;
};

RampResult run_ramp(uint64_t seed)
{
	struct mrc_conn_config cfg;

	mrc_conn_config_default(&cfg);
	cfg.mtu = 1024;
	cfg.ack_timeout_exp = 17; // 134 ms: above the deepest queue
	cfg.reo_min = 500000;
	cfg.cc.base_rtt = 2 * kMs;
	cfg.cc.target_delay = 1 * kMs;
	cfg.cc.qa_threshold = 100 * kMs;
	cfg.cc.init_cwnd = 64 * 1024;
	cfg.cc.max_cwnd = 64 * 1024;

	std::vector<PathModel> paths(kEvs);

	// 200 us of scheduling noise per packet, under the reordering
	// allowance (reo_min): the seed changes the run.
	for (auto &p : paths) {
		p.delay = kMs / 2;
		p.jitter = kMs / 5;
	}
	Harness h(seed, &cfg, paths);
	const uint64_t t_end = h.now + 2000 * kMs;
	RampResult r;

	h.set_planes(kPlanes);
	while (h.failure.empty() && h.now < t_end) {
		// Each plane's queue goes from 0 to 20 ms and back every
		// 40 ms, a quarter period after the previous plane's: the
		// one-way delay at send time of every EV of the plane.  A
		// queue never drains faster than time passes, so no path
		// reorders itself; the planes reorder against each other.
		for (uint32_t i = 0; i < kEvs; i++) {
			uint64_t phase = (h.now + (i % kPlanes) * 10 * kMs) %
					 (40 * kMs);
			uint64_t q = phase < 20 * kMs ? phase : 40 * kMs - phase;

			h.paths[i].delay = kMs / 2 + q;
		}
		while (r.msgs - h.ep[0].send_done.size() < 8) {
			h.send(0, 16 * 1024);
			r.msgs++;
		}
		if (!h.step(h.now + 1 * kMs))
			h.now += 1 * kMs;
	}
	EXPECT_EQ(h.failure, "");
	EXPECT_EQ(h.data_dropped, 0u);
	const auto s = h.ep[0].stats();

	r.lost = s.lost_pkts;
	r.retx = s.retx_pkts;
	r.timeouts = s.timeouts;
	for (const auto &e : h.ep[0].events)
		r.bad_events += e.type == MRC_EVT_EV_STATE &&
				e.new_state == MRC_EV_ASSUMED_BAD;
	std::printf("seed %llu: %u msgs, %llu declared lost, %llu resent, "
		    "%llu timeouts, %llu EVs blamed\n",
		    (unsigned long long)seed, r.msgs, (unsigned long long)r.lost,
		    (unsigned long long)r.retx, (unsigned long long)r.timeouts,
		    (unsigned long long)r.bad_events);
	return r;
}

} // namespace

TEST(EngineQueueRamp, NoLossDeclaredWhenEveryPathQueues)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		RampResult r = run_ramp(seed);

		EXPECT_GT(r.msgs, 100u);
		EXPECT_EQ(r.lost, 0u) << "seed " << seed;
		EXPECT_EQ(r.bad_events, 0u) << "seed " << seed;
		EXPECT_EQ(r.timeouts, 0u) << "seed " << seed;
	}
}
