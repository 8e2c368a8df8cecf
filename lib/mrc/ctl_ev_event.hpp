// SPDX-License-Identifier: GPL-2.0-only
// The queue behind an EV event CQ (ctl_ev_event.cpp): a thread reads the
// mrc family's "events" group and keeps the context's device's EV state
// events in a ring of the CQ's size until mrc_ctl_poll_ev_event() takes
// them.  Declared here so that cq.cpp can destroy one through its
// mrc_cq without knowing more.
#pragma once

namespace mrc::lib {

class EvEventQueue;

struct EvEventQueueDeleter {
	void operator()(EvEventQueue *q) const;
};

} // namespace mrc::lib
