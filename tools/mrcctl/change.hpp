// SPDX-License-Identifier: GPL-2.0-only
// add, del and set of an object (plane, route, EV or CC profile): one
// request, answered by the kernel's ACK; success prints nothing, as ip(8)
// does.
#pragma once

#include <cstdint>

#include "cli.hpp"
#include "nl.hpp"

namespace mrcctl {

// The request for @cmd (@add, @del, anything else a set; @nl_cmds their
// MRC_CMD_* in that order) with what @put(msg) adds, sent and answered.
template <class Put>
int send_change(Cmd cmd, Cmd add, Cmd del, const std::uint8_t (&nl_cmds)[3],
		Put put)
{
	GenlSocket sk;
	MsgPtr req = sk.request(cmd == add ? nl_cmds[0] :
				cmd == del ? nl_cmds[1] :
					     nl_cmds[2],
				false);
	put(req.get());
	sk.transact(req.get(), [](nl_msg *) {});
	return 0;
}

} // namespace mrcctl
