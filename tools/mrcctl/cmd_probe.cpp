// SPDX-License-Identifier: GPL-2.0-only
// mrcctl probe dev NAME to ADDR [ev PORT plane N | ev-profile ID]
//              [timeout MS]: the RTT of every path toward a peer.
#include <iostream>

#include <linux/mrc.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "addr.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "nl.hpp"
#include "nla_get.hpp"

namespace mrcctl {

namespace {


ProbeResult decode_result(nlattr *nest)
{
	ProbeResult r;
	nla::for_each_nested(nest, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_CONN_EV_INDEX: r.ev = nla::get_u32(a); break;
		case MRC_A_CONN_EV_PLANE: r.plane = nla::get_u32(a); break;
		case MRC_A_CONN_EV_SPORT: r.sport = nla::get_u16(a); break;
		case MRC_A_PROBE_RTT: r.rtt_ns = nla::get_u64(a); break;
		case MRC_A_PROBE_ADDR:
			r.via = addr_text(nla_data(a),
					  static_cast<std::size_t>(nla_len(a)));
			break;
		default: break;
		}
	});
	return r;
}

} // namespace

int cmd_probe(const Invocation &inv)
{
	const Request &r = inv.req;
	GenlSocket sk;
	MsgPtr req = sk.request(MRC_CMD_PROBE, false);
	nl_msg *m = req.get();
	auto bytes = parse_addr(*r.peer);
	if (nla_put_string(m, MRC_A_DEV_NAME, r.dev->c_str()) < 0 ||
	    nla_put(m, MRC_A_PROBE_TO, static_cast<int>(bytes->size()),
		    bytes->data()) < 0 ||
	    (r.ev_sport &&
	     nla_put_u16(m, MRC_A_CONN_EV_SPORT,
			 static_cast<std::uint16_t>(*r.ev_sport)) < 0) ||
	    (r.ev_plane && nla_put_u32(m, MRC_A_CONN_EV_PLANE, *r.ev_plane) < 0) ||
	    (r.ev_profile &&
	     nla_put_u32(m, MRC_A_ROUTE_EV_PROFILE, *r.ev_profile) < 0) ||
	    (r.timeout_ms && nla_put_u32(m, MRC_A_PROBE_TIMEOUT, *r.timeout_ms) < 0))
		throw Failure("message too large");

	std::vector<ProbeResult> results;
	sk.transact(m, [&](nl_msg *msg) {
		nlmsghdr *h = nlmsg_hdr(msg);
		auto *g = static_cast<genlmsghdr *>(nlmsg_data(h));
		nla::for_each_attr(genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
				   [&](nlattr *a) {
					   if (nla_type(a) != MRC_A_PROBE_RESULTS)
						   return;
					   nla::for_each_nested(a, [&](nlattr *e) {
						   results.push_back(
							   decode_result(e));
					   });
				   });
	});
	print_list(std::cout, inv.opts, results, print_probe_result);
	// Scripts: a probe that nothing answered is a failure.
	for (const auto &res : results)
		if (res.rtt_ns)
			return 0;
	return 1;
}

} // namespace mrcctl
