// SPDX-License-Identifier: GPL-2.0-only
// QP hints: the library's own records (the software MRC has no fixed pool
// of NIC resources for a hint to steer), validated, kept, queried back,
// and counted by the QPs that use them.
#include "objects.hpp"

#include <cstring>
#include <new>

using namespace mrc::lib;

namespace {

constexpr int hint_mask_all = MRC_QP_HINT_NUM_QPS_PER_PEER |
			      MRC_QP_HINT_NUM_SEND_PEERS |
			      MRC_QP_HINT_NUM_REMOTE_RECV_PEERS |
			      MRC_QP_HINT_VENDOR_CFG;

// A count is a number of QPs or peers: never negative.
bool hint_attr_ok(const mrc_qp_hint_attr &a, int mask)
{
	if ((mask & MRC_QP_HINT_NUM_QPS_PER_PEER) && a.num_qps_per_peer < 0)
		return false;
	if ((mask & MRC_QP_HINT_NUM_SEND_PEERS) && a.num_send_peers < 0)
		return false;
	if ((mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS) &&
	    a.num_remote_recv_peers < 0)
		return false;
	return true;
}

void hint_copy(mrc_qp_hint_attr *to, const mrc_qp_hint_attr &from, int mask)
{
	if (mask & MRC_QP_HINT_NUM_QPS_PER_PEER)
		to->num_qps_per_peer = from.num_qps_per_peer;
	if (mask & MRC_QP_HINT_NUM_SEND_PEERS)
		to->num_send_peers = from.num_send_peers;
	if (mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS)
		to->num_remote_recv_peers = from.num_remote_recv_peers;
	if (mask & MRC_QP_HINT_VENDOR_CFG)
		std::memcpy(to->vendor_cfg, from.vendor_cfg,
			    sizeof(to->vendor_cfg));
}

} // namespace

MRC_API mrc_qp_hint *mrc_create_qp_hint(mrc_context *mrc_ctx,
					mrc_qp_hint_init_attr *init_attr)
{
	if (!mrc_ctx || !init_attr ||
	    !hint_attr_ok(init_attr->attr, hint_mask_all))
		return fail_null<mrc_qp_hint>(EINVAL);
	auto h = std::unique_ptr<mrc_qp_hint>(new (std::nothrow) mrc_qp_hint{});
	if (!h)
		return fail_null<mrc_qp_hint>(ENOMEM);
	h->ctx = mrc_ctx;
	h->attr = init_attr->attr;
	std::lock_guard l(mrc_ctx->lock);
	mrc_qp_hint *p = mrc_ctx->hints.size() < max_qp_hints ?
				 adopt(mrc_ctx->hints, h) :
				 nullptr;
	return p ? p : fail_null<mrc_qp_hint>(ENOMEM);
}

MRC_API int mrc_destroy_qp_hint(mrc_qp_hint *qp_hint)
{
	if (!qp_hint)
		return fail(EINVAL);
	mrc_context *ctx = qp_hint->ctx;
	std::lock_guard l(ctx->lock);
	auto it = ctx->hints.find(qp_hint);
	if (it == ctx->hints.end())
		return fail(EINVAL);
	if (qp_hint->qp_users)
		return fail(EBUSY);
	ctx->hints.erase(it);
	return 0;
}

MRC_API int mrc_query_qp_hint(mrc_qp_hint *qp_hint,
			      mrc_qp_hint_attr *qp_hint_attr,
			      int qp_hint_attr_mask)
{
	if (!qp_hint || !qp_hint_attr || (qp_hint_attr_mask & ~hint_mask_all))
		return fail(EINVAL);
	std::lock_guard l(qp_hint->ctx->lock);
	hint_copy(qp_hint_attr, qp_hint->attr, qp_hint_attr_mask);
	return 0;
}

MRC_API int mrc_modify_qp_hint(mrc_qp_hint *qp_hint,
			       mrc_qp_hint_attr *qp_hint_attr,
			       int qp_hint_attr_mask)
{
	if (!qp_hint || !qp_hint_attr || (qp_hint_attr_mask & ~hint_mask_all) ||
	    !hint_attr_ok(*qp_hint_attr, qp_hint_attr_mask))
		return fail(EINVAL);
	std::lock_guard l(qp_hint->ctx->lock);
	hint_copy(&qp_hint->attr, *qp_hint_attr, qp_hint_attr_mask);
	return 0;
}
