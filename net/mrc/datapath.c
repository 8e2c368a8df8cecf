// SPDX-License-Identifier: GPL-2.0-only
/*
 * The glue between a QP and its engine connection: the engine's callbacks,
 * the "kick" that runs after every input (post what the engine allows,
 * complete what is done, re-arm the timer), the QP's hrtimer, the receive
 * entry and the error transition.
 *
 * Context: the doorbell and modify_qp (process context, spin_lock_bh), the
 * UDP receive callback and the hrtimer (softirq).  Nothing here sleeps or
 * allocates except the skbs of packets to send (GFP_ATOMIC); a packet that
 * cannot be built is dropped and recovered by the engine like a loss.
 */

#include <linux/udp.h>

#include "nl_event.h"
#include "qp.h"

u64 mrc_now(void)
{
	return ktime_get_ns();
}

static void mrc_cb_emit_ctrl(void *priv, struct mrc_pkt *pkt)
{
	struct mrc_qp *qp = priv;
	struct sk_buff *skb;
	u8 *payload;

	pkt->hdr.dqpn = qp->attr.dest_qp_num;
	pkt->hdr.sqpn = mrc_qpn(qp);
	skb = mrc_net_alloc(qp, pkt, &payload);
	if (!skb)
		return;		/* counted as tx_drop */
	if (pkt->hdr.opcode == MRC_OP_NACK)
		mrc_count(qp->mdev, MRC_CNT_NACK_TX, 1);
	mrc_net_queue(qp, skb);
}

static int mrc_cb_place(void *priv, const struct mrc_pkt *pkt)
{
	struct mrc_qp *qp = priv;

	switch (pkt->hdr.opcode) {
	case MRC_OP_READ_RESP:
	case MRC_OP_ATOMIC_RESP:
		return mrc_req_place_resp(qp, pkt);
	default:
		return mrc_resp_place(qp, pkt);
	}
}

static void mrc_cb_recv_complete(void *priv, u32 msn, u32 last_psn)
{
	struct mrc_qp *qp = priv;
	const struct mrc_inmsg *im = &qp->inmsg[last_psn &
						 (MRC_MAX_WINDOW - 1)];

	if (im->opcode == MRC_OP_READ_RESP ||
	    im->opcode == MRC_OP_ATOMIC_RESP)
		mrc_req_resp_complete(qp, im);
	else
		mrc_resp_recv_complete(qp, im);
}

static void mrc_cb_send_complete(void *priv, u32 msn, u64 cookie,
				 int status)
{
	struct mrc_qp *qp = priv;

	if (cookie & MRC_COOKIE_RESP)
		mrc_resp_send_complete(qp, cookie);
	else
		mrc_req_send_complete(qp, cookie, status);
}

static void mrc_cb_event(void *priv, const struct mrc_conn_event *ev)
{
	struct mrc_qp *qp = priv;

	if (ev->type == MRC_EVT_EV_STATE) {
		/* Installing the EV set at RTR is not news: one event per
		 * EV of every new QP would drown the ones that matter.  A
		 * live QP moving to another route is (repath_event_mask).
		 */
		u32 mask = ev->reason == MRC_EVR_CONFIG ?
			   qp->repath_event_mask : mrc_qp_paths(qp)->event_mask;

		if (mask & MRC_EV_EVT_STATE(ev->new_state))
			mrc_genl_event_conn(qp, ev);
		return;
	}
	/* The engine failed the connection (retries exhausted, NACKed):
	 * the QP goes to ERR once the engine call returns.  Flushed is the
	 * echo of our own abort, not news.
	 */
	if (ev->type == MRC_EVT_CONN_FAILED && qp->state != IB_QPS_ERR)
		qp->pending_error = true;
	if (ev->type == MRC_EVT_CONN_FAILED && ev->status != MRC_ST_FLUSHED)
		mrc_genl_event_conn(qp, ev);
}

const struct mrc_conn_ops mrc_qp_conn_ops = {
	.emit_ctrl = mrc_cb_emit_ctrl,
	.place = mrc_cb_place,
	.recv_complete = mrc_cb_recv_complete,
	.send_complete = mrc_cb_send_complete,
	.event = mrc_cb_event,
};

/* End the QP for an error its affiliated event names (IBA 11.6.3.1:
 * QP_REQ_ERR for an invalid request and QP_ACCESS_ERR for an access
 * violation the responder detected; every other error, set with plain
 * pending_error, is QP_FATAL).  The first cause names the event.
 */
void mrc_qp_fail(struct mrc_qp *qp, enum ib_event_type event)
{
	lockdep_assert_held(&qp->lock);

	if (!qp->pending_error && qp->state != IB_QPS_ERR)
		qp->err_event = event;
	qp->pending_error = true;
}

/* The QP enters ERR by an error of its own: its event is due. */
static void mrc_qp_enter_err(struct mrc_qp *qp)
{
	if (qp->state != IB_QPS_ERR)
		qp->err_event_due = true;
	qp->state = IB_QPS_ERR;
}

static void mrc_qp_raise_event(struct mrc_qp *qp, enum ib_event_type event)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.event = event,
		.element.qp = &qp->ibqp,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

void mrc_qp_error(struct mrc_qp *qp)
{
	lockdep_assert_held(&qp->lock);

	qp->pending_error = false;
	if (qp->conn_ready)
		mrc_conn_abort(qp->conn, mrc_now());
	mrc_req_flush(qp);
	mrc_resp_flush_rq(qp);
	mrc_resp_release(qp);
	hrtimer_try_to_cancel(&qp->timer);
	/* IBA 11.6.3.1: a QP of an SRQ in ERR takes no more WQEs from it;
	 * the WQEs it had are flushed above.  Once per entry into ERR.
	 */
	if (qp->srq && !qp->last_wqe_done) {
		qp->last_wqe_done = true;
		qp->last_wqe_due = true;
	}
}

/* RTR answers READs and ATOMICs; requests need RTS. */
static bool mrc_qp_can_send(const struct mrc_qp *qp)
{
	return qp->state >= IB_QPS_RTR && qp->state != IB_QPS_ERR;
}

void mrc_qp_kick(struct mrc_qp *qp)
{
	mrc_qp_kick_at(qp, mrc_now());
}

void mrc_qp_kick_at(struct mrc_qp *qp, u64 now)
{
	u64 deadline;
	bool more = false;

	lockdep_assert_held(&qp->lock);

	if (qp->pending_error)
		mrc_qp_enter_err(qp);
	if (qp->state == IB_QPS_ERR) {
		mrc_qp_error(qp);
		return;
	}
	if (!qp->conn_ready)
		return;
	if (mrc_qp_can_send(qp)) {
		mrc_resp_post(qp, now);
		if (qp->state == IB_QPS_RTS)
			mrc_req_post(qp, now);
		more = mrc_req_tx(qp, now);
	}
	mrc_req_complete(qp);
	if (qp->pending_error) {
		mrc_qp_enter_err(qp);
		mrc_qp_error(qp);
		return;
	}
	if (qp->dying)
		return;
	/* Out of budget: come back at once from softirq. */
	deadline = more ? now : mrc_conn_next_deadline(qp->conn);
	/* Re-arm only to fire earlier.  Most inputs push the deadline out
	 * (every ACK moves the ACK timeout); an armed timer that fires
	 * early finds nothing due and arms itself for the real deadline,
	 * which costs one wakeup instead of a timer reprogramming per
	 * packet.  The same goes for a deadline that went away.
	 */
	if (deadline != MRC_TIME_NEVER &&
	    (!hrtimer_is_queued(&qp->timer) ||
	     ktime_to_ns(hrtimer_get_expires(&qp->timer)) > deadline))
		hrtimer_start(&qp->timer, ns_to_ktime(deadline),
			      HRTIMER_MODE_ABS_SOFT);
}

enum hrtimer_restart mrc_qp_timer_fn(struct hrtimer *t)
{
	struct mrc_qp *qp = container_of(t, struct mrc_qp, timer);
	u64 now = mrc_now();

	spin_lock_bh(&qp->lock);
	if (qp->conn_ready && !qp->dying && qp->state != IB_QPS_ERR) {
		mrc_conn_on_timer(qp->conn, now);
		mrc_qp_kick_at(qp, now);
	}
	mrc_qp_unlock_xmit(qp);
	return HRTIMER_NORESTART;
}

void mrc_qp_unlock_xmit(struct mrc_qp *qp)
	__releases(&qp->lock)
{
	enum ib_event_type event = qp->err_event;
	bool raise = qp->err_event_due && !qp->dying;
	bool last_wqe = qp->last_wqe_due && !qp->dying;
	bool srq_limit = qp->srq_limit_due && !qp->dying;
	struct sk_buff_head q;
	struct sk_buff *skb;

	qp->err_event_due = false;
	qp->last_wqe_due = false;
	qp->srq_limit_due = false;
	if (raise)
		qp->err_event = IB_EVENT_QP_FATAL;
	__skb_queue_head_init(&q);
	skb_queue_splice_init(&qp->txq, &q);
	spin_unlock_bh(&qp->lock);
	/* Outside the lock: the handler (uverbs' queues the event, in any
	 * context) must be free to call back into the device.  Before the
	 * packets: a NAK that tells the peer of this error leaves after the
	 * event is queued, so whoever learns of it from the peer finds the
	 * event already there.
	 */
	if (raise)
		mrc_qp_raise_event(qp, event);
	if (last_wqe)
		mrc_qp_raise_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
	if (srq_limit)
		mrc_srq_raise_limit(qp->srq);
	if (skb_queue_empty(&q))
		return;
	/* The route cache is per CPU; BH off also lets the receive side of
	 * a veth peer run once for the whole batch.
	 */
	local_bh_disable();
	while ((skb = __skb_dequeue(&q)))
		mrc_net_xmit(qp, skb);
	local_bh_enable();
}

/* With IRQs off no softirq runs on this CPU: the plain lock is enough
 * against the receive path and the timer.  spin_unlock_bh() there would
 * run pending softirqs inside the caller's IRQ-off section (enabling
 * IRQs while its lock is held), and sending means just that (the
 * transmit path ends with local_bh_enable()): rxe's kernel posts only
 * schedule its tasks, for the same reason.
 */
bool mrc_qp_lock_any(struct mrc_qp *qp)
	__acquires(&qp->lock)
{
	if (irqs_disabled()) {
		spin_lock(&qp->lock);
		return true;
	}
	spin_lock_bh(&qp->lock);
	return false;
}

void mrc_qp_unlock_any(struct mrc_qp *qp, bool irqs_off)
	__releases(&qp->lock)
{
	if (!irqs_off) {
		mrc_qp_unlock_xmit(qp);
		return;
	}
	/* The timer (a soft hrtimer) sends what was built and raises what
	 * is due, through mrc_qp_unlock_xmit(), as soon as softirqs run.
	 */
	if (!qp->dying &&
	    (!skb_queue_empty(&qp->txq) || qp->err_event_due ||
	     qp->last_wqe_due || qp->srq_limit_due))
		hrtimer_start(&qp->timer, ns_to_ktime(mrc_now()),
			      HRTIMER_MODE_ABS_SOFT);
	spin_unlock(&qp->lock);
}

static bool mrc_qp_can_receive(const struct mrc_qp *qp)
{
	return qp->conn_ready && qp->state != IB_QPS_ERR &&
	       qp->state >= IB_QPS_RTR;
}

void mrc_qp_rx_src(const struct mrc_qp *qp, const struct mrc_pkt *pkt,
		   struct mrc_xfer *x)
{
	lockdep_assert_held(&qp->lock);

	x->off = 0;
	if (pkt->payload || !qp->rx_skb) {
		/* No skb: a payload the engine hands over without one is a
		 * buffer (none does today); a missing one fails the copy.
		 */
		x->dir = MRC_TO_MR;
		x->buf = (u8 *)pkt->payload;
		x->skb = NULL;
		return;
	}
	x->dir = MRC_SKB_TO_MR;
	x->skb = (struct sk_buff *)qp->rx_skb;	/* only read */
	x->off = sizeof(struct udphdr) + mrc_hdr_len(pkt->hdr.opcode);
}

void mrc_qp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt, u32 flags,
	       const struct sk_buff *skb)
{
	u64 now = mrc_now();
	int r;

	spin_lock_bh(&qp->lock);
	qp->rx_skb = skb;
	if (!mrc_qp_can_receive(qp)) {
		mrc_count(qp->mdev, MRC_CNT_BAD_STATE, 1);
		goto out;
	}
	if (pkt->hdr.opcode == MRC_OP_NACK)
		mrc_count(qp->mdev, MRC_CNT_NACK_RX, 1);
	r = mrc_conn_rx(qp->conn, pkt, flags, now);
	if (r == MRC_RX_DUPLICATE)
		mrc_count(qp->mdev, MRC_CNT_DUP, 1);
	else if (r == MRC_RX_OUT_OF_WINDOW)
		mrc_count(qp->mdev, MRC_CNT_OOW, 1);
	else if (r == MRC_RX_INVALID)
		mrc_count(qp->mdev, MRC_CNT_CTRL_INVALID, 1);
	mrc_qp_kick_at(qp, now);
out:
	qp->rx_skb = NULL;
	mrc_qp_unlock_xmit(qp);
}
