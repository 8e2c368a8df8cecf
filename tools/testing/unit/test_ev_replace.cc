// SPDX-License-Identifier: GPL-2.0-only
// A live connection's EV set replaced (mrc_conn_replace_evs(), a route
// change moving a QP): what is in flight is resent at once on the new
// set, nobody is blamed, PSN/SACK/receive state stay, EVs that change
// plane or leave the set are reported, a refused set changes nothing.
#include <gtest/gtest.h>

#include <set>

#include "engine_harness.h"

extern "C" {
#include "conn.h" // the connection's config: ev_min_active, peer_init_psn
}

using namespace mrc_test;

namespace {

// @n EVs spread round robin over @planes.
std::vector<struct mrc_ev_cfg> evs_on(std::initializer_list<uint8_t> planes,
				      size_t n)
{
	std::vector<struct mrc_ev_cfg> evs(n);
	std::vector<uint8_t> p(planes);

	for (size_t i = 0; i < n; i++)
		evs[i].plane = p[i % p.size()];
	return evs;
}

struct mrc_conn_stats stats(const Solo &s)
{
	struct mrc_conn_stats st;

	mrc_conn_get_stats(s.c, &st);
	return st;
}

} // namespace

TEST(EvReplace, InFlightResentOnTheNewPlanesAtOnce)
{
	Solo s(wide_config());
	auto old_evs = evs_on({1, 2}, 8);

	ASSERT_EQ(mrc_conn_set_evs(s.c, old_evs.data(), 8, s.now), 0);
	s.send(8 * 1000);
	auto v = s.drain();
	ASSERT_EQ(v.size(), 8u);
	for (const auto &d : v)
		EXPECT_TRUE(d.plane == 1 || d.plane == 2);
	// The first two delivered, the sixth SACKed.
	uint32_t first = v.front().psn;
	s.now += 10000;
	s.rx(s.ack(first + 2, {first + 5}, &v[1]));
	auto before = stats(s);

	auto new_evs = evs_on({3, 4}, 4);
	s.events.clear();
	ASSERT_EQ(mrc_conn_replace_evs(s.c, new_evs.data(), 4, 1, s.now), 0);

	// No timer needed: the five packets in flight go out again now, on
	// planes 3-4 only, each once.
	auto r = s.drain();
	std::set<uint32_t> psns;
	for (const auto &d : r) {
		EXPECT_TRUE(d.flags & MRC_F_RETX) << "psn " << d.psn;
		EXPECT_TRUE(d.plane == 3 || d.plane == 4) << "plane " << +d.plane;
		EXPECT_LT(d.ev, 4u);
		psns.insert(d.psn);
	}
	EXPECT_EQ(r.size(), 5u);
	EXPECT_EQ(psns, (std::set<uint32_t>{first + 2, first + 3, first + 4,
					    first + 6, first + 7}));

	auto after = stats(s);
	EXPECT_EQ(after.snd_una, before.snd_una);
	EXPECT_EQ(after.snd_nxt, before.snd_nxt);
	EXPECT_EQ(after.lost_pkts, before.lost_pkts + 5);
	EXPECT_EQ(after.cwnd, before.cwnd) << "the window is not cut";
	EXPECT_EQ(after.evs_total, 4u);
	EXPECT_EQ(after.evs_usable, 4u);
	// Nobody blamed: every new EV stays GOOD.
	for (uint32_t i = 0; i < 4; i++)
		EXPECT_EQ(mrc_conn_ev_state(s.c, i), MRC_EV_GOOD);

	// The rest acknowledged: the message completes once, fine.
	s.now += 10000;
	s.rx(s.ack(first + 8, {}, &r.back()));
	ASSERT_EQ(s.send_done.size(), 1u);
	EXPECT_EQ(s.send_done[0].second, MRC_ST_OK);
}

TEST(EvReplace, ReportsMovedAndRemovedEvs)
{
	Solo s(wide_config());
	auto old_evs = evs_on({1, 2}, 4); // 1 2 1 2

	ASSERT_EQ(mrc_conn_set_evs(s.c, old_evs.data(), 4, s.now), 0);
	auto new_evs = evs_on({1, 4}, 2); // 1 4
	s.events.clear();
	ASSERT_EQ(mrc_conn_replace_evs(s.c, new_evs.data(), 2, 1, s.now), 0);

	// EV 0 stays on plane 1 (no news), EV 1 moves to plane 4, EVs 2-3
	// leave the set.
	std::set<uint16_t> moved, gone;
	for (const auto &e : s.events) {
		ASSERT_EQ(e.type, MRC_EVT_EV_STATE);
		EXPECT_EQ(e.reason, MRC_EVR_CONFIG);
		if (e.new_state == MRC_EV_UNKNOWN)
			gone.insert(e.ev);
		else
			moved.insert(e.ev);
	}
	EXPECT_EQ(moved, (std::set<uint16_t>{1}));
	EXPECT_EQ(gone, (std::set<uint16_t>{2, 3}));
	EXPECT_EQ(mrc_conn_nr_evs(s.c), 2u);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 2), MRC_EV_UNKNOWN);
}

TEST(EvReplace, RefusedSetChangesNothing)
{
	Solo s(wide_config());
	auto old_evs = evs_on({1, 2}, 4);

	ASSERT_EQ(mrc_conn_set_evs(s.c, old_evs.data(), 4, s.now), 0);
	s.send(3 * 1000);
	ASSERT_EQ(s.drain().size(), 3u);
	auto before = stats(s);

	auto bad = evs_on({3, 0}, 2); // plane 0 does not exist
	EXPECT_EQ(mrc_conn_replace_evs(s.c, bad.data(), 2, 1, s.now), -EINVAL);
	auto good = evs_on({3}, 1);
	EXPECT_EQ(mrc_conn_replace_evs(s.c, good.data(), 0, 1, s.now), -EINVAL);
	EXPECT_EQ(mrc_conn_replace_evs(s.c, good.data(), 1, 0, s.now), -EINVAL);
	EXPECT_EQ(mrc_conn_replace_evs(s.c, nullptr, 1, 1, s.now), -EINVAL);

	EXPECT_TRUE(s.drain().empty()) << "nothing resent";
	auto after = stats(s);
	EXPECT_EQ(after.lost_pkts, before.lost_pkts);
	EXPECT_EQ(after.evs_total, 4u);
}

TEST(EvReplace, ReceiveStateStays)
{
	Solo s(wide_config());
	auto old_evs = evs_on({1, 2}, 4);
	uint32_t psn = s.c->cfg.peer_init_psn;

	ASSERT_EQ(mrc_conn_set_evs(s.c, old_evs.data(), 4, s.now), 0);
	// A two-packet message of the peer, its second packet first; the
	// first arrives after the replace: the reorder state carried over.
	s.rx(Solo::data(psn + 1, 0, 1000, 1000, 2000));
	auto new_evs = evs_on({3, 4}, 4);
	ASSERT_EQ(mrc_conn_replace_evs(s.c, new_evs.data(), 4, 1, s.now), 0);
	EXPECT_TRUE(s.recv_done.empty());
	s.rx(Solo::data(psn, 0, 0, 1000, 2000));
	ASSERT_EQ(s.recv_done.size(), 1u);
	EXPECT_EQ(s.recv_done[0], 0u);
	EXPECT_EQ(stats(s).rcv_nxt, (psn + 2) & 0xffffff);
}

TEST(EvReplace, MinActiveFollowsTheNewProfile)
{
	Solo s(wide_config());
	auto old_evs = evs_on({1}, 4);
	auto new_evs = evs_on({2}, 4);

	ASSERT_EQ(mrc_conn_set_evs(s.c, old_evs.data(), 4, s.now), 0);
	ASSERT_EQ(mrc_conn_replace_evs(s.c, new_evs.data(), 4, 3, s.now), 0);
	EXPECT_EQ(s.c->cfg.ev_min_active, 3u);
}

// A live connection's CC profile changed (mrc_conn_set_cc()): the window
// is brought within the new bounds at once, and what the connection
// sends follows it; nothing is resent or blamed.
TEST(CcReplace, WindowFollowsTheNewProfile)
{
	Solo s(wide_config());
	auto evs = evs_on({1, 2}, 8);

	ASSERT_EQ(mrc_conn_set_evs(s.c, evs.data(), 8, s.now), 0);
	auto before = stats(s);
	ASSERT_GT(before.cwnd, 4000u);

	struct mrc_nscc_params cc = s.c->cfg.cc;
	cc.max_cwnd = 4000;
	ASSERT_EQ(mrc_conn_set_cc(s.c, &cc, s.now), 0);
	EXPECT_EQ(s.c->cfg.cc.max_cwnd, 4000u);
	auto after = stats(s);
	EXPECT_EQ(after.cwnd, 4000u);
	EXPECT_EQ(after.lost_pkts, before.lost_pkts);

	// 16 packets' worth queued: only the new window's worth leaves.
	s.send(16 * 1000);
	auto v = s.drain();
	EXPECT_EQ(v.size(), 4u);
	for (const auto &d : v)
		EXPECT_FALSE(d.flags & MRC_F_RETX);
	for (uint32_t i = 0; i < 8; i++)
		EXPECT_EQ(mrc_conn_ev_state(s.c, i), MRC_EV_GOOD);

	EXPECT_EQ(mrc_conn_set_cc(s.c, nullptr, s.now), -EINVAL);
}

// A live EV profile's ev_min_active raised (mrc_conn_set_ev_min_active()):
// EVs retired by losses come back at once, least bad first, until that
// many are usable; lowered, nothing changes until the next loss.
TEST(EvReplace, MinActiveRaisedRestoresTheLeastBad)
{
	Solo s(wide_config());
	auto evs = evs_on({1, 2}, 8);

	ASSERT_EQ(mrc_conn_set_evs(s.c, evs.data(), 8, s.now), 0);
	// EVs 0..5 retired, EV 5 with one loss, the others with two.
	for (uint32_t i = 0; i < 6; i++)
		for (int k = 0; k < (i == 5 ? 1 : 2); k++)
			mrc_path_on_loss(s.c, i, MRC_EVR_LOSS, s.now);
	ASSERT_EQ(stats(s).evs_usable, 2u);

	s.events.clear();
	ASSERT_EQ(mrc_conn_set_ev_min_active(s.c, 3, s.now), 0);
	EXPECT_EQ(s.c->cfg.ev_min_active, 3u);
	EXPECT_EQ(stats(s).evs_usable, 3u);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 5), MRC_EV_GOOD) << "the least bad";
	ASSERT_EQ(s.events.size(), 1u);
	EXPECT_EQ(s.events[0].ev, 5u);
	EXPECT_EQ(s.events[0].reason, MRC_EVR_MIN_ACTIVE);

	ASSERT_EQ(mrc_conn_set_ev_min_active(s.c, 1, s.now), 0);
	EXPECT_EQ(stats(s).evs_usable, 3u) << "lowering retires nothing";
	EXPECT_EQ(mrc_conn_set_ev_min_active(s.c, 0, s.now), -EINVAL);
	EXPECT_EQ(s.c->cfg.ev_min_active, 1u);
}
