// SPDX-License-Identifier: GPL-2.0-only
// Yielding the CPU from a run of empty CQ polls.  On an MRC NIC the
// transport runs on the NIC and a program may spin on mrc_poll_cq() on
// every core it has.  Software MRC's transport is the kernel's packet work
// (NET_RX softirq, often in ksoftirqd) on the same CPUs: a program that
// spins there without ever giving the CPU away starves the very work it
// waits for.  On a one-vCPU guest two spinning mrc_bw ends moved one
// packet per scheduler tick (0.22 MB/s).  So after a run of empty polls
// each further empty poll calls sched_yield(): when nothing else is
// runnable that returns at once, when the kernel's packet thread is, it
// runs.  MRC_POLL_YIELD=N sets the run length (default 64), 0 turns it off.
#ifndef MRC_LIB_POLL_YIELD_HPP
#define MRC_LIB_POLL_YIELD_HPP

#include <atomic>
#include <cstdint>

namespace mrc::lib {

// The run length MRC_POLL_YIELD=@s asks for (null or empty: the default;
// malformed: the default too, so that a typo does not turn it off).
uint32_t poll_yield_parse(const char *s);

// The run length from MRC_POLL_YIELD, read once per process; 0: never.
uint32_t poll_yield_after();

// One CQ's run of empty polls.  Relaxed: a CQ polled from several threads
// only yields a little sooner or later.
class PollYield {
public:
	// Notes the result of one poll; yields if it extends a run of more
	// than @after empty ones (0: never).  Returns whether it yielded.
	bool note(int polled, uint32_t after = poll_yield_after());

private:
	std::atomic<uint32_t> empty_{0};
};

} // namespace mrc::lib

#endif
