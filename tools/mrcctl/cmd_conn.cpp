// SPDX-License-Identifier: GPL-2.0-only
// mrcctl conn show [dev NAME] [qpn N]: live connections; -s adds each
// plane's and each EV's state and counters.
#include <iostream>

#include <linux/mrc.h>
#include <netlink/attr.h>

#include "commands.hpp"
#include "conn.hpp"
#include "nl.hpp"

namespace mrcctl {

int cmd_conn(const Invocation &inv)
{
	const Request &r = inv.req;
	GenlSocket sk;
	bool one = r.id.has_value();
	MsgPtr req = sk.request(MRC_CMD_CONN_GET, !one);
	nl_msg *m = req.get();
	if ((r.dev && nla_put_string(m, MRC_A_DEV_NAME, r.dev->c_str()) < 0) ||
	    (one && nla_put_u32(m, MRC_A_CONN_QPN, *r.id) < 0) ||
	    (inv.opts.stats && nla_put_flag(m, MRC_A_CONN_WANT_STATS) < 0))
		throw Failure("message too large");

	// A QP with many EVs arrives in several messages: the later ones
	// carry the same QP with CONN_EV_OFFSET > 0 and only add EVs.
	std::vector<Conn> conns;
	sk.transact(m, [&](nl_msg *msg) {
		Conn c = decode_conn(msg);
		if (!conns.empty() && c.ev_offset && *c.ev_offset > 0 &&
		    conns.back().qpn == c.qpn && conns.back().dev == c.dev) {
			auto &evs = conns.back().evs;
			evs.insert(evs.end(), c.evs.begin(), c.evs.end());
			return;
		}
		conns.push_back(std::move(c));
	});
	print_list(std::cout, inv.opts, conns, print_conn);
	return 0;
}

} // namespace mrcctl
