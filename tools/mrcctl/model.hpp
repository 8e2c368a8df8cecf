// SPDX-License-Identifier: GPL-2.0-only
// What mrcctl knows about the kernel's objects, decoupled from netlink so
// that formatting can be tested without a kernel. Every field the kernel may
// leave out is optional: an older or newer module must not make mrcctl print
// made-up zeros.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conn.hpp"
#include "profile_model.hpp"

namespace mrcctl {

// Counters (mrcctl -s) as the kernel sent them: name ("tx_pkts", the
// names of "rdma statistic" too) and value, in the kernel's order.
// Counters this mrcctl does not know are left out.
using Stats = std::vector<std::pair<std::string, std::uint64_t>>;

struct Plane {
	std::optional<std::string> dev; // owning instance (plane dumps)
	std::optional<std::uint32_t> dev_index;
	std::optional<std::uint32_t> id;
	std::optional<std::string> netdev;
	std::optional<std::uint32_t> ifindex;
	std::optional<bool> admin_up;
	std::optional<bool> oper_up;
	std::optional<Stats> stats; // only when asked for (-s)
};

struct Dev {
	std::optional<std::string> name;
	std::optional<std::uint32_t> index;
	std::optional<std::uint32_t> caps;
	std::optional<std::uint32_t> max_planes;
	std::optional<std::uint16_t> udp_port;
	std::vector<Plane> planes;
	std::optional<Stats> stats; // only when asked for (-s)
};

// A route (mrcctl route): addresses as text ("10.0.0.2", "fd00::2").
struct RouteHop {
	std::uint32_t plane = 0;
	std::string via;
};

struct Route {
	std::optional<std::string> dev;
	std::optional<std::uint32_t> dev_index;
	std::optional<std::string> peer;
	std::vector<RouteHop> hops; // in the kernel's (plane) order
	std::optional<std::uint32_t> ev_profile;
	std::optional<std::uint32_t> cc_profile;
};

struct Event {
	std::uint32_t type = 0; // enum mrc_event; unknown values are kept
	std::optional<std::string> dev;
	std::optional<std::uint32_t> dev_index;
	Plane plane;		    // plane events: what the kernel included
	std::optional<Route> route; // route events
	std::optional<Conn> conn;   // EV_STATE and QP_ERROR events
	std::optional<EvProfile> ev_profile; // EV profile events
	std::optional<CcProfile> cc_profile; // CC profile events
};

// One path of a probe (mrcctl probe).
struct ProbeResult {
	std::optional<std::uint32_t> ev;
	std::optional<std::uint32_t> plane;
	std::optional<std::uint16_t> sport;
	std::optional<std::string> via;
	std::optional<std::uint64_t> rtt_ns; // none: no answer in time
	// Explicit EVs (ev plane N ...): STEV value or SRV6 SID[,segment]
	// as text, the plane the answer came in on, the responder's time.
	std::optional<std::string> value;
	std::optional<std::uint32_t> answer_plane;
	std::optional<std::uint64_t> svc_ns;
	bool batch = false; // an explicit EV's: no "via"
};

} // namespace mrcctl
