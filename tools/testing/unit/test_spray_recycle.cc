// SPDX-License-Identifier: GPL-2.0-only
// MRC_SPRAY_RECYCLE: data packets reuse the EVs whose packets were just
// delivered cleanly, in delivery order, and explore (round robin) only
// when none is left; a marked or slow trigger, a packet that arrived
// after being declared lost and a packet of an EV whose own ACKs stopped
// give nothing back; the round robin stays the default.
#include <gtest/gtest.h>

#include "engine_harness.h"

using namespace mrc_test;

namespace {

struct mrc_conn_config cfg_recycle(uint8_t spray = MRC_SPRAY_RECYCLE)
{
	struct mrc_conn_config cfg = wide_config();

	cfg.spray = spray;
	return cfg;
}

// An ACK of everything before @cum plus @sacked whose trigger is @trig,
// @rtt after @trig was sent.
struct mrc_pkt ack_of(Solo &s, uint32_t cum, const std::vector<uint32_t> &sacked,
		      const struct mrc_tx_desc &trig, uint32_t rtt,
		      bool ecn = false)
{
	struct mrc_tx_desc d = trig;

	d.ts = (uint32_t)(s.now - rtt);
	struct mrc_pkt p = s.ack(cum, sacked, &d, ecn);

	p.hdr.psn = trig.psn;
	return p;
}

std::vector<uint16_t> evs_of(const std::vector<struct mrc_tx_desc> &v)
{
	std::vector<uint16_t> r;

	for (const auto &d : v)
		r.push_back(d.ev);
	return r;
}

// 16 EVs, 16 packets sent (EV i carries PSN i), an RTT of 10 us learnt
// and an ACK back on every EV (acknowledging nothing yet).
struct Sent {
	Solo s;
	std::vector<struct mrc_tx_desc> v;

	explicit Sent(uint8_t spray = MRC_SPRAY_RECYCLE)
		: s(cfg_recycle(spray), 16)
	{
		s.send(16 * 1000 * 4);
		v = s.drain(16);
		s.now += 10000;
		for (const auto &d : v)
			s.rx(ack_of(s, v[0].psn, {}, d, 10000));
	}
};

} // namespace

TEST(SprayRecycle, CleanlyDeliveredEvsAreReusedInDeliveryOrder)
{
	Sent t;

	ASSERT_EQ(t.v.size(), 16u);
	for (uint32_t i = 0; i < 16; i++)
		ASSERT_EQ(t.v[i].ev, i);
	// EVs 9 and 4 delivered (SACKed, trigger 4), then 12.
	t.s.rx(ack_of(t.s, t.v[0].psn, {t.v[9].psn, t.v[4].psn}, t.v[4], 10000));
	t.s.rx(ack_of(t.s, t.v[0].psn, {t.v[12].psn}, t.v[12], 10000));
	auto next = evs_of(t.s.drain(5));

	// PSN order within an ACK (4 before 9), ACK order across them; then
	// the round robin resumes where it was (after EV 15: 0, 1).
	EXPECT_EQ(next, (std::vector<uint16_t>{4, 9, 12, 0, 1}));
}

TEST(SprayRecycle, RoundRobinStaysTheDefault)
{
	Sent t(MRC_SPRAY_ROUND_ROBIN);

	t.s.rx(ack_of(t.s, t.v[0].psn, {t.v[9].psn, t.v[4].psn}, t.v[4], 10000));
	EXPECT_EQ(evs_of(t.s.drain(3)), (std::vector<uint16_t>{0, 1, 2}));
	struct mrc_conn_config cfg;

	mrc_conn_config_default(&cfg);
	EXPECT_EQ(cfg.spray, MRC_SPRAY_ROUND_ROBIN);
}

TEST(SprayRecycle, MarkedTriggerGivesNothingBackTheOthersDo)
{
	Sent t;

	// One ACK for PSNs 0..3 whose trigger (EV 3) was marked: 0, 1, 2 come
	// back; 3 is skipped by the exploring round robin for an RTT too.
	t.s.rx(ack_of(t.s, t.v[4].psn, {}, t.v[3], 10000, true));
	auto next = evs_of(t.s.drain(4));

	EXPECT_EQ(next, (std::vector<uint16_t>{0, 1, 2, 0}));
}

TEST(SprayRecycle, TriggerSlowerThanTheSmoothedRttGivesNothingBack)
{
	Sent t;

	// srtt is 10 us; EV 5's packet took 30 us, EV 6's 10 us.
	t.s.rx(ack_of(t.s, t.v[0].psn, {t.v[5].psn}, t.v[5], 30000));
	t.s.rx(ack_of(t.s, t.v[0].psn, {t.v[6].psn}, t.v[6], 10000));
	EXPECT_EQ(evs_of(t.s.drain(2)), (std::vector<uint16_t>{6, 0}));
}

TEST(SprayRecycle, MarkedSinceQueuedOrRetiredEvsAreDropped)
{
	Sent t;

	t.s.rx(ack_of(t.s, t.v[0].psn, {t.v[7].psn, t.v[8].psn}, t.v[8], 10000));
	// EV 7 is marked afterwards (another packet of it), EV 8 denied.
	t.s.rx(ack_of(t.s, t.v[0].psn, {}, t.v[7], 10000, true));
	ASSERT_EQ(mrc_conn_ev_deny(t.s.c, 8, true, t.s.now), 0);
	EXPECT_EQ(evs_of(t.s.drain(2)), (std::vector<uint16_t>{0, 1}));
}

TEST(SprayRecycle, RecycledPathsCarryTheWholeWindowOnceLearnt)
{
	// Every ACK returns its packet's EV: a connection whose packets all
	// come back cleanly keeps using the EVs of its first window only.
	Solo s(cfg_recycle(), 64);

	s.send(1000 * 1000);
	auto v = s.drain(8);
	std::vector<uint32_t> used(64, 0);

	for (int round = 0; round < 50; round++) {
		s.now += 10000;
		std::vector<struct mrc_tx_desc> next;

		for (const auto &d : v) {
			s.rx(ack_of(s, d.psn + 1, {}, d, 10000));
			auto one = s.drain(1);

			ASSERT_EQ(one.size(), 1u);
			used.at(one[0].ev)++;
			next.push_back(one[0]);
		}
		v = next;
	}
	for (uint32_t i = 0; i < 64; i++)
		EXPECT_EQ(used[i], i < 8 ? 50u : 0u) << "EV " << i;
}

TEST(SprayRecycle, EvWhoseOwnAcksStoppedEarnsNothingFromOthers)
{
	Sent t;

	// 5 us later EV 2's packet is reported by EV 3's ACK: its own ACKs
	// came back recently, so it is reused.
	t.s.now += 5000;
	t.s.rx(ack_of(t.s, t.v[0].psn, {t.v[2].psn, t.v[3].psn}, t.v[3], 10000));
	EXPECT_EQ(evs_of(t.s.drain(2)), (std::vector<uint16_t>{2, 3}));
	// 100 us (10 RTTs) after the last ACK on EVs 0-7 an ACK on EV 8
	// reports PSNs 0-8: nothing came back on EVs 0-7 for more than
	// MRC_PATH_ECHO_RTTS (8) RTTs (their way back may be dead), so only
	// EV 8 is reused.
	t.s.now += 95000;
	t.s.rx(ack_of(t.s, t.v[9].psn, {}, t.v[8], 10000));
	EXPECT_EQ(evs_of(t.s.drain(2)), (std::vector<uint16_t>{8, 0}));
}
