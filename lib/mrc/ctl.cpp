// SPDX-License-Identifier: GPL-2.0-only
// The controller API (mrc_ctl.h): the version query and the endpoint
// operations (mrc_ctl_ep_batch_send_wait).  A batch is one netlink
// request (MRC_CMD_EP_BATCH, the model "mrcctl probe ... ev" shares,
// tools/mrcctl/ep_batch.cpp): the kernel sends every probe (or
// PORT_STATUS), collects the answers until all came or the timeout, and
// replies with them in arrival order.  Every argument is checked here
// before the context is touched; the kernel checks them again (and the
// privilege).  The device query is in ctl_device.cpp, the ports in
// ctl_port.cpp, the CC profiles in ctl_cc_profile.cpp, EV events in
// ctl_ev_event.cpp, EV format and EV profiles in ctl_ev_*.cpp.
#include "ctl_ev.hpp"
#include "objects.hpp"

#include <mrc_ctl.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <linux/mrc.h>
#include <set>
#include <vector>

#include "ctl_nl.hpp"
#include "ep_batch.hpp"

using namespace mrc::lib;

namespace {

// The most requests in one batch (the kernel's bound, one per EV of the
// largest profile).
constexpr int max_ep_reqs = 256;

uint8_t format_of(mrc_ctl_ev_fmt_mode m)
{
	switch (m) {
	case MRC_CTL_EV_FMT_MODE_UDP: return MRC_EV_PROFILE_FORMAT_UDP;
	case MRC_CTL_EV_FMT_MODE_STEV: return MRC_EV_PROFILE_FORMAT_STEV;
	case MRC_CTL_EV_FMT_MODE_SRV6: return MRC_EV_PROFILE_FORMAT_SRV6;
	default: return 0;
	}
}

// A RoCEv2 GID as the kernel's address: 4 bytes if IPv4-mapped, else 16;
// empty for the zero GID.
std::vector<uint8_t> gid_addr(const ibv_gid &gid)
{
	static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0,    0,
					     0, 0, 0, 0, 0xff, 0xff};
	static const ibv_gid zero{};
	if (!std::memcmp(gid.raw, zero.raw, sizeof(gid.raw)))
		return {};
	if (!std::memcmp(gid.raw, v4mapped, sizeof(v4mapped)))
		return {gid.raw + 12, gid.raw + 16};
	return {gid.raw, gid.raw + 16};
}

// One request as the kernel's; false if it cannot be one.
bool to_ep_req(mrc_ctl_ep_op_type op, const mrc_ctl_ep_req &r, mrcctl::EpReq *out)
{
	out->id = r.req_id;
	out->daddr = gid_addr(r.dgid);
	out->saddr = gid_addr(r.sgid);
	if (out->daddr.empty())
		return false;
	if (op == MRC_CTL_EP_OP_PORT_STATUS_UPDATE) {
		// Bit N is port N: bit 0 and ports above the planes name none.
		uint32_t ps = r.op.port_status_update.port_status;
		if (ps & ~(((1u << MRC_MAX_PLANES) - 1) << 1))
			return false;
		out->up_mask = static_cast<uint16_t>(ps >> 1);
		return true;
	}
	KEv kev;
	uint8_t format = format_of(r.ev_fmt_mode);
	if (!format || !to_kev(format, r.req_ev, &kev) || !kev.plane ||
	    kev.plane > MRC_MAX_PLANES)
		return false;
	out->format = format;
	out->plane = kev.plane;
	out->value = kev.value;
	return true;
}

// The kernel's refusals as the API names them: a request it cannot carry
// out as given (no such peer family, an address not the device's) is an
// invalid argument; no memory stays so.
int ep_errno(int err)
{
	switch (err) {
	case EAFNOSUPPORT: return EINVAL;
	case ENOMEM: return ENOMEM;
	default: return ctl_nl_errno(err);
	}
}

} // namespace

MRC_API void mrc_ctl_query_version(uint32_t *current_version,
				   uint32_t *last_supported_version,
				   uint32_t *vendor_version,
				   uint32_t *last_supported_vendor_version)
{
	put_versions(current_version, last_supported_version, vendor_version,
		     last_supported_vendor_version,
		     {MRC_CTL_API_CURRENT_VERSION,
		      MRC_CTL_API_LAST_SUPPORTED_VERSION,
		      MRC_CTL_VENDOR_API_CURRENT_VERSION,
		      MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION});
}

MRC_API int mrc_ctl_ep_batch_send_wait(mrc_context *mrc_ctx, uint8_t,
				       mrc_ctl_ep_op_type op_type,
				       mrc_ctl_ep_req *req, int num_req,
				       uint32_t rsp_timeout,
				       mrc_ctl_ep_rsp *rsp, int *num_rsp)
{
	if (num_rsp)
		*num_rsp = 0;
	if (!mrc_ctx || !req || !rsp || !num_rsp || num_req <= 0 ||
	    num_req > max_ep_reqs)
		return fail(EINVAL);
	if (op_type != MRC_CTL_EP_OP_EV_PROBE &&
	    op_type != MRC_CTL_EP_OP_PORT_STATUS_UPDATE)
		return fail(EINVAL);
	// PORT_STATUS has no answer to wait for: its timeout is not used.
	if (op_type == MRC_CTL_EP_OP_EV_PROBE && !rsp_timeout)
		return fail(EINVAL);
	std::vector<mrcctl::EpReq> reqs(static_cast<size_t>(num_req));
	std::set<uint16_t> ids;
	for (size_t i = 0; i < reqs.size(); i++)
		if (!to_ep_req(op_type, req[i], &reqs[i]) ||
		    !ids.insert(req[i].req_id).second)
			return fail(EINVAL);

	std::vector<mrcctl::EpAnswer> ans;
	int rc = ctl_nl_call(
		[&] {
			mrcctl::GenlSocket sk;
			ans = mrcctl::ep_batch(sk,
					       ibv_get_device_name(
						       mrc_ctx->vctx->device),
					       op_type == MRC_CTL_EP_OP_EV_PROBE ?
						       MRC_EP_OP_EV_PROBE :
						       MRC_EP_OP_PORT_STATUS,
					       rsp_timeout ? rsp_timeout : 1,
					       reqs);
		},
		ep_errno);
	if (rc)
		return rc;
	// Each request is answered at most once (the kernel matches them);
	// an answer naming no request of ours would be the kernel's fault.
	if (ans.size() > reqs.size())
		return fail(EIO);
	for (size_t i = 0; i < ans.size(); i++) {
		const mrcctl::EpAnswer &a = ans[i];
		if (!ids.count(a.id))
			return fail(EIO);
		rsp[i] = {};
		rsp[i].req_id = a.id;
		rsp[i].port = a.plane.value_or(0);
		rsp[i].rtt = static_cast<unsigned int>(
			std::min<uint64_t>(a.rtt_ns.value_or(0), UINT_MAX));
		rsp[i].adj_svc_time = a.svc_ns.value_or(0) != 0;
	}
	*num_rsp = static_cast<int>(ans.size());
	if (ans.size() < reqs.size())
		return fail(ETIMEDOUT);
	return 0;
}
