// SPDX-License-Identifier: GPL-2.0-only
// Per-EV counters (mrc_conn_get_ev_info()): what is sent, resent, lost,
// marked and probed is charged to the EV it happened on, and the per-EV
// figures add up to the connection's.
#include <gtest/gtest.h>

#include "engine_harness.h"

using namespace mrc_test;

namespace {

struct mrc_ev_info info(const struct mrc_conn *c, uint32_t ev)
{
	struct mrc_ev_info i {};

	EXPECT_EQ(mrc_conn_get_ev_info(c, ev, &i), 0) << ev;
	return i;
}

// Sum of one counter over every EV of @c.
template <typename F> uint64_t sum(const struct mrc_conn *c, F field)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < mrc_conn_nr_evs(c); i++)
		s += field(info(c, i));
	return s;
}

// Per-EV counters agree with the connection's.
void expect_sums_match(const struct mrc_conn *c)
{
	struct mrc_conn_stats st;

	mrc_conn_get_stats(c, &st);
	EXPECT_EQ(sum(c, [](auto i) { return i.tx_pkts; }), st.tx_pkts);
	EXPECT_EQ(sum(c, [](auto i) { return i.tx_bytes; }), st.tx_bytes);
	EXPECT_EQ(sum(c, [](auto i) { return i.retx_pkts; }), st.retx_pkts);
	EXPECT_EQ(sum(c, [](auto i) { return i.lost_pkts; }), st.lost_pkts);
	EXPECT_EQ(sum(c, [](auto i) { return i.ecn_marks; }), st.ecn_acks);
	EXPECT_EQ(sum(c, [](auto i) { return i.acks; }), st.acks_rx);
	EXPECT_EQ(sum(c, [](auto i) { return i.probes_tx; }), st.probes_tx);
	EXPECT_EQ(sum(c, [](auto i) { return i.probes_ok; }), st.probes_ok);
}

// Four EVs on two planes (1, 2, 1, 2) at both ends of @h.
void two_planes(Harness &h)
{
	const struct mrc_ev_cfg evs[4] = {{1, 0}, {2, 0}, {1, 0}, {2, 0}};

	for (auto &e : h.ep) {
		ASSERT_EQ(mrc_conn_set_evs(e.c, evs, 4, h.now), 0);
		e.events.clear();
	}
}

} // namespace

TEST(EngineEvCounters, ApiBoundsAndInitialValues)
{
	Solo s(solo_config(), 3);
	struct mrc_ev_info i {};

	EXPECT_EQ(mrc_conn_nr_evs(s.c), 3u);
	EXPECT_EQ(mrc_conn_get_ev_info(s.c, 3, &i), -EINVAL);
	EXPECT_EQ(mrc_conn_get_ev_info(s.c, MRC_MAX_EVS, &i), -EINVAL);
	EXPECT_EQ(mrc_conn_get_ev_info(s.c, 0, nullptr), -EINVAL);
	i = info(s.c, 2);
	EXPECT_EQ(i.state, MRC_EV_GOOD);
	EXPECT_EQ(i.plane, 1);
	EXPECT_EQ(i.state_since, s.now);
	EXPECT_EQ(i.tx_pkts + i.tx_bytes + i.retx_pkts + i.lost_pkts +
			  i.ecn_marks + i.acks + i.probes_tx + i.probes_ok,
		  0u);
	EXPECT_EQ(i.srtt, 0u);
	EXPECT_EQ(i.loss_score, 0);
	// A fresh connection has its one default EV.
	Solo one(solo_config());

	EXPECT_EQ(mrc_conn_nr_evs(one.c), 1u);
	EXPECT_EQ(info(one.c, 0).state_since, one.now);
}

TEST(EngineEvCounters, LosslessTransferSplitsEvenlyOverFourEvsOnTwoPlanes)
{
	auto cfg = solo_config();
	Harness h(7, &cfg, std::vector<PathModel>(4));
	const uint32_t len = 64 * 1000 + 300; // 65 packets, the last short

	two_planes(h);
	h.send(0, len);
	ASSERT_TRUE(h.run_until_idle(h.now + 1000000000ull)) << h.failure;
	ASSERT_TRUE(h.failure.empty()) << h.failure;

	const struct mrc_conn *c = h.ep[0].c;
	uint64_t bytes = 0, pkts = 0;

	ASSERT_EQ(mrc_conn_nr_evs(c), 4u);
	for (uint32_t ev = 0; ev < 4; ev++) {
		auto i = info(c, ev);

		// Round robin: 65 packets give 17, 16, 16, 16.
		EXPECT_EQ(i.tx_pkts, ev == 0 ? 17u : 16u) << ev;
		EXPECT_EQ(i.plane, ev % 2 ? 2 : 1) << ev;
		EXPECT_EQ(i.state, MRC_EV_GOOD) << ev;
		EXPECT_EQ(i.retx_pkts, 0u) << ev;
		EXPECT_EQ(i.lost_pkts, 0u) << ev;
		EXPECT_EQ(i.ecn_marks, 0u) << ev;
		EXPECT_EQ(i.probes_tx, 0u) << ev;
		bytes += i.tx_bytes;
		pkts += i.tx_pkts;
		// An EV some ACK echoed has an RTT estimate of the path.
		if (i.acks) {
			EXPECT_GT(i.srtt, 0u) << ev;
		}
	}
	EXPECT_EQ(bytes, len);
	EXPECT_EQ(pkts, 65u);
	EXPECT_EQ(h.ep[0].data_sent, 65u);
	expect_sums_match(c);
	EXPECT_GT(sum(c, [](auto i) { return i.acks; }), 0u);
	// The receiver sent no data: nothing charged to its EVs.
	EXPECT_EQ(sum(h.ep[1].c, [](auto i) { return i.tx_pkts; }), 0u);
}

TEST(EngineEvCounters, DropOnOneEvChargesThatEvOnly)
{
	auto cfg = solo_config();
	Solo s(cfg, 4);

	s.send(8000);
	auto v = s.drain();

	ASSERT_EQ(v.size(), 8u);
	for (const auto &d : v)
		EXPECT_EQ(d.ev, (d.psn - v[0].psn) % 4);
	// Everything but EV 1's two packets arrives.
	s.now += 10000;
	std::vector<uint32_t> sacked;

	for (const auto &d : v)
		if (d.ev != 1 && d.psn != v[0].psn)
			sacked.push_back(d.psn);
	for (const auto &d : v)
		if (d.ev != 1)
			s.rx(s.ack(v[0].psn + 1, sacked, &d));
	EXPECT_EQ(info(s.c, 1).lost_pkts, 0u);
	// EV 1 has no RTT sample: its packets are lost once the ACK timeout
	// passed since they were sent (RACK, before the timer itself).
	s.timer_to(mrc_conn_next_deadline(s.c));
	const uint64_t t_loss = s.now;
	auto r = s.drain();

	ASSERT_EQ(r.size(), 2u);
	for (uint32_t ev = 0; ev < 4; ev++) {
		auto i = info(s.c, ev);

		EXPECT_EQ(i.lost_pkts, ev == 1 ? 2u : 0u) << ev;
		EXPECT_EQ(i.state, ev == 1 ? MRC_EV_ASSUMED_BAD : MRC_EV_GOOD)
			<< ev;
		EXPECT_EQ(i.loss_score, ev == 1 ? 2 : 0) << ev;
		EXPECT_EQ(i.acks, ev == 1 ? 0u : 2u) << ev;
	}
	EXPECT_EQ(info(s.c, 1).state_since, t_loss);
	EXPECT_EQ(info(s.c, 0).state_since, info(s.c, 2).state_since);
	EXPECT_LT(info(s.c, 0).state_since, t_loss);
	// The resends went elsewhere and are charged where they went.
	std::map<uint32_t, uint64_t> resent;

	for (const auto &d : r) {
		EXPECT_TRUE(d.flags & MRC_F_RETX);
		EXPECT_NE(d.ev, 1);
		resent[d.ev]++;
	}
	for (uint32_t ev = 0; ev < 4; ev++) {
		auto i = info(s.c, ev);

		// Two first transmissions each (round robin of 8), plus resends.
		EXPECT_EQ(i.retx_pkts, resent[ev]) << ev;
		EXPECT_EQ(i.tx_pkts, 2 + resent[ev]) << ev;
		EXPECT_EQ(i.tx_bytes, 1000 * (2 + resent[ev])) << ev;
	}
	EXPECT_EQ(info(s.c, 1).retx_pkts, 0u);
	expect_sums_match(s.c);
	// Acknowledged at last: the loss stays on EV 1's record.
	for (const auto &d : r)
		s.rx(s.ack(v[7].psn + 1, {}, &d));
	EXPECT_TRUE(mrc_conn_idle(s.c));
	EXPECT_EQ(info(s.c, 1).lost_pkts, 2u);
	expect_sums_match(s.c);
}

TEST(EngineEvCounters, EcnMarksCountOnTheEchoedEv)
{
	Solo s(solo_config(), 4);

	s.send(4000);
	auto v = s.drain();

	ASSERT_EQ(v.size(), 4u);
	s.now += 10000;
	for (int round = 0; round < 3; round++)
		for (const auto &d : v)
			s.rx(s.ack(v[0].psn + (uint32_t)round, {}, &d, d.ev == 2));
	for (uint32_t ev = 0; ev < 4; ev++) {
		auto i = info(s.c, ev);

		EXPECT_EQ(i.acks, 3u) << ev;
		EXPECT_EQ(i.ecn_marks, ev == 2 ? 3u : 0u) << ev;
		EXPECT_EQ(i.state, MRC_EV_GOOD) << ev; // ECN is not loss
	}
	// An echo naming no EV of the set is counted by the connection only.
	struct mrc_tx_desc bogus = v[0];

	bogus.ev = 9;
	s.rx(s.ack(v[0].psn + 3, {}, &bogus, true));
	EXPECT_EQ(s.stats().acks_rx, 13u);
	EXPECT_EQ(s.stats().ecn_acks, 4u);
	EXPECT_EQ(sum(s.c, [](auto i) { return i.acks; }), 12u);
	EXPECT_EQ(sum(s.c, [](auto i) { return i.ecn_marks; }), 3u);
}

TEST(EngineEvCounters, ProbesSentAndAnsweredCountOnTheProbedEv)
{
	auto cfg = solo_config();

	cfg.probe_interval = 10000;
	cfg.probe_backoff_max = 2;
	Solo s(cfg, 4);

	s.send(4000);
	auto v = s.drain();

	// Only EV 3's packet is lost: the ACK timeout blames it.
	s.now += 10000;
	for (int i = 0; i < 3; i++)
		s.rx(s.ack(v[0].psn + 3, {}, &v[(size_t)i]));
	s.timer_to(mrc_conn_next_deadline(s.c));
	ASSERT_EQ(mrc_conn_ev_state(s.c, 3), MRC_EV_ASSUMED_BAD);
	s.drain();
	// Unanswered probes back off; every one is counted.
	s.run_timers_until(s.now + 200000);
	size_t sent = 0;
	const struct mrc_pkt *last = nullptr;

	for (const auto &p : s.ctrl) {
		if (p.hdr.opcode != MRC_OP_PROBE_REQ)
			continue;
		EXPECT_EQ(p.u.probe.ev, 3);
		sent++;
		last = &p;
	}
	ASSERT_GE(sent, 3u);
	ASSERT_NE(last, nullptr);
	EXPECT_EQ(info(s.c, 3).probes_tx, sent);
	EXPECT_EQ(info(s.c, 3).probes_ok, 0u);
	// The outstanding probe comes back: EV 3 is GOOD again.
	struct mrc_pkt resp;

	mrc_pkt_init(&resp, MRC_OP_PROBE_RESP);
	resp.hdr.ev = 3;
	resp.hdr.plane = 1;
	resp.u.probe = last->u.probe;
	resp.u.probe.ts_echo = last->hdr.ts;
	s.now += 5000;
	s.rx(resp);
	auto i = info(s.c, 3);

	EXPECT_EQ(i.state, MRC_EV_GOOD);
	EXPECT_EQ(i.probes_ok, 1u);
	EXPECT_EQ(i.state_since, s.now);
	// A probe proves the path is not dead, not that it stopped
	// losing: only clean ACKs work the score off.
	EXPECT_EQ(i.loss_score, 1);
	for (uint32_t ev = 0; ev < 3; ev++)
		EXPECT_EQ(info(s.c, ev).probes_tx, 0u) << ev;
	expect_sums_match(s.c);
}

TEST(EngineEvCounters, LossyPathInTheLinkIsChargedAndProbedBack)
{
	auto cfg = solo_config();

	cfg.probe_interval = 20000;
	std::vector<PathModel> paths(4);

	paths[1].loss = 0.2; // data only: probes come back
	Harness h(11, &cfg, paths);

	two_planes(h);
	for (int m = 0; m < 20; m++)
		h.send(0, 20000);
	ASSERT_TRUE(h.run_until_idle(h.now + 10000000000ull)) << h.failure;
	// Let the outstanding probe of EV 1 come back.
	h.run_for(1000000);
	ASSERT_TRUE(h.failure.empty()) << h.failure;

	const struct mrc_conn *c = h.ep[0].c;

	ASSERT_GT(h.data_dropped, 0u);
	EXPECT_EQ(info(c, 1).state, MRC_EV_GOOD);
	for (uint32_t ev = 0; ev < 4; ev++) {
		auto i = info(c, ev);

		if (ev == 1) {
			EXPECT_EQ(i.lost_pkts, h.data_dropped);
			EXPECT_GT(i.probes_tx, 0u);
			EXPECT_GT(i.probes_ok, 0u);
		} else {
			EXPECT_EQ(i.lost_pkts, 0u) << ev;
			EXPECT_EQ(i.probes_tx, 0u) << ev;
			EXPECT_GT(i.tx_pkts, 0u) << ev;
		}
	}
	// Resends avoid the EV the packet was lost on; EV 1 carries some
	// only as an ordinary member of the round robin.
	EXPECT_EQ(sum(c, [](auto i) { return i.retx_pkts; }), h.data_dropped);
	expect_sums_match(c);
	EXPECT_EQ(sum(c, [](auto i) { return i.tx_pkts; }), h.ep[0].data_sent);
}

TEST(EngineEvCounters, ReinstallingTheEvSetStartsAfresh)
{
	Solo s(solo_config(), 2);

	s.send(2000);
	ASSERT_EQ(s.drain().size(), 2u);
	ASSERT_EQ(info(s.c, 1).tx_pkts, 1u);
	s.now += 1000;
	ASSERT_EQ(mrc_conn_set_evs_auto(s.c, 3, s.now), 0);
	EXPECT_EQ(mrc_conn_nr_evs(s.c), 3u);
	for (uint32_t ev = 0; ev < 3; ev++) {
		EXPECT_EQ(info(s.c, ev).tx_pkts, 0u) << ev;
		EXPECT_EQ(info(s.c, ev).state_since, s.now) << ev;
	}
	// The controller denying an EV is a state change with its time.
	s.now += 1000;
	ASSERT_EQ(mrc_conn_ev_deny(s.c, 2, true, s.now), 0);
	EXPECT_EQ(info(s.c, 2).state, MRC_EV_DENIED);
	EXPECT_EQ(info(s.c, 2).state_since, s.now);
	EXPECT_EQ(info(s.c, 1).state_since, s.now - 1000);
}

// A path that keeps losing (5% of its data, probes mostly answered) must
// carry clearly less than its share: each new loss keeps it out longer
// (its first probe waits probe_interval << (score - 1)), and only clean
// ACKs work the score off.  A path that lost once is back at once.
TEST(EngineEvCounters, PersistentlyLossyPathCarriesLess)
{
	auto cfg = solo_config();
	std::vector<PathModel> paths(4);

	paths[1].loss = 0.05;
	Harness h(13, &cfg, paths);

	two_planes(h);
	for (int m = 0; m < 200; m++)
		h.send(0, 20000);
	ASSERT_TRUE(h.run_until_idle(h.now + 60000000000ull)) << h.failure;
	ASSERT_TRUE(h.failure.empty()) << h.failure;

	const struct mrc_conn *c = h.ep[0].c;
	uint64_t total = sum(c, [](auto i) { return i.tx_pkts; });
	uint64_t lossy = info(c, 1).tx_pkts;

	ASSERT_GT(h.data_dropped, 0u);
	RecordProperty("lossy_share_permille", (int)(lossy * 1000 / total));
	// Even share: a quarter.  The lossy path must stay under 80% of it.
	EXPECT_LT(lossy * 4 * 100, total * 80)
		<< "lossy EV carried " << lossy << " of " << total;
	for (uint32_t ev : {0u, 2u, 3u})
		EXPECT_EQ(info(c, ev).lost_pkts, 0u) << ev;
	expect_sums_match(c);
}
