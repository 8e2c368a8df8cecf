// SPDX-License-Identifier: GPL-2.0-only
// Translation between the "mrc" family's attributes (include/uapi/linux/
// mrc.h) and the model.  Replies and events are parsed against the libnl
// policy of their attribute set (nla_get.hpp): attributes newer than the
// policy are skipped, so that mrcctl keeps working while the family grows,
// and a malformed one fails the whole message.
#pragma once

#include <cstdint>
#include <string>

#include <netlink/msg.h>

#include "model.hpp"

namespace mrcctl {

// The name of attribute @type of a request of command @cmd ("plane_id"
// for MRC_A_PLANE_ID of PLANE_ADD), "attribute N" when unknown.
std::string attr_name(int cmd, std::uint32_t type);

// The counter name of an MRC_A_STAT_* attribute ("tx_pkts"), or nullptr.
const char *stat_name(std::uint32_t type);

// The name of the top-level attribute of `req` that starts at byte
// `offset` of its netlink message (extack's NLMSGERR_ATTR_OFFS), or "".
std::string attr_at_offset(nl_msg *req, std::uint32_t offset);

// Decoders of one genetlink message of the family.
Dev decode_dev(nl_msg *msg);
Plane decode_plane(nl_msg *msg);
Event decode_event(nl_msg *msg);
Route decode_route(nl_msg *msg);

} // namespace mrcctl
