// SPDX-License-Identifier: GPL-2.0-only
// Model objects with every field the kernel may send, and with the
// optional ones left out, for the output pins of test_print.cpp.
#pragma once

#include <linux/mrc.h>

#include "model.hpp"
#include "profile_parse.hpp"

namespace mrcctl::pin {

inline Stats plane_stats()
{
	return {{"tx_pkts", 12},
		{"tx_bytes", 34567},
		{"rx_pkts", 8},
		{"rx_bytes", 900},
		{"rx_dup", 0}};
}

inline Stats dev_stats()
{
	return {{"tx_pkts", 100},	{"tx_bytes", 123456789},
		{"retx_pkts", 3},	{"nack_tx", 1},
		{"tx_drop", 0},		{"rx_pkts", 99},
		{"rx_bytes", 98765},	{"rx_malformed", 2},
		{"rx_ctrl_invalid", 5}, {"probe_limited", 0},
		{"some_new_counter", 7}};
}

inline Plane full_plane(std::uint32_t id, bool stats)
{
	Plane p;
	p.dev = "mrc0";
	p.dev_index = 4;
	p.id = id;
	p.netdev = "veth" + std::to_string(id);
	p.ifindex = 10 + id;
	p.admin_up = true;
	p.oper_up = id % 2;
	if (stats)
		p.stats = plane_stats();
	return p;
}

inline std::vector<Plane> planes_fixture(bool stats)
{
	Plane bare;
	bare.id = 9;
	Plane odd = full_plane(3, stats);
	odd.netdev = "we\"ird\\";
	return {full_plane(1, stats), full_plane(2, stats), bare, odd};
}

inline std::vector<Dev> devs_fixture(bool stats)
{
	Dev d;
	d.name = "mrc0";
	d.index = 4;
	d.caps = MRC_CAP_TRIM_NACK | MRC_CAP_EV_UDP | (1u << 30);
	d.max_planes = 16;
	d.udp_port = 4793;
	for (std::uint32_t i = 1; i <= 3; i++) {
		Plane p = full_plane(i, stats);
		p.dev.reset();
		p.dev_index.reset();
		d.planes.push_back(p);
	}
	if (stats)
		d.stats = dev_stats();
	Dev e;
	e.name = "mrc1";
	e.index = 5;
	e.caps = 0;
	Dev nameless;
	return {d, e, nameless};
}

inline Route route_fixture()
{
	Route r;
	r.dev = "mrc0";
	r.dev_index = 4;
	r.peer = "10.0.0.2";
	r.hops = {{1, "10.1.0.2"}, {2, "fd00:2::2"}};
	r.ev_profile = 5;
	r.cc_profile = 0;
	return r;
}

inline std::vector<Route> routes_fixture()
{
	Route bare;
	bare.peer = "fd00::9";
	return {route_fixture(), bare};
}

inline EvProfile exp_profile()
{
	EvProfile p;
	p.dev = "mrc0";
	p.dev_index = 4;
	p.id = 5;
	p.mode = MRC_EV_PROFILE_MODE_EXP;
	p.format = MRC_EV_PROFILE_FORMAT_UDP;
	p.state = MRC_EV_PROFILE_STATE_ONLINE;
	p.min_active = 1;
	p.event_mask = parse_event_mask("all");
	p.evs = std::vector<Ev>{
		{0, 1, {0xc0, 0x00}, MRC_EV_STATE_GOOD},
		{1, 2, {0xc0, 0x01}, MRC_EV_STATE_ASSUMED_BAD},
		{2, 1, {0xc0, 0x02}, std::nullopt},
	};
	return p;
}

inline EvProfile gen_profile()
{
	EvProfile p;
	p.dev = "mrc0";
	p.id = 6;
	p.mode = MRC_EV_PROFILE_MODE_GEN;
	p.format = MRC_EV_PROFILE_FORMAT_STEV;
	p.state = MRC_EV_PROFILE_STATE_INIT;
	p.plane_mask = 0x0b;
	p.fields = {{8, 0, 0, 255, 0xff}, {4, 1, 1, 9, std::nullopt}};
	p.shift = 12;
	p.base = std::vector<std::uint8_t>{0x00, 0x01, 0x00, 0x00};
	p.evs = std::vector<Ev>{};
	return p;
}

inline EvProfile auto_profile()
{
	EvProfile p;
	p.dev = "mrc1";
	p.id = 7;
	p.mode = MRC_EV_PROFILE_MODE_AUTO;
	p.format = MRC_EV_PROFILE_FORMAT_SRV6;
	p.state = MRC_EV_PROFILE_STATE_OFFLINE;
	p.event_mask = 0;
	p.count = 16;
	return p;
}

inline std::vector<EvProfile> ev_profiles_fixture()
{
	return {exp_profile(), gen_profile(), auto_profile()};
}

inline CcProfile cc_fixture()
{
	CcProfile c;
	c.dev = "mrc0";
	c.dev_index = 4;
	c.id = 1;
	c.algo = "uet-1.0-nscc";
	c.values = {{MRC_A_CC_BASE_RTT, 100000},
		    {MRC_A_CC_TARGET_DELAY, 4000000},
		    {MRC_A_CC_QA_THRESHOLD, 1500},
		    {MRC_A_CC_ETA, 8},
		    {MRC_A_CC_QA_GATE, 3},
		    {MRC_A_CC_DISABLE_QA, 1},
		    {MRC_A_CC_MAX_CWND, 0}};
	return c;
}

inline std::vector<CcProfile> cc_profiles_fixture()
{
	CcProfile bare;
	bare.id = 0;
	return {cc_fixture(), bare};
}

inline ConnCounters counters(std::uint64_t base)
{
	return {{{"tx_pkts", base},
		 {"tx_bytes", base * 1000},
		 {"retx_pkts", base / 10}}};
}

inline Conn conn_fixture()
{
	Conn c;
	c.dev = "mrc0";
	c.dev_index = 4;
	c.qpn = 17;
	c.peer = "10.0.0.2";
	c.fields = {{"dest_qpn", 18},  {"state", 3},	  {"status", 0},
		    {"ev_profile", 5}, {"srtt", 582000},  {"rto", 67000000},
		    {"evs", 4},	       {"evs_usable", 3}, {"cwnd", 65536}};
	c.counters = counters(50);
	ConnPlane p1;
	p1.id = 1;
	p1.evs_usable = 2;
	p1.counters = counters(30);
	ConnPlane p2;
	p2.id = 2;
	c.planes = {p1, p2};
	ConnEv e;
	e.index = 0;
	e.plane = 1;
	e.state = MRC_CONN_EV_GOOD;
	e.rtt = 4500;
	e.sport = 49152;
	e.counters = counters(10);
	ConnEv e2;
	e2.index = 3;
	e2.plane = 2;
	e2.state = MRC_CONN_EV_DENIED;
	e2.rtt = 0;
	c.evs = {e, e2};
	return c;
}

inline std::vector<Conn> conns_fixture()
{
	Conn bare;
	bare.qpn = 20;
	return {conn_fixture(), bare};
}

inline std::vector<ProbeResult> probes_fixture()
{
	ProbeResult a;
	a.ev = 0;
	a.plane = 1;
	a.sport = 49152;
	a.via = "10.1.0.2";
	a.rtt_ns = 582000;
	ProbeResult b;
	b.ev = 1;
	b.plane = 2;
	b.sport = 49153;
	ProbeResult c;
	c.via = "fd00:2::2";
	c.rtt_ns = 90;
	return {a, b, c};
}

// An endpoint batch (probe ... ev plane N ...): a UDP EV answered on its
// plane with the responder's time, an STEV EV not answered, an SRv6 EV
// (SID and segment) whose responder reported no time.
inline std::vector<ProbeResult> probe_batch_fixture()
{
	ProbeResult a;
	a.batch = true;
	a.ev = 0;
	a.plane = 1;
	a.sport = 49152;
	a.rtt_ns = 41000;
	a.answer_plane = 1;
	a.svc_ns = 3000;
	ProbeResult b;
	b.batch = true;
	b.ev = 1;
	b.plane = 2;
	b.sport = 0xf678;
	b.value = "0x12345678";
	ProbeResult c;
	c.batch = true;
	c.ev = 2;
	c.plane = 3;
	c.value = "fc00:3::1,fd00::2";
	c.rtt_ns = 57000;
	c.answer_plane = 2;
	c.svc_ns = 0;
	return {a, b, c};
}

// One event of every type the kernel raises, and an unknown one.
inline std::vector<Event> events_fixture()
{
	std::vector<Event> out;
	auto ev = [&](std::uint32_t type) -> Event & {
		Event e;
		e.type = type;
		e.dev = "mrc0";
		e.dev_index = 4;
		out.push_back(e);
		return out.back();
	};
	Plane p = full_plane(2, false);
	p.dev.reset();
	p.dev_index.reset();
	ev(MRC_EVENT_PLANE_ADD).plane = p;
	Plane id_only;
	id_only.id = 2;
	ev(MRC_EVENT_PLANE_DEL).plane = id_only;
	ev(MRC_EVENT_PLANE_UP).plane = p;
	ev(MRC_EVENT_PLANE_DOWN).plane = p;
	ev(MRC_EVENT_DEV_ADD);
	ev(MRC_EVENT_DEV_DEL);
	Route r = route_fixture();
	r.dev.reset();
	r.dev_index.reset();
	ev(MRC_EVENT_ROUTE_ADD).route = r;
	Route rd;
	rd.peer = "10.0.0.2";
	ev(MRC_EVENT_ROUTE_DEL).route = rd;

	Conn st;
	st.qpn = 17;
	st.peer = "10.0.0.2";
	ConnEv ce;
	ce.index = 3;
	ce.plane = 2;
	ce.old_state = MRC_CONN_EV_GOOD;
	ce.state = MRC_CONN_EV_ASSUMED_BAD;
	ce.reason = MRC_CONN_EVR_LOSS;
	ce.rtt = 4500;
	st.evs = {ce};
	ev(MRC_EVENT_EV_STATE).conn = st;
	Conn qe;
	qe.qpn = 17;
	qe.fields = {{"dest_qpn", 18}, {"state", 6}, {"status", 1}};
	ev(MRC_EVENT_QP_ERROR).conn = qe;

	EvProfile ep = exp_profile();
	ep.dev.reset();
	ep.dev_index.reset();
	ev(MRC_EVENT_EV_PROFILE).ev_profile = ep;
	EvProfile epd;
	epd.id = 5;
	ev(MRC_EVENT_EV_PROFILE_DEL).ev_profile = epd;
	CcProfile cp = cc_fixture();
	cp.dev.reset();
	cp.dev_index.reset();
	ev(MRC_EVENT_CC_PROFILE).cc_profile = cp;
	CcProfile cpd;
	cpd.id = 1;
	ev(MRC_EVENT_CC_PROFILE_DEL).cc_profile = cpd;

	Event &unknown = ev(250);
	unknown.plane.id = 1;
	return out;
}

} // namespace mrcctl::pin
