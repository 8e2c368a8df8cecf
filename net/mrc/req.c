// SPDX-License-Identifier: GPL-2.0-only
/*
 * Requester: the send queue.
 *
 *   doorbell   copy new WQEs from the shared ring into qp->swqe (the user
 *              cannot change a copy), validate them
 *   post       give copies to the engine as messages, within the engine's
 *              message budget and the QP's READ/ATOMIC limit
 *   tx         pull packets from the engine, build them (payload gathered
 *              from the local SGEs at the packet's own offset)
 *   complete   completions in send-queue order once each WQE is done:
 *              SEND/WRITE when acknowledged, READ/ATOMIC when acknowledged
 *              and their response has arrived
 *
 * Sequence numbers carried in the wire's msn field (mrc.rst): SEND,
 * SEND_IMM and WRITE_IMM carry the ssn that picks the peer's receive WQE;
 * READ and ATOMIC carry the rsn that their response echoes.
 */

#include "qp.h"

static struct mrc_swqe *mrc_swqe(struct mrc_qp *qp, u32 idx)
{
	return &qp->swqe[idx & qp->sq.index_mask];
}

static u32 mrc_sq_next(const struct mrc_qp *qp, u32 idx)
{
	return (idx + 1) & qp->sq.index_mask;
}

static bool mrc_wr_is_atomic(u32 op)
{
	return op == IB_WR_ATOMIC_CMP_AND_SWP ||
	       op == IB_WR_ATOMIC_FETCH_AND_ADD;
}

static bool mrc_wr_is_read(u32 op)
{
	return op == IB_WR_RDMA_READ;
}

static bool mrc_wr_is_rd(u32 op)
{
	return mrc_wr_is_read(op) || mrc_wr_is_atomic(op);
}

/* Operations done here, on our own memory windows: no packet. */
static bool mrc_wr_is_local(u32 op)
{
	return op == IB_WR_BIND_MW || op == IB_WR_LOCAL_INV;
}

/* Operations that consume a receive WQE at the peer. */
static bool mrc_wr_has_ssn(u32 op)
{
	return op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM ||
	       op == IB_WR_SEND_WITH_INV || op == IB_WR_RDMA_WRITE_WITH_IMM;
}

static u8 mrc_wr_to_op(u32 op)
{
	switch (op) {
	case IB_WR_SEND:			return MRC_OP_SEND;
	case IB_WR_SEND_WITH_IMM:		return MRC_OP_SEND_IMM;
	case IB_WR_SEND_WITH_INV:		return MRC_OP_SEND_INV;
	case IB_WR_RDMA_WRITE:			return MRC_OP_WRITE;
	case IB_WR_RDMA_WRITE_WITH_IMM:		return MRC_OP_WRITE_IMM;
	case IB_WR_RDMA_READ:			return MRC_OP_READ_REQ;
	case IB_WR_ATOMIC_CMP_AND_SWP:		return MRC_OP_ATOMIC_CS;
	case IB_WR_ATOMIC_FETCH_AND_ADD:	return MRC_OP_ATOMIC_FA;
	default:				return 0;
	}
}

static u32 mrc_wr_to_wc(u32 op)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:		return IB_UVERBS_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:			return IB_UVERBS_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:		return IB_UVERBS_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:	return IB_UVERBS_WC_FETCH_ADD;
	case IB_WR_BIND_MW:			return IB_UVERBS_WC_BIND_MW;
	case IB_WR_LOCAL_INV:			return IB_UVERBS_WC_LOCAL_INV;
	default:				return IB_UVERBS_WC_SEND;
	}
}

int mrc_wc_status(int mrc_status)
{
	switch (mrc_status) {
	case MRC_ST_OK:			return IB_WC_SUCCESS;
	case MRC_ST_RNR_EXCEEDED:	return IB_WC_RNR_RETRY_EXC_ERR;
	case MRC_ST_REMOTE_ACCESS:	return IB_WC_REM_ACCESS_ERR;
	case MRC_ST_INVALID_REQUEST:	return IB_WC_REM_INV_REQ_ERR;
	case MRC_ST_FLUSHED:		return IB_WC_WR_FLUSH_ERR;
	default:			return IB_WC_RETRY_EXC_ERR;
	}
}

/* Every local SGE must name an MR of the QP's PD covering it, writable
 * when the operation writes into it (READ, ATOMIC).
 */
static u8 mrc_req_check_sges(struct mrc_qp *qp, const struct mrc_swqe *w)
{
	int access = mrc_wr_is_rd(w->opcode) ? IB_ACCESS_LOCAL_WRITE : 0;
	struct mrc_mr *mr;
	u32 i;
	int err;

	for (i = 0; i < w->num_sge; i++) {
		if (!w->sge[i].length)
			continue;
		mr = mrc_mr_get(qp->mdev, w->sge[i].lkey);
		if (!mr)
			return IB_WC_LOC_PROT_ERR;
		err = mrc_mr_check(mr, &qp->pd->ibpd, w->sge[i].addr,
				   w->sge[i].length, access);
		mrc_mr_put(mr);
		if (err)
			return IB_WC_LOC_PROT_ERR;
	}
	return IB_WC_SUCCESS;
}

/* The remote side of @w as the wire format (mrc.rst) can carry it: what
 * the packet checker refuses completes here, without a packet, with the
 * status an IB responder's NAK would give, so that the encoder never
 * sees a field it must refuse.
 *  - a misaligned atomic: the responder's Invalid Request NAK (IBA 9.4.5);
 *  - a WRITE or READ range that wraps past 2^64: no MR covers it, which
 *    the responder reports as a Remote Access Error (IBA 9.7.5.2.4, the
 *    same as any range beyond the end of the MR).
 */
static u8 mrc_req_check_remote(const struct mrc_swqe *w)
{
	if (mrc_wr_is_atomic(w->opcode))
		return w->remote_addr & (sizeof(u64) - 1) ?
		       IB_WC_REM_INV_REQ_ERR : IB_WC_SUCCESS;
	if (w->opcode == IB_WR_SEND || w->opcode == IB_WR_SEND_WITH_IMM ||
	    w->opcode == IB_WR_SEND_WITH_INV)
		return IB_WC_SUCCESS;	/* no remote address */
	/* The same test as the packet checker's: va + len must not wrap. */
	if (w->remote_addr + w->length < w->remote_addr)
		return IB_WC_REM_ACCESS_ERR;
	return IB_WC_SUCCESS;
}

/* The gather list or the inline data of @u: sets @w's length, or the
 * local length error its sizes deserve.
 */
u8 mrc_req_fetch_data(struct mrc_qp *qp, struct mrc_swqe *w,
		      const struct rxe_send_wqe *u)
{
	u64 len = 0;
	u32 i, n;

	if (w->send_flags & IB_SEND_INLINE) {
		/* READ and ATOMIC write into local memory: no inline. */
		if (mrc_wr_is_rd(w->opcode))
			return IB_WC_LOC_QP_OP_ERR;
		len = READ_ONCE(u->dma.length);
		/* max_inline is what the slot holds (mrc_qp_alloc()). */
		if (len > qp->max_inline)
			return IB_WC_LOC_LEN_ERR;
		memcpy(w->inline_data, u->dma.inline_data, len);
	} else {
		n = READ_ONCE(u->dma.num_sge);
		if (n > qp->max_sge)
			return IB_WC_LOC_LEN_ERR;
		memcpy(w->sge, u->dma.sge, n * sizeof(struct rxe_sge));
		w->num_sge = n;
		/* At most MRC_MAX_SGE u32 lengths: no u64 overflow. */
		for (i = 0; i < n; i++)
			len += w->sge[i].length;
	}
	if (len > MRC_MAX_MSG_SIZE)
		return IB_WC_LOC_LEN_ERR;
	if (mrc_wr_is_atomic(w->opcode)) {
		if (len < sizeof(u64))
			return IB_WC_LOC_LEN_ERR;
		len = sizeof(u64);
	}
	w->length = len;
	return IB_WC_SUCCESS;
}

/* BIND_MW or LOCAL_INV: done at once, in send-queue order with the
 * other WQEs as they are fetched (rxe's requester too does them when it
 * reaches them, without waiting for the WQEs before to complete).
 * Nothing of it reaches the engine: the WQE is DONE with its status.
 */
static u8 mrc_req_local(struct mrc_qp *qp, struct mrc_swqe *w,
			const struct rxe_send_wqe *u)
{
	/* A WQE after a failed one is flushed, not executed. */
	if (qp->pending_error)
		return IB_WC_WR_FLUSH_ERR;
	if (w->opcode == IB_WR_LOCAL_INV)
		return mrc_local_invalidate(qp,
					    READ_ONCE(u->wr.ex.invalidate_rkey));
	return mrc_mw_bind(qp, READ_ONCE(u->wr.wr.mw.mw_rkey),
			   READ_ONCE(u->wr.wr.mw.rkey),
			   READ_ONCE(u->wr.wr.mw.mr_lkey),
			   READ_ONCE(u->wr.wr.mw.addr),
			   READ_ONCE(u->wr.wr.mw.length),
			   READ_ONCE(u->wr.wr.mw.access));
}

/* Copy the ring's WQE @u into @w; the completion status it deserves.
 * Everything the engine, the encoder and the data path rely on is
 * checked here, once, on the copy: a bad WQE completes at once with its
 * status and ends the QP like any error completion (IBA 10.7.3.1).
 */
static u8 mrc_req_fetch_one(struct mrc_qp *qp, struct mrc_swqe *w,
			    const struct rxe_send_wqe *u)
{
	u8 st;

	memset(w, 0, offsetof(struct mrc_swqe, sge));
	w->wr_id = READ_ONCE(u->wr.wr_id);
	w->opcode = READ_ONCE(u->wr.opcode);
	w->send_flags = READ_ONCE(u->wr.send_flags);
	w->state = MRC_SWQE_FETCHED;
	if (qp->state == IB_QPS_ERR)
		return IB_WC_WR_FLUSH_ERR;
	/* An MRC QP carries RDMA WRITE and WRITE_WITH_IMM only. */
	if (mrc_qp_is_mrc(qp) && w->opcode != IB_WR_RDMA_WRITE &&
	    w->opcode != IB_WR_RDMA_WRITE_WITH_IMM)
		return IB_WC_LOC_QP_OP_ERR;
	if (mrc_wr_is_local(w->opcode)) {
		st = mrc_req_local(qp, w, u);
		if (st == IB_WC_SUCCESS)
			w->state = MRC_SWQE_DONE;
		return st;
	}
	/* Every operation mrc_wr_to_op() knows is one an RC QP may post;
	 * the rest (UD's, LSO, ...) is not an operation of this QP.  UC
	 * has no READ and no ATOMIC: refused as rxe refuses them, a
	 * local QP operation error.
	 */
	if (!mrc_wr_to_op(w->opcode) ||
	    (mrc_qp_is_uc(qp) && mrc_wr_is_rd(w->opcode)))
		return IB_WC_LOC_QP_OP_ERR;
	w->imm = READ_ONCE(u->wr.ex.imm_data);
	w->inv_rkey = READ_ONCE(u->wr.ex.invalidate_rkey);
	if (mrc_wr_is_atomic(w->opcode)) {
		w->remote_addr = READ_ONCE(u->wr.wr.atomic.remote_addr);
		w->rkey = READ_ONCE(u->wr.wr.atomic.rkey);
		w->compare_add = READ_ONCE(u->wr.wr.atomic.compare_add);
		w->swap = READ_ONCE(u->wr.wr.atomic.swap);
	} else {
		w->remote_addr = READ_ONCE(u->wr.wr.rdma.remote_addr);
		w->rkey = READ_ONCE(u->wr.wr.rdma.rkey);
	}
	st = mrc_req_fetch_data(qp, w, u);
	if (st == IB_WC_SUCCESS)
		st = mrc_req_check_remote(w);
	if (st == IB_WC_SUCCESS)
		st = mrc_req_check_sges(qp, w);
	return st;
}

void mrc_req_doorbell(struct mrc_qp *qp)
{
	u32 cons = qp->sq.index, mask = qp->sq.index_mask;
	u32 prod = mrc_queue_user_producer(&qp->sq);
	u32 avail = (prod - cons) & mask;
	struct mrc_swqe *w;
	u8 st;

	lockdep_assert_held(&qp->lock);

	if (mrc_qp_is_ud(qp)) {
		mrc_ud_doorbell(qp);
		return;
	}
	/* A producer index moved backwards (a broken or hostile user) must
	 * not make us overwrite copies still in use.
	 */
	while (((qp->sq_fetch - cons) & mask) < avail) {
		w = mrc_swqe(qp, qp->sq_fetch);
		st = mrc_req_fetch_one(qp, w, mrc_queue_addr(&qp->sq,
							     qp->sq_fetch));
		if (st != IB_WC_SUCCESS) {
			w->state = MRC_SWQE_DONE;
			w->status = st;
			if (st != IB_WC_WR_FLUSH_ERR)
				qp->pending_error = true;
		}
		qp->sq_fetch = mrc_sq_next(qp, qp->sq_fetch);
	}
}

void mrc_req_post(struct mrc_qp *qp, u64 now)
{
	u32 rd_max = max_t(u32, qp->attr.max_rd_atomic, 1);
	struct mrc_swqe *w;
	struct mrc_msg m;
	u32 msn;

	lockdep_assert_held(&qp->lock);

	while (qp->sq_post != qp->sq_fetch && qp->req_msgs < MRC_REQ_MSGS) {
		w = mrc_swqe(qp, qp->sq_post);
		/* A local operation done at fetch: nothing to send. */
		if (w->state == MRC_SWQE_DONE && w->status == IB_WC_SUCCESS &&
		    mrc_wr_is_local(w->opcode)) {
			qp->sq_post = mrc_sq_next(qp, qp->sq_post);
			continue;
		}
		if (w->state != MRC_SWQE_FETCHED)
			break;		/* failed at fetch: the QP errors */
		if (mrc_wr_is_rd(w->opcode) &&
		    qp->rsn_next - qp->rsn_done >= rd_max)
			break;
		/* Fence: wait for every earlier READ/ATOMIC to finish. */
		if ((w->send_flags & IB_SEND_FENCE) &&
		    qp->rsn_next != qp->rsn_done)
			break;
		/* WIMM credits: an MRC QP keeps at most max_wimm of them
		 * unacknowledged; the next waits here, in order.
		 */
		if (w->opcode == IB_WR_RDMA_WRITE_WITH_IMM &&
		    mrc_qp_is_mrc(qp) &&
		    qp->wimm_inflight >= qp->mrc.max_wimm)
			break;
		m.cookie = qp->sq_post;
		m.len = mrc_wr_is_rd(w->opcode) ? 0 : w->length;
		m.opcode = mrc_wr_to_op(w->opcode);
		/* The last WQE of a burst asks for an immediate ACK. */
		m.ack_req = mrc_sq_next(qp, qp->sq_post) == qp->sq_fetch;
		if (mrc_conn_send(qp->conn, &m, &msn, now))
			break;
		if (mrc_wr_has_ssn(w->opcode))
			w->seq = qp->ssn_next++;
		if (mrc_wr_is_rd(w->opcode)) {
			w->seq = qp->rsn_next;
			qp->rd_slot[qp->rsn_next % MRC_MAX_RD_ATOMIC] =
				qp->sq_post;
			qp->rsn_next++;
		}
		if (w->opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
			qp->wimm_inflight++;
			qp->wimm_inflight_max = max(qp->wimm_inflight_max,
						    qp->wimm_inflight);
		}
		w->state = MRC_SWQE_POSTED;
		qp->req_msgs++;
		qp->sq_post = mrc_sq_next(qp, qp->sq_post);
	}
}

/* The opcode's own fields of a request packet. */
static void mrc_req_fill(const struct mrc_swqe *w,
			 const struct mrc_tx_desc *d, struct mrc_pkt *pkt)
{
	u32 imm = be32_to_cpu(w->imm);

	switch (d->opcode) {
	case MRC_OP_SEND_INV:
		pkt->u.send.imm = w->inv_rkey;
		goto send;
	case MRC_OP_SEND_IMM:
		pkt->u.send.imm = imm;
		fallthrough;
	case MRC_OP_SEND:
send:
		pkt->u.send.msg.msn = w->seq;
		if ((w->send_flags & IB_SEND_SOLICITED) &&
		    (d->flags & MRC_F_LAST))
			pkt->hdr.flags |= MRC_F_SOLICITED;
		break;
	case MRC_OP_WRITE_IMM:
		pkt->u.write.imm = imm;
		pkt->u.write.msg.msn = w->seq;
		fallthrough;
	case MRC_OP_WRITE:
		pkt->u.write.va = w->remote_addr + d->offset;
		pkt->u.write.rkey = w->rkey;
		break;
	case MRC_OP_READ_REQ:
		pkt->u.read_req.va = w->remote_addr;
		pkt->u.read_req.rkey = w->rkey;
		pkt->u.read_req.len = w->length;
		pkt->u.read_req.msn = w->seq;
		break;
	case MRC_OP_ATOMIC_CS:
		pkt->u.atomic.compare = w->compare_add;
		pkt->u.atomic.swap_add = w->swap;
		goto atomic;
	case MRC_OP_ATOMIC_FA:
		pkt->u.atomic.swap_add = w->compare_add;
atomic:
		pkt->u.atomic.va = w->remote_addr;
		pkt->u.atomic.rkey = w->rkey;
		pkt->u.atomic.msn = w->seq;
		break;
	}
}

static void mrc_req_xmit(struct mrc_qp *qp, const struct mrc_tx_desc *d,
			 struct mrc_pkt *pkt)
{
	struct mrc_swqe *w = mrc_swqe(qp, (u32)d->cookie);
	struct sk_buff *skb;
	u8 *payload;
	int err = 0;

	mrc_req_fill(w, d, pkt);
	if (d->len >= MRC_ZC_MIN && !(w->send_flags & IB_SEND_INLINE)) {
		struct mrc_xfer x = { .dir = MRC_MR_TO_FRAGS };

		x.skb = mrc_net_alloc_paged(qp, pkt);
		if (!x.skb)
			return;		/* recovered like a loss */
		err = mrc_sge_xfer(qp->mdev, &qp->pd->ibpd, w->sge,
				   w->num_sge, d->offset, &x, d->len);
		if (!err) {
			mrc_net_queue(qp, x.skb);
			return;
		}
		kfree_skb(x.skb);
		if (err != -EMSGSIZE)
			goto prot_err;
		/* More pieces than frags (many small SGEs): copy. */
		err = 0;
	}
	skb = mrc_net_alloc(qp, pkt, &payload);
	if (!skb)
		return;		/* recovered like a loss */
	if (d->len && (w->send_flags & IB_SEND_INLINE))
		memcpy(payload, w->inline_data + d->offset, d->len);
	else if (d->len)
		err = mrc_sge_copy(qp->mdev, &qp->pd->ibpd, w->sge,
				   w->num_sge, d->offset, payload, d->len,
				   MRC_FROM_MR);
	if (err) {
		kfree_skb(skb);
prot_err:
		/* The MR went away under the WQE: a local protection error
		 * that ends the QP (IBA 10.7.3.1).
		 */
		if (w->status == IB_WC_SUCCESS)
			w->status = IB_WC_LOC_PROT_ERR;
		qp->pending_error = true;
		return;
	}
	mrc_net_queue(qp, skb);
}

bool mrc_req_tx(struct mrc_qp *qp, u64 now)
{
	struct mrc_tx_desc d;
	struct mrc_pkt pkt;
	int n;

	lockdep_assert_held(&qp->lock);

	for (n = 0; n < MRC_TX_BUDGET; n++) {
		if (qp->pending_error || !mrc_conn_tx_next(qp->conn, now, &d))
			return false;
		mrc_tx_desc_to_pkt(&d, &pkt);
		pkt.hdr.dqpn = qp->attr.dest_qp_num;
		pkt.hdr.sqpn = mrc_qpn(qp);
		if (d.flags & MRC_F_RETX)
			mrc_count(qp->mdev, MRC_CNT_RETX, 1);
		if (d.cookie & MRC_COOKIE_RESP)
			mrc_resp_xmit(qp, &d, &pkt);
		else
			mrc_req_xmit(qp, &d, &pkt);
	}
	return true;
}

void mrc_req_send_complete(struct mrc_qp *qp, u64 cookie, int status)
{
	struct mrc_swqe *w = mrc_swqe(qp, (u32)cookie);

	lockdep_assert_held(&qp->lock);

	qp->req_msgs--;
	if (w->opcode == IB_WR_RDMA_WRITE_WITH_IMM && qp->wimm_inflight)
		qp->wimm_inflight--;
	if (status != MRC_ST_OK) {
		if (w->status == IB_WC_SUCCESS)
			w->status = mrc_wc_status(status);
		w->state = MRC_SWQE_DONE;
		return;
	}
	w->acked = true;
	if (!mrc_wr_is_rd(w->opcode) || w->resp_done)
		w->state = MRC_SWQE_DONE;
}

/* The outstanding READ (@is_read) or atomic whose response rsn @rsn
 * names, or NULL.  Exactly one WQE can match: rsn_done..rsn_next - 1 are
 * the READs and atomics given to the engine whose response has not
 * completed, each in its own rd_slot (at most MRC_MAX_RD_ATOMIC of them).
 * A WQE whose response completed matches nothing more, and a second LAST
 * packet for one rsn is refused: it would complete the request twice.
 * (Other packets of a response may follow its LAST: loss and spraying.)
 */
static struct mrc_swqe *mrc_req_resp_wqe(struct mrc_qp *qp, u32 rsn,
					 bool is_read, bool last)
{
	struct mrc_swqe *w;

	lockdep_assert_held(&qp->lock);
	if (rsn - qp->rsn_done >= qp->rsn_next - qp->rsn_done)
		return NULL;
	w = mrc_swqe(qp, qp->rd_slot[rsn % MRC_MAX_RD_ATOMIC]);
	if (w->state != MRC_SWQE_POSTED || w->seq != rsn ||
	    w->resp_done || (last && w->resp_last))
		return NULL;
	if (is_read ? !mrc_wr_is_read(w->opcode) :
		      !mrc_wr_is_atomic(w->opcode))
		return NULL;
	return w;
}

/* A READ_RESP or ATOMIC_RESP packet: find its WQE by rsn and place it.
 * One that matches no outstanding request of its opcode, or not the
 * READ's length, is counted and refused (NACKed, so not received: it
 * places nothing and completes nothing).
 */
int mrc_req_place_resp(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	bool is_read = pkt->hdr.opcode == MRC_OP_READ_RESP;
	u32 rsn = is_read ? pkt->u.send.msg.msn : pkt->u.atomic_resp.msn;
	struct mrc_inmsg *im;
	struct mrc_swqe *w;
	u64 orig;
	int err;

	lockdep_assert_held(&qp->lock);

	w = mrc_req_resp_wqe(qp, rsn, is_read, pkt->hdr.flags & MRC_F_LAST);
	if (!w)
		goto bad;
	if (is_read) {
		const struct mrc_msg_ext *m = &pkt->u.send.msg;

		if (m->msg_len != w->length ||
		    (u64)m->offset + pkt->payload_len > w->length)
			goto bad;
		struct mrc_xfer x;

		mrc_qp_rx_src(qp, pkt, &x);
		err = mrc_sge_xfer(qp->mdev, &qp->pd->ibpd, w->sge,
				   w->num_sge, m->offset, &x,
				   pkt->payload_len);
	} else {
		orig = pkt->u.atomic_resp.orig;
		w->atomic_orig = orig;
		err = mrc_sge_copy(qp->mdev, &qp->pd->ibpd, w->sge,
				   w->num_sge, 0, &orig, sizeof(orig),
				   MRC_TO_MR);
	}
	if (err && w->status == IB_WC_SUCCESS)
		w->status = IB_WC_LOC_PROT_ERR;
	if (pkt->hdr.flags & MRC_F_LAST) {
		w->resp_last = true;
		im = &qp->inmsg[pkt->hdr.psn & (MRC_MAX_WINDOW - 1)];
		memset(im, 0, sizeof(*im));
		im->opcode = pkt->hdr.opcode;
		im->seq = rsn;
	}
	return 0;
bad:
	mrc_count(qp->mdev, MRC_CNT_BAD_RESP, 1);
	return MRC_NACK_INVALID_REQUEST;
}

/* The response whose LAST packet place() accepted is complete (once per
 * rsn, see mrc_req_resp_wqe()).  Responses complete in the peer's PSN
 * order, which a peer may not have kept in rsn order: rsn_done moves over
 * every leading rsn whose response is complete, never past rsn_next.
 */
void mrc_req_resp_complete(struct mrc_qp *qp, const struct mrc_inmsg *im)
{
	struct mrc_swqe *w = mrc_swqe(qp, qp->rd_slot[im->seq %
						      MRC_MAX_RD_ATOMIC]);

	lockdep_assert_held(&qp->lock);
	w->resp_done = true;
	if (w->acked)
		w->state = MRC_SWQE_DONE;
	if (w->status != IB_WC_SUCCESS)
		qp->pending_error = true;
	while (qp->rsn_done != qp->rsn_next) {
		w = mrc_swqe(qp, qp->rd_slot[qp->rsn_done % MRC_MAX_RD_ATOMIC]);
		if (!w->resp_done)
			break;
		qp->rsn_done++;
	}
}

/* Completions in send-queue order. */
void mrc_req_complete(struct mrc_qp *qp)
{
	struct ib_uverbs_wc wc;
	struct mrc_swqe *w;
	bool post;
	u32 idx;

	lockdep_assert_held(&qp->lock);

	while (qp->sq.index != qp->sq_fetch) {
		idx = qp->sq.index;
		w = mrc_swqe(qp, idx);
		if (w->state != MRC_SWQE_DONE)
			break;
		post = qp->sq_sig_all || (w->send_flags & IB_SEND_SIGNALED) ||
		       w->status != IB_WC_SUCCESS;
		if (post) {
			memset(&wc, 0, sizeof(wc));
			wc.wr_id = w->wr_id;
			wc.status = w->status;
			wc.opcode = mrc_wr_to_wc(w->opcode);
			wc.byte_len = w->length;
			wc.qp_num = mrc_qpn(qp);
		}
		if (w->status != IB_WC_SUCCESS)
			qp->pending_error = true;
		if (qp->sq_post == idx)
			qp->sq_post = mrc_sq_next(qp, idx);
		/* The slot is free before its completion is seen (as in
		 * rxe): a program may post the next WR on seeing it.
		 */
		mrc_queue_set_consumer(&qp->sq, mrc_sq_next(qp, idx));
		if (post && mrc_cq_post(qp->scq, &wc, false))
			qp->pending_error = true;
	}
}

/* QP in ERR: everything outstanding, and whatever the user still posts,
 * completes with its error or as flushed.
 */
void mrc_req_flush(struct mrc_qp *qp)
{
	struct mrc_swqe *w;
	u32 idx;

	lockdep_assert_held(&qp->lock);

	mrc_req_doorbell(qp);
	for (idx = qp->sq.index; idx != qp->sq_fetch;
	     idx = mrc_sq_next(qp, idx)) {
		w = mrc_swqe(qp, idx);
		if (w->status == IB_WC_SUCCESS && w->state != MRC_SWQE_DONE)
			w->status = IB_WC_WR_FLUSH_ERR;
		w->state = MRC_SWQE_DONE;
	}
	qp->sq_post = qp->sq_fetch;
	qp->req_msgs = 0;
	qp->wimm_inflight = 0;
	qp->rsn_done = qp->rsn_next;
	mrc_req_complete(qp);
}
