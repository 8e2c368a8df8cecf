// SPDX-License-Identifier: GPL-2.0-only
// -n NETNS: enter a named network namespace before opening the netlink
// socket, so that mrcctl sees and changes that namespace's instances (as
// "ip -n" does) without the cost of "ip netns exec".
#pragma once

#include <string>

namespace mrcctl {

// NAME is looked up in /run/netns (where "ip netns add" puts it); a name
// containing '/' is a path to a namespace file (e.g. /proc/PID/ns/net).
// Throws Failure.
void enter_netns(const std::string &name);

} // namespace mrcctl
