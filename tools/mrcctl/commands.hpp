// SPDX-License-Identifier: GPL-2.0-only
// One entry point per object. Each returns the process exit status and
// throws Failure/KernelError for errors that main reports.
#pragma once

#include <ostream>
#include <vector>

#include "cli.hpp"
#include "printer.hpp"

namespace mrcctl {

int cmd_dev(const Invocation &inv);
int cmd_plane(const Invocation &inv);
int cmd_route(const Invocation &inv);
int cmd_profile(const Invocation &inv);
int cmd_monitor(const Invocation &inv);
int cmd_conn(const Invocation &inv);
int cmd_probe(const Invocation &inv);

// A list of objects either as one JSON array or as text lines, each
// object by its print function.
template <typename T, typename Print>
void print_list(std::ostream &os, const Options &o, const std::vector<T> &items,
		Print print)
{
	Printer p(os, o.json, o.pretty);
	p.open_array();
	for (const auto &i : items)
		print(p, i);
	p.close_array();
	if (o.json)
		os << '\n';
	os.flush();
}

} // namespace mrcctl
