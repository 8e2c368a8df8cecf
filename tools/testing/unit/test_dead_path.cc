// SPDX-License-Identifier: GPL-2.0-only
// A path that dies before it ever answered: once the engine retires it,
// the other packets still in flight on it are judged by their plane's
// RTT, not each left waiting for the ACK timeout (they went into the same
// hole, and the reorder window and every later completion wait for them).
#include <gtest/gtest.h>

#include <algorithm>

#include "engine_harness.h"

using namespace mrc_test;

namespace {

constexpr uint64_t kUs = 1000;
constexpr uint16_t kDead = 2;

// Send up to four packets (one per EV), then ACK those not on the dead
// EV, each ACK echoing its packet (RTT samples for the EV and the plane).
std::vector<struct mrc_tx_desc> round(Solo &s, uint32_t &cum,
				      std::vector<uint32_t> &sacked)
{
	auto sent = s.drain(4);

	s.now += 10 * kUs;
	for (const auto &d : sent) {
		if (d.ev == kDead)
			continue;
		sacked.push_back(d.psn);
		std::sort(sacked.begin(), sacked.end());
		while (!sacked.empty() && sacked.front() == cum) {
			sacked.erase(sacked.begin());
			cum++;
		}
		EXPECT_EQ(s.rx(s.ack(cum, sacked, &d)), MRC_RX_CONTROL);
	}
	return sent;
}

uint32_t on_dead(const std::vector<struct mrc_tx_desc> &v)
{
	for (const auto &d : v)
		if (d.ev == kDead)
			return d.psn;
	ADD_FAILURE() << "no packet on the dead EV";
	return 0;
}

} // namespace

TEST(EngineDeadPath, RetiredPathWithoutSamplesIsJudgedByItsPlane)
{
	auto cfg = solo_config();
	Solo s(cfg, 4);
	const uint64_t rto = mrc_ack_timeout_ns(cfg.ack_timeout_exp);
	const uint64_t t0 = s.now;

	s.send(16 * cfg.mtu);
	uint32_t cum = s.stats().snd_una;
	std::vector<uint32_t> sacked;
	const uint32_t a = on_dead(round(s, cum, sacked));
	// A quarter of the timeout later, another round, again one packet
	// into the dead EV (still GOOD: nothing is overdue yet).
	s.now = t0 + rto / 4;
	const uint32_t b = on_dead(round(s, cum, sacked));
	ASSERT_NE(a, b);

	// The first dead packet is overdue once the ACK timeout has passed
	// since it was sent (its EV has no RTT sample): declared lost, the
	// EV retired.  The second was sent a quarter timeout later, but its
	// plane answers in 10 us: it is overdue too and goes at once.
	s.run_timers_until(t0 + rto + 20 * kUs);
	ASSERT_EQ(s.stats().lost_pkts, 2u)
		<< "the second packet on the retired EV waited for its own timeout";
	struct mrc_ev_info info;
	ASSERT_EQ(mrc_conn_get_ev_info(s.c, kDead, &info), 0);
	EXPECT_EQ(info.state, MRC_EV_ASSUMED_BAD);
	EXPECT_EQ(info.lost_pkts, 2u);
	// Both are resent, on other EVs.
	std::vector<uint32_t> resent;
	for (const auto &d : s.drain())
		if (d.flags & MRC_F_RETX) {
			resent.push_back(d.psn);
			EXPECT_NE(d.ev, kDead);
		}
	EXPECT_NE(std::find(resent.begin(), resent.end(), a), resent.end());
	EXPECT_NE(std::find(resent.begin(), resent.end(), b), resent.end());
	// Every other EV stays GOOD: only the dead one was blamed.
	for (uint16_t ev = 0; ev < 4; ++ev) {
		ASSERT_EQ(mrc_conn_get_ev_info(s.c, ev, &info), 0);
		if (ev != kDead) {
			EXPECT_EQ(info.state, MRC_EV_GOOD) << "EV " << ev;
		}
	}
}

// A path that answered and then fell silent: when its first overdue
// packet retires it, the others still in flight on it are resent at
// once instead of each waiting its own deadline.
TEST(EngineDeadPath, RetiredSilentPathGivesUpItsOtherPacketsAtOnce)
{
	auto cfg = solo_config();
	Solo s(cfg, 4);

	s.send(64 * cfg.mtu);
	uint32_t cum = s.stats().snd_una;
	std::vector<uint32_t> sacked;
	// Two rounds with every EV answering: RTT samples everywhere.
	for (int i = 0; i < 2; i++) {
		auto v = s.drain(4);

		s.now += 10 * kUs;
		for (const auto &d : v) {
			sacked.push_back(d.psn);
			std::sort(sacked.begin(), sacked.end());
			while (!sacked.empty() && sacked.front() == cum) {
				sacked.erase(sacked.begin());
				cum++;
			}
			ASSERT_EQ(s.rx(s.ack(cum, sacked, &d)), MRC_RX_CONTROL);
		}
	}
	// Now EV kDead falls silent: one packet into it, then another 5 us
	// later; the other EVs keep answering.
	const uint32_t a = on_dead(round(s, cum, sacked));
	s.now += 5 * kUs;
	auto v = s.drain(4);
	const uint32_t b = on_dead(v);
	// Only the first is overdue when RACK retires the EV (the second
	// was sent 5 us later): both are given up together.
	const uint64_t lost_before = s.stats().lost_pkts;
	for (const auto &d : v)
		if (d.ev != kDead) {
			sacked.push_back(d.psn);
			EXPECT_EQ(s.rx(s.ack(cum, sacked, &d)), MRC_RX_CONTROL);
		}
	for (int i = 0; i < 1000 && s.stats().lost_pkts == lost_before; i++)
		s.timer_to(std::max(mrc_conn_next_deadline(s.c), s.now + 100));
	EXPECT_EQ(s.stats().lost_pkts, lost_before + 2)
		<< "the second packet on the retired EV waited for its own deadline";
	struct mrc_ev_info info;
	ASSERT_EQ(mrc_conn_get_ev_info(s.c, kDead, &info), 0);
	EXPECT_EQ(info.state, MRC_EV_ASSUMED_BAD);
	std::vector<uint32_t> resent;
	for (const auto &d : s.drain())
		if (d.flags & MRC_F_RETX)
			resent.push_back(d.psn);
	EXPECT_NE(std::find(resent.begin(), resent.end(), a), resent.end());
	EXPECT_NE(std::find(resent.begin(), resent.end(), b), resent.end());
}
