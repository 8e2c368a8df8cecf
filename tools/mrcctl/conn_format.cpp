// SPDX-License-Identifier: GPL-2.0-only
// Text and JSON of live connections (conn show, EV_STATE and QP_ERROR
// events).
#include "conn.hpp"

namespace mrcctl {

namespace {

bool is_time(const std::string &k) { return k == "srtt" || k == "rto"; }

std::string hex_bytes(const std::vector<std::uint8_t> &v)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	for (std::uint8_t b : v) {
		s += digits[b >> 4];
		s += digits[b & 15];
	}
	return s;
}

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

void counters(Printer &p, const ConnCounters &c, Out o)
{
	for (const auto &[k, v] : c.list)
		p.num(o, k, k, v);
}

// The u32 fields of a connection: QP state and status by name, times in
// text as people read them and in JSON in ns (conn show: "srtt_ns"), the
// EV count as "evs_total" beside the "evs" array. An event's text leaves
// out the peer's QP number.
void fields(Printer &p, const Conn &c, bool event)
{
	for (const auto &[k, v] : c.fields) {
		if (!event || k != "dest_qpn")
			p.str(Out::Text, "", k, named(k, v));
		if (k == "state" || k == "status")
			p.str(Out::Json, k, "", named(k, v));
		else if (k == "evs")
			p.num(Out::Json, "evs_total", "", v);
		else
			p.num(Out::Json, !event && is_time(k) ? k + "_ns" : k,
			      "", v);
	}
}

// One EV: "ev 3 plane 2 good -> assumed_bad reason loss rtt 4500ns" (a
// state without its old one as "state good"). In JSON an event names the
// old state first and leaves out port and counters.
void ev_fields(Printer &p, const ConnEv &e, bool event)
{
	p.num(Out::Any, "ev", "ev", e.index);
	p.num(Out::Any, "plane", "plane", e.plane);
	p.num(event ? Out::Text : Out::Any, "sport", "sport", e.sport);
	if (e.old_state) {
		p.str(Out::Text, "", "",
		      std::string(conn_ev_state_name(*e.old_state)) + " ->");
		if (event)
			p.str(Out::Json, "old_state", "",
			      conn_ev_state_name(*e.old_state));
	}
	if (e.state)
		p.str(Out::Any, "state", e.old_state ? "" : "state",
		      conn_ev_state_name(*e.state));
	if (e.old_state && !event)
		p.str(Out::Json, "old_state", "",
		      conn_ev_state_name(*e.old_state));
	if (e.reason)
		p.str(Out::Any, "reason", "reason",
		      conn_ev_reason_name(*e.reason));
	p.num(Out::Json, "rtt_ns", "", e.rtt);
	if (e.rtt && *e.rtt)
		p.str(Out::Text, "", "rtt", ns_text(*e.rtt));
	// Events only, in JSON only (the text line stays as it was): the
	// EV's value as hex digits and the instance's event number.
	if (e.value)
		p.str(Out::Json, "value", "", hex_bytes(*e.value));
	p.num(Out::Json, "seq", "", e.seq);
	counters(p, e.counters, event ? Out::Text : Out::Any);
}

} // namespace

void print_conn(Printer &p, const Conn &c)
{
	p.open_object();
	p.str(Out::Any, "dev", "dev", c.dev);
	p.num(Out::Any, "qpn", "qpn", c.qpn);
	p.str(Out::Any, "peer", "peer", c.peer);
	fields(p, c, false);
	if (!c.counters.list.empty())
		p.text("\n   ");
	counters(p, c.counters, Out::Any);
	p.newline();
	if (!c.planes.empty()) {
		p.open_array("planes");
		for (const auto &pl : c.planes) {
			p.open_object();
			p.text("    ");
			p.str(Out::Text, "", "", "plane");
			p.num(Out::Any, "plane", "", pl.id);
			p.num(Out::Any, "evs_usable", "evs_usable",
			      pl.evs_usable);
			counters(p, pl.counters, Out::Any);
			p.newline();
			p.close_object();
		}
		p.close_array();
	}
	if (!c.evs.empty()) {
		p.open_array("evs");
		for (const auto &e : c.evs) {
			p.open_object();
			p.text("    ");
			ev_fields(p, e, false);
			p.newline();
			p.close_object();
		}
		p.close_array();
	}
	p.close_object();
}

void print_conn_event_fields(Printer &p, const Conn &c)
{
	p.num(Out::Any, "qpn", "qpn", c.qpn);
	p.str(Out::Any, "peer", "peer", c.peer);
	fields(p, c, true);
	for (const auto &e : c.evs)
		ev_fields(p, e, true);
}

} // namespace mrcctl
