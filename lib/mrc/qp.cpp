// SPDX-License-Identifier: GPL-2.0-only
// MRC QPs: a verbs RC QP of the context's device, given MRC semantics by
// the device's own method (MRC_IB_QP_F_MRC, set while it is in RESET)
// before the program can use it.  The verbs QP's qp_context is the
// library's mrc_qp, so that an asynchronous event names it.
#include "qp.hpp"

#include <cstring>
#include <new>

using namespace mrc::lib;

namespace {

constexpr uint64_t send_ops_allowed = IBV_QP_EX_WITH_RDMA_WRITE |
				      IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;

// A CQ of @ctx that is not being destroyed.
bool cq_usable(mrc_context *ctx, mrc_cq *cq)
{
	// An EV event CQ takes no completions.
	return cq && cq->ctx == ctx && ctx->cqs.contains(cq) && !cq->dying &&
	       cq->cq;
}

} // namespace

MRC_API mrc_qp *mrc_create_qp(mrc_context *mrc_ctx, mrc_qp_init_attr *a)
{
	if (!mrc_ctx || !a || !a->pd || a->pd->context != mrc_ctx->vctx ||
	    (a->send_ops_flags & ~send_ops_allowed))
		return fail_null<mrc_qp>(EINVAL);
	if (a->protocol_version != MRC_PROTOCOL_VERSION_0 &&
	    a->protocol_version != MRC_PROTOCOL_VERSION_1)
		return fail_null<mrc_qp>(EINVAL);
	if (!mrc_ctx->supported)
		return fail_null<mrc_qp>(EOPNOTSUPP);
	if (a->protocol_version &&
	    !(mrc_ctx->dev.protocol_versions & a->protocol_version))
		return fail_null<mrc_qp>(EOPNOTSUPP);

	auto q = std::unique_ptr<mrc_qp>(new (std::nothrow) mrc_qp{});
	if (!q)
		return fail_null<mrc_qp>(ENOMEM);
	q->ctx = mrc_ctx;
	q->init = *a;

	ibv_qp_init_attr via{};
	via.qp_context = q.get();
	via.cap = a->cap;
	via.qp_type = IBV_QPT_RC;
	via.sq_sig_all = a->sq_sig_all;
	{
		std::lock_guard l(mrc_ctx->lock);
		if (!cq_usable(mrc_ctx, a->send_cq) ||
		    !cq_usable(mrc_ctx, a->recv_cq))
			return fail_null<mrc_qp>(EINVAL);
		via.send_cq = a->send_cq->cq.get();
		via.recv_cq = a->recv_cq->cq.get();
		// Counted now, so that neither CQ goes while the QP is made.
		a->send_cq->qp_users++;
		a->recv_cq->qp_users++;
	}
	auto uncount = [&] {
		std::lock_guard l(mrc_ctx->lock);
		a->send_cq->qp_users--;
		a->recv_cq->qp_users--;
	};

	q->qp.reset(ibv_create_qp(a->pd, &via));
	if (!q->qp) {
		int err = errno ? errno : ENOMEM;
		uncount();
		return fail_null<mrc_qp>(err);
	}
	mrc_ib_qp_attr k{};
	k.mask = MRC_IB_QP_FLAGS;
	k.flags = MRC_IB_QP_F_MRC;
	int rc = mrc::kabi::qp_modify(q->qp.get(), k);
	if (rc) {
		q.reset();
		uncount();
		return fail_null<mrc_qp>(kabi_err(rc));
	}
	q->init.cap = via.cap;
	a->cap = via.cap;
	mrc_qp *p;
	{
		std::lock_guard l(mrc_ctx->lock);
		p = adopt(mrc_ctx->qps, q);
	}
	if (!p) {
		q.reset();
		uncount();
		return fail_null<mrc_qp>(ENOMEM);
	}
	return p;
}

MRC_API int mrc_destroy_qp(mrc_qp *qp)
{
	if (!qp)
		return fail_value(EINVAL);
	mrc_context *ctx = qp->ctx;
	std::unique_lock l(ctx->lock);
	if (!ctx->qps.contains(qp))
		return fail_value(EINVAL);
	if (qp->dying)
		return fail_value(EBUSY);
	if (int rc = destroy_unlocked(l, qp->dying, qp->qp))
		return fail_value(rc);
	qp->init.send_cq->qp_users--;
	qp->init.recv_cq->qp_users--;
	if (qp->hint)
		qp->hint->qp_users--;
	ctx->qps.erase(qp);
	return 0;
}

MRC_API int mrc_get_qpn(mrc_qp *qp, uint32_t *qpn)
{
	if (!qp || !qpn)
		return fail(EINVAL);
	*qpn = qp->qp->qp_num;
	return 0;
}

MRC_API int mrc_query_qp(mrc_qp *qp, ibv_qp_attr *vattr, int vattr_mask,
			 mrc_qp_attr *mrc_attr, int mrc_attr_mask,
			 mrc_qp_init_attr *init_attr)
{
	if (!qp || (vattr_mask && !vattr) || (mrc_attr_mask && !mrc_attr) ||
	    (mrc_attr_mask & ~qp_mask_all))
		return fail_value(EINVAL);

	ibv_qp_attr va{};
	ibv_qp_init_attr vinit{};
	int rc = ibv_query_qp(qp->qp.get(), vattr ? vattr : &va, vattr_mask,
			      &vinit);
	if (rc)
		return fail_value(rc);

	if (mrc_attr_mask & qp_mask_kernel) {
		mrc_ib_qp_attr k;
		rc = mrc::kabi::qp_query(qp->qp.get(), &k);
		if (rc)
			return fail_value(kabi_err(rc));
		qp_attr_from_kabi(k, mrc_attr_mask, mrc_attr);
	}
	if (mrc_attr_mask & (MRC_QP_HINT | MRC_QP_VENDOR_CFG)) {
		std::lock_guard l(qp->ctx->lock);
		if (mrc_attr_mask & MRC_QP_HINT)
			mrc_attr->qp_hint = qp->hint;
		if (mrc_attr_mask & MRC_QP_VENDOR_CFG)
			std::memcpy(mrc_attr->vendor_cfg, qp->vendor_cfg.data(),
				    sizeof(mrc_attr->vendor_cfg));
	}
	if (init_attr) {
		*init_attr = qp->init;
		init_attr->cap = vinit.cap;
	}
	return 0;
}
