// SPDX-License-Identifier: GPL-2.0-only
// The values of the profile commands (mrcctl ev-profile, ev, cc-profile)
// between text and the "mrc" family's binary form. Pure functions, so that
// the parsers and printers are unit-tested both ways: each printer's output
// is accepted by the matching parser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mrcctl {

// A time in ns: a number with an optional suffix ns, us or ms ("100us");
// nullopt if malformed or above 2^32 - 1 ns.
std::optional<std::uint32_t> parse_time_ns(std::string_view s);
// The shortest exact form: "4ms", "100us", "1500ns", "0".
std::string time_text(std::uint32_t ns);

// Planes "1,2,5-8" as a mask (bit p-1 = plane p), planes 1..16; nullopt
// if malformed, out of range or empty.
std::optional<std::uint16_t> parse_plane_list(std::string_view s);
// The mask as the shortest list ("1-3,5"); "none" for 0.
std::string plane_list_text(std::uint16_t mask);

// The EV event mask: "all", "none" or a comma list of unknown, good,
// assumed-bad, denied, profile.
std::optional<std::uint32_t> parse_event_mask(std::string_view s);
std::string event_mask_text(std::uint32_t mask);

// Names of the uapi enums (MRC_EV_PROFILE_MODE_*, _FORMAT_*, _STATE_*,
// MRC_EV_STATE_*); "unknown-N" for values this mrcctl does not know.
std::optional<std::uint8_t> parse_ev_mode(std::string_view s);
std::optional<std::uint8_t> parse_ev_format(std::string_view s);
std::optional<std::uint8_t> parse_ev_profile_state(std::string_view s);
std::string ev_mode_text(std::uint8_t mode);
std::string ev_format_text(std::uint8_t format);
std::string ev_profile_state_text(std::uint8_t state);
std::string ev_state_text(std::uint8_t state);

// An EV value of a format: UDP a port (0..65535), STEV a 32-bit number,
// SRV6 an IPv6 address or "SID,SEGMENT" (16 or 32 bytes). Big endian, as
// MRC_A_EV_VALUE carries it. What the kernel judges (port 0, a multicast
// SID) is left to the kernel.
std::optional<std::vector<std::uint8_t>> parse_ev_value(std::uint8_t format,
							std::string_view s);
// The value in the same notation; hex bytes if the length does not fit
// the format.
std::string ev_value_text(std::uint8_t format,
			  const std::vector<std::uint8_t> &v);

// A GEN base: "0x" and hex digits, right aligned in the format's length
// (UDP 2, STEV 4, SRV6 16 bytes), or for SRV6 an IPv6 address.
std::optional<std::vector<std::uint8_t>> parse_gen_base(std::uint8_t format,
							std::string_view s);
std::string gen_base_text(std::uint8_t format,
			  const std::vector<std::uint8_t> &v);

} // namespace mrcctl
