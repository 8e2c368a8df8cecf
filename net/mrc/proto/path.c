// SPDX-License-Identifier: GPL-2.0-only
/*
 * The connection's EV set: which path each packet takes (spraying), which
 * paths may be used (health: GOOD / ASSUMED_BAD / DENIED, planes up at both
 * ends) and how bad paths come back (probes with back-off).
 *
 * Spraying is a round robin over the EV array that skips unusable EVs,
 * EVs whose ACKs recently echoed ECN (unless more than half the usable
 * ones are marked: then the mark says "the whole fabric is busy" and
 * avoiding it would only concentrate load), and, for a retransmission,
 * the EV the packet was lost on.  A round robin gives every usable EV the
 * same share to within one packet, and costs one step per packet when
 * nothing is skipped.
 */
#include "conn.h"

static void path_recount(struct mrc_paths *p)
{
	u32 i, n = 0;

	for (i = 0; i < p->n; i++)
		n += mrc_path_usable(p, &p->ev[i]);
	p->n_usable = n;
}

static void path_probe_deadline(struct mrc_paths *p)
{
	u64 d = MRC_TIME_NEVER;
	u32 i;

	for (i = 0; i < p->n; i++) {
		const struct mrc_ev *e = &p->ev[i];

		if (e->state == MRC_EV_ASSUMED_BAD &&
		    mrc_path_plane_up(p, e->plane))
			d = mrc_min64(d, e->next_probe);
	}
	p->probe_deadline = d;
}

static void path_set_state(struct mrc_conn *c, u32 i, u8 state, u8 reason,
			   u32 rtt, u64 now)
{
	struct mrc_paths *p = &c->paths;
	struct mrc_ev *e = &p->ev[i];
	struct mrc_conn_event ev = {
		.time = now, .rtt = rtt, .ev = (u16)i, .plane = e->plane,
		.type = MRC_EVT_EV_STATE, .old_state = e->state,
		.new_state = state, .reason = reason,
	};

	if (e->state == state)
		return;
	e->state = state;
	e->state_since = now;
	e->probe_id = 0;
	if (state == MRC_EV_ASSUMED_BAD) {
		/* A path that keeps losing waits longer before its first
		 * probe: a probe only proves the path is not dead, not that
		 * it stopped dropping (a lossy link answers most probes).
		 * The wait doubles per loss beyond the first that the path
		 * has not yet worked off with clean ACKs (mrc_path_on_ack()).
		 */
		u8 hold = e->losses > 1 ?
			  (u8)mrc_min64(e->losses - 1, MRC_PATH_HOLD_SHIFT) : 0;

		e->probe_backoff = (u8)mrc_min64(hold,
						 c->cfg.probe_backoff_max);
		e->next_probe = now + ((u64)c->cfg.probe_interval << hold);
		if (mrc_path_plane_up(p, e->plane))
			p->probe_deadline = mrc_min64(p->probe_deadline,
						      e->next_probe);
	}
	path_recount(p);
	mrc_conn_emit_event(c, &ev);
}

/* The ASSUMED_BAD EV on an up plane with the lowest loss score, or -1. */
static int path_least_bad(const struct mrc_paths *p, u16 below)
{
	int best = -1;
	u32 i;

	for (i = 0; i < p->n; i++) {
		const struct mrc_ev *e = &p->ev[i];

		if (e->state != MRC_EV_ASSUMED_BAD ||
		    !mrc_path_plane_up(p, e->plane) || e->losses >= below)
			continue;
		if (best < 0 || e->losses < p->ev[best].losses)
			best = (int)i;
	}
	return best;
}

/* Restore the least bad EVs until ev_min_active are usable again. */
static void path_ensure_min_active(struct mrc_conn *c, u64 now)
{
	struct mrc_paths *p = &c->paths;

	while (p->n_usable < c->cfg.ev_min_active) {
		int i = path_least_bad(p, 0xffff);

		if (i < 0)
			break;
		path_set_state(c, (u32)i, MRC_EV_GOOD, MRC_EVR_MIN_ACTIVE, 0,
			       now);
	}
}

/* ev_min_active changed (a live EV profile's): a larger one restores the
 * least bad EVs at once; a smaller one retires nothing by itself (the
 * next loss on a kept EV does).
 */
void mrc_path_min_active_changed(struct mrc_conn *c, u64 now)
{
	path_ensure_min_active(c, now);
}

void mrc_path_init(struct mrc_conn *c, u64 now)
{
	struct mrc_paths *p = &c->paths;

	mrc_memset(p, 0, sizeof(*p));
	p->planes_up = 0xffff;
	p->peer_planes_up = 0xffff;
	p->n = 1;
	p->ev[0].plane = 1;
	p->ev[0].state = MRC_EV_GOOD;
	p->ev[0].state_since = now;
	p->probe_deadline = MRC_TIME_NEVER;
	p->probe_id = c->cfg.probe_seed;
	path_recount(p);
}

/* Install EV @i afresh; reports the state change, if any, and with
 * @live a change of plane too (the EV is another path now).
 */
static void path_install(struct mrc_conn *c, u32 i, u8 plane, bool denied,
			 bool live, u64 now)
{
	struct mrc_paths *p = &c->paths;
	struct mrc_ev *e = &p->ev[i];
	u8 old = i < p->n ? e->state : MRC_EV_UNKNOWN;
	bool moved = live && i < p->n && e->plane != plane;
	struct mrc_conn_event ev = {
		.time = now, .ev = (u16)i, .plane = plane,
		.type = MRC_EVT_EV_STATE, .old_state = old,
		.reason = MRC_EVR_CONFIG,
	};

	/* A new EV: its counters and estimates start afresh. */
	mrc_memset(e, 0, sizeof(*e));
	e->plane = plane;
	e->state = denied ? MRC_EV_DENIED : MRC_EV_GOOD;
	e->state_since = now;
	ev.new_state = e->state;
	if (old != e->state || moved)
		mrc_conn_emit_event(c, &ev);
}

int mrc_path_check(const struct mrc_ev_cfg *evs, u32 n)
{
	u32 i;

	if (!n || n > MRC_MAX_EVS)
		return -EINVAL;
	for (i = 0; evs && i < n; i++)
		if (!evs[i].plane || evs[i].plane > MRC_MAX_PLANES)
			return -EINVAL;
	return 0;
}

static int path_set(struct mrc_conn *c, const struct mrc_ev_cfg *evs, u32 n,
		    bool live, u64 now)
{
	struct mrc_paths *p = &c->paths;
	u32 i;

	if (mrc_path_check(evs, n))
		return -EINVAL;
	/* Live: the EVs that leave the set say so (-> UNKNOWN). */
	for (i = n; live && i < p->n; i++)
		path_set_state(c, i, MRC_EV_UNKNOWN, MRC_EVR_CONFIG, 0, now);
	for (i = 0; i < n; i++)
		path_install(c, i, evs ? evs[i].plane : 1,
			     evs ? evs[i].denied : false, live, now);
	/* EVs beyond the new set disappear (UNKNOWN). */
	for (; i < p->n; i++)
		p->ev[i].state = MRC_EV_UNKNOWN;
	p->n = n;
	p->cursor = 0;
	p->ctrl_cursor = 0;
	p->n_ecn = 0;
	p->rc_head = 0;
	p->rc_tail = 0;
	path_recount(p);
	path_probe_deadline(p);
	return 0;
}

/* @evs NULL: AUTO mode, @n EVs on plane 1. */
int mrc_path_set(struct mrc_conn *c, const struct mrc_ev_cfg *evs, u32 n,
		 u64 now)
{
	return path_set(c, evs, n, false, now);
}

int mrc_path_replace(struct mrc_conn *c, const struct mrc_ev_cfg *evs,
		     u32 n, u64 now)
{
	return path_set(c, evs, n, true, now);
}

/* Expire @e's ECN mark lazily, as a pick passes by. */
static void path_ecn_expire(struct mrc_paths *p, struct mrc_ev *e, u64 now)
{
	if (e->ecn_marked && e->ecn_until <= now) {
		e->ecn_marked = 0;
		p->n_ecn--;
	}
}

/* The oldest recycled EV still worth a packet, or -1.  An entry whose EV
 * became unusable or marked since it was queued is dropped: the mark is
 * newer news than the delivery.  Each entry is looked at once.
 */
static int path_pick_recycled(struct mrc_paths *p, u64 now, int exclude)
{
	while (p->rc_head != p->rc_tail) {
		u32 i = p->recycle[p->rc_head++ & (MRC_PATH_RECYCLE - 1)];
		struct mrc_ev *e;

		if (i >= p->n || (int)i == exclude)
			continue;
		e = &p->ev[i];
		path_ecn_expire(p, e, now);
		if (mrc_path_usable(p, e) && !e->ecn_marked)
			return (int)i;
	}
	return -1;
}

void mrc_path_on_delivered(struct mrc_conn *c, u32 ev, u64 now)
{
	struct mrc_paths *p = &c->paths;
	u64 rtt = c->tx.srtt ? c->tx.srtt : c->cfg.cc.base_rtt;

	if (c->cfg.spray != MRC_SPRAY_RECYCLE || ev >= p->n)
		return;
	/* Delivered, but is the way back alive?  A packet that another
	 * path's ACK reports says nothing about the ACKs of its own index;
	 * an EV whose own ACKs stopped (a dead reverse link) would keep
	 * earning reuse that way, and a connection down to its last packet
	 * would resend into it until it fails.
	 */
	if (p->ev[ev].echo_at + MRC_PATH_ECHO_RTTS * rtt < now)
		return;
	if (p->rc_tail - p->rc_head >= MRC_PATH_RECYCLE)
		p->rc_head++;
	p->recycle[p->rc_tail++ & (MRC_PATH_RECYCLE - 1)] = (u16)ev;
}

int mrc_path_pick(struct mrc_conn *c, u64 now, int exclude)
{
	struct mrc_paths *p = &c->paths;
	bool skip_ecn = p->n_ecn * 2 <= p->n_usable;
	int fallback = -1;
	u32 step;
	int r;

	if (c->cfg.spray == MRC_SPRAY_RECYCLE) {
		r = path_pick_recycled(p, now, exclude);
		if (r >= 0)
			return r;
	}

	for (step = 0; step < p->n; step++) {
		u32 i = p->cursor;
		struct mrc_ev *e = &p->ev[i];

		p->cursor = i + 1 == p->n ? 0 : i + 1;
		/* Marks expire lazily, as the round robin passes by. */
		path_ecn_expire(p, e, now);
		if (!mrc_path_usable(p, e))
			continue;
		if (e->ecn_marked && skip_ecn) {
			if (fallback < 0)
				fallback = (int)i;
			continue;
		}
		if ((int)i == exclude) {
			if (fallback < 0)
				fallback = (int)i;
			continue;
		}
		return (int)i;
	}
	return fallback;
}

int mrc_path_pick_ctrl(struct mrc_conn *c, u32 hint, u64 now)
{
	struct mrc_paths *p = &c->paths;
	u32 step;

	(void)now;
	/* Same index as the data packet: the RTT sample then measures one
	 * consistent pair of paths, which keeps per-EV estimates tight.
	 */
	if (hint < p->n && mrc_path_usable(p, &p->ev[hint]))
		return (int)hint;
	for (step = 0; step < p->n; step++) {
		u32 i = p->ctrl_cursor;

		p->ctrl_cursor = i + 1 == p->n ? 0 : i + 1;
		if (mrc_path_usable(p, &p->ev[i]))
			return (int)i;
	}
	/* Nothing usable: any EV on a live plane is better than silence. */
	for (step = 0; step < p->n; step++)
		if (p->ev[step].state != MRC_EV_DENIED &&
		    mrc_path_plane_up(p, p->ev[step].plane))
			return (int)step;
	return -1;
}

bool mrc_ctrl_pkt_init(struct mrc_conn *c, struct mrc_pkt *pkt, u8 op,
		       u32 hint, u32 psn, u64 now)
{
	int k = mrc_path_pick_ctrl(c, hint, now);

	if (k < 0)
		return false;
	mrc_pkt_init(pkt, op);
	pkt->hdr.ev = (u16)k;
	pkt->hdr.plane = c->paths.ev[k].plane;
	pkt->hdr.ts = (u32)now;
	pkt->hdr.psn = psn;
	return true;
}

/* An ACK echoed EV @ev: it delivers.  Every MRC_PATH_CLEAN_ACKS of them
 * halve its loss score, so a path that lost once long ago is as good as
 * new while one that loses every few dozen packets keeps its score.
 */
void mrc_path_on_ack(struct mrc_conn *c, u32 ev)
{
	struct mrc_ev *e = &c->paths.ev[ev];

	if (!e->losses || ++e->acks_clean < MRC_PATH_CLEAN_ACKS)
		return;
	e->acks_clean = 0;
	e->losses /= 2;
}

void mrc_path_on_loss(struct mrc_conn *c, u32 ev, u8 reason, u64 now)
{
	struct mrc_paths *p = &c->paths;
	struct mrc_ev *e;
	int spare;

	if (ev >= p->n)
		return;
	e = &p->ev[ev];
	if (e->losses < 0xffff)
		e->losses++;
	e->acks_clean = 0;
	if (e->state != MRC_EV_GOOD)
		return;
	if (mrc_path_usable(p, e) && p->n_usable <= c->cfg.ev_min_active) {
		/* Retiring it would go below ev_min_active: keep the least
		 * bad.  Swap only with a bad EV that lost strictly less.
		 */
		spare = path_least_bad(p, e->losses);
		if (spare < 0)
			return;
		path_set_state(c, ev, MRC_EV_ASSUMED_BAD, reason, 0, now);
		path_set_state(c, (u32)spare, MRC_EV_GOOD, MRC_EVR_MIN_ACTIVE,
			       0, now);
		return;
	}
	path_set_state(c, ev, MRC_EV_ASSUMED_BAD, reason, 0, now);
}

void mrc_path_on_ecn(struct mrc_conn *c, u32 ev, u64 now)
{
	struct mrc_paths *p = &c->paths;
	struct mrc_ev *e;
	u32 rtt = c->tx.srtt ? c->tx.srtt : c->cfg.cc.base_rtt;

	if (ev >= p->n)
		return;
	e = &p->ev[ev];
	if (!e->ecn_marked) {
		e->ecn_marked = 1;
		p->n_ecn++;
	}
	e->ecn_until = now + rtt;
}

/* One RTT estimator (TCP's gains: 1/8, 1/4). */
static void path_rtt_update(u32 *srtt, u32 *rttvar, u32 rtt)
{
	u32 err;

	if (!*srtt) {
		*srtt = rtt;
		*rttvar = rtt / 2;
		return;
	}
	err = rtt > *srtt ? rtt - *srtt : *srtt - rtt;
	*rttvar = *rttvar - *rttvar / 4 + err / 4;
	*srtt = *srtt - *srtt / 8 + rtt / 8;
}

void mrc_path_on_rtt(struct mrc_conn *c, u32 ev, u32 rtt)
{
	struct mrc_paths *p = &c->paths;
	struct mrc_ev *e;

	if (ev >= p->n)
		return;
	e = &p->ev[ev];
	path_rtt_update(&e->srtt, &e->rttvar, rtt);
	path_rtt_update(&p->plane_srtt[e->plane - 1],
			&p->plane_rttvar[e->plane - 1], rtt);
}

/* How long after sending on @ev an ACK can reasonably take: that path's
 * smoothed RTT plus four deviations (it differs per path, which is what
 * makes spraying's reordering harmless), plus the reordering allowance.
 * A path without samples yet could be arbitrarily slower than the others:
 * only the ACK timeout is a safe bound for it.
 *
 * Never less than the same bound for the EV's plane as a whole: an EV
 * carries one packet in every few dozen, so its own estimate can date
 * from before a queue built up on its plane (its egress port, its links),
 * which the plane's other EVs, sampled all the time, already show.
 */
u64 mrc_path_expect(const struct mrc_conn *c, u32 ev)
{
	const struct mrc_paths *p = &c->paths;
	u64 allow = c->tx.srtt / 4;
	const struct mrc_ev *e;
	u64 own, plane;

	if (allow < c->cfg.reo_min)
		allow = c->cfg.reo_min;
	if (ev < p->n) {
		e = &p->ev[ev];
		plane = (u64)p->plane_srtt[e->plane - 1] +
			4 * (u64)p->plane_rttvar[e->plane - 1];
		if (e->srtt) {
			own = (u64)e->srtt + 4 * (u64)e->rttvar;
			return (own > plane ? own : plane) + allow;
		}
		/* A retired path that never answered: what is still in
		 * flight on it went into the same hole.  Judge it by its
		 * plane instead of waiting the ACK timeout for each (the
		 * reorder window and every later completion wait for them).
		 */
		if (e->state == MRC_EV_ASSUMED_BAD && p->plane_srtt[e->plane - 1])
			return plane + allow;
	}
	return mrc_ack_timeout_ns(c->cfg.ack_timeout_exp);
}

static void path_send_probe(struct mrc_conn *c, u32 i, u64 now)
{
	struct mrc_paths *p = &c->paths;
	struct mrc_ev *e = &p->ev[i];
	u8 sh = e->probe_backoff;
	struct mrc_pkt pkt;

	if (++p->probe_id == 0)
		p->probe_id = 1;
	mrc_pkt_init(&pkt, MRC_OP_PROBE_REQ);
	pkt.hdr.ev = (u16)i;
	pkt.hdr.plane = e->plane;
	pkt.hdr.ts = (u32)now;
	pkt.hdr.psn = c->tx.snd_nxt;	/* ties it to the connection */
	pkt.u.probe.probe_id = p->probe_id;
	pkt.u.probe.ev = (u16)i;
	pkt.u.probe.plane = e->plane;
	e->probe_id = p->probe_id;
	e->probe_sent = now;
	if (sh > c->cfg.probe_backoff_max)
		sh = c->cfg.probe_backoff_max;
	e->next_probe = now + ((u64)c->cfg.probe_interval << sh);
	if (e->probe_backoff < 32)
		e->probe_backoff++;
	c->st.probes_tx++;
	e->cnt.probes_tx++;
	mrc_conn_emit_ctrl(c, &pkt);
}

void mrc_path_timer(struct mrc_conn *c, u64 now)
{
	struct mrc_paths *p = &c->paths;
	u32 i;

	if (now < p->probe_deadline)
		return;
	for (i = 0; i < p->n; i++) {
		struct mrc_ev *e = &p->ev[i];

		if (e->state == MRC_EV_ASSUMED_BAD &&
		    mrc_path_plane_up(p, e->plane) && e->next_probe <= now)
			path_send_probe(c, i, now);
	}
	path_probe_deadline(p);
}

int mrc_path_rx_probe(struct mrc_conn *c, const struct mrc_pkt *pkt, u64 now)
{
	const struct mrc_probe_ext *pr = &pkt->u.probe;
	struct mrc_paths *p = &c->paths;
	struct mrc_pkt resp;
	struct mrc_ev *e;

	/* Its PSN ties it to the connection: answering forged requests
	 * would reflect traffic, believing forged answers would revive
	 * paths that are dead.
	 */
	if (!mrc_rx_psn_plausible(c, pkt->hdr.psn)) {
		c->st.ctrl_invalid++;
		return MRC_RX_INVALID;
	}
	if (pkt->hdr.opcode == MRC_OP_PROBE_REQ) {
		if (!mrc_ctrl_pkt_init(c, &resp, MRC_OP_PROBE_RESP, pr->ev,
				       c->tx.snd_nxt, now))
			return 0;
		resp.u.probe = *pr;
		resp.u.probe.ts_echo = pkt->hdr.ts;
		resp.u.probe.svc_time = 0;
		mrc_conn_emit_ctrl(c, &resp);
		return 0;
	}
	if (pr->ev >= p->n)
		return 0;
	e = &p->ev[pr->ev];
	/* Only the outstanding probe counts: a stale answer proves little. */
	if (e->state != MRC_EV_ASSUMED_BAD || !e->probe_id ||
	    pr->probe_id != e->probe_id)
		return 0;
	c->st.probes_ok++;
	e->cnt.probes_ok++;
	path_set_state(c, pr->ev, MRC_EV_GOOD, MRC_EVR_PROBE_OK,
		       (u32)now - pr->ts_echo, now);
	path_probe_deadline(p);
	return 0;
}

int mrc_path_rx_port_status(struct mrc_conn *c, const struct mrc_pkt *pkt,
			    u64 now)
{
	struct mrc_paths *p = &c->paths;
	const struct mrc_port_status_ext *ps = &pkt->u.port_status;

	/* Checked before the sequence number: a forged "later" number
	 * would otherwise hide the peer's real updates.
	 */
	if (!mrc_rx_psn_plausible(c, pkt->hdr.psn)) {
		c->st.ctrl_invalid++;
		return MRC_RX_INVALID;
	}
	if (p->port_seq_valid && !mrc_psn_after(ps->seq, p->port_seq))
		return 0;
	p->port_seq_valid = 1;
	p->port_seq = ps->seq;
	p->peer_planes_up = ps->up_planes;
	path_recount(p);
	path_ensure_min_active(c, now);
	path_probe_deadline(p);
	return 0;
}

int mrc_path_deny(struct mrc_conn *c, u32 ev, bool deny, u64 now)
{
	struct mrc_paths *p = &c->paths;

	if (ev >= p->n)
		return -EINVAL;
	if (deny)
		path_set_state(c, ev, MRC_EV_DENIED, MRC_EVR_CONTROLLER, 0, now);
	else if (p->ev[ev].state == MRC_EV_DENIED)
		path_set_state(c, ev, MRC_EV_GOOD, MRC_EVR_CONTROLLER, 0, now);
	path_ensure_min_active(c, now);
	path_probe_deadline(p);
	return 0;
}

int mrc_path_plane(struct mrc_conn *c, u8 plane, bool up, u64 now)
{
	struct mrc_paths *p = &c->paths;
	u16 bit;

	if (!plane || plane > MRC_MAX_PLANES)
		return -EINVAL;
	bit = (u16)(1u << (plane - 1));
	if (up)
		p->planes_up |= bit;
	else
		p->planes_up &= (u16)~bit;
	path_recount(p);
	path_ensure_min_active(c, now);
	path_probe_deadline(p);
	return 0;
}

u32 mrc_conn_nr_evs(const struct mrc_conn *c)
{
	return c->paths.n;
}

int mrc_conn_get_ev_info(const struct mrc_conn *c, u32 ev,
			 struct mrc_ev_info *out)
{
	const struct mrc_ev *e;

	if (!out || ev >= c->paths.n)
		return -EINVAL;
	e = &c->paths.ev[ev];
	out->tx_pkts = e->cnt.tx_pkts;
	out->tx_bytes = e->cnt.tx_bytes;
	out->retx_pkts = e->cnt.retx_pkts;
	out->lost_pkts = e->cnt.lost_pkts;
	out->ecn_marks = e->cnt.ecn_marks;
	out->acks = e->cnt.acks;
	out->probes_tx = e->cnt.probes_tx;
	out->probes_ok = e->cnt.probes_ok;
	out->state_since = e->state_since;
	out->srtt = e->srtt;
	out->rttvar = e->rttvar;
	out->loss_score = e->losses;
	out->plane = e->plane;
	out->state = e->state;
	return 0;
}
