// SPDX-License-Identifier: GPL-2.0-only
#include "format.hpp"

#include <algorithm>
#include <string_view>

#include <linux/mrc.h>

#include "profile_format.hpp"

namespace mrcctl {

namespace {

const char *updown(bool up) { return up ? "up" : "down"; }

// The plane's own fields; "dev" belongs to the caller's context.
void plane_fields(Printer &p, const Plane &pl)
{
	p.num(Out::Any, "id", "id", pl.id);
	p.str(Out::Any, "netdev", "netdev", pl.netdev);
	p.num(Out::Any, "ifindex", "ifindex", pl.ifindex);
	if (pl.admin_up)
		p.str(Out::Any, "admin_state", "admin", updown(*pl.admin_up));
	if (pl.oper_up)
		p.str(Out::Any, "oper_state", "oper", updown(*pl.oper_up));
}

struct EventInfo {
	const char *object; // text: first word
	const char *action; // text: second word
	const char *json;   // JSON "event" value
};

EventInfo event_info(std::uint32_t type)
{
	switch (type) {
	case MRC_EVENT_PLANE_ADD: return {"plane", "add", "plane_add"};
	case MRC_EVENT_PLANE_DEL: return {"plane", "del", "plane_del"};
	case MRC_EVENT_PLANE_UP: return {"plane", "up", "plane_up"};
	case MRC_EVENT_PLANE_DOWN: return {"plane", "down", "plane_down"};
	case MRC_EVENT_DEV_ADD: return {"dev", "add", "dev_add"};
	case MRC_EVENT_DEV_DEL: return {"dev", "del", "dev_del"};
	case MRC_EVENT_ROUTE_ADD: return {"route", "add", "route_add"};
	case MRC_EVENT_ROUTE_DEL: return {"route", "del", "route_del"};
	case MRC_EVENT_EV_STATE: return {"ev", "state", "ev_state"};
	case MRC_EVENT_QP_ERROR: return {"qp", "error", "qp_error"};
	case MRC_EVENT_EV_PROFILE: return {"ev-profile", "add", "ev_profile"};
	case MRC_EVENT_EV_PROFILE_DEL:
		return {"ev-profile", "del", "ev_profile_del"};
	case MRC_EVENT_CC_PROFILE: return {"cc-profile", "add", "cc_profile"};
	case MRC_EVENT_CC_PROFILE_DEL:
		return {"cc-profile", "del", "cc_profile_del"};
	default: return {nullptr, nullptr, nullptr};
	}
}

// The groups of stats_text(), one pair of lines each.
constexpr std::string_view kStatGroups[][10] = {
	{"tx_pkts", "tx_bytes", "retx_pkts", "nack_tx", "tx_drop"},
	{"rx_pkts", "rx_bytes", "rx_dup", "rx_oow", "nack_rx", "rx_bad_rkey",
	 "rx_spoofed", "rx_bad_state", "rx_proto_err", "rx_bad_resp"},
	// Per network namespace (every instance of the namespace shows them).
	{"rx_malformed", "rx_bad_icrc", "rx_no_qp"},
	// Forged control packets (per instance), probes (per namespace).
	{"rx_ctrl_invalid", "probe_limited", "rx_probe_stray"},
	// UC messages and UD datagrams dropped by the receiver, data
	// packets trimmed by a switch (per instance).
	{"rx_uc_drop", "rx_ud_drop", "rx_trimmed"},
};

// Counters of `st` not in any group (none today): a last group.
std::vector<std::string_view> ungrouped(const Stats &st)
{
	std::vector<std::string_view> out;
	for (const auto &[name, value] : st) {
		bool known = false;
		for (const auto &g : kStatGroups)
			known = known || std::find(std::begin(g), std::end(g),
						   name) != std::end(g);
		if (!known)
			out.push_back(name);
	}
	return out;
}

void pad_left(std::string &s, std::string_view v, std::size_t width)
{
	s += ' ';
	s.append(width > v.size() ? width - v.size() : 0, ' ');
	s += v;
}

template <typename Names>
void stats_group_text(std::string &out, const Stats &st, const Names &names,
		      const std::string &indent)
{
	std::string head, vals;
	for (std::string_view n : names) {
		if (n.empty())
			continue;
		auto it = std::find_if(st.begin(), st.end(), [&](const auto &e) {
			return e.first == n;
		});
		if (it == st.end())
			continue;
		std::string v = std::to_string(it->second);
		std::size_t w = std::max(n.size(), v.size());
		pad_left(head, n, w);
		pad_left(vals, v, w);
	}
	if (head.empty())
		return;
	// Drop the separator in front of the first column.
	out += indent + head.substr(1) + '\n';
	out += indent + vals.substr(1) + '\n';
}

} // namespace

std::string stats_text(const Stats &st, const std::string &indent)
{
	std::string out;
	for (const auto &g : kStatGroups)
		stats_group_text(out, st, g, indent);
	stats_group_text(out, st, ungrouped(st), indent);
	return out;
}

void print_stats(Printer &p, const Stats &st, const std::string &indent)
{
	if (!p.json()) {
		p.text(stats_text(st, indent));
		return;
	}
	p.open_object("stats");
	for (const auto &[name, value] : st)
		p.num(Out::Json, name, "", value);
	p.close_object();
}

std::vector<std::string> caps_words(std::uint32_t caps)
{
	static const struct {
		std::uint32_t bit;
		const char *word;
	} names[] = {
		{MRC_CAP_TRIM_NACK, "trim_nack"},
		{MRC_CAP_DYNAMIC_MPR, "dynamic_mpr"},
		{MRC_CAP_SVC_TIME, "svc_time"},
		{MRC_CAP_EV_UDP, "ev_udp"},
		{MRC_CAP_EV_STEV, "ev_stev"},
		{MRC_CAP_EV_SRV6, "ev_srv6"},
	};
	std::vector<std::string> out;
	for (const auto &n : names) {
		if (caps & n.bit) {
			out.emplace_back(n.word);
			caps &= ~n.bit;
		}
	}
	for (unsigned b = 0; b < 32; b++)
		if (caps & (1u << b))
			out.push_back("bit" + std::to_string(b));
	return out;
}

std::string event_name(std::uint32_t type)
{
	EventInfo i = event_info(type);
	return i.json ? i.json : "event_" + std::to_string(type);
}

void print_plane(Printer &p, const Plane &pl)
{
	p.open_object();
	print_instance_object(p, pl, [&] { plane_fields(p, pl); });
	if (pl.stats)
		print_stats(p, *pl.stats, "    ");
	p.close_object();
}

void print_dev(Printer &p, const Dev &d)
{
	p.open_object();
	p.str(Out::Text, "", "", d.name.value_or("?") + ':');
	p.str(Out::Json, "name", "", d.name);
	p.num(Out::Any, "index", "index", d.index);
	if (d.caps) {
		auto words = caps_words(*d.caps);
		std::string c;
		for (const auto &word : words)
			c += (c.empty() ? "" : ",") + word;
		p.str(Out::Text, "", "caps", c.empty() ? "none" : c);
		p.open_array("caps");
		for (const auto &word : words)
			p.str(Out::Json, "", "", word);
		p.close_array();
	}
	p.num(Out::Any, "max_planes", "max_planes", d.max_planes);
	p.num(Out::Any, "udp_port", "udp_port", d.udp_port);
	std::size_t up = 0;
	for (const auto &pl : d.planes)
		up += pl.oper_up.value_or(false);
	p.str(Out::Text, "", "planes",
	      std::to_string(d.planes.size()) + " (" + std::to_string(up) +
		      " up)");
	p.newline();
	p.open_array("planes");
	for (const auto &pl : d.planes) {
		p.open_object();
		p.text("    ");
		p.str(Out::Text, "", "", "plane");
		plane_fields(p, pl);
		p.newline();
		if (pl.stats)
			print_stats(p, *pl.stats, "        ");
		p.close_object();
	}
	p.close_array();
	if (d.stats)
		print_stats(p, *d.stats, "    ");
	p.close_object();
}

namespace {

// The route's own fields; "dev" belongs to the caller's context.
void route_fields(Printer &p, const Route &r)
{
	p.str(Out::Any, "peer", "", r.peer);
	p.open_array("hops");
	for (const auto &h : r.hops) {
		p.open_object();
		p.num(Out::Any, "plane", "plane", h.plane);
		p.str(Out::Any, "via", "via", h.via);
		p.close_object();
	}
	p.close_array();
	p.num(Out::Any, "ev_profile", "ev-profile", r.ev_profile);
	p.num(Out::Any, "cc_profile", "cc-profile", r.cc_profile);
}

} // namespace

void print_route(Printer &p, const Route &r)
{
	p.open_object();
	print_instance_object(p, r, [&] { route_fields(p, r); });
	p.close_object();
}

void print_event(Printer &p, const Event &e)
{
	EventInfo i = event_info(e.type);
	p.open_object();
	if (i.object)
		p.str(Out::Text, "", i.object, i.action);
	else
		p.num(Out::Text, "", "event", e.type);
	p.str(Out::Json, "event", "", event_name(e.type));
	p.str(Out::Any, "dev", "dev", e.dev);
	p.num(Out::Json, "dev_index", "", e.dev_index);
	if (e.conn)
		print_conn_event_fields(p, *e.conn);
	else if (e.route)
		route_fields(p, *e.route);
	else if (e.ev_profile)
		print_ev_profile_fields(p, *e.ev_profile, true);
	else if (e.cc_profile)
		print_cc_profile_fields(p, *e.cc_profile);
	else if (p.json() || !i.object || std::string_view(i.object) == "plane")
		plane_fields(p, e.plane);
	else
		p.num(Out::Text, "", "index", e.dev_index); // dev events
	p.close_object();
}

void print_probe_result(Printer &p, const ProbeResult &r)
{
	p.open_object();
	p.num(Out::Any, "ev", "ev", r.ev);
	p.num(Out::Any, "plane", "plane", r.plane);
	p.num(Out::Any, "sport", "sport", r.sport);
	p.str(Out::Any, "value", "value", r.value);
	if (!r.batch) {
		p.str(Out::Text, "", "via", r.via.value_or("-"));
		p.str(Out::Json, "via", "", r.via);
	}
	if (r.rtt_ns) {
		p.str(Out::Text, "", "rtt", ns_text(*r.rtt_ns));
		p.num(Out::Json, "rtt_ns", "", *r.rtt_ns);
		p.num(Out::Any, "answer_plane", "via-plane", r.answer_plane);
		if (r.svc_ns && *r.svc_ns) {
			p.str(Out::Text, "", "svc", ns_text(*r.svc_ns));
			p.num(Out::Json, "svc_ns", "", *r.svc_ns);
		}
	} else {
		p.str(Out::Text, "", "", "timeout");
		p.boolean("timeout", true);
	}
	p.newline();
	p.close_object();
}

} // namespace mrcctl
