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
		{"plane", [](Mode m) { return planes(m, planes_fixture(false)); }},
		{"plane-stats",
		 [](Mode m) { return planes(m, planes_fixture(true)); }},
		{"dev", [](Mode m) { return devs(m, devs_fixture(false)); }},
		{"dev-stats", [](Mode m) { return devs(m, devs_fixture(true)); }},
		{"route", [](Mode m) { return routes(m, routes_fixture()); }},
		{"route-none", [](Mode m) { return routes(m, {}); }},
		{"ev-profile",
		 [](Mode m) { return ev_profiles(m, ev_profiles_fixture()); }},
		{"ev-show",
		 [](Mode m) { return ev_show(m, ev_profiles_fixture()); }},
		{"cc-profile",
		 [](Mode m) { return cc_profiles(m, cc_profiles_fixture()); }},
		{"conn", [](Mode m) { return conns(m, conns_fixture()); }},
		{"probe", [](Mode m) { return probes(m, probes_fixture()); }},
	};
	auto evs = events_fixture();
	for (std::size_t i = 0; i < evs.size(); i++)
		c.push_back({"event-" + std::to_string(i) + "-" +
				     event_name(evs[i].type),
			     [e = evs[i]](Mode m) { return event(m, e); }});
	return c;
}

} // namespace mrcctl::pin
