// SPDX-License-Identifier: GPL-2.0-only
// Asynchronous events: the verbs context's events, their QP and CQ
// pointers replaced by the library's objects.  Events of objects the
// library did not create (a program's own verbs QPs on the same context)
// are acknowledged and passed over: the API has no way to name them.
#include "objects.hpp"

#include <cstring>

using namespace mrc::lib;

namespace {

enum class Kind { qp, cq, port, device, other };

Kind kind_of(ibv_event_type t)
{
	switch (t) {
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED: return Kind::qp;
	case IBV_EVENT_CQ_ERR: return Kind::cq;
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
	case IBV_EVENT_GID_CHANGE: return Kind::port;
	case IBV_EVENT_DEVICE_FATAL: return Kind::device;
	default: return Kind::other;
	}
}

// The object of @r that a verbs object's context pointer @p names (the
// library sets it to its own object), or nullptr if @r does not hold it:
// a verbs object the library did not create.  Caller holds the lock.
template <typename T> T *registered(const Registry<T> &r, void *p)
{
	auto *o = static_cast<T *>(p);
	return r.contains(o) ? o : nullptr;
}

// The library object an event is about, or false if it is not ours.
bool translate(mrc_context *ctx, const ibv_async_event &ev, mrc_async_event *out)
{
	std::memset(out, 0, sizeof(*out));
	out->event_type = ev.event_type;
	std::lock_guard l(ctx->lock);
	switch (kind_of(ev.event_type)) {
	case Kind::qp:
		out->element.qp = registered(ctx->qps, ev.element.qp->qp_context);
		return out->element.qp;
	case Kind::cq:
		out->element.cq = registered(ctx->cqs, ev.element.cq->cq_context);
		return out->element.cq;
	case Kind::port:
		out->element.port_num = ev.element.port_num;
		return true;
	case Kind::device: return true;
	default: return false; // SRQ and WQ events: the API creates neither
	}
}

// The verbs event an API event stands for (to acknowledge it).
ibv_async_event untranslate(const mrc_async_event &ev)
{
	ibv_async_event v{};
	v.event_type = ev.event_type;
	switch (kind_of(ev.event_type)) {
	case Kind::qp: v.element.qp = ev.element.qp->qp.get(); break;
	case Kind::cq: v.element.cq = ev.element.cq->cq.get(); break;
	case Kind::port: v.element.port_num = ev.element.port_num; break;
	default: break;
	}
	return v;
}

} // namespace

MRC_API int mrc_get_async_event(mrc_context *mrc_ctx, mrc_async_event *event)
{
	if (!mrc_ctx || !event)
		return fail(EINVAL);
	for (;;) {
		ibv_async_event ev;
		if (ibv_get_async_event(mrc_ctx->vctx, &ev))
			return -1; // errno from libibverbs
		if (translate(mrc_ctx, ev, event))
			return 0;
		ibv_ack_async_event(&ev);
	}
}

MRC_API void mrc_ack_async_event(mrc_async_event *event)
{
	if (!event)
		return;
	Kind k = kind_of(event->event_type);
	if ((k == Kind::qp && !event->element.qp) ||
	    (k == Kind::cq && !event->element.cq))
		return;
	ibv_async_event v = untranslate(*event);
	ibv_ack_async_event(&v);
}
