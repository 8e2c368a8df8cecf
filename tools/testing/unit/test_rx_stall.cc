// SPDX-License-Identifier: GPL-2.0-only
// The receiving host stalls (a vCPU descheduled, softirq held off) while
// the fabric is healthy.  Nothing tells a stall from dead paths: a packet
// held by it while a later one got through before it is lost to RACK
// (reason LOSS), and a stall longer than the ACK timeout makes the timeout
// blame the EVs of the packets in flight (reason TIMEOUT, consecutive EVs
// in spraying order).  Either way a stall can only blame what was in
// flight -- a window's worth of EVs -- and they come back through probes.
// This is the pattern a noisy software path shows in `mrcctl monitor`.
#include <gtest/gtest.h>

#include <cstdio>

#include "engine_harness.h"

using namespace mrc_test;

namespace {

constexpr uint64_t kMs = 1000000ull;
constexpr uint32_t kEvs = 32;
constexpr uint32_t kCwndPkts = 2;
constexpr int kStalls = 5;

// The kernel's settings (qp.c) with NSCC held to two packets.
struct mrc_conn_config cfg_stall()
{
	struct mrc_conn_config cfg = kernel_config();

	hold_cwnd(&cfg, kCwndPkts);
	return cfg;
}

struct StallResult {
	std::vector<uint16_t> by_timeout; // EVs blamed by timeout, in order
	size_t by_loss = 0;		  // ... and by RACK
	uint64_t timeouts = 0;		  // ACK timeout expiries
};

// kStalls stalls of @stall each, 500 ms apart, at the receiver of a long
// transfer.
StallResult run_stalls(uint64_t stall)
{
	const auto cfg = cfg_stall();
	std::vector<PathModel> paths(kEvs);
	StallResult r;

	for (auto &p : paths) {
		p.delay = kMs / 2;
		p.jitter = kMs;
	}
	Harness h(7, &cfg, paths);

	h.set_planes(2);

	const uint64_t t0 = h.now + 500 * kMs;
	const uint64_t t_stop = t0 + kStalls * 500 * kMs;
	uint32_t posted = 0;
	int stalls = 0;

	while (h.failure.empty() && !mrc_conn_status(h.ep[0].c)) {
		bool sending = h.now < t_stop;

		if (stalls < kStalls && h.now >= t0 + stalls * 500 * kMs) {
			h.rx_stall_until[1] = h.now + stall;
			stalls++;
		}
		while (sending && posted - h.ep[0].send_done.size() < 8) {
			h.send(0, 16 * 1024);
			posted++;
		}
		if (!sending && mrc_conn_idle(h.ep[0].c) &&
		    mrc_conn_idle(h.ep[1].c))
			break;
		if (!h.step(t_stop + 60000 * kMs))
			break;
	}
	EXPECT_EQ(h.failure, "");
	EXPECT_EQ(mrc_conn_status(h.ep[0].c), 0);
	EXPECT_EQ(h.ep[1].recv_done.size(), posted);
	for (const auto &e : h.ep[0].events)
		if (e.type == MRC_EVT_EV_STATE &&
		    e.new_state == MRC_EV_ASSUMED_BAD) {
			EXPECT_GE(e.time, t0) << "EV " << e.ev;
			if (e.reason == MRC_EVR_TIMEOUT)
				r.by_timeout.push_back(e.ev);
			else
				r.by_loss++;
		}
	r.timeouts = h.ep[0].stats().timeouts;
	// Healthy paths: every EV is back in the spray by the end.
	for (uint32_t i = 0; i < kEvs; i++) {
		struct mrc_ev_info inf {};

		EXPECT_EQ(mrc_conn_get_ev_info(h.ep[0].c, i, &inf), 0);
		EXPECT_EQ(inf.state, MRC_EV_GOOD) << "EV " << i;
	}

	std::string seq;

	for (uint16_t ev : r.by_timeout)
		seq += " " + std::to_string(ev);
	std::printf("%d receiver stalls of %llu ms, window %u packets: "
		    "%llu ACK timeouts, %zu EVs blamed by loss, %zu by "
		    "timeout:%s\n",
		    kStalls, (unsigned long long)(stall / kMs), kCwndPkts,
		    (unsigned long long)r.timeouts, r.by_loss,
		    r.by_timeout.size(), seq.c_str());
	return r;
}

} // namespace

// Shorter than the ACK timeout: no timeout, only what RACK saw held.
TEST(EngineRxStall, ShortStallNeverTimesOut)
{
	auto r = run_stalls(50 * kMs);

	EXPECT_EQ(r.timeouts, 0u);
	EXPECT_TRUE(r.by_timeout.empty());
	EXPECT_LE(r.by_loss, (size_t)kStalls * kCwndPkts);
}

// Longer: one timeout per stall, blaming at most the window in flight.
TEST(EngineRxStall, LongStallBlamesAtMostAWindow)
{
	auto r = run_stalls(100 * kMs);

	EXPECT_EQ(r.timeouts, (uint64_t)kStalls);
	EXPECT_GE(r.by_timeout.size(), 1u);
	EXPECT_LE(r.by_timeout.size() + r.by_loss, (size_t)kStalls * kCwndPkts);
}
