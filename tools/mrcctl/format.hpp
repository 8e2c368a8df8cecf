// SPDX-License-Identifier: GPL-2.0-only
// Text and JSON of devices, planes, routes, events and probe results:
// functions of the model (model.hpp), so the exact output is unit-tested.
//
// Text lines use the command grammar's own words ("dev mrc0 id 2 netdev
// veth1"), so what show and monitor print can be pasted back as arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model.hpp"
#include "printer.hpp"

namespace mrcctl {

// Capability bits as words ("trim_nack", ...); unknown bits as "bitN".
std::vector<std::string> caps_words(std::uint32_t caps);

// "add", "del", "up", "down", "dev_add"... ; unknown types as "event_N".
std::string event_name(std::uint32_t type);

// Each object's one print function: text or JSON, as the Printer was
// made. In text, show lines end with a newline (an event's does not:
// monitor ends it); in JSON each object is one JSON object.
void print_plane(Printer &p, const Plane &pl);

// Counters as iproute2's "ip -s link" prints them: per group (transmit,
// receive, namespace drops) a line of names and a line of values, right
// aligned, each line starting with `indent`. Absent counters are left out.
std::string stats_text(const Stats &st, const std::string &indent);
// JSON: a "stats" object; text: stats_text().
void print_stats(Printer &p, const Stats &st, const std::string &indent);

// One header line, then one indented line per plane; with counters (when
// the kernel sent them), the plane's under each plane line and the
// instance's after the planes.
void print_dev(Printer &p, const Dev &d);

// "dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 ev-profile 0 cc-profile 0": the
// words of "route add", so a line can be pasted back.
void print_route(Printer &p, const Route &r);

// "plane add dev mrc0 id 2 ...", {"event": "plane_add", ...}
void print_event(Printer &p, const Event &e);

// "ev 0 plane 1 sport 49152 via 10.1.0.2 rtt 582us", or "timeout".
void print_probe_result(Printer &p, const ProbeResult &r);

} // namespace mrcctl
