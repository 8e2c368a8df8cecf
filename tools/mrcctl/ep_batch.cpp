// SPDX-License-Identifier: GPL-2.0-only
#include "ep_batch.hpp"

#include <linux/mrc.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "nl.hpp"
#include "nla_get.hpp"

namespace mrcctl {

namespace {

void check(bool ok)
{
	if (!ok)
		throw Failure("message too large");
}

void put_bytes(nl_msg *m, int type, const std::vector<std::uint8_t> &b)
{
	check(nla_put(m, type, static_cast<int>(b.size()), b.data()) >= 0);
}

void put_req(nl_msg *m, std::uint8_t op, const EpReq &r)
{
	nlattr *n = nla_nest_start(m, MRC_A_EP_REQ);
	check(n && nla_put_u16(m, MRC_A_EP_REQ_ID, r.id) >= 0);
	put_bytes(m, MRC_A_EP_REQ_DADDR, r.daddr);
	if (!r.saddr.empty())
		put_bytes(m, MRC_A_EP_REQ_SADDR, r.saddr);
	if (op == MRC_EP_OP_EV_PROBE) {
		check(nla_put_u8(m, MRC_A_EP_REQ_FORMAT, r.format) >= 0 &&
		      nla_put_u8(m, MRC_A_EP_REQ_PLANE, r.plane) >= 0);
		put_bytes(m, MRC_A_EP_REQ_VALUE, r.value);
	} else {
		check(nla_put_u16(m, MRC_A_EP_REQ_PORT_STATUS, r.up_mask) >= 0);
	}
	nla_nest_end(m, n);
}

} // namespace

std::vector<EpAnswer> ep_batch(GenlSocket &sk, const std::string &dev,
			       std::uint8_t op, std::uint64_t timeout_ns,
			       const std::vector<EpReq> &reqs)
{
	MsgPtr req = sk.request(MRC_CMD_EP_BATCH, false);
	nl_msg *m = req.get();
	check(nla_put_string(m, MRC_A_EP_DEV_NAME, dev.c_str()) >= 0 &&
	      nla_put_u8(m, MRC_A_EP_OP, op) >= 0 &&
	      nla_put_u64(m, MRC_A_EP_TIMEOUT, timeout_ns) >= 0);
	nlattr *list = nla_nest_start(m, MRC_A_EP_REQS);
	check(list != nullptr);
	for (const EpReq &r : reqs)
		put_req(m, op, r);
	nla_nest_end(m, list);

	std::vector<EpAnswer> out;
	sk.transact(m, [&](nl_msg *msg) {
		nla::Attrs tb = nla::parse(msg, mrc::policy::ep);
		nla::for_each_entry(tb[MRC_A_EP_ANSWERS], MRC_A_EP_ANSWER,
				    mrc::policy::ep_answer,
				    [&](const nla::Attrs &e) {
					    EpAnswer a;
					    a.id = e.u16(MRC_A_EP_ANSWER_ID)
							   .value_or(0);
					    a.plane = e.u8(MRC_A_EP_ANSWER_PLANE);
					    a.rtt_ns = e.u64(MRC_A_EP_ANSWER_RTT);
					    a.svc_ns = e.u32(
						    MRC_A_EP_ANSWER_SVC_TIME);
					    out.push_back(a);
				    });
	});
	return out;
}

} // namespace mrcctl
