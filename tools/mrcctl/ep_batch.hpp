// SPDX-License-Identifier: GPL-2.0-only
// An endpoint-operation batch (MRC_CMD_EP_BATCH): the one model of
// "mrcctl probe ... ev ..." and of lib_mrc's mrc_ctl_ep_batch_send_wait().
// The kernel checks every request; this only carries them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mrcctl {

class GenlSocket;

struct EpReq {
	std::uint16_t id = 0;
	std::vector<std::uint8_t> saddr; // empty: any; else 4 or 16 bytes
	std::vector<std::uint8_t> daddr; // 4 or 16 bytes
	// ev-probe: the EV (MRC_EV_PROFILE_FORMAT_*, plane, big endian value)
	std::uint8_t format = 0;
	std::uint8_t plane = 0;
	std::vector<std::uint8_t> value;
	// port-status: bit p - 1 set: plane p is up
	std::uint16_t up_mask = 0;
};

struct EpAnswer {
	std::uint16_t id = 0;
	std::optional<std::uint8_t> plane;   // ev-probe: where it came in
	std::optional<std::uint64_t> rtt_ns; // ev-probe: less svc_ns
	std::optional<std::uint32_t> svc_ns; // ev-probe: 0: not reported
};

// Send @reqs as one batch of @op (MRC_EP_OP_*) on instance @dev, waiting
// up to @timeout_ns (ev-probe); the answers in arrival order.  Throws
// KernelError (the kernel's refusal) or Failure.
std::vector<EpAnswer> ep_batch(GenlSocket &sk, const std::string &dev,
			       std::uint8_t op, std::uint64_t timeout_ns,
			       const std::vector<EpReq> &reqs);

} // namespace mrcctl
