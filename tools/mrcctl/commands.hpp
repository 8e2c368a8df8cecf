// SPDX-License-Identifier: GPL-2.0-only
// One entry point per object. Each returns the process exit status and
// throws Failure/KernelError for errors that main reports.
#pragma once

#include <ostream>
#include <vector>

#include "cli.hpp"
#include "json.hpp"

namespace mrcctl {

int cmd_dev(const Invocation &inv);
int cmd_plane(const Invocation &inv);
int cmd_route(const Invocation &inv);
int cmd_profile(const Invocation &inv);
int cmd_monitor(const Invocation &inv);
int cmd_conn(const Invocation &inv);
int cmd_probe(const Invocation &inv);

// A list of objects either as one JSON array or as text lines.
template <typename T, typename Text, typename Json>
void print_list(std::ostream &os, const Options &o, const std::vector<T> &items,
		Text text, Json json)
{
	if (o.json) {
		JsonWriter w(os, o.pretty);
		w.begin_array();
		for (const auto &i : items)
			json(w, i);
		w.end_array();
		os << '\n';
	} else {
		for (const auto &i : items)
			os << text(i);
	}
	os.flush();
}

} // namespace mrcctl
