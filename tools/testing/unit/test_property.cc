// SPDX-License-Identifier: GPL-2.0-only
// Property tests: two engines over a simulated multi-path link, thousands
// of seeded random runs.  Each run states its seed on failure so that it
// can be replayed alone.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "engine_harness.h"

using namespace mrc_test;

namespace {

// MRC_SEED=<n> replays one seed of every property and prints its story.
bool replay(uint64_t *lo, uint64_t *hi)
{
	const char *s = std::getenv("MRC_SEED");

	if (!s)
		return false;
	*lo = std::strtoull(s, nullptr, 0);
	*hi = *lo + 1;
	return true;
}

void dump(const Harness &h)
{
	for (int s = 0; s < 2; s++) {
		auto st = h.ep[s].stats();

		std::printf("ep%d: sent %llu retx %llu lost %llu timeouts %llu "
			    "srtt %u cwnd %u dup %llu bad %u\n",
			    s, (unsigned long long)h.ep[s].data_sent,
			    (unsigned long long)st.retx_pkts,
			    (unsigned long long)st.lost_pkts,
			    (unsigned long long)st.timeouts, st.srtt, st.cwnd,
			    (unsigned long long)st.rx_dup, st.evs_bad);
		for (const auto &e : h.ep[s].events)
			std::printf("  t=%llu ev %u plane %u %s -> %s (%u)\n",
				    (unsigned long long)e.time, e.ev, e.plane,
				    mrc_ev_state_name(e.old_state),
				    mrc_ev_state_name(e.new_state), e.reason);
	}
}

std::vector<PathModel> random_paths(std::mt19937_64 &r, uint32_t n, double loss,
				    bool jitter, uint32_t dup_pm)
{
	std::vector<PathModel> p(n);
	double dup = (double)(r() % (dup_pm + 1)) / 1000.0;

	for (auto &m : p) {
		m.delay = 2000 + r() % 30000; // 2..32 us one way
		m.jitter = jitter ? r() % 4000 : 0;
		m.loss = loss;
		m.dup = dup;
	}
	return p;
}

// Queue random messages on both sides, run to completion, check delivery.
void exchange(Harness &h, std::mt19937_64 &r, uint32_t n_msgs, uint64_t limit,
	      const std::string &tag)
{
	std::vector<uint32_t> lens[2];

	for (uint32_t i = 0; i < n_msgs; i++) {
		for (int s = 0; s < 2; s++) {
			uint32_t len = (uint32_t)(r() % 5 == 0 ? 0 : r() % 20000);

			if (s == 1 && r() % 2)
				continue; // asymmetric traffic
			lens[s].push_back(len);
			h.send(s, len);
		}
	}
	bool done = h.run_until_idle(h.now + limit);

	if (std::getenv("MRC_SEED"))
		dump(h);
	ASSERT_TRUE(done) << tag << " " << h.failure;
	ASSERT_EQ(h.failure, "") << tag;
	for (int s = 0; s < 2; s++) {
		const Endpoint &rx = h.ep[1 - s];

		ASSERT_EQ(rx.recv_done.size(), lens[s].size()) << tag;
		ASSERT_EQ(h.ep[s].send_done.size(), lens[s].size()) << tag;
		for (uint32_t m = 0; m < lens[s].size(); m++) {
			ASSERT_EQ(rx.recv_done[m], m) << tag;
			ASSERT_EQ(h.ep[s].send_done[m].first, m) << tag;
			ASSERT_EQ(h.ep[s].send_done[m].second, MRC_ST_OK) << tag;
			auto it = rx.placed_bytes.find(m);
			uint32_t got = it == rx.placed_bytes.end() ? 0 :
								     it->second;

			ASSERT_EQ(got, lens[s][m]) << tag << " msg " << m;
		}
	}
}

} // namespace

TEST(Property, SmokeOnePathNoLoss)
{
	auto cfg = test_config();
	Harness h(1, &cfg, {PathModel{}});
	std::mt19937_64 r(1);

	exchange(h, r, 20, 1000000000ull, "smoke");
	EXPECT_EQ(h.ep[0].stats().retx_pkts, 0u);
}

TEST(Property, ExactlyOnceInOrderUnderLossReorderDuplication)
{
	uint64_t lo = 1, hi = 1001, trimmed = 0, nacks = 0, ecn = 0, dups = 0;

	replay(&lo, &hi);
	for (uint64_t seed = lo; seed < hi; seed++) {
		std::mt19937_64 r(seed);
		auto cfg = test_config();
		uint32_t n = 1 + (uint32_t)(r() % 32);
		double loss = (double)(r() % 40) / 1000.0; // 0..4 %
		auto paths = random_paths(r, n, loss, true, 30);

		for (auto &p : paths) {
			p.ctrl_loss = (double)(r() % 20) / 1000.0;
			p.ecn = (double)(r() % 100) / 1000.0;
			p.trim = (double)(r() % 20) / 1000.0;
		}
		cfg.ack_every = 1 + (uint32_t)(r() % 8);
		cfg.mpr = cfg.peer_mpr = (uint8_t)(1 + r() % MRC_MAX_MPR);
		cfg.init_psn = (uint32_t)r(); // exercise the wrap
		cfg.peer_init_psn = cfg.init_psn;
		cfg.ev_min_active = (uint16_t)(1 + r() % n);
		Harness h(seed, &cfg, paths);

		exchange(h, r, 4 + (uint32_t)(r() % 24), 4000000000ull,
			 "seed " + std::to_string(seed));
		if (HasFatalFailure())
			return;
		trimmed += h.trimmed;
		for (const auto &e : h.ep) {
			auto st = e.stats();

			nacks += st.nacks_rx;
			ecn += st.ecn_acks;
			dups += st.rx_dup;
		}
	}
	// The chaos really happened.
	if (hi - lo > 1) {
		EXPECT_GT(trimmed, 0u);
		EXPECT_GE(nacks, trimmed / 2);
		EXPECT_GT(ecn, 0u);
		EXPECT_GT(dups, 0u);
	}
}

TEST(Property, RetransmissionsStayBelowTwiceTheLossesAtOnePercent)
{
	uint64_t lost = 0, retx = 0, pkts = 0;

	uint64_t lo = 1000, hi = 1400;

	replay(&lo, &hi);
	for (uint64_t seed = lo; seed < hi; seed++) {
		std::mt19937_64 r(seed);
		auto cfg = test_config();
		uint32_t n = 8 + (uint32_t)(r() % 25);
		Harness h(seed, &cfg, random_paths(r, n, 0.01, true, 0));

		exchange(h, r, 30, 4000000000ull, "seed " + std::to_string(seed));
		if (HasFatalFailure())
			return;
		uint64_t l = h.data_dropped;
		uint64_t x = h.ep[0].stats().retx_pkts +
			     h.ep[1].stats().retx_pkts;

		EXPECT_TRUE(l ? x < 2 * l : x == 0)
			<< "seed " << seed << " lost " << l << " retx " << x;
		lost += l;
		retx += x;
		pkts += h.ep[0].data_sent + h.ep[1].data_sent;
	}
	if (hi - lo > 1) {
		EXPECT_GT(lost, 0u);
	}
	std::printf("1%% loss: %llu data packets, %llu lost, %llu retransmitted "
		    "(%.2f per loss)\n",
		    (unsigned long long)pkts, (unsigned long long)lost,
		    (unsigned long long)retx,
		    lost ? (double)retx / (double)lost : 0.0);
}

TEST(Property, NoRetransmissionUnderReorderingWithoutLoss)
{
	uint64_t pkts = 0, reordered_paths = 0;

	uint64_t lo = 2000, hi = 2600;

	replay(&lo, &hi);
	for (uint64_t seed = lo; seed < hi; seed++) {
		std::mt19937_64 r(seed);
		auto cfg = test_config();
		uint32_t n = 2 + (uint32_t)(r() % 63);
		auto paths = random_paths(r, n, 0, true, 20);

		cfg.ack_every = 1 + (uint32_t)(r() % 8);
		Harness h(seed, &cfg, paths);

		exchange(h, r, 30, 4000000000ull, "seed " + std::to_string(seed));
		if (HasFatalFailure())
			return;
		for (int s = 0; s < 2; s++) {
			auto st = h.ep[s].stats();

			ASSERT_EQ(st.retx_pkts, 0u) << "seed " << seed;
			ASSERT_EQ(st.lost_pkts, 0u) << "seed " << seed;
			ASSERT_EQ(st.timeouts, 0u) << "seed " << seed;
			ASSERT_EQ(st.evs_bad, 0u) << "seed " << seed;
		}
		pkts += h.ep[0].data_sent + h.ep[1].data_sent;
		reordered_paths += n;
	}
	if (hi - lo > 1) {
		EXPECT_GT(pkts, 100000u);
	}
}

namespace {

// Time of the first event that moved @ev to @state on @e, or 0.
uint64_t state_time(const Endpoint &e, uint32_t ev, uint8_t state,
		    uint64_t after = 0)
{
	for (const auto &x : e.events)
		if (x.type == MRC_EVT_EV_STATE && x.ev == ev &&
		    x.new_state == state && x.time >= after)
			return x.time;
	return 0;
}

} // namespace

TEST(Property, BlackholedEvIsRetiredWithinThreeTimeoutsAndTrafficGoesOn)
{
	uint64_t lo = 3000, hi = 3200, worst[2] = {0, 0};

	replay(&lo, &hi);
	for (uint64_t seed = lo; seed < hi; seed++) {
		std::mt19937_64 r(seed);
		auto cfg = test_config();
		uint64_t rto = mrc_ack_timeout_ns(cfg.ack_timeout_exp);
		uint32_t n = 4 + (uint32_t)(r() % 29);
		uint32_t k = (uint32_t)(r() % n);
		bool mid = r() % 2; // dies mid-run (sampled) or at start
		Harness h(seed, &cfg, random_paths(r, n, 0, true, 0));
		std::string tag = "seed " + std::to_string(seed);

		if (mid) {
			exchange(h, r, 10, 4000000000ull, tag);
			if (HasFatalFailure())
				return;
		}
		h.paths[k].blackhole = true;
		// The harness checks order and completeness of every message.
		size_t rcvd0 = h.ep[1].recv_done.size();
		size_t done0 = h.ep[0].send_done.size();

		for (int i = 0; i < 30; i++)
			h.send(0, (uint32_t)(1 + r() % 20000));
		ASSERT_TRUE(h.run_until_idle(h.now + 4000000000ull))
			<< tag << " " << h.failure;
		ASSERT_EQ(h.failure, "") << tag;
		ASSERT_EQ(h.ep[1].recv_done.size() - rcvd0, 30u) << tag;
		ASSERT_EQ(h.ep[0].send_done.size() - done0, 30u) << tag;
		for (auto &d : h.ep[0].send_done)
			ASSERT_EQ(d.second, MRC_ST_OK) << tag;
		if (!h.first_drop.count(k))
			continue; // the spray never reached it: fine
		uint64_t drop = h.first_drop[k];
		uint64_t bad = state_time(h.ep[0], k, MRC_EV_ASSUMED_BAD, drop);

		ASSERT_NE(bad, 0u) << tag << " EV " << k << " never retired";
		ASSERT_LE(bad - drop, 3 * rto) << tag;
		worst[mid] = std::max(worst[mid], bad - drop);
		// Retired means unused: nothing new went on it afterwards.
		ASSERT_LE(h.ep[0].last_data_on_ev[k], bad) << tag;
		ASSERT_EQ(mrc_conn_ev_state(h.ep[0].c, k), MRC_EV_ASSUMED_BAD)
			<< tag;
	}
	std::printf("blackhole: worst first loss -> ASSUMED_BAD: %.1f us for "
		    "a path dead from the start, %.1f us for a path that "
		    "dies (ACK timeout %.1f us)\n",
		    (double)worst[0] / 1000.0, (double)worst[1] / 1000.0,
		    (double)mrc_ack_timeout_ns(test_config().ack_timeout_exp) /
			    1000.0);
}

TEST(Property, HealedPathReturnsToGoodThroughProbes)
{
	uint64_t lo = 4000, hi = 4100;

	replay(&lo, &hi);
	for (uint64_t seed = lo; seed < hi; seed++) {
		std::mt19937_64 r(seed);
		auto cfg = test_config();
		uint32_t n = 2 + (uint32_t)(r() % 15);
		uint32_t k = (uint32_t)(r() % n);
		Harness h(seed, &cfg, random_paths(r, n, 0, true, 0));
		std::string tag = "seed " + std::to_string(seed);

		h.paths[k].blackhole = true;
		for (int i = 0; i < 10; i++)
			h.send(0, 8192);
		ASSERT_TRUE(h.run_until_idle(h.now + 4000000000ull)) << tag;
		ASSERT_EQ(mrc_conn_ev_state(h.ep[0].c, k), MRC_EV_ASSUMED_BAD)
			<< tag;
		uint64_t probes = h.ep[0].stats().probes_tx;

		// Still dark for a while: probes go out and fail.
		h.run_for(20000000);
		ASSERT_GT(h.ep[0].stats().probes_tx, probes) << tag;
		ASSERT_EQ(mrc_conn_ev_state(h.ep[0].c, k), MRC_EV_ASSUMED_BAD)
			<< tag;
		uint64_t healed = h.now;

		h.paths[k].blackhole = false;
		h.run_for(50000000);
		uint64_t good = state_time(h.ep[0], k, MRC_EV_GOOD, healed);

		ASSERT_NE(good, 0u) << tag;
		ASSERT_EQ(mrc_conn_ev_state(h.ep[0].c, k), MRC_EV_GOOD) << tag;
		bool by_probe = false;

		for (const auto &x : h.ep[0].events)
			by_probe |= x.ev == k && x.new_state == MRC_EV_GOOD &&
				    x.reason == MRC_EVR_PROBE_OK;
		ASSERT_TRUE(by_probe) << tag;
		// Back in the spray: new traffic uses it again.
		uint64_t t = h.now;

		for (int i = 0; i < 10; i++)
			h.send(0, 8192);
		ASSERT_TRUE(h.run_until_idle(h.now + 4000000000ull)) << tag;
		ASSERT_GE(h.ep[0].last_data_on_ev[k], t) << tag;
	}
}
