// SPDX-License-Identifier: GPL-2.0-only
// A message of the family as the kernel would send it, built with libnl
// (no socket): the decoders' tests fill in the attributes.
#pragma once

#include <linux/mrc.h>
#include <netlink/genl/genl.h>

#include "nl.hpp"

namespace mrcctl::test {

inline MsgPtr genl_message(std::uint8_t cmd)
{
	MsgPtr m(nlmsg_alloc());
	genlmsg_put(m.get(), 0, 0, 0x20, 0, 0, cmd, MRC_GENL_VERSION);
	return m;
}

} // namespace mrcctl::test
