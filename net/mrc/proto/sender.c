// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our send stream: messages cut into MTU-sized packets with consecutive
 * PSNs, each sprayed on its own EV; cumulative + selective ACKs free them;
 * lost ones are retransmitted on another EV.
 *
 * Loss detection is time based (RACK-like) and path aware: a packet is
 * lost once a packet sent after it has been delivered AND its own path's
 * expected ACK time (that EV's RTT + 4 deviations + the reordering
 * allowance, mrc_path_expect()) has passed.  Spraying over paths of
 * different delays reorders a lot; judging each packet by its own path's
 * delay is what keeps that reordering from looking like loss.  The ACK
 * timeout catches the rest (tail losses, lost ACKs, dead fabric).
 */
#include "conn.h"

#define TX_MASK		(MRC_MAX_WINDOW - 1)
#define MSG_MASK	(MRC_MAX_MSGS - 1)

static struct mrc_txpkt *txp(struct mrc_tx *tx, u32 psn)
{
	return &tx->pkt[psn & TX_MASK];
}

static bool tx_in_flight(const struct mrc_tx *tx, u32 psn)
{
	return mrc_psn_in(psn, tx->snd_una, tx->snd_nxt);
}

void mrc_tx_init(struct mrc_conn *c)
{
	struct mrc_tx *tx = &c->tx;

	mrc_memset(tx, 0, sizeof(*tx));
	tx->snd_una = c->cfg.init_psn;
	tx->snd_nxt = c->cfg.init_psn;
	tx->window = (u32)c->cfg.peer_mpr * MRC_MPR_UNIT;
	tx->rto_deadline = MRC_TIME_NEVER;
	tx->rack_deadline = MRC_TIME_NEVER;
	tx->rnr_deadline = MRC_TIME_NEVER;
}

/* The k-th consecutive expiry is followed by a wait of the ACK timeout
 * while k <= retry_cnt, then of the ACK timeout x 2^(k - retry_cnt).
 *
 * No wait is shorter than the connection's own RTT bound (smoothed RTT
 * plus four deviations) once ACKs have measured it: a round trip longer
 * than the ACK timeout (a loaded host, a slow guest, a deep queue)
 * otherwise expires the timer before any ACK can come back, every time.
 * Each such expiry resent the oldest packet and blamed its EV, so the EVs
 * flapped between bad and good, the resends added to the load, and the
 * retry budget ran out on a connection that was working (RETRY_EXC_ERR at
 * the first message with a 0.5-1.4 s RTT and a 16.8 ms ACK timeout).
 * The bound is a floor under each wait, not a new base for the back-off:
 * a peer that is really gone is found after the same expiries, at most
 * one RTT bound later each.
 */
u64 mrc_tx_rto(const struct mrc_conn *c)
{
	u64 rto = mrc_ack_timeout_ns(c->cfg.ack_timeout_exp);
	u64 rtt_bound = (u64)c->tx.srtt + 4 * (u64)c->tx.rttvar;
	u32 k = c->tx.rto_k;

	if (k > c->cfg.retry_cnt) {
		k -= c->cfg.retry_cnt;
		rto <<= k > MRC_BACKOFF_INFINITE ? MRC_BACKOFF_INFINITE : k;
	}
	if (c->tx.srtt && rtt_bound > rto)
		rto = rtt_bound;
	return rto;
}

int mrc_conn_send(struct mrc_conn *c, const struct mrc_msg *m, u32 *msn,
		  u64 now)
{
	struct mrc_tx *tx = &c->tx;
	struct mrc_txmsg *tm;

	(void)now;
	if (!m || !msn)
		return -EINVAL;
	if (c->status)
		return -EPIPE;
	if (tx->msn_nxt - tx->msn_una >= MRC_MAX_MSGS)
		return -ENOSPC;
	tm = &tx->msg[tx->msn_nxt & MSG_MASK];
	tm->cookie = m->cookie;
	tm->len = m->len;
	tm->opcode = m->opcode;
	tm->ack_req = m->ack_req;
	if (mrc_op_wants_resp(m->opcode))
		tx->resp_wait++;
	*msn = tx->msn_nxt++;
	return 0;
}

/* Queue @psn for retransmission (already out of the inflight count). */
static void tx_queue_retx(struct mrc_conn *c, u32 psn, struct mrc_txpkt *p)
{
	struct mrc_tx *tx = &c->tx;
	u32 q;

	p->flags |= MRC_TXP_LOST;
	if (tx->rtx_tail - tx->rtx_head >= MRC_MAX_WINDOW) {
		/* Full of stale entries: rebuild from the window.  Each PSN
		 * in flight is queued once, so the rebuild always fits.
		 */
		tx->rtx_head = 0;
		tx->rtx_tail = 0;
		for (q = tx->snd_una; q != tx->snd_nxt; q++)
			if (txp(tx, q)->flags & MRC_TXP_LOST)
				tx->rtxq[tx->rtx_tail++ & TX_MASK] = q;
		return;
	}
	tx->rtxq[tx->rtx_tail++ & TX_MASK] = psn;
}

static void tx_uncount(struct mrc_tx *tx, const struct mrc_txpkt *p)
{
	tx->inflight = tx->inflight > p->len ? tx->inflight - p->len : 0;
}

/* EV @ev was just retired: what else is in flight on it went into the
 * same hole.  Resend it now instead of waiting for each packet's own
 * deadline (the reorder window and every later completion wait for
 * them).  Only a path that fell silent, not one that merely drops some.
 */
static void tx_presume_lost(struct mrc_conn *c, u16 ev, u32 skip,
			    u64 lost_sent, u64 now)
{
	struct mrc_tx *tx = &c->tx;
	u32 psn;

	/* Only a silent path: an ACK that echoed the EV after the lost
	 * packet left says it still delivers (a lossy path, not a dead one).
	 */
	if (c->paths.ev[ev].echo_at > lost_sent)
		return;
	for (psn = mrc_ring_next_zero(tx->sacked, tx->snd_una, tx->snd_nxt);
	     psn != tx->snd_nxt;
	     psn = mrc_ring_next_zero(tx->sacked, psn + 1, tx->snd_nxt)) {
		struct mrc_txpkt *p = txp(tx, psn);

		if (psn == skip || p->ev != ev ||
		    (p->flags & (MRC_TXP_SACKED | MRC_TXP_LOST | MRC_TXP_RNR)))
			continue;
		tx_uncount(tx, p);
		tx_queue_retx(c, psn, p);
		c->st.lost_pkts++;
		c->paths.ev[ev].cnt.lost_pkts++;
		/* Charged to the path as its own deadline would have been
		 * (the loss score); the window was cut once already.
		 */
		mrc_path_on_loss(c, ev, MRC_EVR_LOSS, now);
	}
}

static void tx_mark_lost(struct mrc_conn *c, u32 psn, struct mrc_txpkt *p,
			 u8 reason, u64 now)
{
	bool was_good;
	u64 lost_sent;

	tx_uncount(&c->tx, p);
	tx_queue_retx(c, psn, p);
	c->st.lost_pkts++;
	/* p->ev is still the EV of the transmission that got lost. */
	c->paths.ev[p->ev].cnt.lost_pkts++;
	if (p->flags & MRC_TXP_NOBLAME)
		return;
	was_good = c->paths.ev[p->ev].state == MRC_EV_GOOD;
	lost_sent = p->sent;
	mrc_path_on_loss(c, p->ev, reason, now);
	mrc_nscc_on_loss(&c->cc, now);
	if (was_good && c->paths.ev[p->ev].state != MRC_EV_GOOD)
		tx_presume_lost(c, p->ev, psn, lost_sent, now);
}

static void tx_fill(struct mrc_conn *c, u32 psn, const struct mrc_txpkt *p,
		    bool retx, u64 now, struct mrc_tx_desc *out)
{
	const struct mrc_txmsg *m = &c->tx.msg[p->msn & MSG_MASK];

	out->cookie = m->cookie;
	out->psn = psn;
	out->msn = p->msn;
	out->offset = p->offset;
	out->len = p->len;
	out->msg_len = m->len;
	out->ts = (u32)now;
	out->flags = 0;
	if (p->flags & MRC_TXP_FIRST)
		out->flags |= MRC_F_FIRST;
	if (p->flags & MRC_TXP_LAST)
		out->flags |= MRC_F_LAST;
	if (p->flags & MRC_TXP_ACKREQ)
		out->flags |= MRC_F_ACK_REQ;
	if (retx)
		out->flags |= MRC_F_RETX;
	out->ev = p->ev;
	out->plane = c->paths.ev[p->ev].plane;
	out->opcode = m->opcode;
	c->st.tx_pkts++;
	c->st.tx_bytes += p->len;
	c->paths.ev[p->ev].cnt.tx_pkts++;
	c->paths.ev[p->ev].cnt.tx_bytes += p->len;
	if (retx)
		c->paths.ev[p->ev].cnt.retx_pkts++;
	if (c->tx.rto_deadline == MRC_TIME_NEVER)
		c->tx.rto_deadline = now + mrc_tx_rto(c);
}

static bool tx_cwnd_allows(const struct mrc_conn *c, u32 len)
{
	const struct mrc_tx *tx = &c->tx;

	/* One packet may always go, or nothing would ever be acked. */
	return !tx->inflight || tx->inflight + len <= mrc_nscc_cwnd(&c->cc);
}

static bool tx_next_retx(struct mrc_conn *c, u64 now, struct mrc_tx_desc *out)
{
	struct mrc_tx *tx = &c->tx;

	while (tx->rtx_head != tx->rtx_tail) {
		u32 psn = tx->rtxq[tx->rtx_head & TX_MASK];
		struct mrc_txpkt *p = txp(tx, psn);
		int ev;

		if (!tx_in_flight(tx, psn) || !(p->flags & MRC_TXP_LOST) ||
		    (p->flags & MRC_TXP_SACKED)) {
			tx->rtx_head++;		/* stale entry */
			continue;
		}
		if (!tx_cwnd_allows(c, p->len))
			return false;
		/* Another path than the one that just lost it. */
		ev = mrc_path_pick(c, now, p->ev);
		if (ev < 0)
			return false;
		tx->rtx_head++;
		p->flags &= (u8)~(MRC_TXP_LOST | MRC_TXP_NOBLAME);
		p->sent = now;
		p->ev = (u16)ev;
		if (p->tx_count < 0xff)
			p->tx_count++;
		tx->inflight += p->len;
		c->st.retx_pkts++;
		tx_fill(c, psn, p, true, now, out);
		return true;
	}
	return false;
}

bool mrc_conn_tx_next(struct mrc_conn *c, u64 now, struct mrc_tx_desc *out)
{
	struct mrc_tx *tx = &c->tx;
	const struct mrc_txmsg *m;
	struct mrc_txpkt *p;
	u32 len;
	int ev;

	if (c->status)
		return false;
	if (tx_next_retx(c, now, out))
		return true;
	/* Retransmissions waiting for cwnd or a path go first; a queue that
	 * held only stale entries (acknowledged since) must not stop new
	 * data: nothing else would ask again with nothing in flight.
	 */
	if (tx->rtx_head != tx->rtx_tail)
		return false;
	if (tx->msn_seg == tx->msn_nxt)
		return false;
	if (tx->snd_nxt - tx->snd_una >= tx->window)
		return false;
	m = &tx->msg[tx->msn_seg & MSG_MASK];
	len = m->len - tx->seg_off;
	if (len > c->cfg.mtu)
		len = c->cfg.mtu;
	if (!tx_cwnd_allows(c, len))
		return false;
	ev = mrc_path_pick(c, now, -1);
	if (ev < 0) {
		/* No path at all: the ACK timeout bounds how long we wait. */
		if (tx->rto_deadline == MRC_TIME_NEVER)
			tx->rto_deadline = now + mrc_tx_rto(c);
		return false;
	}

	p = txp(tx, tx->snd_nxt);
	p->sent = now;
	p->msn = tx->msn_seg;
	p->offset = tx->seg_off;
	p->len = (u16)len;
	p->ev = (u16)ev;
	p->tx_count = 1;
	p->flags = tx->seg_off ? 0 : MRC_TXP_FIRST;
	tx->seg_off += len;
	if (tx->seg_off == m->len) {
		p->flags |= MRC_TXP_LAST;
		if (m->ack_req)
			p->flags |= MRC_TXP_ACKREQ;
		tx->msn_seg++;
		tx->seg_off = 0;
	}
	tx->inflight += len;
	tx_fill(c, tx->snd_nxt, p, false, now, out);
	tx->snd_nxt++;
	return true;
}

/* The receiver has @p: count it, feed RACK and the EV recycling.  The
 * receiver ACKs at once on a CE mark, so of the packets an ACK newly
 * acknowledges only its trigger (tx->ack_trig) can have been marked:
 * every other one came through its path cleanly.  A packet declared lost
 * that arrives after all took too long: its path is not reused either.
 */
static void tx_delivered(struct mrc_conn *c, u32 psn, struct mrc_txpkt *p,
			 u32 *acked, u64 now)
{
	struct mrc_tx *tx = &c->tx;

	*acked += p->len;
	if (!(tx->ack_slow && psn == tx->ack_trig) &&
	    !(p->flags & MRC_TXP_LOST))
		mrc_path_on_delivered(c, p->ev, now);
	if (p->flags & MRC_TXP_LOST)
		p->flags &= (u8)~MRC_TXP_LOST;	/* arrived after all */
	else if (!(p->flags & MRC_TXP_RNR))
		tx_uncount(tx, p);
	/* An ACK sooner than any RTT after a retransmission is for the
	 * original copy: its send time is unknown, do not let it advance
	 * RACK (it would declare innocent packets lost).
	 */
	if (p->tx_count > 1 && now - p->sent < tx->rtt_min)
		return;
	if (!tx->rack_valid || p->sent > tx->rack_xmit ||
	    (p->sent == tx->rack_xmit && mrc_psn_after(psn, tx->rack_psn))) {
		tx->rack_xmit = p->sent;
		tx->rack_psn = psn;
		tx->rack_valid = 1;
	}
}

static bool tx_advance_cum(struct mrc_conn *c, u32 cum, u32 *acked, u64 now)
{
	struct mrc_tx *tx = &c->tx;
	bool progress = false;

	if (!mrc_psn_in(cum, tx->snd_una, tx->snd_nxt + 1))
		return false;
	while (tx->snd_una != cum) {
		struct mrc_txpkt *p = txp(tx, tx->snd_una);

		if (!(p->flags & MRC_TXP_SACKED))
			tx_delivered(c, tx->snd_una, p, acked, now);
		if (p->flags & MRC_TXP_LAST) {
			const struct mrc_txmsg *m = &tx->msg[tx->msn_una &
							     MSG_MASK];

			c->st.msgs_sent++;
			if (c->ops->send_complete)
				c->ops->send_complete(c->priv, tx->msn_una,
						      m->cookie, MRC_ST_OK);
			tx->msn_una++;
		}
		p->flags = 0;
		mrc_ring_clear(tx->sacked, tx->snd_una);
		tx->snd_una++;
		progress = true;
	}
	return progress;
}

static bool tx_apply_sack(struct mrc_conn *c, const struct mrc_ack_ext *a,
			  u32 *acked, u64 now)
{
	struct mrc_tx *tx = &c->tx;
	bool progress = false;
	u32 w;

	for (w = 0; w < MRC_SACK_WORDS; w++) {
		/* Only news: drop what this sender already knows SACKed. */
		u64 bits = a->sack[w] &
			   ~mrc_ring_word(tx->sacked, (a->sack_base & TX_MASK) +
					  w * 64);

		while (bits) {
			u32 psn = a->sack_base + w * 64 + mrc_ffs64(bits);
			struct mrc_txpkt *p;

			bits &= bits - 1;
			if (!tx_in_flight(tx, psn))
				continue;
			p = txp(tx, psn);
			if (p->flags & MRC_TXP_SACKED)
				continue;
			tx_delivered(c, psn, p, acked, now);
			p->flags |= MRC_TXP_SACKED;
			mrc_ring_set(tx->sacked, psn);
			progress = true;
		}
	}
	return progress;
}

/* Was @p sent after the latest packet known delivered? */
static bool tx_sent_after_rack(const struct mrc_tx *tx, u32 psn,
			       const struct mrc_txpkt *p)
{
	return p->sent > tx->rack_xmit ||
	       (p->sent == tx->rack_xmit && !mrc_psn_before(psn, tx->rack_psn));
}

/* A connection's tail: everything it has to send is in flight, so no
 * later packet will be delivered to reveal a loss by RACK.  A packet
 * behind one delivered then waits its own path's bound: about three round
 * trips for a path with one or two samples (rttvar starts at half the
 * RTT), the ACK timeout for one never sampled.  With cfg.tail_resend it
 * is resent once it is overdue by the connection's own estimate; its path
 * is charged as for a loss, the window is not (it may only be slow).
 * Only for fabrics whose paths have about one delay: a path much slower
 * than the connection's mean would have its tail resent needlessly.
 */
static u64 tx_tail_bound(const struct mrc_conn *c)
{
	const struct mrc_tx *tx = &c->tx;

	if (!c->cfg.tail_resend || !tx->srtt || tx->msn_seg != tx->msn_nxt)
		return MRC_TIME_NEVER;
	return (u64)tx->srtt + 2 * (u64)tx->rttvar +
	       mrc_min64(tx->srtt / 4, c->cfg.reo_min);
}

static void tx_tail_resend(struct mrc_conn *c, u32 psn, struct mrc_txpkt *p,
			   u64 now)
{
	tx_uncount(&c->tx, p);
	tx_queue_retx(c, psn, p);
	c->st.lost_pkts++;
	c->paths.ev[p->ev].cnt.lost_pkts++;
	mrc_path_on_loss(c, p->ev, MRC_EVR_LOSS, now);
}

static void tx_rack_detect(struct mrc_conn *c, u64 now)
{
	struct mrc_tx *tx = &c->tx;
	u64 tail = tx_tail_bound(c);
	u32 psn;

	tx->rack_deadline = MRC_TIME_NEVER;
	if (!tx->rack_valid)
		return;
	/* Visit only packets not SACKed: a word of the ring at a time. */
	for (psn = mrc_ring_next_zero(tx->sacked, tx->snd_una, tx->snd_nxt);
	     psn != tx->snd_nxt;
	     psn = mrc_ring_next_zero(tx->sacked, psn + 1, tx->snd_nxt)) {
		struct mrc_txpkt *p = txp(tx, psn);
		u64 due;

		if (tx_sent_after_rack(tx, psn, p)) {
			/* First transmissions go out in PSN order: every
			 * later one was sent later still.
			 */
			if (p->tx_count == 1)
				break;
			/* A resend at the tail that nothing sent after it
			 * can reveal lost (its ACK's path may be the dead
			 * one: ACKs take the data's EV index, which names
			 * another path at the peer): resent again once the
			 * tail bound has passed, not after the ACK timeout.
			 */
			if (tail != MRC_TIME_NEVER &&
			    !(p->flags & (MRC_TXP_SACKED | MRC_TXP_LOST |
					  MRC_TXP_RNR))) {
				if (now >= p->sent + tail) {
					tx_tail_resend(c, psn, p, now);
					continue;
				}
				tx->rack_deadline = mrc_min64(tx->rack_deadline,
							      p->sent + tail);
			}
			continue;
		}
		if (p->flags & (MRC_TXP_SACKED | MRC_TXP_LOST | MRC_TXP_RNR))
			continue;
		due = p->sent + mrc_path_expect(c, p->ev);
		if (now >= due) {
			tx_mark_lost(c, psn, p, MRC_EVR_LOSS, now);
			continue;
		}
		if (tail != MRC_TIME_NEVER && p->sent + tail < due) {
			if (now >= p->sent + tail) {
				tx_tail_resend(c, psn, p, now);
				continue;
			}
			due = p->sent + tail;
		}
		tx->rack_deadline = mrc_min64(tx->rack_deadline, due);
	}
}

/* RTT sample from an echoed timestamp; returns false if implausible. */
static bool tx_rtt_sample(struct mrc_conn *c, u16 ev, u32 ts_echo, u32 svc,
			  u64 now)
{
	struct mrc_tx *tx = &c->tx;
	u32 rtt = (u32)now - ts_echo;
	u32 err;

	/* A peer that does not report it may leave anything there. */
	if (c->cfg.peer_no_svc_time)
		svc = 0;
	if ((s32)rtt < 0 || svc > rtt)
		return false;
	rtt -= svc;
	if (!rtt)
		rtt = 1;
	if (!tx->srtt) {
		tx->srtt = rtt;
		tx->rttvar = rtt / 2;
		tx->rtt_min = rtt;
	} else {
		err = rtt > tx->srtt ? rtt - tx->srtt : tx->srtt - rtt;
		tx->rttvar = tx->rttvar - tx->rttvar / 4 + err / 4;
		tx->srtt = tx->srtt - tx->srtt / 8 + rtt / 8;
		if (rtt < tx->rtt_min)
			tx->rtt_min = rtt;
	}
	if (rtt > tx->rtt_max)
		tx->rtt_max = rtt;
	mrc_path_on_rtt(c, ev, rtt);
	tx->qdelay = rtt > c->cfg.cc.base_rtt ? rtt - c->cfg.cc.base_rtt : 0;
	return true;
}

/* Nothing of ours in flight, yet the peer owes us responses: the ACK
 * timeout keeps running for them.  The peer ACKs a READ or ATOMIC request
 * before it answers; without this a peer that vanished in between would
 * leave the request's work request waiting forever (in IB the response is
 * the acknowledgment, so the requester's retries cover it).
 */
static bool tx_resp_only(const struct mrc_tx *tx)
{
	return tx->resp_wait && tx->snd_una == tx->snd_nxt;
}

static void tx_progress(struct mrc_conn *c, u64 now)
{
	struct mrc_tx *tx = &c->tx;

	tx->rto_k = 0;
	tx->rto_deadline = tx->snd_una == tx->snd_nxt && !tx->resp_wait ?
			   MRC_TIME_NEVER : now + mrc_tx_rto(c);
}

void mrc_tx_resp_progress(struct mrc_conn *c, u64 now)
{
	/* With packets of ours unacknowledged, their budget governs: only
	 * their ACKs are progress for them.
	 */
	if (tx_resp_only(&c->tx))
		tx_progress(c, now);
}

void mrc_tx_resp_done(struct mrc_conn *c)
{
	if (c->tx.resp_wait)
		c->tx.resp_wait--;
}

/* How far behind snd_una a cumulative PSN may lie: ACKs sprayed over
 * paths of different delays overtake each other, and an older one's
 * SACK bits are still news.  Anything further back (or beyond snd_nxt)
 * was never sent on this connection: forged or misrouted.
 */
#define TX_STALE_ACK	MRC_MAX_WINDOW

/* @psn in [snd_una - TX_STALE_ACK, snd_nxt + @incl), never before the
 * stream's start: what the peer may name, cumulatively (@incl 1) or as
 * one packet (@incl 0).
 */
static bool tx_psn_known(const struct mrc_conn *c, u32 psn, u32 incl)
{
	const struct mrc_tx *tx = &c->tx;
	u32 lo = tx->snd_una - TX_STALE_ACK;

	if (tx->snd_una - c->cfg.init_psn < TX_STALE_ACK)
		lo = c->cfg.init_psn;
	return mrc_psn_in(psn, lo, tx->snd_nxt + incl);
}

/* The SACK bitmap names only PSNs sent: its base lies in the window
 * after the cumulative PSN and its highest bit before snd_nxt.
 */
static bool tx_sack_known(const struct mrc_conn *c,
			  const struct mrc_ack_ext *a)
{
	u32 w = MRC_SACK_WORDS, top;

	if (a->sack_base - a->cum_psn >= MRC_MAX_WINDOW)
		return false;
	while (w-- > 0) {
		u64 v = a->sack[w];
		u32 b = 63;

		if (!v)
			continue;
		while (!(v >> b))
			b--;
		top = a->sack_base + w * 64 + b;
		return tx_psn_known(c, top, 0);
	}
	return true;
}

static int tx_invalid(struct mrc_conn *c)
{
	c->st.ctrl_invalid++;
	return MRC_RX_INVALID;
}

int mrc_tx_rx_ack(struct mrc_conn *c, const struct mrc_pkt *pkt, u64 now)
{
	const struct mrc_ack_ext *a = &pkt->u.ack;
	struct mrc_tx *tx = &c->tx;
	bool ecn = a->ecn & MRC_ACK_ECN_CE;
	struct mrc_ev *e;
	bool progress;
	u32 acked = 0;

	/* Acknowledges something never sent: not ours (a blind forger has
	 * to hit the window out of 2^24 starts).  A cumulative PSN a little
	 * behind snd_una is only an older ACK overtaken by a newer one; its
	 * SACK bits are still news.
	 */
	if (!tx_psn_known(c, a->cum_psn, 1) || !tx_sack_known(c, a))
		return tx_invalid(c);
	c->st.acks_rx++;
	if (a->echo_ev < c->paths.n) {
		e = &c->paths.ev[a->echo_ev];
		e->cnt.acks++;
		e->echo_at = now;
		e->cnt.ecn_marks += ecn;
		mrc_path_on_ack(c, a->echo_ev);
	}
	tx_rtt_sample(c, a->echo_ev, a->ts_echo, a->svc_time, now);
	if (ecn) {
		c->st.ecn_acks++;
		mrc_path_on_ecn(c, a->echo_ev, now);
	}
	/* The trigger's own path is not worth reusing when it marked the
	 * packet or delayed it beyond the connection's smoothed RTT: below
	 * the marking threshold, queues of several hops add up to more
	 * delay than any one of them marks for (fat tree, UDP EVs: +0.01).
	 */
	tx->ack_trig = pkt->hdr.psn;
	tx->ack_slow = ecn || (tx->srtt &&
			       tx->qdelay + c->cfg.cc.base_rtt > tx->srtt);
	progress = tx_advance_cum(c, a->cum_psn, &acked, now);
	progress |= tx_apply_sack(c, a, &acked, now);
	if (progress) {
		tx->rnr_count = 0;
		tx_progress(c, now);
	}
	mrc_nscc_on_ack(&c->cc, acked, ecn, tx->qdelay, now);
	tx_rack_detect(c, now);
	return 0;
}

int mrc_tx_rx_nack(struct mrc_conn *c, const struct mrc_pkt *pkt, u64 now)
{
	const struct mrc_nack_ext *n = &pkt->u.nack;
	struct mrc_tx *tx = &c->tx;
	struct mrc_txpkt *p;
	u32 acked = 0;
	u64 wait;

	/* Both PSNs must name what we sent: a NACK can end the connection. */
	if (!tx_psn_known(c, n->cum_psn, 1) || !tx_psn_known(c, n->psn, 0))
		return tx_invalid(c);
	c->st.nacks_rx++;
	tx->ack_slow = 0;
	if (tx_advance_cum(c, n->cum_psn, &acked, now))
		tx_progress(c, now);
	if (!tx_in_flight(tx, n->psn))
		return 0;
	p = txp(tx, n->psn);
	if (p->flags & MRC_TXP_SACKED)
		return 0;
	switch (n->reason) {
	case MRC_NACK_TRIMMED:
		/* Congestion, not a broken path: retransmit at once. */
		mrc_path_on_ecn(c, p->ev, now);
		mrc_nscc_on_loss(&c->cc, now);
		if (!(p->flags & MRC_TXP_LOST)) {
			tx_uncount(tx, p);
			tx_queue_retx(c, n->psn, p);
		}
		break;
	case MRC_NACK_OUT_OF_WINDOW:
		/* Sent too early: the loss machinery resends it later. */
		p->flags |= MRC_TXP_NOBLAME;
		break;
	case MRC_NACK_RNR:
		if (p->flags & (MRC_TXP_LOST | MRC_TXP_RNR))
			break;
		if (tx->rnr_deadline == MRC_TIME_NEVER) {
			tx->rnr_count++;
			if (c->cfg.rnr_retry != MRC_RNR_INFINITE &&
			    tx->rnr_count > c->cfg.rnr_retry) {
				mrc_conn_fail(c, MRC_ST_RNR_EXCEEDED, p->msn,
					      now);
				return 0;
			}
			wait = n->rnr_timer_us ? (u64)n->rnr_timer_us * 1000 :
			       c->cfg.rnr_timeout;
			tx->rnr_deadline = now + wait;
		}
		tx_uncount(tx, p);
		p->flags |= MRC_TXP_RNR | MRC_TXP_NOBLAME;
		break;
	case MRC_NACK_REMOTE_ACCESS_ERROR:
		mrc_conn_fail(c, MRC_ST_REMOTE_ACCESS, p->msn, now);
		break;
	default:
		mrc_conn_fail(c, MRC_ST_INVALID_REQUEST, p->msn, now);
		break;
	}
	return 0;
}

int mrc_conn_set_init_psn(struct mrc_conn *c, u32 psn)
{
	struct mrc_tx *tx = &c->tx;

	/* Nothing cut into packets yet: no PSN of the old start exists. */
	if (tx->snd_nxt != c->cfg.init_psn || tx->snd_una != tx->snd_nxt)
		return -EBUSY;
	c->cfg.init_psn = psn;
	tx->snd_una = psn;
	tx->snd_nxt = psn;
	return 0;
}

/* RNR wait over: resend every packet the receiver was not ready for. */
static void tx_rnr_expire(struct mrc_conn *c)
{
	struct mrc_tx *tx = &c->tx;
	u32 psn;

	tx->rnr_deadline = MRC_TIME_NEVER;
	for (psn = tx->snd_una; psn != tx->snd_nxt; psn++) {
		struct mrc_txpkt *p = txp(tx, psn);

		if (!(p->flags & MRC_TXP_RNR))
			continue;
		p->flags &= (u8)~MRC_TXP_RNR;
		if (!(p->flags & (MRC_TXP_SACKED | MRC_TXP_LOST)))
			tx_queue_retx(c, psn, p);
	}
}

/* Count one ACK timeout expiry without progress; fails the connection and
 * returns false once retry_cnt + backoff_cnt are used up.  Without any
 * usable path left the failure says so.
 */
static bool tx_rto_count(struct mrc_conn *c, u32 msn, u64 now)
{
	struct mrc_tx *tx = &c->tx;

	tx->rto_k++;
	c->st.timeouts++;
	if (c->cfg.backoff_cnt < MRC_BACKOFF_INFINITE &&
	    tx->rto_k > (u32)c->cfg.retry_cnt + c->cfg.backoff_cnt) {
		mrc_conn_fail(c, c->paths.n_usable ? MRC_ST_RETRY_EXCEEDED :
			      MRC_ST_NO_PATH, msn, now);
		return false;
	}
	return true;
}

static void tx_rto_expire(struct mrc_conn *c, u64 now)
{
	struct mrc_tx *tx = &c->tx;
	u32 psn, first = 0, n = 0;
	bool have = false, waiting = false;

	tx->rto_deadline = MRC_TIME_NEVER;
	if (tx->snd_una == tx->snd_nxt) {
		/* Nothing in flight: only data that no path can carry, or
		 * responses that stopped coming, keep the timer going (and
		 * eventually fail).  There is nothing to resend for those:
		 * the peer's stream retransmits its responses itself.
		 */
		if (((tx->msn_seg != tx->msn_nxt && !c->paths.n_usable) ||
		     tx->resp_wait) && tx_rto_count(c, tx->msn_una, now))
			tx->rto_deadline = now + mrc_tx_rto(c);
		return;
	}
	for (psn = tx->snd_una; psn != tx->snd_nxt; psn++) {
		u8 f = txp(tx, psn)->flags;

		if (!(f & (MRC_TXP_SACKED | MRC_TXP_LOST | MRC_TXP_RNR))) {
			first = psn;
			have = true;
			break;
		}
		waiting |= (f & (MRC_TXP_SACKED | MRC_TXP_LOST)) ==
			   MRC_TXP_LOST;
	}
	if (!have) {
		/* Everything unacked awaits a resend or the RNR timer.
		 * Resends still waiting (no path took them) count as a
		 * retry; an RNR wait does not.
		 */
		if (waiting && !tx_rto_count(c, txp(tx, tx->snd_una)->msn, now))
			return;
		tx->rto_deadline = now + mrc_tx_rto(c);
		return;
	}
	if (!tx_rto_count(c, txp(tx, first)->msn, now))
		return;
	for (psn = first; psn != tx->snd_nxt; psn++) {
		struct mrc_txpkt *p = txp(tx, psn);

		if (p->flags & (MRC_TXP_SACKED | MRC_TXP_LOST | MRC_TXP_RNR))
			continue;
		if (now >= p->sent + mrc_path_expect(c, p->ev)) {
			tx_mark_lost(c, psn, p, MRC_EVR_TIMEOUT, now);
			n++;
		}
	}
	/* Nothing overdue (its ACK may be what got lost): resend the
	 * oldest anyway so that the receiver answers again.
	 */
	if (!n)
		tx_mark_lost(c, first, txp(tx, first), MRC_EVR_TIMEOUT, now);
	tx->rto_deadline = now + mrc_tx_rto(c);
}

void mrc_tx_timer(struct mrc_conn *c, u64 now)
{
	struct mrc_tx *tx = &c->tx;

	if (now >= tx->rnr_deadline)
		tx_rnr_expire(c);
	if (now >= tx->rack_deadline)
		tx_rack_detect(c, now);
	if (now >= tx->rto_deadline)
		tx_rto_expire(c, now);
}

/* The connection's EV set is being replaced (mrc_conn_replace_evs()):
 * the EV index each packet in flight carries will name another path, or
 * none.  Every packet not yet acknowledged is presumed lost at once and
 * queued for resending on the new set (mrc_path_pick() chooses afresh):
 * an old path may be gone with the route, and waiting for each packet's
 * deadline would judge it by the RTT of an EV it never took.  Nobody is
 * blamed: no loss score, no window cut.  A copy that still arrives on the
 * old path is acknowledged as any late original; the receiver drops the
 * duplicate.  Packets waiting for the RNR timer keep waiting; they are
 * resent on the new set when it expires.  PSNs, SACK state and the
 * peer's reorder window are untouched.
 */
void mrc_tx_paths_replaced(struct mrc_conn *c)
{
	struct mrc_tx *tx = &c->tx;
	u32 psn;

	for (psn = mrc_ring_next_zero(tx->sacked, tx->snd_una, tx->snd_nxt);
	     psn != tx->snd_nxt;
	     psn = mrc_ring_next_zero(tx->sacked, psn + 1, tx->snd_nxt)) {
		struct mrc_txpkt *p = txp(tx, psn);

		if (p->flags & (MRC_TXP_SACKED | MRC_TXP_LOST | MRC_TXP_RNR))
			continue;
		tx_uncount(tx, p);
		tx_queue_retx(c, psn, p);
		p->flags |= MRC_TXP_NOBLAME;
		c->st.lost_pkts++;
	}
}

void mrc_tx_flush(struct mrc_conn *c, int status, u32 err_msn)
{
	struct mrc_tx *tx = &c->tx;

	while (tx->msn_una != tx->msn_nxt) {
		const struct mrc_txmsg *m = &tx->msg[tx->msn_una & MSG_MASK];
		int st = tx->msn_una == err_msn ? status : MRC_ST_FLUSHED;

		if (c->ops->send_complete)
			c->ops->send_complete(c->priv, tx->msn_una, m->cookie,
					      st);
		tx->msn_una++;
	}
	tx->msn_seg = tx->msn_nxt;
	tx->snd_una = tx->snd_nxt;
	tx->inflight = 0;
	tx->resp_wait = 0;
	tx->rtx_head = tx->rtx_tail;
	tx->rto_deadline = MRC_TIME_NEVER;
	tx->rack_deadline = MRC_TIME_NEVER;
	tx->rnr_deadline = MRC_TIME_NEVER;
}
