// SPDX-License-Identifier: GPL-2.0-only
// mrcctl [-s] dev show [dev NAME]
#include <iostream>

#include <linux/mrc.h>
#include <netlink/attr.h>

#include "attrs.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "nl.hpp"

namespace mrcctl {

int cmd_dev(const Invocation &inv)
{
	const Request &r = inv.req;
	GenlSocket sk;
	// One named instance is a "do", so that a wrong name is an error
	// from the kernel and not an empty list.
	MsgPtr req = sk.request(MRC_CMD_DEV_GET, !r.dev);
	if (r.dev && nla_put_string(req.get(), MRC_A_DEV_NAME, r.dev->c_str()) < 0)
		throw Failure("message too large");
	if (inv.opts.stats && nla_put_flag(req.get(), MRC_A_DEV_WANT_STATS) < 0)
		throw Failure("message too large");

	std::vector<Dev> devs;
	sk.transact(req.get(), [&](nl_msg *m) { devs.push_back(decode_dev(m)); });
	print_list(std::cout, inv.opts, devs, print_dev);
	return 0;
}

} // namespace mrcctl
