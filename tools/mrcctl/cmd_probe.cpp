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

ProbeResult result_of(const nla::Attrs &tb)
{
	ProbeResult r;
	r.ev = tb.u32(MRC_A_PROBE_RESULT_EV_INDEX);
	r.plane = tb.u32(MRC_A_PROBE_RESULT_EV_PLANE);
	r.sport = tb.u16(MRC_A_PROBE_RESULT_EV_SPORT);
	r.rtt_ns = tb.u64(MRC_A_PROBE_RESULT_RTT);
	if (nlattr *a = tb[MRC_A_PROBE_RESULT_ADDR])
		r.via = addr_text(nla_data(a),
				  static_cast<std::size_t>(nla_len(a)));
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
	     nla_put_u16(m, MRC_A_PROBE_EV_SPORT,
			 static_cast<std::uint16_t>(*r.ev_sport)) < 0) ||
	    (r.ev_plane && nla_put_u32(m, MRC_A_PROBE_EV_PLANE, *r.ev_plane) < 0) ||
	    (r.ev_profile &&
	     nla_put_u32(m, MRC_A_PROBE_EV_PROFILE, *r.ev_profile) < 0) ||
	    (r.timeout_ms &&
	     nla_put_u32(m, MRC_A_PROBE_TIMEOUT, *r.timeout_ms) < 0))
		throw Failure("message too large");

	std::vector<ProbeResult> results;
	sk.transact(m, [&](nl_msg *msg) {
		nla::Attrs tb = nla::parse(msg, mrc::policy::probe);
		nla::for_each_entry(tb[MRC_A_PROBE_RESULTS], MRC_A_PROBE_RESULT,
				    mrc::policy::probe_result,
				    [&](const nla::Attrs &e) {
					    results.push_back(result_of(e));
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
