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
