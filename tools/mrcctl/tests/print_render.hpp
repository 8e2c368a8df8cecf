// SPDX-License-Identifier: GPL-2.0-only
// What each show command and monitor write for a list of model objects,
// in the three output modes (text, -j, -jp). test_print.cpp pins these
// bytes: scripts parse both forms.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "format.hpp"
#include "profile_format.hpp"

namespace mrcctl::pin {

enum class Mode { Text, Json, Pretty };

inline Options options(Mode m)
{
	Options o;
	o.json = m != Mode::Text;
	o.pretty = m == Mode::Pretty;
	return o;
}

template <typename T, typename Text, typename Json>
std::string list(Mode m, const std::vector<T> &items, Text text, Json json)
{
	std::ostringstream os;
	print_list(os, options(m), items, text, json);
	return os.str();
}

inline std::string planes(Mode m, const std::vector<Plane> &v)
{
	return list(m, v, [](const Plane &p) { return plane_text(p) + '\n'; },
		    plane_json);
}

inline std::string devs(Mode m, const std::vector<Dev> &v)
{
	return list(m, v, dev_text, dev_json);
}

inline std::string routes(Mode m, const std::vector<Route> &v)
{
	return list(m, v, [](const Route &r) { return route_text(r) + '\n'; },
		    route_json);
}

inline std::string ev_profiles(Mode m, const std::vector<EvProfile> &v)
{
	return list(m, v, ev_profile_text, ev_profile_json);
}

inline std::string ev_show(Mode m, const std::vector<EvProfile> &v)
{
	return list(m, v, evs_text, ev_show_json);
}

inline std::string cc_profiles(Mode m, const std::vector<CcProfile> &v)
{
	return list(m, v, cc_profile_text, cc_profile_json);
}

inline std::string conns(Mode m, const std::vector<Conn> &v)
{
	return list(m, v, conn_text, conn_json);
}

inline std::string probes(Mode m, const std::vector<ProbeResult> &v)
{
	return list(m, v, probe_result_text, probe_result_json);
}

// One monitor line (cmd_monitor.cpp).
inline std::string event(Mode m, const Event &e)
{
	std::ostringstream os;
	if (m != Mode::Text) {
		JsonWriter w(os, m == Mode::Pretty);
		event_json(w, e);
	} else {
		os << event_text(e);
	}
	os << '\n';
	return os.str();
}

} // namespace mrcctl::pin
