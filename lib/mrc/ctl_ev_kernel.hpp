// SPDX-License-Identifier: GPL-2.0-only
// The kernel's EV profiles as the controller API's EV calls use them
// (mrc netlink family, ev-profile-add/-set/-del/-get, plane-get): thin
// requests that throw mrcctl::Failure / KernelError like mrcctl's client.
#pragma once

#include "objects.hpp"

#include <cstdint>
#include <optional>

#include "nl.hpp"
#include "profile_model.hpp"

namespace mrc::lib {

// Profile @id of the kernel into @out; false if it has none.
bool ev_k_get(const mrc_context *ctx, uint32_t id, mrcctl::EvProfile *out);
// ev-profile-add of @p (mode, format, min active, event mask, AUTO count,
// plane mask, GEN fields/shift, EXP EVs with DENIED states).
void ev_k_add(const mrc_context *ctx, uint32_t id, const mrcctl::EvProfile &p);
// ev-profile-set of what is given.
void ev_k_set(const mrc_context *ctx, uint32_t id, std::optional<uint8_t> state,
	      std::optional<uint16_t> min_active,
	      std::optional<uint32_t> event_mask);
// ev-profile-set of EV @idx: replace with @ev, or deny / allow.
void ev_k_replace(const mrc_context *ctx, uint32_t id, uint16_t idx,
		  const mrcctl::Ev &ev);
void ev_k_deny(const mrc_context *ctx, uint32_t id, uint16_t idx, bool deny);
void ev_k_del(const mrc_context *ctx, uint32_t id);
// The device's planes: bit p - 1 for plane p.
uint16_t ev_k_planes(const mrc_context *ctx);

} // namespace mrc::lib
