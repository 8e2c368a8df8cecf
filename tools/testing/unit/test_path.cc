// SPDX-License-Identifier: GPL-2.0-only
// Path selection and health: even spraying, the ECN skip rule and its
// "more than half" exception, planes down (ours and the peer's), DENIED,
// ev_min_active keeping the least bad, probes with back-off, events.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine_harness.h"

extern "C" {
#include "conn.h" // mrc_path_on_loss(): drive health directly
}

using namespace mrc_test;

namespace {

// Send @n packets, acknowledging everything whenever the window fills;
// returns packets per EV.
std::vector<uint32_t> spray(Solo &s, uint32_t n_evs, uint32_t n)
{
	std::vector<uint32_t> count(n_evs, 0);
	uint32_t sent = 0;

	s.send(n * 1000);
	while (sent < n) {
		auto v = s.drain(n - sent);

		if (v.empty())
			break;
		for (const auto &d : v)
			count.at(d.ev)++;
		sent += (uint32_t)v.size();
		s.rx(s.ack(v.back().psn + 1, {}));
	}
	EXPECT_EQ(sent, n);
	return count;
}

// Give the sender an RTT sample of @rtt on every EV of @v.
void teach_rtt(Solo &s, const std::vector<struct mrc_tx_desc> &v, uint32_t rtt)
{
	for (auto d : v) {
		d.ts = (uint32_t)(s.now - rtt);
		s.rx(s.ack(v.front().psn, {}, &d));
	}
}

} // namespace

TEST(PathSpray, EvenOver256Evs)
{
	Solo s(wide_config(), MRC_MAX_EVS);
	auto c = spray(s, MRC_MAX_EVS, 256 * 40 + 17);
	auto [lo, hi] = std::minmax_element(c.begin(), c.end());

	EXPECT_LE(*hi - *lo, 1u);
	EXPECT_EQ(*lo, 40u);
}

TEST(PathSpray, EvenOverWhatIsLeftAfterDenyAndPlaneDown)
{
	Solo s(wide_config());
	std::vector<struct mrc_ev_cfg> evs(64);

	for (size_t i = 0; i < evs.size(); i++)
		evs[i].plane = (uint8_t)(1 + i % 8);
	evs[5].denied = 1;
	ASSERT_EQ(mrc_conn_set_evs(s.c, evs.data(), 64, s.now), 0);
	ASSERT_EQ(mrc_conn_ev_deny(s.c, 9, true, s.now), 0);
	ASSERT_EQ(mrc_conn_plane_set(s.c, 3, false, s.now), 0);
	auto c = spray(s, 64, 5000);
	std::vector<uint32_t> used;

	for (uint32_t i = 0; i < 64; i++) {
		bool off = i == 5 || i == 9 || evs[i].plane == 3;

		if (off) {
			EXPECT_EQ(c[i], 0u) << "EV " << i;
		} else {
			used.push_back(c[i]);
		}
	}
	auto [lo, hi] = std::minmax_element(used.begin(), used.end());

	EXPECT_EQ(used.size(), 64u - 8u - 2u);
	EXPECT_LE(*hi - *lo, 1u);
	// Plane back up: its EVs are sprayed again.
	ASSERT_EQ(mrc_conn_plane_set(s.c, 3, true, s.now), 0);
	c = spray(s, 64, 620);
	EXPECT_GT(c[2], 0u);	    // plane 3
	EXPECT_EQ(c[5] + c[9], 0u); // still denied
	EXPECT_EQ(mrc_conn_ev_state(s.c, 5), MRC_EV_DENIED);
}

TEST(PathSpray, EcnMarkedEvIsSkippedForAboutOneRtt)
{
	Solo s(wide_config(), 8);
	auto v = s.drain();

	s.send(8000);
	v = s.drain();
	ASSERT_EQ(v.size(), 8u);
	s.now += 20000;
	teach_rtt(s, v, 20000);
	uint32_t srtt = s.stats().srtt;

	ASSERT_EQ(srtt, 20000u);
	s.rx(s.ack(v.back().psn + 1, {}, &v[3], true));
	EXPECT_EQ(s.stats().ecn_acks, 1u);
	auto c = spray(s, 8, 70);

	EXPECT_EQ(c[3], 0u);
	for (uint32_t i = 0; i < 8; i++) {
		if (i != 3) {
			EXPECT_EQ(c[i], 10u) << i;
		}
	}
	s.now += srtt; // the mark has expired
	c = spray(s, 8, 80);
	EXPECT_EQ(c[3], 10u);
}

TEST(PathSpray, EcnSkipIgnoredWhenMoreThanHalfAreMarked)
{
	for (uint32_t marked : {4u, 5u}) {
		Solo s(wide_config(), 8);

		s.send(8000);
		auto v = s.drain();

		for (uint32_t i = 0; i < marked; i++)
			s.rx(s.ack(v.back().psn + 1, {}, &v[i], true));
		auto c = spray(s, 8, 80);
		uint32_t on_marked = 0;

		for (uint32_t i = 0; i < marked; i++)
			on_marked += c[i];
		if (marked * 2 > 8) { // more than half: marks ignored
			EXPECT_EQ(on_marked, 10u * marked) << marked;
		} else { // exactly half: still skipped
			EXPECT_EQ(on_marked, 0u) << marked;
		}
	}
}

TEST(PathSpray, PeerPlanesDownFromPortStatus)
{
	Solo s(wide_config());
	std::vector<struct mrc_ev_cfg> evs(4);
	struct mrc_pkt ps;

	for (size_t i = 0; i < 4; i++)
		evs[i].plane = (uint8_t)(1 + i);
	mrc_conn_set_evs(s.c, evs.data(), 4, s.now);
	mrc_pkt_init(&ps, MRC_OP_PORT_STATUS);
	ps.hdr.plane = 1;
	ps.u.port_status.seq = 10;
	ps.u.port_status.up_planes = 0x1 | 0x4; // planes 1 and 3
	EXPECT_EQ(s.rx(ps), MRC_RX_CONTROL);
	auto c = spray(s, 4, 40);

	EXPECT_EQ(c, (std::vector<uint32_t>{20, 0, 20, 0}));
	// An older status is ignored.
	ps.u.port_status.seq = 9;
	ps.u.port_status.up_planes = 0xf;
	s.rx(ps);
	c = spray(s, 4, 40);
	EXPECT_EQ(c[1], 0u);
	EXPECT_EQ(s.stats().evs_usable, 2u);
}

TEST(PathHealth, LossRetiresEvAndReportsEvent)
{
	Solo s(wide_config(), 4);

	s.events.clear();
	mrc_path_on_loss(s.c, 2, MRC_EVR_LOSS, s.now);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 2), MRC_EV_ASSUMED_BAD);
	ASSERT_EQ(s.events.size(), 1u);
	const auto &e = s.events[0];

	EXPECT_EQ(e.type, MRC_EVT_EV_STATE);
	EXPECT_EQ(e.ev, 2);
	EXPECT_EQ(e.plane, 1);
	EXPECT_EQ(e.old_state, MRC_EV_GOOD);
	EXPECT_EQ(e.new_state, MRC_EV_ASSUMED_BAD);
	EXPECT_EQ(e.reason, MRC_EVR_LOSS);
	auto c = spray(s, 4, 30);

	EXPECT_EQ(c[2], 0u);
	EXPECT_EQ(c[0], 10u);
}

TEST(PathHealth, MinActiveKeepsTheLeastBad)
{
	auto cfg = wide_config();

	cfg.ev_min_active = 2;
	Solo s(cfg, 4);

	mrc_path_on_loss(s.c, 0, MRC_EVR_LOSS, s.now);
	mrc_path_on_loss(s.c, 1, MRC_EVR_LOSS, s.now);
	EXPECT_EQ(s.stats().evs_usable, 2u);
	// A third would leave 1 < 2; EV 2 lost no more than the retired
	// ones, so it stays.
	mrc_path_on_loss(s.c, 2, MRC_EVR_LOSS, s.now);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 2), MRC_EV_GOOD);
	EXPECT_EQ(s.stats().evs_usable, 2u);
	// Now EV 2 is worse (2 losses) than EV 0 (1): they swap.
	s.events.clear();
	mrc_path_on_loss(s.c, 2, MRC_EVR_LOSS, s.now);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 2), MRC_EV_ASSUMED_BAD);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 0), MRC_EV_GOOD);
	EXPECT_EQ(s.stats().evs_usable, 2u);
	ASSERT_EQ(s.events.size(), 2u);
	EXPECT_EQ(s.events[1].ev, 0);
	EXPECT_EQ(s.events[1].reason, MRC_EVR_MIN_ACTIVE);
	// Denying a usable EV restores the least bad (EV 1, 1 loss).
	mrc_conn_ev_deny(s.c, 3, true, s.now);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_GOOD);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 2), MRC_EV_ASSUMED_BAD);
	EXPECT_EQ(s.stats().evs_usable, 2u);
}

TEST(PathHealth, DeniedIsNeverUsedNorProbedUntilAllowed)
{
	Solo s(wide_config(), 4);

	s.events.clear();
	mrc_path_on_loss(s.c, 1, MRC_EVR_LOSS, s.now);
	ASSERT_EQ(mrc_conn_ev_deny(s.c, 1, true, s.now), 0);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_DENIED);
	EXPECT_EQ(s.events.back().reason, MRC_EVR_CONTROLLER);
	s.run_timers_until(s.now + 100000000);
	EXPECT_EQ(s.count_ctrl(MRC_OP_PROBE_REQ), 0u);
	mrc_path_on_loss(s.c, 1, MRC_EVR_LOSS, s.now); // stays denied
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_DENIED);
	EXPECT_EQ(spray(s, 4, 30)[1], 0u);
	ASSERT_EQ(mrc_conn_ev_deny(s.c, 1, false, s.now), 0);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_GOOD);
	EXPECT_EQ(spray(s, 4, 40)[1], 10u);
	EXPECT_EQ(mrc_conn_ev_deny(s.c, 4, true, s.now), -EINVAL);
}

TEST(PathHealth, ProbesBackOffAndRevive)
{
	auto cfg = wide_config();

	cfg.probe_interval = 10000;
	cfg.probe_backoff_max = 3;
	Solo s(cfg, 4);
	uint64_t t0 = s.now;

	mrc_path_on_loss(s.c, 1, MRC_EVR_TIMEOUT, s.now);
	std::vector<uint64_t> at;

	for (int i = 0; i < 6; i++) {
		uint64_t d = mrc_conn_next_deadline(s.c);

		s.timer_to(d);
		ASSERT_EQ(s.count_ctrl(MRC_OP_PROBE_REQ), (size_t)i + 1);
		at.push_back(d - t0);
	}
	// First after one interval, then doubling, capped at << 3.
	EXPECT_EQ(at, (std::vector<uint64_t>{10000, 20000, 40000, 80000, 160000,
					     240000}));
	const auto req = s.ctrl.back();

	EXPECT_EQ(req.hdr.ev, 1);
	EXPECT_EQ(req.u.probe.ev, 1);
	EXPECT_EQ(req.hdr.ts, (uint32_t)s.now);
	struct mrc_pkt resp;

	mrc_pkt_init(&resp, MRC_OP_PROBE_RESP);
	resp.hdr.plane = 1;
	resp.u.probe = req.u.probe;
	resp.u.probe.ts_echo = req.hdr.ts;
	resp.u.probe.probe_id = req.u.probe.probe_id - 1; // stale
	s.now += 3000;
	s.rx(resp);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_ASSUMED_BAD);
	resp.u.probe.probe_id = req.u.probe.probe_id;
	s.events.clear();
	s.rx(resp);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 1), MRC_EV_GOOD);
	ASSERT_EQ(s.events.size(), 1u);
	EXPECT_EQ(s.events[0].reason, MRC_EVR_PROBE_OK);
	EXPECT_EQ(s.events[0].rtt, 3000u);
	EXPECT_EQ(s.stats().probes_ok, 1u);
	EXPECT_EQ(mrc_conn_next_deadline(s.c), MRC_TIME_NEVER);
}

TEST(PathHealth, ProbeRequestIsAnsweredOnTheSameIndex)
{
	Solo s(wide_config(), 4);
	struct mrc_pkt req;

	mrc_pkt_init(&req, MRC_OP_PROBE_REQ);
	req.hdr.ev = 2;
	req.hdr.plane = 1;
	req.hdr.ts = 777;
	req.u.probe.probe_id = 5;
	req.u.probe.ev = 2;
	req.u.probe.plane = 1;
	EXPECT_EQ(s.rx(req), MRC_RX_CONTROL);
	ASSERT_EQ(s.count_ctrl(MRC_OP_PROBE_RESP), 1u);
	const auto &r = s.ctrl.back();

	EXPECT_EQ(r.hdr.ev, 2);
	EXPECT_EQ(r.u.probe.probe_id, 5u);
	EXPECT_EQ(r.u.probe.ts_echo, 777u);
	std::vector<uint8_t> buf(256);

	EXPECT_GT(mrc_pkt_encode(&r, buf.data(), 256), 0);
}

TEST(PathHealth, SetEvsReportsConfigEventsAndAutoUsesPlaneOne)
{
	Solo s(wide_config());

	s.events.clear();
	ASSERT_EQ(mrc_conn_set_evs_auto(s.c, 3, s.now), 0);
	// EV 0 existed (GOOD) already; 1 and 2 are new.
	ASSERT_EQ(s.events.size(), 2u);
	EXPECT_EQ(s.events[0].old_state, MRC_EV_UNKNOWN);
	EXPECT_EQ(s.events[0].new_state, MRC_EV_GOOD);
	EXPECT_EQ(s.events[0].reason, MRC_EVR_CONFIG);
	auto v = s.drain();

	s.send(3000);
	v = s.drain();
	for (const auto &d : v)
		EXPECT_EQ(d.plane, 1);
	EXPECT_EQ(mrc_conn_set_evs_auto(s.c, 0, s.now), -EINVAL);
	EXPECT_EQ(mrc_conn_set_evs_auto(s.c, MRC_MAX_EVS + 1, s.now), -EINVAL);
	EXPECT_EQ(mrc_conn_ev_state(s.c, 3), MRC_EV_UNKNOWN);
}

TEST(PathSpray, ExpiredMarksOfUnusableEvsDoNotDisableTheSkip)
{
	Solo s(wide_config(), 4);

	s.send(4000);
	auto v = s.drain();

	s.now += 20000;
	teach_rtt(s, v, 20000);
	s.rx(s.ack(v.back().psn + 1, {}, &v[3], true));	 // mark EV 3
	mrc_path_on_loss(s.c, 3, MRC_EVR_LOSS, s.now);	 // retire it
	s.now += 100000;				 // its mark expired
	spray(s, 4, 6);					 // a full rotation
	s.rx(s.ack(s.stats().snd_nxt, {}, &v[0], true)); // mark EV 0
	auto c = spray(s, 4, 40);

	// 1 marked of 3 usable: not more than half, so EV 0 is skipped.
	EXPECT_EQ(c[0], 0u);
	EXPECT_EQ(c[3], 0u);
	EXPECT_EQ(c[1] + c[2], 40u);
}
