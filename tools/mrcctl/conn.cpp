// SPDX-License-Identifier: GPL-2.0-only
#include "conn.hpp"

#include <linux/mrc.h>
#include <netlink/genl/genl.h>

#include "addr.hpp"
#include "nla_get.hpp"

namespace mrcctl {

namespace {

namespace pol = mrc::policy;
using nla::Attrs;

// The counters a set carries, by name, in the order the kernel puts them.
struct Counter {
	int type;
	const char *name;
};

const Counter kConnCounters[] = {
	{MRC_A_CONN_TX_PKTS, "tx_pkts"},     {MRC_A_CONN_TX_BYTES, "tx_bytes"},
	{MRC_A_CONN_RETX_PKTS, "retx_pkts"}, {MRC_A_CONN_LOST_PKTS, "lost_pkts"},
	{MRC_A_CONN_ECN_MARKS, "ecn_marks"}, {MRC_A_CONN_RX_PKTS, "rx_pkts"},
	{MRC_A_CONN_TIMEOUTS, "timeouts"},
};
const Counter kPlaneCounters[] = {
	{MRC_A_CONN_PLANE_TX_PKTS, "tx_pkts"},
	{MRC_A_CONN_PLANE_TX_BYTES, "tx_bytes"},
	{MRC_A_CONN_PLANE_RETX_PKTS, "retx_pkts"},
	{MRC_A_CONN_PLANE_LOST_PKTS, "lost_pkts"},
	{MRC_A_CONN_PLANE_ECN_MARKS, "ecn_marks"},
};
const Counter kEvCounters[] = {
	{MRC_A_CONN_EV_TX_PKTS, "tx_pkts"},
	{MRC_A_CONN_EV_TX_BYTES, "tx_bytes"},
	{MRC_A_CONN_EV_RETX_PKTS, "retx_pkts"},
	{MRC_A_CONN_EV_LOST_PKTS, "lost_pkts"},
	{MRC_A_CONN_EV_ECN_MARKS, "ecn_marks"},
};

// u32 fields of a connection, in the order the kernel puts them.
const Counter kConnFields[] = {
	{MRC_A_CONN_DEST_QPN, "dest_qpn"},   {MRC_A_CONN_STATE, "state"},
	{MRC_A_CONN_EV_PROFILE, "ev_profile"}, {MRC_A_CONN_STATUS, "status"},
	{MRC_A_CONN_SND_UNA, "snd_una"},     {MRC_A_CONN_SND_NXT, "snd_nxt"},
	{MRC_A_CONN_RCV_NXT, "rcv_nxt"},     {MRC_A_CONN_INFLIGHT, "inflight"},
	{MRC_A_CONN_CWND, "cwnd"},	     {MRC_A_CONN_SRTT, "srtt"},
	{MRC_A_CONN_RTO, "rto"},	     {MRC_A_CONN_EVS_TOTAL, "evs"},
	{MRC_A_CONN_EVS_USABLE, "evs_usable"}, {MRC_A_CONN_EVS_BAD, "evs_bad"},
	{MRC_A_CONN_EVS_DENIED, "evs_denied"},
};

template <std::size_t N> ConnCounters counters_of(const Attrs &tb, const Counter (&list)[N])
{
	ConnCounters c;
	for (const auto &k : list)
		if (auto v = tb.u64(k.type))
			c.list.emplace_back(k.name, *v);
	return c;
}

ConnEv ev_of(const Attrs &tb)
{
	ConnEv e;
	e.index = tb.u32(MRC_A_CONN_EV_INDEX);
	e.plane = tb.u32(MRC_A_CONN_EV_PLANE);
	e.state = tb.u32(MRC_A_CONN_EV_STATE);
	e.old_state = tb.u32(MRC_A_CONN_EV_OLD_STATE);
	e.reason = tb.u32(MRC_A_CONN_EV_REASON);
	e.rtt = tb.u32(MRC_A_CONN_EV_RTT);
	e.sport = tb.u16(MRC_A_CONN_EV_SPORT);
	e.counters = counters_of(tb, kEvCounters);
	return e;
}

ConnPlane plane_of(const Attrs &tb)
{
	ConnPlane p;
	p.id = tb.u32(MRC_A_CONN_PLANE_ID);
	p.evs_usable = tb.u32(MRC_A_CONN_PLANE_EVS_USABLE);
	p.counters = counters_of(tb, kPlaneCounters);
	return p;
}

// Set "conn", at the top level of a CONN_GET reply or in an event's nest.
Conn conn_of(const Attrs &tb)
{
	Conn c;
	c.dev = tb.str(MRC_A_CONN_DEV_NAME);
	c.dev_index = tb.u32(MRC_A_CONN_DEV_INDEX);
	c.qpn = tb.u32(MRC_A_CONN_QPN);
	if (nlattr *a = tb[MRC_A_CONN_PEER]) {
		auto len = static_cast<std::size_t>(nla_len(a));
		if (len == 4 || len == 16)
			c.peer = addr_text(static_cast<const std::uint8_t *>(nla_data(a)), len);
	}
	for (const auto &k : kConnFields)
		if (auto v = tb.u32(k.type))
			c.fields.emplace_back(k.name, *v);
	c.counters = counters_of(tb, kConnCounters);
	nla::for_each_entry(tb[MRC_A_CONN_PLANES], MRC_A_CONN_PLANE, pol::conn_plane,
			    [&](const Attrs &p) { c.planes.push_back(plane_of(p)); });
	if (nlattr *evs = tb[MRC_A_CONN_EVS]) {
		c.ev_offset = nla::parse_nested(evs, pol::conn_evs).u32(MRC_A_CONN_EVS_OFFSET);
		nla::for_each_entry(evs, MRC_A_CONN_EVS_EV, pol::conn_ev,
				    [&](const Attrs &e) { c.evs.push_back(ev_of(e)); });
	}
	if (nlattr *ev = tb[MRC_A_CONN_EV])	// events
		c.evs.push_back(ev_of(nla::parse_nested(ev, pol::conn_ev)));
	return c;
}

bool is_time(const std::string &k) { return k == "srtt" || k == "rto"; }

std::string named(const std::string &k, std::uint32_t v)
{
	if (k == "state")
		return qp_state_name(v);
	if (k == "status")
		return conn_status_name(v);
	if (is_time(k))
		return ns_text(v);
	return std::to_string(v);
}

void add(std::string &s, const std::string &w)
{
	if (!s.empty() && s.back() != ' ' && s.back() != '\n')
		s += ' ';
	s += w;
}

void counters_text(std::string &s, const ConnCounters &c)
{
	for (const auto &[k, v] : c.list)
		add(s, k + ' ' + std::to_string(v));
}

void counters_json(JsonWriter &w, const ConnCounters &c)
{
	for (const auto &[k, v] : c.list)
		w.field(k, v);
}

std::string ev_text(const ConnEv &e)
{
	std::string s;
	if (e.index)
		add(s, "ev " + std::to_string(*e.index));
	if (e.plane)
		add(s, "plane " + std::to_string(*e.plane));
	if (e.sport)
		add(s, "sport " + std::to_string(*e.sport));
	if (e.old_state)
		add(s, std::string(conn_ev_state_name(*e.old_state)) + " ->");
	if (e.state)
		add(s, e.old_state ? conn_ev_state_name(*e.state)
				   : "state " +
					     std::string(conn_ev_state_name(
						     *e.state)));
	if (e.reason)
		add(s, std::string("reason ") + conn_ev_reason_name(*e.reason));
	if (e.rtt && *e.rtt)
		add(s, "rtt " + ns_text(*e.rtt));
	counters_text(s, e.counters);
	return s;
}

// The u32 fields of a connection: QP state and status by name, times in
// ns (with @ns_suffix, "srtt_ns"), the EV count as "evs_total" beside the
// "evs" array.
void fields_json(JsonWriter &w, const Conn &c, bool ns_suffix)
{
	for (const auto &[k, v] : c.fields) {
		if (k == "state" || k == "status")
			w.field(k, named(k, v));
		else if (k == "evs")
			w.field("evs_total", v);
		else
			w.field(ns_suffix && is_time(k) ? k + "_ns" : k, v);
	}
}

void ev_json(JsonWriter &w, const ConnEv &e)
{
	w.begin_object();
	if (e.index)
		w.field("ev", *e.index);
	if (e.plane)
		w.field("plane", *e.plane);
	if (e.sport)
		w.field("sport", static_cast<std::uint32_t>(*e.sport));
	if (e.state)
		w.field("state", conn_ev_state_name(*e.state));
	if (e.old_state)
		w.field("old_state", conn_ev_state_name(*e.old_state));
	if (e.reason)
		w.field("reason", conn_ev_reason_name(*e.reason));
	if (e.rtt)
		w.field("rtt_ns", *e.rtt);
	counters_json(w, e.counters);
	w.end_object();
}

} // namespace

std::string ns_text(std::uint64_t ns)
{
	if (ns >= 10'000'000)
		return std::to_string(ns / 1'000'000) + "ms";
	if (ns >= 10'000)
		return std::to_string(ns / 1'000) + "us";
	return std::to_string(ns) + "ns";
}

Conn decode_conn_nest(nlattr *nest)
{
	return conn_of(nla::parse_nested(nest, pol::conn));
}

Conn decode_conn(nl_msg *msg)
{
	return conn_of(nla::parse(msg, pol::conn));
}

const char *conn_ev_state_name(std::uint32_t s)
{
	switch (s) {
	case MRC_CONN_EV_UNKNOWN: return "unknown";
	case MRC_CONN_EV_GOOD: return "good";
	case MRC_CONN_EV_ASSUMED_BAD: return "assumed_bad";
	case MRC_CONN_EV_DENIED: return "denied";
	default: return "?";
	}
}

const char *conn_ev_reason_name(std::uint32_t r)
{
	switch (r) {
	case MRC_CONN_EVR_CONFIG: return "config";
	case MRC_CONN_EVR_LOSS: return "loss";
	case MRC_CONN_EVR_TIMEOUT: return "timeout";
	case MRC_CONN_EVR_PROBE_OK: return "probe_ok";
	case MRC_CONN_EVR_MIN_ACTIVE: return "min_active";
	case MRC_CONN_EVR_CONTROLLER: return "controller";
	default: return "?";
	}
}

const char *qp_state_name(std::uint32_t s)
{
	static const char *const names[] = {"RESET", "INIT", "RTR", "RTS",
					    "SQD",   "SQE",  "ERR"};
	return s < std::size(names) ? names[s] : "?";
}

const char *conn_status_name(std::uint32_t s)
{
	switch (s) {
	case MRC_CONN_OK: return "ok";
	case MRC_CONN_RETRY_EXCEEDED: return "retry_exceeded";
	case MRC_CONN_RNR_EXCEEDED: return "rnr_exceeded";
	case MRC_CONN_REMOTE_ACCESS: return "remote_access";
	case MRC_CONN_INVALID_REQUEST: return "invalid_request";
	case MRC_CONN_FLUSHED: return "flushed";
	case MRC_CONN_NO_PATH: return "no_path";
	default: return "?";
	}
}

std::string conn_text(const Conn &c)
{
	std::string s;
	if (c.dev)
		add(s, "dev " + *c.dev);
	if (c.qpn)
		add(s, "qpn " + std::to_string(*c.qpn));
	if (c.peer)
		add(s, "peer " + *c.peer);
	for (const auto &[k, v] : c.fields)
		add(s, k + ' ' + named(k, v));
	if (!c.counters.list.empty()) {
		s += "\n   ";
		counters_text(s, c.counters);
	}
	s += '\n';
	for (const auto &p : c.planes) {
		std::string l = "    plane";
		if (p.id)
			add(l, std::to_string(*p.id));
		if (p.evs_usable)
			add(l, "evs_usable " + std::to_string(*p.evs_usable));
		counters_text(l, p.counters);
		s += l + '\n';
	}
	for (const auto &e : c.evs)
		s += "    " + ev_text(e) + '\n';
	return s;
}

void conn_json(JsonWriter &w, const Conn &c)
{
	w.begin_object();
	if (c.dev)
		w.field("dev", *c.dev);
	if (c.qpn)
		w.field("qpn", *c.qpn);
	if (c.peer)
		w.field("peer", *c.peer);
	fields_json(w, c, true);
	counters_json(w, c.counters);
	if (!c.planes.empty()) {
		w.key("planes");
		w.begin_array();
		for (const auto &p : c.planes) {
			w.begin_object();
			if (p.id)
				w.field("plane", *p.id);
			if (p.evs_usable)
				w.field("evs_usable", *p.evs_usable);
			counters_json(w, p.counters);
			w.end_object();
		}
		w.end_array();
	}
	if (!c.evs.empty()) {
		w.key("evs");
		w.begin_array();
		for (const auto &e : c.evs)
			ev_json(w, e);
		w.end_array();
	}
	w.end_object();
}

std::string conn_event_text(const Conn &c)
{
	std::string s;
	if (c.qpn)
		add(s, "qpn " + std::to_string(*c.qpn));
	if (c.peer)
		add(s, "peer " + *c.peer);
	for (const auto &[k, v] : c.fields)
		if (k != "dest_qpn")
			add(s, k + ' ' + named(k, v));
	for (const auto &e : c.evs)
		add(s, ev_text(e));
	return s;
}

void conn_event_json(JsonWriter &w, const Conn &c)
{
	if (c.qpn)
		w.field("qpn", *c.qpn);
	if (c.peer)
		w.field("peer", *c.peer);
	fields_json(w, c, false);
	for (const auto &e : c.evs) {
		if (e.index)
			w.field("ev", *e.index);
		if (e.plane)
			w.field("plane", *e.plane);
		if (e.old_state)
			w.field("old_state", conn_ev_state_name(*e.old_state));
		if (e.state)
			w.field("state", conn_ev_state_name(*e.state));
		if (e.reason)
			w.field("reason", conn_ev_reason_name(*e.reason));
		if (e.rtt)
			w.field("rtt_ns", *e.rtt);
	}
}

} // namespace mrcctl
