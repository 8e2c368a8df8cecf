// SPDX-License-Identifier: GPL-2.0-only
// Extended ACK: the kernel's explanation of a refused request, carried as
// TLVs after struct nlmsgerr (NLMSG_ERROR) or after the error code of a
// dump's NLMSG_DONE. Parsed from raw bytes so that it is testable without
// a socket.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <linux/netlink.h>

namespace mrcctl {

struct ExtAck {
	std::string msg;			// NLMSGERR_ATTR_MSG
	std::optional<std::uint32_t> offset;	// NLMSGERR_ATTR_OFFS
	std::optional<std::uint32_t> miss_type; // NLMSGERR_ATTR_MISS_TYPE
};

// TLVs of an NLMSG_ERROR message (hdr points at its nlmsghdr, whose
// nlmsg_len bounds the read). Empty when NLM_F_ACK_TLVS is not set.
ExtAck parse_error_tlvs(const nlmsghdr *hdr);

// TLVs of an NLMSG_DONE message that ended a dump with an error.
ExtAck parse_done_tlvs(const nlmsghdr *hdr);

// "<extack message> (<strerror>)". When the kernel sent no text, the
// attribute it pointed at (already named by the caller, "" if none) stands
// in for it; with nothing at all, just strerror.
std::string describe_error(int err, const ExtAck &ack,
			   const std::string &bad_attr,
			   const std::string &missing_attr);

} // namespace mrcctl
