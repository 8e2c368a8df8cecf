// SPDX-License-Identifier: GPL-2.0-only
// The queue behind an EV event CQ (ctl_ev_event.cpp): a thread reads the
// mrc family's "events" group and keeps the context's device's EV state
// events in a ring of the CQ's size until mrc_ctl_poll_ev_event() takes
// them.  Declared here so that cq.cpp can destroy one through its
// mrc_cq without knowing more.
#pragma once

struct mrc_comp_channel;
struct mrc_cq;

namespace mrc::lib {

class EvEventQueue;

struct EvEventQueueDeleter {
	void operator()(EvEventQueue *q) const;
};

// mrc_req_notify_cq() of an EV event CQ: the next event that arrives
// notifies the CQ's channel (once).
void ev_queue_arm(EvEventQueue *q);

// The channel side of EV event CQs (cq.cpp): @cq has a new event for
// @ch's program; forget @cq's notifications (it is being destroyed).
void channel_notify(mrc_comp_channel *ch, mrc_cq *cq);
void channel_forget(mrc_comp_channel *ch, mrc_cq *cq);

} // namespace mrc::lib
