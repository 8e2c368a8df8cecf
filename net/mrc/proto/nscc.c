// SPDX-License-Identifier: GPL-2.0-only
/*
 * NSCC congestion control; see nscc.h for the model.  Everything is
 * integer: gains are fixed point with 10 fractional bits (x / 1024).
 */
#include "nscc.h"

void mrc_nscc_params_default(struct mrc_nscc_params *p)
{
	mrc_memset(p, 0, sizeof(*p));
	p->base_rtt = 10000;		/* 10 us: a small datacenter fabric */
	p->target_delay = 5000;		/* half a base RTT of queueing */
	p->qa_threshold = 40000;	/* 4 base RTTs of queueing */
	p->adjust_bytes = 64 * 1024;
	p->adjust_period = 10000;
	p->eta = 4;
	p->fi = 1;
	p->fi_scale = 4;
	p->gamma = 1024;
	p->max_md_jump = 512;
	p->max_cwnd = 512 * 1024;
	p->min_cwnd = 0;
	p->init_cwnd = 256 * 1024;
	p->qa_gate = 1;
	p->disable_qa = 0;
}

/* The round trip the connection sees: base_rtt plus the smoothed queueing
 * delay.  A window's worth of ACKs, and with it the effect of a change of
 * the window, takes that long.  On a path slower than base_rtt assumes (a
 * software path, a VM) it is much longer than base_rtt, and the periods
 * below would otherwise act several times on the same evidence.
 */
static u64 nscc_rtt(const struct mrc_nscc *cc)
{
	return (u64)cc->p.base_rtt + cc->avg_delay;
}

static u32 nscc_floor(const struct mrc_nscc *cc)
{
	return cc->p.min_cwnd > cc->mtu ? cc->p.min_cwnd : cc->mtu;
}

static void nscc_clamp(struct mrc_nscc *cc)
{
	if (cc->p.no_cc) {
		cc->cwnd = cc->p.max_cwnd;
		return;
	}
	if (cc->cwnd < nscc_floor(cc))
		cc->cwnd = nscc_floor(cc);
	if (cc->cwnd > cc->p.max_cwnd)
		cc->cwnd = cc->p.max_cwnd;
}

void mrc_nscc_init(struct mrc_nscc *cc, const struct mrc_nscc_params *p,
		   u32 mtu, u64 now)
{
	mrc_memset(cc, 0, sizeof(*cc));
	cc->p = *p;
	cc->mtu = mtu ? mtu : 1;
	if (cc->p.max_cwnd < cc->mtu)
		cc->p.max_cwnd = cc->mtu;
	if (!cc->p.fi_scale)
		cc->p.fi_scale = 1;
	cc->cwnd = p->init_cwnd;
	nscc_clamp(cc);
	cc->last_adjust = now;
	cc->last_md = now;
	cc->qa_end = now + (u64)p->base_rtt + p->target_delay;
}

/* New parameters for a running window (a CC profile changed): the window
 * keeps its size, brought within the new floor and max_cwnd; the pending
 * increase, computed with the old gains, is dropped and the adjustment
 * period restarts.  init_cwnd matters only at the start.
 */
void mrc_nscc_set_params(struct mrc_nscc *cc, const struct mrc_nscc_params *p,
			 u64 now)
{
	cc->p = *p;
	if (cc->p.max_cwnd < cc->mtu)
		cc->p.max_cwnd = cc->mtu;
	if (!cc->p.fi_scale)
		cc->p.fi_scale = 1;
	nscc_clamp(cc);
	cc->inc = 0;
	cc->acked_since_adjust = 0;
	cc->last_adjust = now;
	if (cc->p.disable_qa)
		cc->qa_pending = 0;
}

/* Quick adapt: at the end of each period (base_rtt + target_delay, or the
 * connection's round trip if longer: a shorter period acknowledges only
 * part of a window even when nothing is wrong), if a trigger was seen and
 * the period acknowledged less than cwnd >> qa_gate, the window drops to
 * what was acknowledged: the path can evidently carry no more.  The
 * period's count restarts either way.
 */
static u64 nscc_qa_period(const struct mrc_nscc *cc)
{
	u64 min = (u64)cc->p.base_rtt + cc->p.target_delay;

	return nscc_rtt(cc) > min ? nscc_rtt(cc) : min;
}

static bool nscc_quick_adapt(struct mrc_nscc *cc, u64 now)
{
	bool fired = false;

	if (now < cc->qa_end)
		return false;
	if (cc->qa_pending && !cc->p.disable_qa &&
	    cc->achieved < (cc->cwnd >> cc->p.qa_gate)) {
		cc->cwnd = cc->achieved;
		nscc_clamp(cc);
		cc->inc = 0;
		cc->stat_qa++;
		fired = true;
	}
	cc->qa_pending = 0;
	cc->achieved = 0;
	cc->qa_end = now + nscc_qa_period(cc);
	return fired;
}

bool mrc_nscc_on_loss(struct mrc_nscc *cc, u64 now)
{
	if (cc->p.no_cc)
		return false;
	cc->qa_pending = 1;
	return nscc_quick_adapt(cc, now);
}

/* Apply the accumulated increase once enough was acked or time passed. */
static void nscc_adjust(struct mrc_nscc *cc, u32 acked, u64 now)
{
	cc->acked_since_adjust += acked;
	if (cc->acked_since_adjust < cc->p.adjust_bytes &&
	    now - cc->last_adjust < cc->p.adjust_period)
		return;
	if (cc->inc) {
		u64 grow = mrc_div64_u64(cc->inc, cc->cwnd);

		cc->cwnd = grow > cc->p.max_cwnd ? cc->p.max_cwnd :
			   (u32)(cc->cwnd + grow);
		nscc_clamp(cc);
	}
	cc->inc = 0;
	cc->acked_since_adjust = 0;
	cc->last_adjust = now;
}

/* The decrease is sized by the smoothed delay, not by the one marked
 * ACK: with spraying, a single hot path shows a long queue on its own
 * ACKs while the connection as a whole does not queue; that path is
 * avoided by the spraying (path.c), and only a queue seen across the
 * connection's paths shrinks the window.
 */
static void nscc_md(struct mrc_nscc *cc, u64 now)
{
	u32 qdelay = cc->avg_delay;
	u64 dec, cap;

	/* One decrease per round trip: the ACKs of the next round trip
	 * still reflect the queue before the decrease.
	 */
	if ((cc->stat_md && now - cc->last_md < nscc_rtt(cc)) ||
	    qdelay <= cc->p.target_delay)
		return;
	dec = mrc_div64_u64((u64)cc->cwnd * cc->p.gamma *
			    (qdelay - cc->p.target_delay), qdelay) >> 10;
	cap = ((u64)cc->cwnd * cc->p.max_md_jump) >> 10;
	if (dec > cap)
		dec = cap;
	cc->cwnd -= (u32)dec;
	nscc_clamp(cc);
	cc->inc = 0;
	cc->last_md = now;
	cc->stat_md++;
}

enum mrc_nscc_quadrant mrc_nscc_on_ack(struct mrc_nscc *cc, u32 acked,
				       bool ecn, u32 qdelay, u64 now)
{
	enum mrc_nscc_quadrant q;
	u32 target = cc->p.target_delay;

	if (cc->p.no_cc)
		return MRC_NSCC_HOLD;

	if (acked > cc->p.max_cwnd)
		acked = cc->p.max_cwnd;
	cc->achieved += acked;
	if (!cc->have_delay) {
		cc->avg_delay = qdelay;
		cc->have_delay = 1;
	} else {
		cc->avg_delay = cc->avg_delay - cc->avg_delay / 8 + qdelay / 8;
	}
	if (qdelay > cc->p.qa_threshold)
		cc->qa_pending = 1;
	if (nscc_quick_adapt(cc, now))
		return MRC_NSCC_QA;

	if (ecn) {
		/* A mark with a short queue is someone else's burst: hold.
		 * With a long queue too, it is ours: decrease.
		 */
		if (qdelay < target)
			return MRC_NSCC_HOLD;
		nscc_md(cc, now);
		return MRC_NSCC_MD;
	}
	if (qdelay < target) {
		/* Grow faster the emptier the queue: eta MTUs/RTT at 0. */
		u64 scale = mrc_div64_u64((u64)(target - qdelay) << 10, target);

		cc->inc += ((u64)acked * cc->p.eta * cc->mtu * scale) >> 10;
		q = MRC_NSCC_PI;
	} else {
		/* Queue above target but no mark: grow gently and fairly. */
		cc->inc += mrc_div64_u64((u64)acked * cc->p.fi * cc->mtu,
					 cc->p.fi_scale);
		q = MRC_NSCC_FI;
	}
	nscc_adjust(cc, acked, now);
	return q;
}
