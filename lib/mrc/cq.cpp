// SPDX-License-Identifier: GPL-2.0-only
// Completion channels and CQs: verbs objects owned by the context.  The
// verbs CQ's cq_context is the library's mrc_cq, so that a CQ event names
// it; the program's cq_context is kept beside it.
//
// A channel also serves EV event CQs (mrc_ctl_create_ev_event_cq), whose
// events come from netlink, not from the device: the channel has an
// eventfd of its own and a list of the event CQs notified, and the fd the
// program gets is an epoll fd over the verbs channel's fd and the
// eventfd, readable when either has something.  mrc_get_cq_event()
// returns a notified event CQ first, else reads the verbs channel (its fd
// is non-blocking); it blocks on the epoll fd unless the program made
// that fd non-blocking (then EAGAIN), as ibv_get_cq_event() does with the
// verbs fd.
#include "objects.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include <algorithm>
#include <new>

using namespace mrc::lib;

namespace {

// The eventfd and the epoll fd of @ch (its verbs channel made): 0 or an
// errno value.
int channel_fds(mrc_comp_channel &ch)
{
	const int vfd = ch.ch->fd;
	int fl = fcntl(vfd, F_GETFL);
	if (fl < 0 || fcntl(vfd, F_SETFL, fl | O_NONBLOCK))
		return errno;
	ch.evfd.reset(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
	ch.epfd.reset(epoll_create1(EPOLL_CLOEXEC));
	if (ch.evfd.get() < 0 || ch.epfd.get() < 0)
		return errno;
	for (int fd : {vfd, ch.evfd.get()}) {
		epoll_event e{};
		e.events = EPOLLIN;
		e.data.fd = fd;
		if (epoll_ctl(ch.epfd.get(), EPOLL_CTL_ADD, fd, &e))
			return errno;
	}
	return 0;
}

// A notified EV event CQ of @ch, or nullptr.  Reading the eventfd when
// the list becomes empty keeps the fd readable exactly while it is not.
mrc_cq *take_ev_ready(mrc_comp_channel &ch)
{
	std::lock_guard l(ch.ev_lock);
	if (ch.ev_ready.empty())
		return nullptr;
	mrc_cq *cq = ch.ev_ready.front();
	ch.ev_ready.pop_front();
	if (ch.ev_ready.empty()) {
		uint64_t n;
		(void)!read(ch.evfd.get(), &n, sizeof(n));
	}
	return cq;
}

} // namespace

void mrc::lib::channel_notify(mrc_comp_channel *ch, mrc_cq *cq)
{
	std::lock_guard l(ch->ev_lock);
	try {
		ch->ev_ready.push_back(cq);
	} catch (const std::bad_alloc &) {
		return; // the events stay in the ring; only the wake-up is lost
	}
	uint64_t one = 1;
	(void)!write(ch->evfd.get(), &one, sizeof(one));
}

void mrc::lib::channel_forget(mrc_comp_channel *ch, mrc_cq *cq)
{
	std::lock_guard l(ch->ev_lock);
	std::erase(ch->ev_ready, cq);
	if (ch->ev_ready.empty()) {
		uint64_t n;
		(void)!read(ch->evfd.get(), &n, sizeof(n));
	}
}

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
	if (int rc = channel_fds(*ch))
		return fail_value(rc);
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
	*fd = channel->epfd.get();
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
		// An EV event CQ: no verbs object, no QP; its queue's
		// thread never takes the lock (see ctl_ev_event.cpp) and
		// ends before the channel forgets the CQ's notifications.
		mrc_comp_channel *ch = cq->channel;
		cq->events.reset();
		if (ch) {
			channel_forget(ch, cq);
			ch->cq_users--;
		}
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
	if (!cq->cq) {
		// EV events: the channel's own notification; without a
		// channel there is nothing to notify.
		if (!cq->channel || !cq->events)
			return fail_value(EOPNOTSUPP);
		ev_queue_arm(cq->events.get());
		return 0;
	}
	int rc = ibv_req_notify_cq(cq->cq.get(), solicited_only);
	return rc ? fail_value(rc) : 0;
}

MRC_API int mrc_get_cq_event(mrc_comp_channel *channel, mrc_cq **cq,
			     void **cq_context)
{
	if (!channel || !cq || !cq_context)
		return fail(EINVAL);
	for (;;) {
		mrc_cq *c = take_ev_ready(*channel);
		ibv_cq *vcq;
		void *vctx;
		if (!c && !ibv_get_cq_event(channel->ch.get(), &vcq, &vctx))
			c = static_cast<mrc_cq *>(vctx);
		if (c) {
			*cq = c;
			*cq_context = c->user_context;
			return 0;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -1; // errno from libibverbs
		int fl = fcntl(channel->epfd.get(), F_GETFL);
		if (fl < 0)
			return -1;
		if (fl & O_NONBLOCK) {
			errno = EAGAIN;
			return -1;
		}
		pollfd p{channel->epfd.get(), POLLIN, 0};
		if (poll(&p, 1, -1) < 0)
			return -1; // EINTR as a blocking read gives it
	}
}

MRC_API void mrc_ack_cq_events(mrc_cq *cq, unsigned int nevents)
{
	// An EV event CQ's notifications hold nothing to acknowledge.
	if (cq && cq->cq && nevents)
		ibv_ack_cq_events(cq->cq.get(), nevents);
}
