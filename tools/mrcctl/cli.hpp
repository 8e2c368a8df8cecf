// SPDX-License-Identifier: GPL-2.0-only
// Command-line grammar of mrcctl (iproute2 style):
//
//   mrcctl [OPTIONS] OBJECT [ACTION] [KEY VALUE | WORD]...
//
// Every keyword may be abbreviated to any unique prefix ("pl a d mrc0 n
// veth1"). Numbers and error texts are args.hpp's, the same for every
// command. The parser only checks the shape of a request (required keys,
// numbers that are numbers); what the kernel judges (id ranges, unknown
// names) is left to the kernel so that its extack message reaches the user.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "args.hpp"
#include "profile_model.hpp"

namespace mrcctl {

struct Options {
	bool json = false;
	bool pretty = false; // implies json
	bool stats = false;
	std::string netns; // -n: run in this named network namespace
};

enum class Cmd {
	Help, // print help_text(topic)
	Version,
	DevShow,
	PlaneAdd,
	PlaneDel,
	PlaneSet,
	PlaneShow,
	RouteAdd,
	RouteSet,
	RouteDel,
	RouteShow,
	ConnShow,
	Probe,
	EvProfileAdd,
	EvProfileSet,
	EvProfileDel,
	EvProfileShow,
	EvReplace, // ev-profile ev replace
	EvDeny,	   // ev-profile ev deny
	EvAllow,   // ev-profile ev allow
	EvShow,	   // ev show
	CcProfileAdd,
	CcProfileSet,
	CcProfileDel,
	CcProfileShow,
	Monitor,
};

// One explicit EV of "mrcctl probe ... ev plane N ...": the kernel's
// format (MRC_EV_PROFILE_FORMAT_*) and big endian value.
struct ProbeEv {
	std::uint32_t plane = 0;
	std::uint8_t format = 0;
	std::vector<std::uint8_t> value;
	bool operator==(const ProbeEv &) const = default;
};

struct Request {
	Cmd cmd = Cmd::Help;
	std::string topic; // Help: "", "dev", "plane", "plane add", ...
	std::optional<std::string> dev;
	std::optional<std::string> netdev;
	std::optional<std::uint32_t> id;
	std::optional<bool> up;
	// route: the peer and each "plane N via ADDR" as typed (addresses
	// already checked to be IPv4 or IPv6; families and ranges are the
	// kernel's to judge).
	std::optional<std::string> peer;
	std::vector<std::pair<std::uint32_t, std::string>> hops;
	std::optional<std::uint32_t> ev_profile;
	std::optional<std::uint32_t> cc_profile;
	// probe: "ev PORT plane N" and "timeout MS"
	std::optional<std::uint32_t> ev_sport;
	std::optional<std::uint32_t> ev_plane;
	std::optional<std::uint32_t> timeout_ms;
	// probe: "from ADDR" and each "ev plane N { sport P | stev V | sid
	// ADDR [ seg ADDR ] }" (an endpoint batch, one request per EV)
	std::optional<std::string> from;
	std::vector<ProbeEv> probe_evs;
	ProfileRequest prof; // ev-profile, ev, cc-profile
};

struct Invocation {
	Options opts;
	Request req;
};

// The profile objects (cli_profile.cpp): the words after "ev-profile",
// "ev" and "cc-profile".
Request parse_ev_profile(Cursor &c);
Request parse_ev(Cursor &c);
Request parse_cc_profile(Cursor &c);

// argv without argv[0].
Invocation parse_args(std::span<const std::string_view> args);

// The help page of a topic ("" = top level); ends with a newline.
std::string help_text(std::string_view topic);

} // namespace mrcctl
