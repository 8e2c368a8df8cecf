// SPDX-License-Identifier: GPL-2.0-only
// Text and JSON rendering of devices, planes and events. Pure functions of
// the model (model.hpp), so the exact output is unit-tested.
//
// Text lines use the command grammar's own words ("dev mrc0 id 2 netdev
// veth1"), so what show and monitor print can be pasted back as arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "json.hpp"
#include "model.hpp"

namespace mrcctl {

// Capability bits as words ("trim_nack", ...); unknown bits as "bitN".
std::vector<std::string> caps_words(std::uint32_t caps);

// "add", "del", "up", "down", "dev_add"... ; unknown types as "event_N".
std::string event_name(std::uint32_t type);

std::string plane_text(const Plane &p);
void plane_json(JsonWriter &w, const Plane &p);

// Counters as iproute2's "ip -s link" prints them: per group (transmit,
// receive, namespace drops) a line of names and a line of values, right
// aligned, each line starting with `indent`. Absent counters are left out.
std::string stats_text(const Stats &st, const std::string &indent);
void stats_json(JsonWriter &w, const Stats &st);

// One header line, then one indented line per plane; with counters (when
// the kernel sent them), the plane's under each plane line and the
// instance's after the planes.
std::string dev_text(const Dev &d);
void dev_json(JsonWriter &w, const Dev &d);

// "dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 ev-profile 0 cc-profile 0": the
// words of "route add", so a line can be pasted back.
std::string route_text(const Route &r);
void route_json(JsonWriter &w, const Route &r);

std::string event_text(const Event &e);
void event_json(JsonWriter &w, const Event &e);

// "ev 0 plane 1 sport 49152 via 10.1.0.2 rtt 582us", or "timeout".
std::string probe_result_text(const ProbeResult &r);
void probe_result_json(JsonWriter &w, const ProbeResult &r);

} // namespace mrcctl
