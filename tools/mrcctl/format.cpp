// SPDX-License-Identifier: GPL-2.0-only
#include "format.hpp"

#include <algorithm>
#include <string_view>
#include <type_traits>

#include <linux/mrc.h>

#include "profile_format.hpp"

namespace mrcctl {

namespace {

const char *updown(bool up) { return up ? "up" : "down"; }

void add_word(std::string &s, const std::string &w)
{
	if (!s.empty())
		s += ' ';
	s += w;
}

template <typename T>
void add_kv(std::string &s, const char *k, const std::optional<T> &v)
{
	if (!v)
		return;
	if constexpr (std::is_same_v<T, std::string>)
		add_word(s, std::string(k) + ' ' + *v);
	else
		add_word(s, std::string(k) + ' ' + std::to_string(*v));
}

// The plane's own fields; "dev" belongs to the caller's context.
void plane_fields_text(std::string &s, const Plane &p)
{
	add_kv(s, "id", p.id);
	add_kv(s, "netdev", p.netdev);
	add_kv(s, "ifindex", p.ifindex);
	if (p.admin_up)
		add_word(s, std::string("admin ") + updown(*p.admin_up));
	if (p.oper_up)
		add_word(s, std::string("oper ") + updown(*p.oper_up));
}

template <typename T>
void json_opt(JsonWriter &w, const char *k, const std::optional<T> &v)
{
	if (v)
		w.field(k, *v);
}

void plane_fields_json(JsonWriter &w, const Plane &p)
{
	json_opt(w, "id", p.id);
	json_opt(w, "netdev", p.netdev);
	json_opt(w, "ifindex", p.ifindex);
	if (p.admin_up)
		w.field("admin_state", updown(*p.admin_up));
	if (p.oper_up)
		w.field("oper_state", updown(*p.oper_up));
}

struct EventInfo {
	const char *object;	// text: first word
	const char *action;	// text: second word
	const char *json;	// JSON "event" value
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
		auto it = std::find_if(st.begin(), st.end(),
				       [&](const auto &e) { return e.first == n; });
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

void stats_json(JsonWriter &w, const Stats &st)
{
	w.key("stats");
	w.begin_object();
	for (const auto &[name, value] : st)
		w.field(name, value);
	w.end_object();
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

std::string plane_text(const Plane &p)
{
	std::string s;
	add_kv(s, "dev", p.dev);
	plane_fields_text(s, p);
	if (p.stats) {
		std::string st = stats_text(*p.stats, "    ");
		if (!st.empty()) {
			st.pop_back();	// the caller ends the last line
			s += '\n' + st;
		}
	}
	return s;
}

void plane_json(JsonWriter &w, const Plane &p)
{
	w.begin_object();
	json_opt(w, "dev", p.dev);
	json_opt(w, "dev_index", p.dev_index);
	plane_fields_json(w, p);
	if (p.stats)
		stats_json(w, *p.stats);
	w.end_object();
}

std::string dev_text(const Dev &d)
{
	std::string s = d.name.value_or("?") + ':';
	add_kv(s, "index", d.index);
	if (d.caps) {
		std::string c;
		for (const auto &word : caps_words(*d.caps))
			c += (c.empty() ? "" : ",") + word;
		add_word(s, "caps " + (c.empty() ? std::string("none") : c));
	}
	add_kv(s, "max_planes", d.max_planes);
	add_kv(s, "udp_port", d.udp_port);
	std::size_t up = 0;
	for (const auto &p : d.planes)
		up += p.oper_up.value_or(false);
	add_word(s, "planes " + std::to_string(d.planes.size()) + " (" +
			    std::to_string(up) + " up)");
	s += '\n';
	for (const auto &p : d.planes) {
		std::string line = "plane";
		plane_fields_text(line, p);
		s += "    " + line + '\n';
		if (p.stats)
			s += stats_text(*p.stats, "        ");
	}
	if (d.stats)
		s += stats_text(*d.stats, "    ");
	return s;
}

void dev_json(JsonWriter &w, const Dev &d)
{
	w.begin_object();
	json_opt(w, "name", d.name);
	json_opt(w, "index", d.index);
	if (d.caps) {
		w.key("caps");
		w.begin_array();
		for (const auto &word : caps_words(*d.caps))
			w.value(word);
		w.end_array();
	}
	json_opt(w, "max_planes", d.max_planes);
	if (d.udp_port)
		w.field("udp_port", static_cast<std::uint32_t>(*d.udp_port));
	w.key("planes");
	w.begin_array();
	for (const auto &p : d.planes) {
		w.begin_object();
		plane_fields_json(w, p);
		if (p.stats)
			stats_json(w, *p.stats);
		w.end_object();
	}
	w.end_array();
	if (d.stats)
		stats_json(w, *d.stats);
	w.end_object();
}

namespace {

// The route's own fields; "dev" belongs to the caller's context.
void route_fields_text(std::string &s, const Route &r)
{
	if (r.peer)
		add_word(s, *r.peer);
	for (const auto &h : r.hops)
		add_word(s, "plane " + std::to_string(h.plane) + " via " + h.via);
	add_kv(s, "ev-profile", r.ev_profile);
	add_kv(s, "cc-profile", r.cc_profile);
}

void route_fields_json(JsonWriter &w, const Route &r)
{
	json_opt(w, "peer", r.peer);
	w.key("hops");
	w.begin_array();
	for (const auto &h : r.hops) {
		w.begin_object();
		w.field("plane", h.plane);
		w.field("via", h.via);
		w.end_object();
	}
	w.end_array();
	json_opt(w, "ev_profile", r.ev_profile);
	json_opt(w, "cc_profile", r.cc_profile);
}

} // namespace

std::string route_text(const Route &r)
{
	std::string s;
	add_kv(s, "dev", r.dev);
	route_fields_text(s, r);
	return s;
}

void route_json(JsonWriter &w, const Route &r)
{
	w.begin_object();
	json_opt(w, "dev", r.dev);
	json_opt(w, "dev_index", r.dev_index);
	route_fields_json(w, r);
	w.end_object();
}

std::string event_text(const Event &e)
{
	EventInfo i = event_info(e.type);
	std::string s;
	if (i.object)
		s = std::string(i.object) + ' ' + i.action;
	else
		s = "event " + std::to_string(e.type);
	add_kv(s, "dev", e.dev);
	if (e.conn)
		add_word(s, conn_event_text(*e.conn));
	else if (e.route)
		route_fields_text(s, *e.route);
	else if (e.ev_profile)
		add_word(s, ev_profile_fields_text(*e.ev_profile, true));
	else if (e.cc_profile)
		add_word(s, cc_profile_fields_text(*e.cc_profile));
	else if (!i.object || std::string_view(i.object) == "plane")
		plane_fields_text(s, e.plane);
	else
		add_kv(s, "index", e.dev_index);
	return s;
}

void event_json(JsonWriter &w, const Event &e)
{
	w.begin_object();
	w.field("event", event_name(e.type));
	json_opt(w, "dev", e.dev);
	json_opt(w, "dev_index", e.dev_index);
	if (e.conn)
		conn_event_json(w, *e.conn);
	else if (e.route)
		route_fields_json(w, *e.route);
	else if (e.ev_profile)
		ev_profile_fields_json(w, *e.ev_profile);
	else if (e.cc_profile)
		cc_profile_fields_json(w, *e.cc_profile);
	else
		plane_fields_json(w, e.plane);
	w.end_object();
}

std::string probe_result_text(const ProbeResult &r)
{
	std::string s;
	auto add = [&](const std::string &w) {
		if (!s.empty())
			s += ' ';
		s += w;
	};
	if (r.ev)
		add("ev " + std::to_string(*r.ev));
	if (r.plane)
		add("plane " + std::to_string(*r.plane));
	if (r.sport)
		add("sport " + std::to_string(*r.sport));
	add("via " + r.via.value_or("-"));
	add(r.rtt_ns ? "rtt " + ns_text(*r.rtt_ns) : "timeout");
	return s + '\n';
}

void probe_result_json(JsonWriter &w, const ProbeResult &r)
{
	w.begin_object();
	if (r.ev)
		w.field("ev", *r.ev);
	if (r.plane)
		w.field("plane", *r.plane);
	if (r.sport)
		w.field("sport", static_cast<std::uint32_t>(*r.sport));
	if (r.via)
		w.field("via", *r.via);
	if (r.rtt_ns)
		w.field("rtt_ns", *r.rtt_ns);
	else
		w.field("timeout", true);
	w.end_object();
}

} // namespace mrcctl
