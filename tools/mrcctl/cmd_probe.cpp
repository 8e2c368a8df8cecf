// SPDX-License-Identifier: GPL-2.0-only
// mrcctl probe dev NAME to ADDR [ev PORT plane N | ev-profile ID]
//              [timeout MS]: the RTT of every path toward a peer;
// mrcctl probe dev NAME to ADDR [from ADDR] ev plane N EV...
//              [timeout MS]: the RTT of each explicit EV, one endpoint
//              batch (ep_batch.cpp, the model lib_mrc's
//              mrc_ctl_ep_batch_send_wait() uses too).
#include <cstdio>
#include <iostream>

#include <linux/mrc.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "addr.hpp"
#include "commands.hpp"
#include "ep_batch.hpp"
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

// An explicit EV's value as printed: the STEV value, the SRV6 SID (and
// segment); nothing for UDP (its source port is printed).
std::optional<std::string> ev_text(const ProbeEv &ev)
{
	if (ev.format == MRC_EV_PROFILE_FORMAT_STEV) {
		char buf[16];
		std::snprintf(buf, sizeof(buf), "0x%02x%02x%02x%02x",
			      ev.value[0], ev.value[1], ev.value[2], ev.value[3]);
		return buf;
	}
	if (ev.format == MRC_EV_PROFILE_FORMAT_SRV6) {
		std::string t = addr_text(ev.value.data(), 16).value_or("?");
		if (ev.value.size() == 32)
			t += "," +
			     addr_text(ev.value.data() + 16, 16).value_or("?");
		return t;
	}
	return std::nullopt;
}

// One request per "ev plane N ...", id = its position; every EV printed
// in the order given, answered or not.
int probe_evs(const Invocation &inv)
{
	const Request &r = inv.req;
	std::vector<EpReq> reqs;
	auto to = parse_addr(*r.peer);
	for (const ProbeEv &ev : r.probe_evs) {
		EpReq q;
		q.id = static_cast<std::uint16_t>(reqs.size());
		q.daddr = *to;
		if (r.from)
			q.saddr = *parse_addr(*r.from);
		q.format = ev.format;
		q.plane = static_cast<std::uint8_t>(ev.plane);
		q.value = ev.value;
		reqs.push_back(q);
	}
	GenlSocket sk;
	const std::uint64_t timeout_ns = static_cast<std::uint64_t>(
						 r.timeout_ms.value_or(1000)) *
					 1000000u;
	std::vector<EpAnswer> ans = ep_batch(sk, *r.dev, MRC_EP_OP_EV_PROBE,
					     timeout_ns, reqs);
	std::vector<ProbeResult> results(reqs.size());
	for (std::size_t i = 0; i < reqs.size(); i++) {
		const ProbeEv &ev = r.probe_evs[i];
		results[i].batch = true;
		results[i].ev = static_cast<std::uint32_t>(i);
		results[i].plane = ev.plane;
		if (ev.format != MRC_EV_PROFILE_FORMAT_SRV6)
			results[i].sport = static_cast<std::uint16_t>(
				ev.format == MRC_EV_PROFILE_FORMAT_UDP ?
					(ev.value[0] << 8) | ev.value[1] :
					0xf000 | ((ev.value[2] & 0x0f) << 8) |
						ev.value[3]);
		results[i].value = ev_text(ev);
	}
	bool any = false;
	for (const EpAnswer &a : ans) {
		if (a.id >= results.size())
			throw Failure("an answer to no request of the batch");
		ProbeResult &res = results[a.id];
		res.rtt_ns = a.rtt_ns.value_or(1);
		res.answer_plane = a.plane;
		res.svc_ns = a.svc_ns;
		any = true;
	}
	print_list(std::cout, inv.opts, results, print_probe_result);
	return any ? 0 : 1;
}

} // namespace

int cmd_probe(const Invocation &inv)
{
	const Request &r = inv.req;
	if (!r.probe_evs.empty())
		return probe_evs(inv);
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
