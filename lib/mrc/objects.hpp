// SPDX-License-Identifier: GPL-2.0-only
// lib_mrc's objects behind the opaque handles of mrc.h.  A context owns
// its children (registries of unique_ptrs under its lock); each child owns
// its verbs object.  The counts of users (a CQ's QPs, a hint's QPs, a
// channel's CQs) make the destroys refuse with EBUSY while they are used.
#pragma once

#include "ctl_ev_event.hpp"
#include "kabi.hpp"

#include <mrc.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <unordered_map>

#include <unistd.h>

// A definition of a function of mrc.h: C linkage, exported (everything
// else is hidden: -fvisibility=hidden, lib_mrc.map).
#define MRC_API extern "C" __attribute__((visibility("default")))

namespace mrc::lib {

struct EvCtl; // ctl_ev.hpp

// unique_ptr deleter for a verbs object whose explicit destroy failed or
// was never reached (creation failure paths): the best effort at exit.
template <auto Fn> struct IbvDeleter {
	template <typename T> void operator()(T *p) const
	{
		if (p)
			(void)Fn(p);
	}
};

// An owned file descriptor (-1: none).
class UniqueFd {
public:
	UniqueFd() = default;
	explicit UniqueFd(int fd) : fd_(fd) {}
	~UniqueFd()
	{
		if (fd_ >= 0)
			::close(fd_);
	}
	UniqueFd(const UniqueFd &) = delete;
	UniqueFd &operator=(const UniqueFd &) = delete;
	int get() const { return fd_; }
	void reset(int fd)
	{
		if (fd_ >= 0)
			::close(fd_);
		fd_ = fd;
	}

private:
	int fd_ = -1;
};

template <typename T>
using Registry = std::unordered_map<T *, std::unique_ptr<T>>;

// Move @obj into @r, the context's registry of its kind (the caller holds
// the context's lock): the object, or nullptr if there is no memory for
// the entry, with @obj still its owner (a verbs object is destroyed
// without the lock: see destroy_unlocked()).
template <typename T> T *adopt(Registry<T> &r, std::unique_ptr<T> &obj) noexcept
{
	try {
		// Room first: the entry then takes @obj or fails to be
		// allocated before it does.
		r.reserve(r.size() + 1);
		T *p = obj.get();
		r.emplace(p, std::move(obj));
		return p;
	} catch (const std::bad_alloc &) {
		return nullptr;
	}
}

// The explicit destroy of a CQ's or QP's verbs object @h, with the
// context's lock @l released meanwhile: ibv_destroy_cq/qp() waits for the
// object's events to be acknowledged, and mrc_get_async_event() takes
// the lock.  @dying (under the lock) says a destroy is under way until
// it has failed.  0 with @h released, or the verbs error with @h kept.
template <typename T, auto Fn>
int destroy_unlocked(std::unique_lock<std::mutex> &l, bool &dying,
		     std::unique_ptr<T, IbvDeleter<Fn>> &h)
{
	dying = true;
	l.unlock();
	int rc = Fn(h.get());
	l.lock();
	if (rc) {
		dying = false;
		return rc;
	}
	(void)h.release();
	return 0;
}

} // namespace mrc::lib

// A completion channel: the verbs channel (CQs of completions) and the
// channel's own side for EV event CQs, whose events come from netlink
// (cq.cpp): an eventfd and the event CQs notified but not yet returned by
// mrc_get_cq_event().  The program's fd is an epoll fd over the verbs
// channel's fd (non-blocking) and the eventfd.
struct mrc_comp_channel {
	mrc_context *ctx;
	std::unique_ptr<ibv_comp_channel, mrc::lib::IbvDeleter<ibv_destroy_comp_channel>>
		ch;
	unsigned int cq_users = 0; // under ctx->lock
	mrc::lib::UniqueFd epfd, evfd;
	std::mutex ev_lock;	       // protects ev_ready and evfd's count
	std::deque<mrc_cq *> ev_ready; // notified EV event CQs, oldest first
};

struct mrc_cq {
	mrc_context *ctx;
	// A CQ of completions has a verbs CQ; an EV event CQ
	// (mrc_ctl_create_ev_event_cq) has none, but its queue of events.
	std::unique_ptr<ibv_cq, mrc::lib::IbvDeleter<ibv_destroy_cq>> cq;
	std::unique_ptr<mrc::lib::EvEventQueue, mrc::lib::EvEventQueueDeleter> events;
	void *user_context; // the program's; ibv_cq.cq_context is this object
	mrc_comp_channel *channel;
	unsigned int qp_users = 0; // under ctx->lock
	bool dying = false;	   // under ctx->lock: a destroy is under way
};

struct mrc_qp_hint {
	mrc_context *ctx;
	mrc_qp_hint_attr attr;	   // under ctx->lock
	unsigned int qp_users = 0; // under ctx->lock
};

struct mrc_qp {
	mrc_context *ctx;
	std::unique_ptr<ibv_qp, mrc::lib::IbvDeleter<ibv_destroy_qp>> qp;
	mrc_qp_init_attr init; // as created (qp_context: the program's)
	// Serialises mrc_modify_qp() calls on this QP: each reads the state,
	// sets MRC attributes, then moves the verbs state.
	std::mutex modify_lock;
	mrc_qp_hint *hint = nullptr; // under ctx->lock
	bool dying = false;	     // under ctx->lock: a destroy is under way
	std::array<uint8_t, MRC_MAX_VENDOR_CFG_SIZE> vendor_cfg{}; // under ctx->lock
};

struct mrc_context {
	ibv_context *vctx;
	mrc_context_attr attr;
	bool supported; // the device answered the MRC device query
	mrc_ib_device_attr dev;

	std::mutex lock; // protects the registries and the children's counts
	mrc::lib::Registry<mrc_comp_channel> channels;
	mrc::lib::Registry<mrc_cq> cqs;
	mrc::lib::Registry<mrc_qp_hint> hints;
	mrc::lib::Registry<mrc_qp> qps;
	// The controller API's OFFLINE CC profiles (ctl_cc_profile.cpp): the
	// kernel's profiles are all usable, so one that is configured but not
	// online lives here: its algorithm (no_cc: the API's NULL one) and
	// its values (the kernel's units, attributes MRC_A_CC_BASE_RTT on)
	// once it has some.
	struct CcOffline {
		bool no_cc = false;
		std::optional<std::array<uint32_t, 15>> values;
	};
	std::map<uint32_t, CcOffline> cc_offline;
	// The controller API's EV format profiles and EV profile records
	// (ctl_ev.hpp), made on first use; under lock.
	std::shared_ptr<mrc::lib::EvCtl> ev_ctl;
};

namespace mrc::lib {

// QP hints are the library's own records; this bounds them per context.
constexpr uint32_t max_qp_hints = 4096;

// Error helpers: set errno and return the value a function's contract
// names (-1, the errno value itself, or a null pointer).
inline int fail(int err)
{
	errno = err;
	return -1;
}

inline int fail_value(int err)
{
	errno = err;
	return err;
}

template <typename T> T *fail_null(int err)
{
	errno = err;
	return nullptr;
}

// The version queries of mrc.h and mrc_ctl.h: four optional outputs.
inline void put_versions(uint32_t *cur, uint32_t *last, uint32_t *vcur,
			 uint32_t *vlast, const uint32_t (&v)[4])
{
	uint32_t *out[4] = {cur, last, vcur, vlast};
	for (int i = 0; i < 4; i++)
		if (out[i])
			*out[i] = v[i];
}

// Convert a negative errno of mrc::kabi into a positive one.
inline int kabi_err(int rc) { return rc < 0 ? -rc : rc; }

} // namespace mrc::lib
