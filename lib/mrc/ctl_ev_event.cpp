// SPDX-License-Identifier: GPL-2.0-only
// EV events (mrc_ctl_create_ev_event_cq, mrc_ctl_poll_ev_event): the
// kernel multicasts an "ev-state" event on the mrc family's "events"
// group whenever an EV of a live QP changes state into one its EV
// profile's event mask selects (Documentation/netlink/specs/mrc.yaml).
// Each event CQ has its own netlink socket joined to that group and a
// thread that keeps the context's device's events in a ring of cqe
// entries; mrc_ctl_poll_ev_event() takes them from it.
//
// Drops are counted exactly (MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT):
//  - the kernel numbers the device's EV state events (conn-ev "seq"), so
//    the events the socket lost (ENOBUFS) or the kernel could not send
//    are the jump in the number;
//  - a full ring replaces its newest event with the arriving one, which
//    inherits the replaced one's drops plus one: the ring always ends
//    with the latest state, and every drop is on the next event the
//    consumer gets.
// Losses are reported with the first event delivered after them, as the
// API's drop_count is defined ("between the previous and this one").
#include "ctl_ev_event.hpp"
#include "objects.hpp"

#include <mrc_ctl.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/mrc.h>

#include "attrs.hpp"
#include "ctl_nl.hpp"

using namespace mrc::lib;

namespace {

// ibv_create_cq() refuses more than the device's max_cqe; the ring is
// the library's memory, bounded alike.
constexpr int max_ev_cqe = 1 << 16;

// A controller written for API 1.0.0 has no "state" in its events: its
// array elements are this long (the same layout up to drop_count).
struct ev_event_v100 {
	uint64_t profile_id;
	mrc_ctl_ev ev;
	uint32_t drop_count;
};
static_assert(offsetof(ev_event_v100, drop_count) ==
	      offsetof(mrc_ctl_ev_event, drop_count));
static_assert(sizeof(ev_event_v100) < sizeof(mrc_ctl_ev_event));

mrc_ctl_ev_state api_state(uint32_t kernel_state)
{
	switch (kernel_state) {
	case MRC_CONN_EV_GOOD: return MRC_CTL_EV_GOOD;
	case MRC_CONN_EV_ASSUMED_BAD: return MRC_CTL_EV_ASSUMED_BAD;
	case MRC_CONN_EV_DENIED: return MRC_CTL_EV_DENIED;
	default: return MRC_CTL_EV_UNKNOWN;
	}
}

uint32_t add_sat(uint32_t a, uint64_t b)
{
	uint64_t s = a + b;
	return s > std::numeric_limits<uint32_t>::max() ?
		       std::numeric_limits<uint32_t>::max() :
		       static_cast<uint32_t>(s);
}

// An eventfd that ends the reader thread.
class StopFd {
public:
	StopFd() : fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}
	~StopFd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	StopFd(const StopFd &) = delete;
	StopFd &operator=(const StopFd &) = delete;
	int fd() const { return fd_; }
	void signal() const
	{
		uint64_t one = 1;
		(void)!write(fd_, &one, sizeof(one));
	}

private:
	int fd_;
};

} // namespace

namespace mrc::lib {

class EvEventQueue {
public:
	// Throws (mrcctl::Failure, std::bad_alloc, std::system_error).
	// @channel (may be null) is notified for @cq when armed.
	EvEventQueue(std::string dev, int cqe, bool with_state,
		     mrc_comp_channel *channel, mrc_cq *cq)
		: dev_(std::move(dev)), channel_(channel), cq_(cq),
		  ring_(static_cast<std::size_t>(cqe)),
		  stride_(with_state ? sizeof(mrc_ctl_ev_event) :
				       sizeof(ev_event_v100))
	{
		if (stop_.fd() < 0)
			throw std::bad_alloc();
		sk_.subscribe(MRC_GENL_MCGRP_EVENTS);
		sk_.prepare_events();
		reader_ = std::thread([this] { run(); });
	}

	~EvEventQueue()
	{
		stop_.signal();
		reader_.join();
	}

	EvEventQueue(const EvEventQueue &) = delete;
	EvEventQueue &operator=(const EvEventQueue &) = delete;

	// Up to @n events into @out (elements of the caller's API version):
	// how many, or a negative errno value once the ring is empty after
	// the reader failed.
	int poll(int n, mrc_ctl_ev_event *out)
	{
		std::lock_guard l(lock_);
		int got = 0;
		auto *dst = reinterpret_cast<unsigned char *>(out);
		for (; got < n && count_; got++) {
			std::memcpy(dst + static_cast<std::size_t>(got) * stride_,
				    &ring_[head_], stride_);
			head_ = (head_ + 1) % ring_.size();
			count_--;
		}
		return got || !err_ ? got : -err_;
	}

	void arm()
	{
		std::lock_guard l(lock_);
		armed_ = true;
	}

private:
	void run()
	{
		pollfd fds[2] = {{sk_.fd(), POLLIN, 0}, {stop_.fd(), POLLIN, 0}};
		auto on_msg = [this](nl_msg *m) { on_message(m); };
		for (;;) {
			if (::poll(fds, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				return fail_reader(EIO);
			}
			if (fds[1].revents)
				return;
			if (!fds[0].revents)
				continue;
			try {
				// false: the socket overran; the next
				// event's number tells how many were lost.
				(void)sk_.read_events(on_msg);
			} catch (const std::exception &) {
				return fail_reader(EIO);
			}
		}
	}

	void fail_reader(int err)
	{
		std::lock_guard l(lock_);
		err_ = err;
	}

	// One message of the group: an EV state event of our device is
	// queued; a malformed one is skipped (its number, when the next
	// event arrives, counts it as dropped).
	void on_message(nl_msg *m)
	{
		nlmsghdr *h = nlmsg_hdr(m);
		if (h->nlmsg_type != sk_.family() ||
		    genlmsg_hdr(h)->cmd != MRC_CMD_EVENT)
			return;
		mrcctl::Event e;
		try {
			e = mrcctl::decode_event(m);
		} catch (const std::exception &) {
			return;
		}
		if (e.type != MRC_EVENT_EV_STATE || e.dev != dev_ || !e.conn ||
		    e.conn->evs.size() != 1 || !e.conn->evs[0].seq)
			return;
		const mrcctl::ConnEv &ce = e.conn->evs[0];
		mrc_ctl_ev_event ev{};
		for (const auto &[k, v] : e.conn->fields)
			if (k == "ev_profile")
				ev.profile_id = v;
		if (ce.value)
			std::memcpy(ev.ev.val, ce.value->data(),
				    std::min(ce.value->size(), sizeof(ev.ev.val)));
		ev.ev.port = static_cast<uint8_t>(ce.plane.value_or(0));
		ev.state = api_state(ce.state.value_or(MRC_CONN_EV_UNKNOWN));
		push(ev, *ce.seq);
	}

	void push(mrc_ctl_ev_event ev, uint64_t seq)
	{
		// Armed: this event notifies the channel, after the ring
		// holds it (outside lock_: the channel has its own).
		if (queue(ev, seq) && channel_)
			channel_notify(channel_, cq_);
	}

	// Into the ring; true if that consumed the arming.
	bool queue(mrc_ctl_ev_event ev, uint64_t seq)
	{
		// A number at or below the last one: the device was made
		// anew (same name); count from there.
		uint64_t gap = last_seq_ && seq > last_seq_ ?
				       seq - last_seq_ - 1 :
				       0;
		last_seq_ = seq;
		std::lock_guard l(lock_);
		const bool notify = armed_;
		armed_ = false;
		ev.drop_count = add_sat(0, gap);
		if (count_ < ring_.size()) {
			ring_[(head_ + count_) % ring_.size()] = ev;
			count_++;
			return notify;
		}
		// Full: the newest gives way to this one, which then owes
		// its drops and itself to the consumer.
		mrc_ctl_ev_event &last = ring_[(head_ + count_ - 1) % ring_.size()];
		uint64_t owed = uint64_t{last.drop_count} + 1;
		ev.drop_count = add_sat(ev.drop_count, owed);
		last = ev;
		return notify;
	}

	const std::string dev_;
	mrc_comp_channel *const channel_; // outlives us (its cq_users)
	mrc_cq *const cq_;
	mrcctl::GenlSocket sk_;
	StopFd stop_;
	uint64_t last_seq_ = 0; // the reader thread's

	std::mutex lock_; // protects the ring, armed_ and err_
	bool armed_ = false;
	std::vector<mrc_ctl_ev_event> ring_;
	std::size_t head_ = 0, count_ = 0;
	int err_ = 0; // the reader ended on this error
	const std::size_t stride_;
	std::thread reader_; // last: it runs on everything above
};

void EvEventQueueDeleter::operator()(EvEventQueue *q) const { delete q; }

void ev_queue_arm(EvEventQueue *q) { q->arm(); }

} // namespace mrc::lib

MRC_API mrc_cq *mrc_ctl_create_ev_event_cq(mrc_context *mrc_ctx, int cqe,
					   void *cq_context,
					   mrc_comp_channel *channel,
					   int comp_vector)
{
	if (!mrc_ctx || cqe <= 0 || cqe > max_ev_cqe || comp_vector < 0 ||
	    (channel && channel->ctx != mrc_ctx))
		return fail_null<mrc_cq>(EINVAL);
	if (!mrc_ctx->supported)
		return fail_null<mrc_cq>(EOPNOTSUPP);
	auto cq = std::unique_ptr<mrc_cq>(new (std::nothrow) mrc_cq{});
	if (!cq)
		return fail_null<mrc_cq>(ENOMEM);
	cq->ctx = mrc_ctx;
	cq->user_context = cq_context;
	cq->channel = channel;
	bool with_state = mrc_ctx->attr.mrc_api_version_used >=
			  MRC_API_VER(1, 0, 1);
	const char *dev = ibv_get_device_name(mrc_ctx->vctx->device);
	try {
		cq->events.reset(new EvEventQueue(dev, cqe, with_state, channel,
						  cq.get()));
	} catch (const std::bad_alloc &) {
		return fail_null<mrc_cq>(ENOMEM);
	} catch (const std::exception &) {
		return fail_null<mrc_cq>(EIO); // no module, no socket, no thread
	}
	std::lock_guard l(mrc_ctx->lock);
	mrc_cq *p = adopt(mrc_ctx->cqs, cq);
	if (!p)
		return fail_null<mrc_cq>(ENOMEM);
	if (channel)
		channel->cq_users++;
	return p;
}

// Returns a negative errno value, not -1 (the API's contract).
MRC_API int mrc_ctl_poll_ev_event(mrc_cq *ev_cq, int num_entries,
				  mrc_ctl_ev_event *ev_event)
{
	int rc;

	if (!ev_cq || !ev_cq->events || num_entries < 0 ||
	    (num_entries && !ev_event))
		rc = -EINVAL;
	else
		rc = ev_cq->events->poll(num_entries, ev_event);
	if (rc < 0)
		errno = -rc;
	return rc;
}
