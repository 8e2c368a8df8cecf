// SPDX-License-Identifier: GPL-2.0-only
/*
 * The peer's stream as we receive it.
 *
 * A ring of MRC_MAX_WINDOW bits remembers which PSNs of the reorder window
 * [rcv_nxt, rcv_nxt + mpr x 128) arrived.  Each new packet is placed at
 * once (the glue writes it where it belongs), so out-of-order arrival
 * costs nothing but a bit.  rcv_nxt advances over consecutive arrivals;
 * passing a packet that ended a message completes that message, which
 * gives in-order completion for free: a message completes when all its
 * packets AND all earlier messages' packets arrived.
 *
 * ACK coalescing: an ACK goes out after ack_every packets, or ack_delay
 * after the first unacknowledged one, and at once on anything the sender
 * must hear about quickly: an out-of-order arrival (gap), a filled gap, an
 * ECN mark, a duplicate, an ACK request.
 */
#include "conn.h"

void mrc_rx_init(struct mrc_conn *c)
{
	struct mrc_rx *rx = &c->rx;

	mrc_memset(rx, 0, sizeof(*rx));
	rx->rcv_nxt = c->cfg.peer_init_psn;
	rx->window = (u32)c->cfg.mpr * MRC_MPR_UNIT;
	rx->ack_deadline = MRC_TIME_NEVER;
}

static void rx_send_ack(struct mrc_conn *c, u64 now)
{
	struct mrc_rx *rx = &c->rx;
	struct mrc_ack_ext *a;
	struct mrc_pkt pkt;
	u32 base = rx->rcv_nxt, off;

	rx->pending = 0;
	rx->ack_deadline = MRC_TIME_NEVER;
	if (!mrc_ctrl_pkt_init(c, &pkt, MRC_OP_ACK, rx->trig_ev, rx->trig_psn,
			       now))
		return;
	a = &pkt.u.ack;
	a->cum_psn = rx->rcv_nxt;
	/* The bitmap starts at rcv_nxt, unless the packet that triggered
	 * this ACK lies beyond it: then end the bitmap at that packet so
	 * that the sender hears about it.
	 */
	off = rx->trig_psn - rx->rcv_nxt;
	if (off < rx->window && off >= MRC_SACK_BITS)
		base = rx->trig_psn + 1 - MRC_SACK_BITS;
	off = base - rx->rcv_nxt;
	mrc_sack_extract(rx->rcvd, base, rx->window - off, a->sack);
	a->sack_base = base;
	a->echo_ev = rx->trig_ev;
	a->echo_plane = rx->trig_plane;
	a->ecn = rx->trig_ecn ? MRC_ACK_ECN_CE : 0;
	a->ts_echo = rx->trig_ts;
	a->svc_time = (u32)(now - rx->trig_arrival);
	a->msn = rx->msn;
	c->st.acks_tx++;
	mrc_conn_emit_ctrl(c, &pkt);
}

static void rx_send_nack(struct mrc_conn *c, u32 psn, u8 reason, u64 now)
{
	struct mrc_rx *rx = &c->rx;
	struct mrc_nack_ext *n;
	struct mrc_pkt pkt;

	if (!mrc_ctrl_pkt_init(c, &pkt, MRC_OP_NACK, rx->trig_ev, psn, now))
		return;
	n = &pkt.u.nack;
	n->psn = psn;
	n->cum_psn = rx->rcv_nxt;
	n->echo_ev = rx->trig_ev;
	n->echo_plane = rx->trig_plane;
	n->reason = reason;
	n->ts_echo = rx->trig_ts;
	if (reason == MRC_NACK_RNR)
		n->rnr_timer_us = c->cfg.rnr_timeout / 1000 ?
				  c->cfg.rnr_timeout / 1000 : 1;
	c->st.nacks_tx++;
	mrc_conn_emit_ctrl(c, &pkt);
}

/* Advance rcv_nxt over consecutive arrivals; returns how far it moved. */
static u32 rx_advance(struct mrc_conn *c)
{
	struct mrc_rx *rx = &c->rx;
	u32 n = 0;

	while (n < rx->window && mrc_ring_test(rx->rcvd, rx->rcv_nxt)) {
		mrc_ring_clear(rx->rcvd, rx->rcv_nxt);
		if (mrc_ring_test(rx->last, rx->rcv_nxt)) {
			mrc_ring_clear(rx->last, rx->rcv_nxt);
			if (mrc_ring_test(rx->resp, rx->rcv_nxt)) {
				mrc_ring_clear(rx->resp, rx->rcv_nxt);
				mrc_tx_resp_done(c);
			}
			c->st.msgs_rcvd++;
			if (c->ops->recv_complete)
				c->ops->recv_complete(c->priv, rx->msn,
						      rx->rcv_nxt);
			rx->msn++;
		}
		rx->rcv_nxt++;
		n++;
	}
	return n;
}

int mrc_rx_data(struct mrc_conn *c, const struct mrc_pkt *pkt, u32 rx_flags,
		u64 now)
{
	const struct mrc_hdr *h = &pkt->hdr;
	struct mrc_rx *rx = &c->rx;
	u32 off = h->psn - rx->rcv_nxt;
	bool ecn = rx_flags & MRC_RX_ECN_CE;
	bool resp = mrc_op_is_resp(h->opcode);
	int reason;
	u32 moved;

	rx->trig_psn = h->psn;
	rx->trig_ts = h->ts;
	rx->trig_ev = h->ev;
	rx->trig_plane = h->plane;
	rx->trig_ecn = ecn;
	rx->trig_arrival = now;

	/* The peer answered before it learnt its start (mrc_conn_set_peer_
	 * alt_psn()): its stream begins where both ends agreed instead.  A
	 * packet that fits the rq_psn window keeps the stream there.
	 */
	if (rx->alt_valid && off >= rx->window &&
	    h->psn - rx->alt_psn < rx->window) {
		rx->rcv_nxt = rx->alt_psn;
		rx->alt_valid = 0;
		off = h->psn - rx->rcv_nxt;
	}
	if (mrc_psn_before(h->psn, rx->rcv_nxt) ||
	    (off < rx->window && mrc_ring_test(rx->rcvd, h->psn))) {
		/* Its ACK was lost or it was resent needlessly: re-ACK. */
		c->st.rx_dup++;
		rx_send_ack(c, now);
		return MRC_RX_DUPLICATE;
	}
	if (off >= rx->window) {
		c->st.rx_oow++;
		rx_send_nack(c, h->psn, MRC_NACK_OUT_OF_WINDOW, now);
		return MRC_RX_OUT_OF_WINDOW;
	}
	if (rx_flags & MRC_RX_TRIMMED) {
		rx_send_nack(c, h->psn, MRC_NACK_TRIMMED, now);
		return MRC_RX_NACKED;
	}
	reason = c->ops->place ? c->ops->place(c->priv, pkt) : 0;
	if (reason) {
		if (reason < MRC_NACK_OUT_OF_WINDOW || reason > MRC_NACK_RNR)
			reason = MRC_NACK_INVALID_REQUEST;
		rx_send_nack(c, h->psn, (u8)reason, now);
		return MRC_RX_NACKED;
	}
	c->st.rx_pkts++;
	rx->started = 1;
	rx->alt_valid = 0;
	mrc_ring_set(rx->rcvd, h->psn);
	if (h->flags & MRC_F_LAST) {
		mrc_ring_set(rx->last, h->psn);
		if (resp)
			mrc_ring_set(rx->resp, h->psn);
	}
	rx->pending++;
	moved = rx_advance(c);
	if (resp)
		mrc_tx_resp_progress(c, now);
	if (moved != 1 || ecn || (h->flags & MRC_F_ACK_REQ) ||
	    rx->pending >= c->cfg.ack_every)
		rx_send_ack(c, now);
	else if (rx->ack_deadline == MRC_TIME_NEVER)
		rx->ack_deadline = now + c->cfg.ack_delay;
	return MRC_RX_ACCEPTED;
}

void mrc_conn_set_peer_alt_psn(struct mrc_conn *c, u32 psn)
{
	struct mrc_rx *rx = &c->rx;

	if (rx->started || psn == rx->rcv_nxt)
		return;
	rx->alt_psn = psn;
	rx->alt_valid = 1;
}

/* The peer puts its snd_nxt in hdr.psn of PORT_STATUS and probes.  It
 * lies at most a window after our rcv_nxt (it never runs further ahead
 * of what we received), and packets it sent after the control packet
 * may have overtaken it by as much: 2 x MRC_MAX_WINDOW PSNs accepted out
 * of 2^24 possible starts.
 */
bool mrc_rx_psn_plausible(const struct mrc_conn *c, u32 psn)
{
	const struct mrc_rx *rx = &c->rx;

	if (psn - (rx->rcv_nxt - MRC_MAX_WINDOW) <= 2 * MRC_MAX_WINDOW)
		return true;
	return rx->alt_valid && psn - rx->alt_psn <= MRC_MAX_WINDOW;
}

void mrc_rx_timer(struct mrc_conn *c, u64 now)
{
	if (now >= c->rx.ack_deadline)
		rx_send_ack(c, now);
}
