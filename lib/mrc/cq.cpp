// SPDX-License-Identifier: GPL-2.0-only
// Completion channels and CQs: verbs objects owned by the context.  The
// verbs CQ's cq_context is the library's mrc_cq, so that a CQ event names
// it; the program's cq_context is kept beside it.
#include "objects.hpp"

#include <new>

using namespace mrc::lib;

MRC_API int mrc_create_comp_channel(mrc_context *mrc_ctx,
				    mrc_comp_channel **channel)
{
	if (!mrc_ctx || !channel)
		return fail_value(EINVAL);
	auto ch = std::unique_ptr<mrc_comp_channel>(new (std::nothrow)
							    mrc_comp_channel{});
	if (!ch)
		return fail_value(ENOMEM);
	ch->ctx = mrc_ctx;
	ch->ch.reset(ibv_create_comp_channel(mrc_ctx->vctx));
	if (!ch->ch)
		return fail_value(errno ? errno : ENOMEM);
	std::lock_guard l(mrc_ctx->lock);
	mrc_comp_channel *p = adopt(mrc_ctx->channels, ch);
	if (!p)
		return fail_value(ENOMEM);
	*channel = p;
	return 0;
}

MRC_API int mrc_get_comp_channel_fd(mrc_comp_channel *channel, int *fd)
{
	if (!channel || !fd)
		return fail(EINVAL);
	*fd = channel->ch->fd;
	return 0;
}

MRC_API int mrc_destroy_comp_channel(mrc_comp_channel *channel)
{
	if (!channel)
		return fail_value(EINVAL);
	mrc_context *ctx = channel->ctx;
	std::lock_guard l(ctx->lock);
	auto it = ctx->channels.find(channel);
	if (it == ctx->channels.end())
		return fail_value(EINVAL);
	if (channel->cq_users)
		return fail_value(EBUSY);
	int rc = ibv_destroy_comp_channel(channel->ch.get());
	if (rc)
		return fail_value(rc);
	(void)channel->ch.release();
	ctx->channels.erase(it);
	return 0;
}

MRC_API mrc_cq *mrc_create_cq(mrc_context *mrc_ctx, int cqe, void *cq_context,
			      mrc_comp_channel *channel, int comp_vector)
{
	if (!mrc_ctx || cqe <= 0 || (channel && channel->ctx != mrc_ctx))
		return fail_null<mrc_cq>(EINVAL);
	auto cq = std::unique_ptr<mrc_cq>(new (std::nothrow) mrc_cq{});
	if (!cq)
		return fail_null<mrc_cq>(ENOMEM);
	cq->ctx = mrc_ctx;
	cq->user_context = cq_context;
	cq->channel = channel;
	cq->cq.reset(ibv_create_cq(mrc_ctx->vctx, cqe, cq.get(),
				   channel ? channel->ch.get() : nullptr,
				   comp_vector));
	if (!cq->cq)
		return fail_null<mrc_cq>(errno ? errno : ENOMEM);
	std::lock_guard l(mrc_ctx->lock);
	mrc_cq *p = adopt(mrc_ctx->cqs, cq);
	if (!p)
		return fail_null<mrc_cq>(ENOMEM);
	if (channel)
		channel->cq_users++;
	return p;
}

MRC_API int mrc_poll_cq(mrc_cq *cq, int num_entries, ibv_wc *wc)
{
	// An EV event CQ is polled with mrc_ctl_poll_ev_event().
	if (!cq || !cq->cq || num_entries < 0 || (num_entries && !wc)) {
		errno = EINVAL;
		return -1;
	}
	int n = ibv_poll_cq(cq->cq.get(), num_entries, wc);
	return n < 0 ? -1 : n;
}

MRC_API int mrc_destroy_cq(mrc_cq *cq)
{
	if (!cq)
		return fail_value(EINVAL);
	mrc_context *ctx = cq->ctx;
	std::unique_lock l(ctx->lock);
	if (!ctx->cqs.contains(cq))
		return fail_value(EINVAL);
	if (cq->qp_users || cq->dying)
		return fail_value(EBUSY);
	if (!cq->cq) {
		// An EV event CQ: no verbs object, no QP, no channel; its
		// queue's thread never takes the lock (see ctl_ev_event.cpp).
		ctx->cqs.erase(cq);
		return 0;
	}
	if (int rc = destroy_unlocked(l, cq->dying, cq->cq))
		return fail_value(rc);
	if (cq->channel)
		cq->channel->cq_users--;
	ctx->cqs.erase(cq);
	return 0;
}

MRC_API int mrc_req_notify_cq(mrc_cq *cq, int solicited_only)
{
	if (!cq)
		return fail_value(EINVAL);
	if (!cq->cq)
		return fail_value(EOPNOTSUPP); // EV events: no notification
	int rc = ibv_req_notify_cq(cq->cq.get(), solicited_only);
	return rc ? fail_value(rc) : 0;
}

MRC_API int mrc_get_cq_event(mrc_comp_channel *channel, mrc_cq **cq,
			     void **cq_context)
{
	if (!channel || !cq || !cq_context)
		return fail(EINVAL);
	ibv_cq *vcq;
	void *vctx;
	if (ibv_get_cq_event(channel->ch.get(), &vcq, &vctx))
		return -1; // errno from libibverbs
	auto *c = static_cast<mrc_cq *>(vctx);
	*cq = c;
	*cq_context = c->user_context;
	return 0;
}

MRC_API void mrc_ack_cq_events(mrc_cq *cq, unsigned int nevents)
{
	if (cq && cq->cq && nevents)
		ibv_ack_cq_events(cq->cq.get(), nevents);
}
