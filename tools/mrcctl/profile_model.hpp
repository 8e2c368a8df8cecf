// SPDX-License-Identifier: GPL-2.0-only
// EV and CC profiles as mrcctl knows them (see model.hpp for the rule:
// what the kernel may leave out is optional).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mrcctl {

struct Ev {
	std::optional<std::uint32_t> index;
	std::optional<std::uint32_t> plane;
	std::vector<std::uint8_t> value;   // big endian, as the kernel has it
	std::optional<std::uint8_t> state; // MRC_EV_STATE_*
};

struct GenField {
	std::uint32_t width = 0, init = 0, min = 0, max = 0;
	std::optional<std::uint32_t> mask;
};

struct EvProfile {
	std::optional<std::string> dev;
	std::optional<std::uint32_t> dev_index;
	std::optional<std::uint32_t> id;
	std::optional<std::uint8_t> mode, format, state;
	std::optional<std::uint32_t> min_active;
	std::optional<std::uint32_t> event_mask;
	std::optional<std::uint32_t> count;	       // AUTO
	std::optional<std::uint16_t> plane_mask;       // AUTO, GEN
	std::vector<GenField> fields;		       // GEN
	std::optional<std::uint32_t> shift;	       // GEN
	std::optional<std::vector<std::uint8_t>> base; // GEN
	std::optional<std::vector<Ev>> evs;	       // EXP, GEN
};

// One CC value: the MRC_A_CC_* attribute and its value.
using CcValues = std::vector<std::pair<std::uint16_t, std::uint32_t>>;

struct CcProfile {
	std::optional<std::string> dev;
	std::optional<std::uint32_t> dev_index;
	std::optional<std::uint32_t> id;
	std::optional<std::string> algo;
	CcValues values; // in the kernel's order
};

// How each CC value is named and shown (cc_params.cpp).
struct CcParam {
	std::uint16_t attr; // MRC_A_CC_*
	const char *word;   // the command-line keyword ("base-rtt")
	const char *json;   // the JSON key ("base_rtt")
	enum Kind { Number, Time, OnOff, Byte } kind;
};
extern const std::vector<CcParam> kCcParams;
const CcParam *cc_param(std::uint16_t attr);

// What the profile commands ask for, as typed (EV values are encoded once
// the profile's format is known).
struct ProfileRequest {
	std::optional<std::uint32_t> id; // id / profile
	std::optional<std::uint8_t> mode, format, state;
	std::optional<std::uint32_t> min_active, count, index, shift;
	std::optional<std::uint32_t> qpn; // ev change: one QP's copy
	std::optional<std::uint32_t> event_mask;
	std::optional<std::uint16_t> plane_mask;
	std::vector<std::pair<std::uint32_t, std::string>> evs; // plane, value
	std::vector<GenField> fields;
	std::optional<std::string> base;
	std::optional<std::uint32_t> ev_plane; // ev replace
	std::optional<std::string> ev_value;
	std::optional<std::string> algo; // cc-profile
	CcValues cc;
};

} // namespace mrcctl
