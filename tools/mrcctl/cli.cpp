// SPDX-License-Identifier: GPL-2.0-only
#include "cli.hpp"

#include <linux/mrc.h>

#include "addr.hpp"

namespace mrcctl {

namespace {

constexpr std::uint32_t kMaxPlanes = MRC_MAX_PLANES;
constexpr std::size_t kMaxProbeEvs = 256; // the kernel's batch limit

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

enum Object {
	O_DEV,
	O_PLANE,
	O_ROUTE,
	O_EV_PROFILE,
	O_EV,
	O_CC_PROFILE,
	O_CONN,
	O_PROBE,
	O_MONITOR,
	O_HELP
};
constexpr Keyword kObjects[] = {
	{"dev", O_DEV},		{"plane", O_PLANE},
	{"route", O_ROUTE},	{"conn", O_CONN},
	{"probe", O_PROBE},	{"ev-profile", O_EV_PROFILE},
	{"ev", O_EV},		{"cc-profile", O_CC_PROFILE},
	{"monitor", O_MONITOR}, {"help", O_HELP},
};

enum Action { A_SHOW, A_ADD, A_DEL, A_SET, A_HELP };
constexpr Keyword kDevActions[] = {
	{"show", A_SHOW},
	{"list", A_SHOW},
	{"help", A_HELP},
};
constexpr Keyword kPlaneActions[] = {
	{"show", A_SHOW},  {"list", A_SHOW}, {"add", A_ADD},   {"del", A_DEL},
	{"delete", A_DEL}, {"set", A_SET},   {"help", A_HELP},
};

constexpr Keyword kRouteActions[] = {
	{"show", A_SHOW},  {"list", A_SHOW}, {"add", A_ADD},   {"del", A_DEL},
	{"delete", A_DEL}, {"set", A_SET},   {"help", A_HELP},
};

enum RouteKey { R_DEV, R_PLANE, R_EV, R_CC, R_HELP };
constexpr Keyword kRouteKeys[] = {
	{"dev", R_DEV},	      {"plane", R_PLANE}, {"ev-profile", R_EV},
	{"cc-profile", R_CC}, {"help", R_HELP},
};

enum Key { K_DEV, K_NETDEV, K_ID, K_UP, K_DOWN, K_QPN, K_HELP };
constexpr Keyword kAllKeys[] = {
	{"dev", K_DEV},	  {"netdev", K_NETDEV}, {"id", K_ID},	  {"up", K_UP},
	{"down", K_DOWN}, {"qpn", K_QPN},	{"help", K_HELP},
};

// Parse the KEY VALUE / WORD arguments of one action into r. Only the keys
// in `allowed` are keywords here, so a key of another action is an unknown
// word and cannot make a prefix ambiguous ("d" is "dev" in plane del, but
// "dev" or "down" in plane set). Returns false if "help" turned r into a
// help request.
bool parse_keys(Cursor &c, Request &r, std::initializer_list<Key> allowed)
{
	std::vector<Keyword> table;
	for (const auto &k : kAllKeys)
		for (Key a : allowed)
			if (k.id == a)
				table.push_back(k);
	table.push_back({"help", K_HELP});

	while (!c.done()) {
		int key = c.keyword(table);
		switch (key) {
		case K_HELP:
			r = Request{};
			r.cmd = Cmd::Help;
			r.topic = c.topic();
			return false;
		case K_DEV:
			c.once(r.dev.has_value(), "dev");
			r.dev = c.name("dev", kIbNameMax);
			break;
		case K_NETDEV:
			c.once(r.netdev.has_value(), "netdev");
			r.netdev = c.name("netdev", kIfNameMax);
			break;
		case K_ID:
		case K_QPN: {
			// conn show names the QP by "qpn"; it is the id.
			const char *what = key == K_ID ? "id" : "qpn";
			c.once(r.id.has_value(), what);
			r.id = c.number(what);
			break;
		}
		case K_UP:
		case K_DOWN:
			c.once(r.up.has_value(), "up/down");
			r.up = key == K_UP;
			break;
		}
	}
	return true;
}

// OBJECT [show] [KEY VALUE]...: objects whose only action is show.
Request parse_show_only(Cursor &c, Cmd cmd, std::initializer_list<Key> keys)
{
	Request r;
	int action = A_SHOW;
	if (!c.done())
		action = c.keyword(kDevActions);
	if (action == A_HELP) {
		r.topic = c.topic();
		return r;
	}
	r.cmd = cmd;
	c.set_topic(c.topic() + " show");
	parse_keys(c, r, keys);
	return r;
}

Request parse_dev(Cursor &c)
{
	c.set_topic("dev");
	return parse_show_only(c, Cmd::DevShow, {K_DEV});
}

Request parse_plane(Cursor &c)
{
	Request r;
	c.set_topic("plane");
	int action = A_SHOW;
	if (!c.done())
		action = c.keyword(kPlaneActions);
	switch (action) {
	case A_HELP: r.topic = c.topic(); return r;
	case A_SHOW:
		r.cmd = Cmd::PlaneShow;
		c.set_topic("plane show");
		parse_keys(c, r, {K_DEV, K_ID});
		return r;
	case A_ADD:
		r.cmd = Cmd::PlaneAdd;
		c.set_topic("plane add");
		if (parse_keys(c, r, {K_DEV, K_NETDEV, K_ID})) {
			c.require(r.dev.has_value(), "'dev NAME'");
			c.require(r.netdev.has_value(), "'netdev NAME'");
		}
		return r;
	case A_DEL:
		r.cmd = Cmd::PlaneDel;
		c.set_topic("plane del");
		if (parse_keys(c, r, {K_DEV, K_ID})) {
			c.require(r.dev.has_value(), "'dev NAME'");
			c.require(r.id.has_value(), "'id ID'");
		}
		return r;
	default:
		r.cmd = Cmd::PlaneSet;
		c.set_topic("plane set");
		if (parse_keys(c, r, {K_DEV, K_ID, K_UP, K_DOWN})) {
			c.require(r.dev.has_value(), "'dev NAME'");
			c.require(r.id.has_value(), "'id ID'");
			c.require(r.up.has_value(), "'up' or 'down'");
		}
		return r;
	}
}

// An IPv4 or IPv6 address after `key`; `what` names it in the error.
std::string address(Cursor &c, const std::string &key, const std::string &what)
{
	if (c.done())
		c.fail(key + " needs an address");
	std::string_view a = c.next();
	if (!parse_addr(a))
		c.fail("invalid " + what + " '" + std::string(a) +
		       "': expected IPv4 or IPv6");
	return std::string(a);
}

// route ACTION [PEER] [dev NAME] [plane N via ADDR]... [ev-profile ID]
// [cc-profile ID]: the words that parse as an IPv4/IPv6 address are the
// peer; `full` allows the hops and profiles (add, set). Returns false if
// "help" turned r into a help request.
bool parse_route_keys(Cursor &c, Request &r, bool full)
{
	std::span<const Keyword> table(kRouteKeys);
	static constexpr Keyword small[] = {{"dev", R_DEV}, {"help", R_HELP}};
	if (!full)
		table = small;

	while (!c.done()) {
		std::string_view w = c.peek();
		if (parse_addr(w)) {
			c.next();
			if (r.peer)
				c.fail("peer address given twice (" + *r.peer +
				       ", " + std::string(w) + ")");
			r.peer = std::string(w);
			continue;
		}
		switch (c.keyword(table)) {
		case R_HELP:
			r = Request{};
			r.cmd = Cmd::Help;
			r.topic = c.topic();
			return false;
		case R_DEV:
			c.once(r.dev.has_value(), "dev");
			r.dev = c.name("dev", kIbNameMax);
			break;
		case R_PLANE: {
			std::uint32_t plane = c.number("plane");
			static constexpr Keyword kVia[] = {{"via", 0}};
			if (c.done())
				c.fail("'plane " + std::to_string(plane) +
				       "' needs 'via ADDR'");
			c.keyword(kVia);
			r.hops.emplace_back(plane,
					    address(c, "via", "via address"));
			break;
		}
		case R_EV:
			c.once(r.ev_profile.has_value(), "ev-profile");
			r.ev_profile = c.number("ev-profile");
			break;
		case R_CC:
			c.once(r.cc_profile.has_value(), "cc-profile");
			r.cc_profile = c.number("cc-profile");
			break;
		}
	}
	return true;
}

Request parse_route(Cursor &c)
{
	Request r;
	c.set_topic("route");
	int action = A_SHOW;
	if (!c.done())
		action = c.keyword(kRouteActions);
	switch (action) {
	case A_HELP: r.topic = c.topic(); return r;
	case A_SHOW:
		r.cmd = Cmd::RouteShow;
		c.set_topic("route show");
		parse_route_keys(c, r, false);
		return r;
	case A_DEL:
		r.cmd = Cmd::RouteDel;
		c.set_topic("route del");
		if (parse_route_keys(c, r, false)) {
			c.require(r.peer.has_value(), "peer address");
			c.require(r.dev.has_value(), "'dev NAME'");
		}
		return r;
	default:
		r.cmd = action == A_ADD ? Cmd::RouteAdd : Cmd::RouteSet;
		c.set_topic(action == A_ADD ? "route add" : "route set");
		if (parse_route_keys(c, r, true)) {
			c.require(r.peer.has_value(), "peer address");
			c.require(r.dev.has_value(), "'dev NAME'");
			c.require(!r.hops.empty(), "'plane N via ADDR'");
		}
		return r;
	}
}

// conn show [dev NAME] [qpn N]
Request parse_conn(Cursor &c)
{
	c.set_topic("conn");
	return parse_show_only(c, Cmd::ConnShow, {K_DEV, K_QPN});
}

// The bytes of an IPv6 address word (SRV6 EVs name IPv6 addresses).
std::vector<std::uint8_t> ipv6_words(Cursor &c, const std::string &key)
{
	std::string a = address(c, key, key + " address");
	auto bytes = parse_addr(a);
	if (!bytes || bytes->size() != 16)
		c.fail(key + " must be an IPv6 address");
	return *bytes;
}

// "ev plane N { sport P | stev V | sid ADDR [ seg ADDR ] }" after "ev":
// one explicit EV of any format.
ProbeEv probe_ev(Cursor &c)
{
	ProbeEv ev;
	c.expect("plane", "ev");
	ev.plane = c.number("plane", kMaxPlanes);
	if (!ev.plane)
		c.fail("plane must be 1..16");
	if (c.done())
		c.fail("'ev plane N' needs 'sport P', 'stev V' or 'sid ADDR'");
	std::string_view kind = c.next();
	if (kind == "sport") {
		std::uint32_t p = c.number("sport", 65535);
		if (!p)
			c.fail("sport must be 1..65535");
		ev.format = MRC_EV_PROFILE_FORMAT_UDP;
		ev.value = {static_cast<std::uint8_t>(p >> 8),
			    static_cast<std::uint8_t>(p)};
	} else if (kind == "stev") {
		std::uint32_t v = c.number("stev");
		ev.format = MRC_EV_PROFILE_FORMAT_STEV;
		for (int sh = 24; sh >= 0; sh -= 8)
			ev.value.push_back(static_cast<std::uint8_t>(v >> sh));
	} else if (kind == "sid") {
		ev.format = MRC_EV_PROFILE_FORMAT_SRV6;
		ev.value = ipv6_words(c, "sid");
		if (!c.done() && c.peek() == "seg") {
			c.next();
			auto seg = ipv6_words(c, "seg");
			ev.value.insert(ev.value.end(), seg.begin(), seg.end());
		}
	} else {
		c.fail("'ev plane N' needs 'sport P', 'stev V' or 'sid ADDR', "
		       "not " +
		       std::string(kind));
	}
	return ev;
}

// probe dev NAME to ADDR [ ev PORT plane N | ev-profile ID ] [ timeout MS ]
// probe dev NAME to ADDR [ from ADDR ] ev plane N EV [ ev plane N EV ]...
//       [ timeout MS ]
Request parse_probe(Cursor &c)
{
	enum {
		P_DEV,
		P_TO,
		P_EV,
		P_PLANE,
		P_PROFILE,
		P_TIMEOUT,
		P_FROM,
		P_HELP
	};
	static constexpr Keyword keys[] = {
		{"dev", P_DEV},
		{"to", P_TO},
		{"ev", P_EV},
		{"plane", P_PLANE},
		{"ev-profile", P_PROFILE},
		{"timeout", P_TIMEOUT},
		{"from", P_FROM},
		{"help", P_HELP},
	};
	c.set_topic("probe");
	Request r;
	r.cmd = Cmd::Probe;
	while (!c.done()) {
		switch (c.keyword(keys)) {
		case P_HELP:
			r = Request{};
			r.topic = c.topic();
			return r;
		case P_DEV:
			c.once(r.dev.has_value(), "dev");
			r.dev = c.name("dev", kIbNameMax);
			break;
		case P_TO:
			c.once(r.peer.has_value(), "to");
			r.peer = address(c, "to", "address");
			break;
		case P_EV:
			if (!c.done() && c.peek() == "plane") {
				if (r.probe_evs.size() == kMaxProbeEvs)
					c.fail("at most 256 EVs in one probe");
				r.probe_evs.push_back(probe_ev(c));
				break;
			}
			c.once(r.ev_sport.has_value(), "ev");
			r.ev_sport = c.number("ev");
			if (!*r.ev_sport || *r.ev_sport > 65535)
				c.fail("ev must be a UDP source port "
				       "(1..65535)");
			break;
		case P_PLANE:
			c.once(r.ev_plane.has_value(), "plane");
			r.ev_plane = c.number("plane");
			break;
		case P_PROFILE:
			c.once(r.ev_profile.has_value(), "ev-profile");
			r.ev_profile = c.number("ev-profile");
			break;
		case P_TIMEOUT:
			c.once(r.timeout_ms.has_value(), "timeout");
			r.timeout_ms = c.number("timeout");
			break;
		case P_FROM:
			c.once(r.from.has_value(), "from");
			r.from = address(c, "from", "address");
			break;
		}
	}
	c.require(r.dev.has_value(), "'dev NAME'");
	c.require(r.peer.has_value(), "'to ADDR'");
	if (r.ev_sport.has_value() != r.ev_plane.has_value())
		c.fail("'ev PORT' and 'plane N' go together");
	if (r.ev_sport && r.ev_profile)
		c.fail("give either 'ev PORT plane N' or 'ev-profile ID'");
	if (!r.probe_evs.empty() && (r.ev_sport || r.ev_profile))
		c.fail("'ev plane N ...' goes with neither 'ev PORT plane N' "
		       "nor 'ev-profile ID'");
	if (r.from && r.probe_evs.empty())
		c.fail("'from ADDR' needs 'ev plane N ...'");
	return r;
}

Request parse_monitor(Cursor &c)
{
	Request r;
	r.cmd = Cmd::Monitor;
	c.set_topic("monitor");
	parse_keys(c, r, {K_DEV});
	return r;
}

// Global options precede the object, as in ip(8). Short flags may be
// combined ("-jp").
bool parse_option(std::string_view a, Invocation &inv)
{
	if (a == "--json") {
		inv.opts.json = true;
	} else if (a == "--pretty") {
		inv.opts.pretty = true;
	} else if (a == "--stats") {
		inv.opts.stats = true;
	} else if (a == "--help") {
		return false;
	} else if (a == "--version") {
		inv.req.cmd = Cmd::Version;
	} else if (a.size() >= 2 && a[0] == '-' && a[1] != '-') {
		for (char f : a.substr(1)) {
			switch (f) {
			case 'j': inv.opts.json = true; break;
			case 'p': inv.opts.pretty = true; break;
			case 's': inv.opts.stats = true; break;
			case 'h': return false;
			case 'V': inv.req.cmd = Cmd::Version; break;
			default:
				throw UsageError("unknown option " +
							 quoted(std::string("-") +
								f),
						 "");
			}
		}
	} else {
		throw UsageError("unknown option " + quoted(a), "");
	}
	return true;
}

} // namespace

Invocation parse_args(std::span<const std::string_view> args)
{
	Invocation inv;
	std::size_t i = 0;

	for (; i < args.size() && args[i].starts_with('-'); i++) {
		if (args[i] == "--") {
			i++;
			break;
		}
		// The one option with a value: -n NETNS (as in ip -n).
		if (args[i] == "-n" || args[i] == "--netns") {
			if (i + 1 >= args.size() || args[i + 1].empty())
				throw UsageError(std::string(args[i]) +
							 " needs a network "
							 "namespace name",
						 "");
			inv.opts.netns = std::string(args[++i]);
			continue;
		}
		if (!parse_option(args[i], inv)) {
			inv.req = Request{};
			return inv;
		}
	}
	if (inv.opts.pretty)
		inv.opts.json = true;
	if (inv.req.cmd == Cmd::Version)
		return inv;

	Cursor c(args.subspan(i));
	if (c.done())
		throw UsageError("no command given", "");
	switch (match_keyword(c.next(), kObjects, "")) {
	case O_DEV: inv.req = parse_dev(c); break;
	case O_PLANE: inv.req = parse_plane(c); break;
	case O_ROUTE: inv.req = parse_route(c); break;
	case O_CONN: inv.req = parse_conn(c); break;
	case O_PROBE: inv.req = parse_probe(c); break;
	case O_EV_PROFILE: inv.req = parse_ev_profile(c); break;
	case O_EV: inv.req = parse_ev(c); break;
	case O_CC_PROFILE: inv.req = parse_cc_profile(c); break;
	case O_MONITOR: inv.req = parse_monitor(c); break;
	default: {
		// "mrcctl help plane add" is "mrcctl plane add help": parse
		// it that way so that abbreviations work the same.
		std::vector<std::string_view> rest;
		while (!c.done())
			rest.push_back(c.next());
		if (rest.empty() ||
		    match_keyword(rest[0], kObjects, "") == O_HELP) {
			inv.req = Request{};
			break;
		}
		rest.push_back("help");
		Invocation sub = parse_args(rest);
		if (sub.req.cmd != Cmd::Help)
			throw UsageError("no help on that", "");
		inv.req = sub.req;
		break;
	}
	}
	return inv;
}

} // namespace mrcctl
