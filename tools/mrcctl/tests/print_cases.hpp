// SPDX-License-Identifier: GPL-2.0-only
// The output pins of test_print.cpp: one named case per object and
// variant, each rendered in every Mode.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "print_fixtures.hpp"
#include "print_render.hpp"

namespace mrcctl::pin {

struct Case {
	std::string name;
	std::function<std::string(Mode)> render;
};

inline std::vector<Case> cases()
{
	std::vector<Case> c = {
		{"plane",
		 [](Mode m) {
			 return list(m, planes_fixture(false), print_plane);
		 }},
		{"plane-stats",
		 [](Mode m) {
			 return list(m, planes_fixture(true), print_plane);
		 }},
		{"dev",
		 [](Mode m) { return list(m, devs_fixture(false), print_dev); }},
		{"dev-stats",
		 [](Mode m) { return list(m, devs_fixture(true), print_dev); }},
		{"route",
		 [](Mode m) { return list(m, routes_fixture(), print_route); }},
		{"route-none",
		 [](Mode m) {
			 return list(m, std::vector<Route>{}, print_route);
		 }},
		{"ev-profile",
		 [](Mode m) {
			 return list(m, ev_profiles_fixture(), print_ev_profile);
		 }},
		{"ev-show",
		 [](Mode m) {
			 return list(m, ev_profiles_fixture(), print_ev_show);
		 }},
		{"cc-profile",
		 [](Mode m) {
			 return list(m, cc_profiles_fixture(), print_cc_profile);
		 }},
		{"conn",
		 [](Mode m) { return list(m, conns_fixture(), print_conn); }},
		{"probe",
		 [](Mode m) {
			 return list(m, probes_fixture(), print_probe_result);
		 }},
		{"probe-batch",
		 [](Mode m) {
			 return list(m, probe_batch_fixture(),
				     print_probe_result);
		 }},
	};
	auto evs = events_fixture();
	for (std::size_t i = 0; i < evs.size(); i++)
		c.push_back({"event-" + std::to_string(i) + "-" +
				     event_name(evs[i].type),
			     [e = evs[i]](Mode m) { return event(m, e); }});
	return c;
}

} // namespace mrcctl::pin
