// SPDX-License-Identifier: GPL-2.0-only
// The controller API's EV fields (struct mrc_ctl_ev_field, placed in the
// fields of an EV format profile) and the kernel's GEN definition
// (net/mrc/proto/ev_profile.h: fields with init/min/max/mask, a shift).
// Documentation/networking/lib_mrc.rst ("GEN fields") gives the mapping.
#pragma once

#include <mrc_ctl.h>

#include <cstdint>
#include <vector>

#include "profile_model.hpp"

namespace mrc::lib {

// One API field alone: 0 or EINVAL (width 0, init_val or mask wider than
// the field, max_val wider than the mask's bits, min_val > max_val, a
// fixed field with min/max) or E2BIG (wider than the kernel's 32 bits).
int ev_field_check(const mrc_ctl_ev_field &f);

// GEN: @api in the format fields @fmt of format @format as the kernel's
// fields and shift; *@values: how many values they generate.  0 or
// EINVAL (more fields than the format has, one wider than its format
// field), E2BIG (beyond the kernel's 8 fields / 64 bits / the value),
// EOPNOTSUPP (fixed bits of a field below its mask's bits).
int ev_gen_to_kernel(const std::vector<mrc_ctl_ev_field> &api,
		     const std::vector<uint8_t> &fmt, uint8_t format,
		     std::vector<mrcctl::GenField> *out, uint32_t *shift,
		     uint32_t *values);

// EXP: the EVs are the format's values, so the only fields are the
// identity ones: one per format field, as wide, every bit from the EV
// (mask all ones; min_val and max_val bound nothing there).
// 0, EINVAL (a bad field) or EOPNOTSUPP.
int ev_exp_fields_check(const std::vector<mrc_ctl_ev_field> &api,
			const std::vector<uint8_t> &fmt);

// The API's fields of a kernel GEN profile not defined through the API,
// one per kernel field (its shift and base have no API field).
std::vector<mrc_ctl_ev_field>
ev_gen_from_kernel(const std::vector<mrcctl::GenField> &k);

} // namespace mrc::lib
