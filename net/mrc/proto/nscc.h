/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NSCC (UET 1.0 network-signal congestion control), integer only.
 *
 * A congestion window in bytes, driven per ACK by two signals: the ECN
 * mark echoed in the ACK and the queueing delay (RTT corrected by the
 * responder's service time, minus base_rtt).  The four quadrants:
 *
 *			delay < target		delay >= target
 *	no ECN		proportional increase	fair increase
 *	ECN		hold			multiplicative decrease
 *
 * plus quick adapt: on loss, trim or delay > qa_threshold, at most once per
 * quick-adapt period, cut the window to what was really acknowledged in the
 * period.  mrc-engine.rst gives the formulas and defaults.
 */
#ifndef _MRC_PROTO_NSCC_H
#define _MRC_PROTO_NSCC_H

#include "engine.h"

struct mrc_nscc {
	struct mrc_nscc_params p;
	u32 mtu;
	u32 cwnd;		/* bytes */
	u32 acked_since_adjust;	/* bytes since the pending increase was applied */
	u32 achieved;		/* bytes acknowledged in this quick-adapt period */
	u8 qa_pending;		/* a loss/trim/high delay awaits the period end */
	u8 have_delay;		/* avg_delay holds a sample */
	u32 avg_delay;		/* EWMA (1/8) of the queueing delay, ns */
	u64 inc;		/* pending increase, in bytes x bytes (/cwnd) */
	u64 last_adjust;
	u64 last_md;
	u64 qa_end;		/* end of the current quick-adapt period */
	u64 stat_md;		/* decreases applied */
	u64 stat_qa;		/* quick adapts applied */
};

/* Outcome of one ACK, for tests and counters. */
enum mrc_nscc_quadrant {
	MRC_NSCC_PI = 0,	/* proportional increase */
	MRC_NSCC_FI = 1,	/* fair increase */
	MRC_NSCC_HOLD = 2,
	MRC_NSCC_MD = 3,	/* multiplicative decrease (or MD suppressed) */
	MRC_NSCC_QA = 4,	/* quick adapt fired */
};

void mrc_nscc_params_default(struct mrc_nscc_params *p);
void mrc_nscc_init(struct mrc_nscc *cc, const struct mrc_nscc_params *p,
		   u32 mtu, u64 now);
void mrc_nscc_set_params(struct mrc_nscc *cc, const struct mrc_nscc_params *p,
			 u64 now);
/* An ACK newly acknowledged @acked bytes; @ecn: it echoed CE; @qdelay: the
 * queueing delay in ns.  Returns the quadrant applied.
 */
enum mrc_nscc_quadrant mrc_nscc_on_ack(struct mrc_nscc *cc, u32 acked,
				       bool ecn, u32 qdelay, u64 now);
/* A packet was lost or trimmed: quick adapt when the period allows. */
bool mrc_nscc_on_loss(struct mrc_nscc *cc, u64 now);

static inline u32 mrc_nscc_cwnd(const struct mrc_nscc *cc)
{
	return cc->cwnd;
}

#endif /* _MRC_PROTO_NSCC_H */
