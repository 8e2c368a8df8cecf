// SPDX-License-Identifier: GPL-2.0-only
// IPv4/IPv6 addresses as the "mrc" family carries them: 4 or 16 bytes in
// network byte order (MRC_A_ROUTE_PEER, MRC_A_ROUTE_HOP_VIA).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mrcctl {

// "10.0.0.2" -> 4 bytes, "fd00::2" -> 16 bytes; nullopt if neither.
std::optional<std::vector<std::uint8_t>> parse_addr(std::string_view s);

// 4 or 16 bytes as text; nullopt for any other length.
std::optional<std::string> addr_text(const void *data, std::size_t len);

} // namespace mrcctl
