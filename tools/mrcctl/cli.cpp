// SPDX-License-Identifier: GPL-2.0-only
#include "cli.hpp"

#include <limits>

#include "addr.hpp"

namespace mrcctl {

namespace {

// Linux limits; longer names can never exist, so refusing them here gives a
// clearer message than the kernel's policy error would.
constexpr std::size_t kIfNameMax = 15;	// IFNAMSIZ - 1
constexpr std::size_t kIbNameMax = 63;	// IB_DEVICE_NAME_MAX - 1

enum Object { O_DEV, O_PLANE, O_ROUTE, O_EV_PROFILE, O_EV, O_CC_PROFILE,
	      O_CONN, O_PROBE, O_MONITOR, O_HELP };
constexpr Keyword kObjects[] = {
	{"dev", O_DEV},
	{"plane", O_PLANE},
	{"route", O_ROUTE},
	{"conn", O_CONN},
	{"probe", O_PROBE},
	{"ev-profile", O_EV_PROFILE},
	{"ev", O_EV},
	{"cc-profile", O_CC_PROFILE},
	{"monitor", O_MONITOR},
	{"help", O_HELP},
};

enum Action { A_SHOW, A_ADD, A_DEL, A_SET, A_HELP };
constexpr Keyword kDevActions[] = {
	{"show", A_SHOW}, {"list", A_SHOW}, {"help", A_HELP},
};
constexpr Keyword kPlaneActions[] = {
	{"show", A_SHOW}, {"list", A_SHOW}, {"add", A_ADD}, {"del", A_DEL},
	{"delete", A_DEL}, {"set", A_SET}, {"help", A_HELP},
};

constexpr Keyword kRouteActions[] = {
	{"show", A_SHOW}, {"list", A_SHOW}, {"add", A_ADD}, {"del", A_DEL},
	{"delete", A_DEL}, {"set", A_SET}, {"help", A_HELP},
};

enum RouteKey { R_DEV, R_PLANE, R_EV, R_CC, R_HELP };
constexpr Keyword kRouteKeys[] = {
	{"dev", R_DEV}, {"plane", R_PLANE}, {"ev-profile", R_EV},
	{"cc-profile", R_CC}, {"help", R_HELP},
};

enum Key { K_DEV, K_NETDEV, K_ID, K_UP, K_DOWN, K_QPN, K_HELP };
constexpr Keyword kAllKeys[] = {
	{"dev", K_DEV}, {"netdev", K_NETDEV}, {"id", K_ID},
	{"up", K_UP},	{"down", K_DOWN},     {"qpn", K_QPN},
	{"help", K_HELP},
};

class Cursor {
public:
	explicit Cursor(std::span<const std::string_view> a) : args_(a) {}
	bool done() const { return pos_ >= args_.size(); }
	std::string_view peek() const { return args_[pos_]; }
	std::string_view next() { return args_[pos_++]; }

private:
	std::span<const std::string_view> args_;
	std::size_t pos_ = 0;
};

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string name_value(Cursor &c, std::string_view key, std::size_t max,
		       const std::string &topic)
{
	if (c.done())
		throw UsageError(std::string(key) + " needs a name", topic);
	std::string_view v = c.next();
	if (v.empty())
		throw UsageError(std::string(key) + " name is empty", topic);
	if (v.size() > max)
		throw UsageError(std::string(key) + " name " + quoted(v) +
					 " is longer than " + std::to_string(max) +
					 " characters",
				 topic);
	return std::string(v);
}

// Parse the KEY VALUE / WORD arguments of one action into r. Only the keys
// in `allowed` are keywords here, so a key of another action is an unknown
// word and cannot make a prefix ambiguous ("d" is "dev" in plane del, but
// "dev" or "down" in plane set). Returns false if "help" turned r into a
// help request.
bool parse_keys(Cursor &c, Request &r, std::initializer_list<Key> allowed,
		const std::string &topic)
{
	std::vector<Keyword> table;
	for (const auto &k : kAllKeys)
		for (Key a : allowed)
			if (k.id == a)
				table.push_back(k);
	table.push_back({"help", K_HELP});

	while (!c.done()) {
		std::string_view w = c.next();
		auto dup = [&](bool given, const char *what) {
			if (given)
				throw UsageError(std::string(what) +
							 " given twice",
						 topic);
		};
		int key = match_keyword(w, table, topic);
		switch (key) {
		case K_HELP:
			r = Request{};
			r.cmd = Cmd::Help;
			r.topic = topic;
			return false;
		case K_DEV:
			dup(r.dev.has_value(), "dev");
			r.dev = name_value(c, "dev", kIbNameMax, topic);
			break;
		case K_NETDEV:
			dup(r.netdev.has_value(), "netdev");
			r.netdev = name_value(c, "netdev", kIfNameMax, topic);
			break;
		case K_ID:
		case K_QPN: {
			// conn show names the QP by "qpn"; it is the id.
			const char *what = key == K_ID ? "id" : "qpn";
			dup(r.id.has_value(), what);
			if (c.done())
				throw UsageError(std::string(what) +
							 " needs a number",
						 topic);
			std::string_view v = c.next();
			r.id = parse_u32(v);
			if (!r.id)
				throw UsageError("invalid " + std::string(what) +
							 " " + quoted(v) +
							 ": expected a decimal "
							 "number",
						 topic);
			break;
		}
		case K_UP:
		case K_DOWN:
			dup(r.up.has_value(), "up/down");
			r.up = key == K_UP;
			break;
		}
	}
	return true;
}

void require(bool present, const char *what, const std::string &topic)
{
	if (!present)
		throw UsageError(std::string("missing ") + what, topic);
}

// OBJECT [show] [KEY VALUE]...: objects whose only action is show.
Request parse_show_only(Cursor &c, const std::string &topic, Cmd cmd,
			std::initializer_list<Key> keys)
{
	Request r;
	int action = A_SHOW;
	if (!c.done())
		action = match_keyword(c.next(), kDevActions, topic);
	if (action == A_HELP) {
		r.topic = topic;
		return r;
	}
	r.cmd = cmd;
	parse_keys(c, r, keys, topic + " show");
	return r;
}

Request parse_dev(Cursor &c)
{
	return parse_show_only(c, "dev", Cmd::DevShow, {K_DEV});
}

Request parse_plane(Cursor &c)
{
	Request r;
	std::string topic = "plane";
	int action = A_SHOW;
	if (!c.done())
		action = match_keyword(c.next(), kPlaneActions, topic);
	switch (action) {
	case A_HELP:
		r.topic = topic;
		return r;
	case A_SHOW:
		r.cmd = Cmd::PlaneShow;
		parse_keys(c, r, {K_DEV, K_ID}, "plane show");
		return r;
	case A_ADD:
		r.cmd = Cmd::PlaneAdd;
		if (parse_keys(c, r, {K_DEV, K_NETDEV, K_ID}, "plane add")) {
			require(r.dev.has_value(), "'dev NAME'", "plane add");
			require(r.netdev.has_value(), "'netdev NAME'",
				"plane add");
		}
		return r;
	case A_DEL:
		r.cmd = Cmd::PlaneDel;
		if (parse_keys(c, r, {K_DEV, K_ID}, "plane del")) {
			require(r.dev.has_value(), "'dev NAME'", "plane del");
			require(r.id.has_value(), "'id ID'", "plane del");
		}
		return r;
	default:
		r.cmd = Cmd::PlaneSet;
		if (parse_keys(c, r, {K_DEV, K_ID, K_UP, K_DOWN},
			       "plane set")) {
			require(r.dev.has_value(), "'dev NAME'", "plane set");
			require(r.id.has_value(), "'id ID'", "plane set");
			require(r.up.has_value(), "'up' or 'down'",
				"plane set");
		}
		return r;
	}
}

std::uint32_t number_value(Cursor &c, const std::string &key,
			   const std::string &topic)
{
	if (c.done())
		throw UsageError(key + " needs a number", topic);
	std::string_view v = c.next();
	auto n = parse_u32(v);
	if (!n)
		throw UsageError("invalid " + key + " " + quoted(v) +
					 ": expected a decimal number",
				 topic);
	return *n;
}

// route ACTION [PEER] [dev NAME] [plane N via ADDR]... [ev-profile ID]
// [cc-profile ID]: the words that parse as an IPv4/IPv6 address are the
// peer; `full` allows the hops and profiles (add, set). Returns false if
// "help" turned r into a help request.
bool parse_route_keys(Cursor &c, Request &r, bool full,
		      const std::string &topic)
{
	std::span<const Keyword> table(kRouteKeys);
	static constexpr Keyword small[] = {{"dev", R_DEV}, {"help", R_HELP}};
	if (!full)
		table = small;

	while (!c.done()) {
		std::string_view w = c.next();
		if (parse_addr(w)) {
			if (r.peer)
				throw UsageError("peer address given twice (" +
							 *r.peer + ", " +
							 std::string(w) + ")",
						 topic);
			r.peer = std::string(w);
			continue;
		}
		switch (match_keyword(w, table, topic)) {
		case R_HELP:
			r = Request{};
			r.cmd = Cmd::Help;
			r.topic = topic;
			return false;
		case R_DEV:
			if (r.dev)
				throw UsageError("dev given twice", topic);
			r.dev = name_value(c, "dev", kIbNameMax, topic);
			break;
		case R_PLANE: {
			std::uint32_t plane = number_value(c, "plane", topic);
			static constexpr Keyword kVia[] = {{"via", 0}};
			if (!c.done())
				match_keyword(c.next(), kVia, topic);
			else
				throw UsageError("'plane " +
							 std::to_string(plane) +
							 "' needs 'via ADDR'",
						 topic);
			if (c.done())
				throw UsageError("via needs an address", topic);
			std::string_view a = c.next();
			if (!parse_addr(a))
				throw UsageError("invalid via address " +
							 quoted(a) +
							 ": expected IPv4 or "
							 "IPv6",
						 topic);
			r.hops.emplace_back(plane, std::string(a));
			break;
		}
		case R_EV:
			if (r.ev_profile)
				throw UsageError("ev-profile given twice", topic);
			r.ev_profile = number_value(c, "ev-profile", topic);
			break;
		case R_CC:
			if (r.cc_profile)
				throw UsageError("cc-profile given twice", topic);
			r.cc_profile = number_value(c, "cc-profile", topic);
			break;
		}
	}
	return true;
}

Request parse_route(Cursor &c)
{
	Request r;
	std::string topic = "route";
	int action = A_SHOW;
	if (!c.done())
		action = match_keyword(c.next(), kRouteActions, topic);
	switch (action) {
	case A_HELP:
		r.topic = topic;
		return r;
	case A_SHOW:
		r.cmd = Cmd::RouteShow;
		parse_route_keys(c, r, false, "route show");
		return r;
	case A_DEL:
		r.cmd = Cmd::RouteDel;
		if (parse_route_keys(c, r, false, "route del")) {
			require(r.peer.has_value(), "peer address", "route del");
			require(r.dev.has_value(), "'dev NAME'", "route del");
		}
		return r;
	default: {
		r.cmd = action == A_ADD ? Cmd::RouteAdd : Cmd::RouteSet;
		std::string t = action == A_ADD ? "route add" : "route set";
		if (parse_route_keys(c, r, true, t)) {
			require(r.peer.has_value(), "peer address", t);
			require(r.dev.has_value(), "'dev NAME'", t);
			require(!r.hops.empty(), "'plane N via ADDR'", t);
		}
		return r;
	}
	}
}

// conn show [dev NAME] [qpn N]
Request parse_conn(Cursor &c)
{
	return parse_show_only(c, "conn", Cmd::ConnShow, {K_DEV, K_QPN});
}

// probe dev NAME to ADDR [ ev PORT plane N | ev-profile ID ] [ timeout MS ]
Request parse_probe(Cursor &c)
{
	enum { P_DEV, P_TO, P_EV, P_PLANE, P_PROFILE, P_TIMEOUT, P_HELP };
	static constexpr Keyword keys[] = {
		{"dev", P_DEV},	    {"to", P_TO},
		{"ev", P_EV},	    {"plane", P_PLANE},
		{"ev-profile", P_PROFILE}, {"timeout", P_TIMEOUT},
		{"help", P_HELP},
	};
	const std::string topic = "probe";
	Request r;
	r.cmd = Cmd::Probe;
	auto once = [&](bool given, const char *what) {
		if (given)
			throw UsageError(std::string(what) + " given twice",
					 topic);
	};
	while (!c.done()) {
		switch (match_keyword(c.next(), keys, topic)) {
		case P_HELP:
			r = Request{};
			r.topic = topic;
			return r;
		case P_DEV:
			once(r.dev.has_value(), "dev");
			r.dev = name_value(c, "dev", kIbNameMax, topic);
			break;
		case P_TO: {
			once(r.peer.has_value(), "to");
			if (c.done())
				throw UsageError("to needs an address", topic);
			std::string_view a = c.next();
			if (!parse_addr(a))
				throw UsageError("invalid address " + quoted(a) +
							 ": expected IPv4 or "
							 "IPv6",
						 topic);
			r.peer = std::string(a);
			break;
		}
		case P_EV:
			once(r.ev_sport.has_value(), "ev");
			r.ev_sport = number_value(c, "ev", topic);
			if (!*r.ev_sport || *r.ev_sport > 65535)
				throw UsageError("ev must be a UDP source port "
						 "(1..65535)",
						 topic);
			break;
		case P_PLANE:
			once(r.ev_plane.has_value(), "plane");
			r.ev_plane = number_value(c, "plane", topic);
			break;
		case P_PROFILE:
			once(r.ev_profile.has_value(), "ev-profile");
			r.ev_profile = number_value(c, "ev-profile", topic);
			break;
		case P_TIMEOUT:
			once(r.timeout_ms.has_value(), "timeout");
			r.timeout_ms = number_value(c, "timeout", topic);
			break;
		}
	}
	require(r.dev.has_value(), "'dev NAME'", topic);
	require(r.peer.has_value(), "'to ADDR'", topic);
	if (r.ev_sport.has_value() != r.ev_plane.has_value())
		throw UsageError("'ev PORT' and 'plane N' go together", topic);
	if (r.ev_sport && r.ev_profile)
		throw UsageError("give either 'ev PORT plane N' or "
				 "'ev-profile ID'",
				 topic);
	return r;
}

Request parse_monitor(Cursor &c)
{
	Request r;
	r.cmd = Cmd::Monitor;
	parse_keys(c, r, {K_DEV}, "monitor");
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
							 quoted(std::string("-") + f),
						 "");
			}
		}
	} else {
		throw UsageError("unknown option " + quoted(a), "");
	}
	return true;
}

} // namespace

int match_keyword(std::string_view word, std::span<const Keyword> table,
		  const std::string &topic)
{
	const Keyword *found = nullptr;
	bool ambiguous = false;
	std::string candidates;

	if (!word.empty()) {
		for (const auto &k : table) {
			if (k.word == word)
				return k.id;
			if (!k.word.starts_with(word))
				continue;
			candidates += (candidates.empty() ? "" : ", ") +
				      std::string(k.word);
			if (found && found->id != k.id)
				ambiguous = true;
			found = found ? found : &k;
		}
	}
	if (ambiguous)
		throw UsageError(quoted(word) + " is ambiguous (" + candidates +
					 ")",
				 topic);
	if (!found) {
		std::string expected;
		for (const auto &k : table)
			expected += (expected.empty() ? "" : ", ") +
				    std::string(k.word);
		throw UsageError("unknown " +
					 (word.empty() ? std::string("empty word")
						       : "word " + quoted(word)) +
					 " (expected one of: " + expected + ")",
				 topic);
	}
	return found->id;
}

std::optional<std::uint32_t> parse_u32(std::string_view s)
{
	if (s.empty() || s.size() > 10)
		return std::nullopt;
	std::uint64_t v = 0;
	for (char ch : s) {
		if (ch < '0' || ch > '9')
			return std::nullopt;
		v = v * 10 + static_cast<unsigned>(ch - '0');
	}
	if (v > std::numeric_limits<std::uint32_t>::max())
		return std::nullopt;
	return static_cast<std::uint32_t>(v);
}

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
	case O_DEV:
		inv.req = parse_dev(c);
		break;
	case O_PLANE:
		inv.req = parse_plane(c);
		break;
	case O_ROUTE:
		inv.req = parse_route(c);
		break;
	case O_CONN:
		inv.req = parse_conn(c);
		break;
	case O_PROBE:
		inv.req = parse_probe(c);
		break;
	case O_EV_PROFILE:
	case O_EV:
	case O_CC_PROFILE: {
		int obj = match_keyword(args[i], kObjects, "");
		auto rest = args.subspan(i + 1);
		inv.req = obj == O_EV_PROFILE ? parse_ev_profile(rest) :
			  obj == O_EV	      ? parse_ev(rest) :
						parse_cc_profile(rest);
		break;
	}
	case O_MONITOR:
		inv.req = parse_monitor(c);
		break;
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
