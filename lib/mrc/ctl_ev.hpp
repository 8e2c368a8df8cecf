// SPDX-License-Identifier: GPL-2.0-only
// What the controller API's EV calls keep in a context (mrc_context::
// ev_ctl, under its lock): the EV format profiles, which are the
// library's own records over the kernel's three formats, and for each EV
// profile this context defined what the kernel does not hold (its format
// profile id, the API's fields) or, while it is not complete enough for
// the kernel, the whole draft.  Documentation/networking/lib_mrc.rst
// ("EV profiles") gives the mapping.
#pragma once

#include "objects.hpp"

#include <mrc_ctl.h>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace mrc::lib {

// An EV format profile: one of the kernel's formats cut into fields.
struct EvFmt {
	mrc_ctl_profile_state state = MRC_CTL_PROFILE_INIT;
	uint8_t format = 0;	     // MRC_EV_PROFILE_FORMAT_*, 0: no mode yet
	std::vector<uint8_t> widths; // the fields, most significant first
};

// One EV as the kernel has it: plane and big endian value.
struct KEv {
	uint8_t plane = 0;
	std::vector<uint8_t> value;
	uint8_t state = 0; // MRC_EV_STATE_*
	bool operator==(const KEv &o) const
	{
		return plane == o.plane && value == o.value;
	}
};

// An EXP slot of a draft: unpopulated until a REPLACE_EV fills it.
struct EvSlot {
	std::optional<KEv> ev;
	bool denied = false;
};

// What the API defines of an EV profile.
struct EvDef {
	bool offline = false; // a draft: INIT or OFFLINE
	uint8_t mode = 0;     // MRC_EV_PROFILE_MODE_*, 0: none yet
	uint64_t fmt_id = 0;  // 0: none (a kernel profile not made here)
	uint8_t format = 0;   // MRC_EV_PROFILE_FORMAT_* (from fmt_id)
	uint32_t count = 0;
	std::optional<std::vector<mrc_ctl_ev_field>> fields;
	uint16_t min_active = 0;
	uint32_t event_mask = 0; // the kernel's bits
	bool has_event_mask = false;
	std::vector<EvSlot> slots; // EXP drafts
};

struct EvCtl {
	std::map<uint64_t, EvFmt> fmts;
	// Drafts: profiles the kernel does not hold.
	std::map<uint32_t, EvDef> drafts;
	// Profiles the kernel holds that this context defined: fmt_id and
	// fields as given (the rest is read from the kernel).
	std::map<uint32_t, EvDef> meta;
};

// @ev as the kernel's EV of @format (MRC_EV_PROFILE_FORMAT_*): value big
// endian from val[0], port = plane; false if it is not one (bytes beyond
// the format's value set, or an unknown format).
bool to_kev(uint8_t format, const mrc_ctl_ev &ev, KEv *out);

// @ctx's records, made on first use (ctx->lock held).
EvCtl &ev_ctl(mrc_context *ctx);

// Bits of a value of @format (format profile fields sum to it): UDP 16,
// STEV 32, SRV6 128 (a SID) or 256 (SID and segment); 0 if unknown.
bool ev_fmt_width_ok(uint8_t format, unsigned int bits);

} // namespace mrc::lib

#include <functional>

namespace mrc::lib {

// The EV array an EV_OP works on: a draft's slots, or the kernel's EVs
// (then @change replaces EV i with *ev, or denies / allows it with ev
// null, and throws like mrcctl's client).
struct EvArray {
	uint8_t format = 0;
	std::vector<EvSlot> *slots = nullptr;
	std::function<void(uint16_t i, const KEv *ev, bool deny)> change;
};

// The API's errors for a refusal of the kernel's EV profile calls.
int ev_errno(int err);

// The entries of @op on @a in order, the first failing one ending the
// call: 0, or -1 with errno.  @modify: REPLACE_EV and MODIFY_EV_STATE
// are allowed.
int ev_run_ops(EvArray &a, int op, mrc_ctl_ev_op_entry *entries,
	       int *entry_count, bool modify);

} // namespace mrc::lib
