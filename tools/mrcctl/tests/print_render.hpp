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

template <typename T, typename Print>
std::string list(Mode m, const std::vector<T> &items, Print print)
{
	std::ostringstream os;
	print_list(os, options(m), items, print);
	return os.str();
}

inline std::string planes(Mode m, const std::vector<Plane> &v)
{
	return list(m, v, print_plane);
}

inline std::string devs(Mode m, const std::vector<Dev> &v)
{
	return list(m, v, print_dev);
}

inline std::string routes(Mode m, const std::vector<Route> &v)
{
	return list(m, v, print_route);
}

inline std::string ev_profiles(Mode m, const std::vector<EvProfile> &v)
{
	return list(m, v, print_ev_profile);
}

inline std::string ev_show(Mode m, const std::vector<EvProfile> &v)
{
	return list(m, v, print_ev_show);
}

inline std::string cc_profiles(Mode m, const std::vector<CcProfile> &v)
{
	return list(m, v, print_cc_profile);
}

inline std::string conns(Mode m, const std::vector<Conn> &v)
{
	return list(m, v, print_conn);
}

inline std::string probes(Mode m, const std::vector<ProbeResult> &v)
{
	return list(m, v, print_probe_result);
}

// One monitor line (cmd_monitor.cpp).
inline std::string event(Mode m, const Event &e)
{
	std::ostringstream os;
	Printer p(os, m != Mode::Text, m == Mode::Pretty);
	print_event(p, e);
	os << '\n';
	return os.str();
}

} // namespace mrcctl::pin
