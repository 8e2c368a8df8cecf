// SPDX-License-Identifier: GPL-2.0-only
// What mrcctl knows about the kernel's objects, decoupled from netlink so
// that formatting can be tested without a kernel. Every field the kernel may
// leave out is optional: an older or newer module must not make mrcctl print
// made-up zeros.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mrcctl {

struct Plane {
	std::optional<std::string> dev;		// owning instance (plane dumps)
	std::optional<std::uint32_t> dev_index;
	std::optional<std::uint32_t> id;
	std::optional<std::string> netdev;
	std::optional<std::uint32_t> ifindex;
	std::optional<bool> admin_up;
	std::optional<bool> oper_up;
};

struct Dev {
	std::optional<std::string> name;
	std::optional<std::uint32_t> index;
	std::optional<std::uint32_t> caps;
	std::optional<std::uint32_t> max_planes;
	std::optional<std::uint16_t> udp_port;
	std::vector<Plane> planes;
};

struct Event {
	std::uint32_t type = 0;	// enum mrc_event; unknown values are kept
	std::optional<std::string> dev;
	std::optional<std::uint32_t> dev_index;
	Plane plane;		// plane events: what the kernel included
};

} // namespace mrcctl
