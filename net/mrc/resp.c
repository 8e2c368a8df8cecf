// SPDX-License-Identifier: GPL-2.0-only
/*
 * Responder: what the peer's requests do here.
 *
 * place (any order, once per packet, from the engine's place callback)
 *   SEND/SEND_IMM  bind the receive WQE the packet's ssn names (RNR NACK
 *                  if the user has not posted it yet) and copy the payload
 *                  at its offset in the message
 *   WRITE(_IMM)    check rkey, PD, bounds and access, copy to the MR
 *                  (the rkey of an MR or of a memory window bound to
 *                  one: mrc_rkey_get(), for every packet)
 *   READ/ATOMIC    check, and remember the request for its completion
 * complete (in order, from recv_complete)
 *   receive completions; READ and ATOMIC execution (an atomic runs exactly
 *   once, here) and the response queued in our send stream.
 *
 * A remote access violation is NACKed (the requester completes with a
 * remote access error) and, as IBA class C errors require, ends this QP.
 *
 * UC (a UC responder sends no ACK and no NAK): a SEND or WRITE_WITH_IMM
 * that finds no receive WQE, and a WRITE whose rkey or access check
 * fails, is dropped silently -- acknowledged to the engine, so that the
 * requester completes it as sent and goes on, counted here -- and both
 * QPs stay where they are.  Messages take the posted WQEs in order,
 * skipping the dropped ones (qp->uc_drop).
 */

#include "qp.h"

static struct mrc_inmsg *mrc_inmsg(struct mrc_qp *qp, u32 psn)
{
	return &qp->inmsg[psn & (MRC_MAX_WINDOW - 1)];
}

static u32 mrc_rq_max_sge(const struct mrc_qp *qp)
{
	return ((1U << qp->rq.log2_elem_size) - sizeof(struct rxe_recv_wqe)) /
	       sizeof(struct rxe_sge);
}

void mrc_rwqe_fetch(struct mrc_rwqe *rw, const struct rxe_recv_wqe *u,
		    u32 max_sge, u32 ssn)
{
	u32 i, n = READ_ONCE(u->dma.num_sge);
	u64 len = 0;

	rw->wr_id = READ_ONCE(u->wr_id);
	rw->ssn = ssn;
	rw->bound = true;
	rw->status = IB_WC_SUCCESS;
	rw->num_sge = 0;
	if (n > max_sge || n > MRC_MAX_SGE) {
		rw->status = IB_WC_LOC_LEN_ERR;
		rw->length = 0;
		return;
	}
	memcpy(rw->sge, u->dma.sge, n * sizeof(struct rxe_sge));
	rw->num_sge = n;
	for (i = 0; i < n; i++)
		len += rw->sge[i].length;
	rw->length = min_t(u64, len, U32_MAX);
}

/* Copy the user's receive WQE at ring index @idx into @rw. */
static void mrc_resp_fetch_rwqe(struct mrc_qp *qp, struct mrc_rwqe *rw,
				u32 idx, u32 ssn)
{
	mrc_rwqe_fetch(rw, mrc_queue_addr(&qp->rq, idx), mrc_rq_max_sge(qp),
		       ssn);
}

/* With an SRQ: the slot of message @ssn, a WQE taken from the SRQ the
 * first time a packet of it arrives.  Messages arrive in any order, so
 * the WQEs are taken in arrival order: which receive a message lands in
 * is the SRQ's choice anyway (IBA 10.2.9).
 */
static int mrc_resp_bind_srq(struct mrc_qp *qp, u32 ssn,
			     struct mrc_rwqe **out)
{
	struct mrc_rwqe *rw;

	/* Further ahead than the slots (a peer beyond its window): come
	 * back later, as for a ring without the WQE.
	 */
	if (ssn - qp->rq_ssn >= qp->rwqe_num)
		return MRC_NACK_RNR;
	rw = &qp->rwqe[ssn & (qp->rwqe_num - 1)];
	if (!rw->bound && mrc_srq_take(qp, rw, ssn))
		return MRC_NACK_RNR;	/* SRQ empty: RNR, as rxe */
	*out = rw;
	return 0;
}

/* UC: message @ssn (less than MRC_MAX_MSGS after rq_ssn) was dropped. */
static bool mrc_uc_dropped(const struct mrc_qp *qp, u32 ssn)
{
	return qp->uc_drops && test_bit(ssn % MRC_MAX_MSGS, qp->uc_drop);
}

/* UC: the dropped messages from rq_ssn up to @ssn (excluded). */
static u32 mrc_uc_drops_before(const struct mrc_qp *qp, u32 ssn)
{
	u32 s, n = 0;

	if (!qp->uc_drops)
		return 0;
	for (s = qp->rq_ssn; s != ssn; s++)
		n += test_bit(s % MRC_MAX_MSGS, qp->uc_drop);
	return n;
}

/* UC: drop message @ssn (less than MRC_MAX_MSGS after rq_ssn, not yet
 * dropped): it takes no receive WQE, its in-order completion retires it
 * (mrc_resp_uc_retire()).  Only while no message from @ssn on holds a
 * WQE: the WQEs those took were counted with this one in front of them.
 */
static bool mrc_uc_drop(struct mrc_qp *qp, u32 ssn)
{
	if ((s32)(qp->uc_bind_next - ssn) > 0)
		return false;
	__set_bit(ssn % MRC_MAX_MSGS, qp->uc_drop);
	qp->uc_drops++;
	mrc_count(qp->mdev, MRC_CNT_UC_DROP, 1);
	return true;
}

/* UC: the WQE of message @ssn is the n-th posted one, n its distance
 * from rq_ssn less the messages dropped in between.  A message that
 * finds none is dropped (*@out NULL).  Whether it does is decided by
 * its first packet to arrive, for good: the posted count only grows,
 * so once a message has no WQE no later one has bound one, and a later
 * one that binds after the drop counts it (mrc_uc_drops_before()).
 */
static int mrc_resp_bind_uc(struct mrc_qp *qp, u32 ssn, u32 avail,
			    struct mrc_rwqe **out)
{
	u32 d = ssn - qp->rq_ssn, idx;
	struct mrc_rwqe *rw;

	*out = NULL;
	/* Beyond every message the engine can hold: a broken peer. */
	if (d >= MRC_MAX_MSGS)
		return MRC_NACK_INVALID_REQUEST;
	if (mrc_uc_dropped(qp, ssn))
		return 0;
	d -= mrc_uc_drops_before(qp, ssn);
	if (d >= avail) {
		/* Refused only if the user moved its producer index back
		 * under WQEs already bound: its own queue is broken.
		 */
		return mrc_uc_drop(qp, ssn) ? 0 : MRC_NACK_INVALID_REQUEST;
	}
	idx = (qp->rq.index + d) & qp->rq.index_mask;
	rw = &qp->rwqe[idx];
	if (!rw->bound)
		mrc_resp_fetch_rwqe(qp, rw, idx, ssn);
	else if (rw->ssn != ssn)
		return MRC_NACK_INVALID_REQUEST;
	if ((s32)(ssn + 1 - qp->uc_bind_next) > 0)
		qp->uc_bind_next = ssn + 1;
	*out = rw;
	return 0;
}

/* The receive WQE for message @ssn: the (ssn - rq_ssn)-th posted one.
 * UC: *@out is NULL when the message is dropped.
 */
static int mrc_resp_bind(struct mrc_qp *qp, u32 ssn, struct mrc_rwqe **out)
{
	u32 mask = qp->rq.index_mask, cons = qp->rq.index;
	u32 avail, d = ssn - qp->rq_ssn, idx;
	struct mrc_rwqe *rw;

	if (qp->srq)
		return mrc_resp_bind_srq(qp, ssn, out);
	avail = mrc_queue_count(&qp->rq, mrc_queue_user_producer(&qp->rq),
				cons);
	if (mrc_qp_is_uc(qp))
		return mrc_resp_bind_uc(qp, ssn, avail, out);
	/* Not posted (yet): RNR NAK, the requester tries again later.  That
	 * is also the answer for a message further ahead than the ring
	 * holds (the messages before it complete and the user posts more)
	 * and for every SEND to a QP created with max_recv_wr 0, whose
	 * ring never holds one.  rxe's responder too NAKs RNR whenever it
	 * finds no receive WQE.
	 */
	if (d >= avail)
		return MRC_NACK_RNR;
	idx = (cons + d) & mask;
	rw = &qp->rwqe[idx];
	if (!rw->bound)
		mrc_resp_fetch_rwqe(qp, rw, idx, ssn);
	*out = rw;
	return 0;
}

/* The kernel slot of the oldest receive due (message rq_ssn). */
static struct mrc_rwqe *mrc_rwqe_head(struct mrc_qp *qp)
{
	if (qp->srq)
		return &qp->rwqe[qp->rq_ssn & (qp->rwqe_num - 1)];
	return &qp->rwqe[qp->rq.index];
}

/* A class C error (IBA 9.9.3.1.3): NACK the packet, end this QP too. */
static int mrc_resp_fatal(struct mrc_qp *qp, int reason)
{
	if (reason == MRC_NACK_REMOTE_ACCESS_ERROR) {
		mrc_count(qp->mdev, MRC_CNT_BAD_RKEY, 1);
		mrc_qp_fail(qp, IB_EVENT_QP_ACCESS_ERR);
	} else {
		mrc_qp_fail(qp, IB_EVENT_QP_REQ_ERR);
	}
	return reason;
}

static bool mrc_resp_allowed(const struct mrc_qp *qp, int access)
{
	return qp->attr.qp_access_flags & access;
}

/* The last packet of a SEND or WRITE: what its in-order completion needs. */
static void mrc_resp_note_last(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			       u32 seq, u32 len, u32 imm)
{
	struct mrc_inmsg *im = mrc_inmsg(qp, pkt->hdr.psn);

	memset(im, 0, sizeof(*im));
	im->opcode = pkt->hdr.opcode;
	im->seq = seq;
	im->len = len;
	im->imm = cpu_to_be32(imm);
	im->solicited = !!(pkt->hdr.flags & MRC_F_SOLICITED);
}

/* UC: the last packet of a dropped message, for its in-order retirement. */
static void mrc_resp_note_dropped(struct mrc_qp *qp,
				  const struct mrc_pkt *pkt, u32 seq)
{
	struct mrc_inmsg *im = mrc_inmsg(qp, pkt->hdr.psn);

	if (!(pkt->hdr.flags & MRC_F_LAST))
		return;
	memset(im, 0, sizeof(*im));
	im->opcode = pkt->hdr.opcode;
	im->seq = seq;
	im->dropped = 1;
}

static int mrc_resp_place_send(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	const struct mrc_send_ext *s = &pkt->u.send;
	struct mrc_rwqe *rw;
	struct mrc_xfer x;
	int r;

	r = mrc_resp_bind(qp, s->msg.msn, &rw);
	if (r)
		return r == MRC_NACK_RNR ? r : mrc_resp_fatal(qp, r);
	if (!rw) {
		/* UC: dropped, the requester is not told. */
		mrc_resp_note_dropped(qp, pkt, s->msg.msn);
		return 0;
	}
	if (rw->status != IB_WC_SUCCESS)
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	if (s->msg.msg_len > rw->length) {
		rw->status = IB_WC_LOC_LEN_ERR;
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	}
	/* SEND_WITH_INV names a type 2 window bound to this QP (IBA
	 * 10.6.7.2.5), or it is an invalid request: checked before any
	 * byte lands, done at the in-order completion.
	 */
	if (pkt->hdr.opcode == MRC_OP_SEND_INV && (pkt->hdr.flags & MRC_F_LAST) &&
	    mrc_remote_invalidate(qp, s->imm, false)) {
		rw->status = IB_WC_REM_INV_REQ_ERR;
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	}
	/* The lkeys of an SRQ's WQE belong to the SRQ's PD (IBA 10.2.9),
	 * which need not be the QP's.
	 */
	mrc_qp_rx_src(qp, pkt, &x);
	if (mrc_sge_xfer(qp->mdev, qp->srq ? qp->srq->ibsrq.pd : &qp->pd->ibpd,
			 rw->sge, rw->num_sge, s->msg.offset, &x,
			 pkt->payload_len)) {
		rw->status = IB_WC_LOC_PROT_ERR;
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	}
	if (pkt->hdr.flags & MRC_F_LAST) {
		mrc_resp_note_last(qp, pkt, s->msg.msn, s->msg.msg_len, s->imm);
		if (pkt->hdr.opcode == MRC_OP_SEND_INV)
			mrc_inmsg(qp, pkt->hdr.psn)->rkey = s->imm;
	}
	return 0;
}

/* UC WRITE and WRITE_WITH_IMM: a packet that RC would NACK as a remote
 * access error (no REMOTE_WRITE on the QP, rkey, bounds, MR access) is
 * dropped instead: nothing of it lands, and a WRITE_WITH_IMM whose last
 * packet is refused is dropped as a message, its immediate with it (no
 * receive WQE completes).  The requester completes its WQE as sent.
 */
static int mrc_resp_place_write_uc(struct mrc_qp *qp,
				   const struct mrc_pkt *pkt)
{
	const struct mrc_write_ext *w = &pkt->u.write;
	bool last_imm = pkt->hdr.opcode == MRC_OP_WRITE_IMM &&
			(pkt->hdr.flags & MRC_F_LAST);
	u32 ssn = w->msg.msn;
	struct mrc_mr *mr = NULL;
	struct mrc_rwqe *rw;
	struct mrc_xfer x;
	bool ok;
	int r;

	ok = mrc_resp_allowed(qp, IB_ACCESS_REMOTE_WRITE);
	if (ok && pkt->payload_len) {
		mr = mrc_rkey_get(qp, w->rkey, w->va, pkt->payload_len,
				  IB_ACCESS_REMOTE_WRITE);
		ok = mr;
	}
	if (!ok)
		mrc_count(qp->mdev, MRC_CNT_BAD_RKEY, 1);
	if (last_imm) {
		/* A message that already holds its WQE (a later message
		 * took one after it) cannot be dropped: its receive
		 * completes, without the refused bytes.
		 */
		if (!ok && ssn - qp->rq_ssn < MRC_MAX_MSGS &&
		    !mrc_uc_dropped(qp, ssn) && mrc_uc_drop(qp, ssn)) {
			mrc_resp_note_dropped(qp, pkt, ssn);
			return 0;
		}
		r = mrc_resp_bind(qp, ssn, &rw);
		if (r || !rw) {
			if (mr)
				mrc_mr_put(mr);
			if (r)
				return mrc_resp_fatal(qp, r);
			mrc_resp_note_dropped(qp, pkt, ssn);
			return 0;
		}
	}
	if (mr) {
		mrc_qp_rx_src(qp, pkt, &x);
		if (mrc_mr_xfer(mr, w->va, &x, pkt->payload_len))
			mrc_count(qp->mdev, MRC_CNT_BAD_RKEY, 1);
		mrc_mr_put(mr);
	}
	if (pkt->hdr.flags & MRC_F_LAST)
		mrc_resp_note_last(qp, pkt, ssn, w->msg.msg_len, w->imm);
	return 0;
}

static int mrc_resp_place_write(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	const struct mrc_write_ext *w = &pkt->u.write;
	struct mrc_rwqe *rw;
	struct mrc_xfer x;
	struct mrc_mr *mr;
	int r;

	if (mrc_qp_is_uc(qp))
		return mrc_resp_place_write_uc(qp, pkt);
	if (!mrc_resp_allowed(qp, IB_ACCESS_REMOTE_WRITE))
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	/* WRITE_IMM needs its receive WQE: bind it before any byte lands
	 * from the last packet, so that an RNR retry repeats no side effect
	 * that matters (a re-placed payload is idempotent).
	 */
	if (pkt->hdr.opcode == MRC_OP_WRITE_IMM &&
	    (pkt->hdr.flags & MRC_F_LAST)) {
		/* max_wimm_dest bounds the WRITE_WITH_IMM an MRC QP holds
		 * placed and not yet completed: msn - rq_ssn of them come
		 * before this one.  A requester within its max_wimm credits
		 * (no larger than our max_wimm_dest) never exceeds it: a
		 * credit returns only with the cumulative ACK, which follows
		 * our in-order completion.  One beyond it breaks the
		 * protocol: NACK it, end this QP.
		 */
		if (mrc_qp_is_mrc(qp) &&
		    w->msg.msn - qp->rq_ssn >= qp->mrc.max_wimm_dest) {
			mrc_count(qp->mdev, MRC_CNT_PROTO_ERR, 1);
			return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
		}
		r = mrc_resp_bind(qp, w->msg.msn, &rw);
		/* An MRC QP has no RNR: its receives are pre-posted, the
		 * sender's credits (max_wimm) keep within them; one that
		 * finds none is an error that ends this QP.
		 */
		if (r == MRC_NACK_RNR && mrc_qp_is_mrc(qp))
			return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
		if (r)
			return r == MRC_NACK_RNR ? r : mrc_resp_fatal(qp, r);
	}
	if (pkt->payload_len) {
		mr = mrc_rkey_get(qp, w->rkey, w->va, pkt->payload_len,
				  IB_ACCESS_REMOTE_WRITE);
		if (!mr)
			return mrc_resp_fatal(qp, MRC_NACK_REMOTE_ACCESS_ERROR);
		mrc_qp_rx_src(qp, pkt, &x);
		r = mrc_mr_xfer(mr, w->va, &x, pkt->payload_len);
		mrc_mr_put(mr);
		if (r)
			return mrc_resp_fatal(qp, MRC_NACK_REMOTE_ACCESS_ERROR);
	}
	if (pkt->hdr.flags & MRC_F_LAST)
		mrc_resp_note_last(qp, pkt, w->msg.msn, w->msg.msg_len, w->imm);
	return 0;
}

/* READ_REQ and ATOMIC: check now (the NACK must name this packet), run
 * at completion time, in order.
 */
static int mrc_resp_place_rd(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	bool is_read = pkt->hdr.opcode == MRC_OP_READ_REQ;
	int access = is_read ? IB_ACCESS_REMOTE_READ :
			       IB_ACCESS_REMOTE_ATOMIC;
	struct mrc_inmsg *im = mrc_inmsg(qp, pkt->hdr.psn);
	u64 va;
	u32 rkey, len;
	struct mrc_mr *mr;

	if (!mrc_resp_allowed(qp, access))
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	if (is_read) {
		va = pkt->u.read_req.va;
		rkey = pkt->u.read_req.rkey;
		len = pkt->u.read_req.len;
		if (len > MRC_MAX_MSG_SIZE)
			return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	} else {
		va = pkt->u.atomic.va;
		rkey = pkt->u.atomic.rkey;
		len = sizeof(u64);
		if (va & (sizeof(u64) - 1))
			return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	}
	/* Responses owed must fit: ask the requester to come back later. */
	if (qp->resp_tail - qp->resp_head + qp->resp_reserved >=
	    MRC_RESP_SLOTS)
		return MRC_NACK_RNR;
	if (len) {
		mr = mrc_rkey_get(qp, rkey, va, len, access);
		if (!mr)
			return mrc_resp_fatal(qp, MRC_NACK_REMOTE_ACCESS_ERROR);
		mrc_mr_put(mr);
	}
	memset(im, 0, sizeof(*im));
	im->opcode = pkt->hdr.opcode;
	im->va = va;
	im->rkey = rkey;
	im->len = len;
	if (is_read) {
		im->seq = pkt->u.read_req.msn;
	} else {
		im->seq = pkt->u.atomic.msn;
		im->swap_add = pkt->u.atomic.swap_add;
		im->compare = pkt->u.atomic.compare;
	}
	qp->resp_reserved++;
	return 0;
}

int mrc_resp_place(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	lockdep_assert_held(&qp->lock);

	/* An MRC QP accepts RDMA WRITE and WRITE_WITH_IMM only. */
	if (mrc_qp_is_mrc(qp) && pkt->hdr.opcode != MRC_OP_WRITE &&
	    pkt->hdr.opcode != MRC_OP_WRITE_IMM)
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);

	switch (pkt->hdr.opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
		return mrc_resp_place_send(qp, pkt);
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
		return mrc_resp_place_write(qp, pkt);
	case MRC_OP_READ_REQ:
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		/* Not an operation of UC, whatever its access flags say. */
		if (mrc_qp_is_uc(qp))
			return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
		return mrc_resp_place_rd(qp, pkt);
	default:
		return mrc_resp_fatal(qp, MRC_NACK_INVALID_REQUEST);
	}
}

/* The user CQE's flag for an invalidated rkey: libibverbs' IBV_WC_WITH_INV.
 * The kernel's IB_WC_WITH_INVALIDATE (1 << 2), which 6.1's rxe writes
 * into the user CQE, reads there as IBV_WC_IP_CSUM_OK.
 */
#define MRC_UWC_WITH_INV	BIT(3)

/* UC: uc_bind_next never falls behind rq_ssn (its comparisons are
 * modulo 2^32).
 */
static void mrc_uc_bind_follow(struct mrc_qp *qp)
{
	if ((s32)(qp->uc_bind_next - qp->rq_ssn) < 0)
		qp->uc_bind_next = qp->rq_ssn;
}

/* UC: the dropped message @ssn is next in order: it takes no WQE. */
static void mrc_resp_uc_retire(struct mrc_qp *qp, u32 ssn)
{
	if (ssn != qp->rq_ssn || !mrc_uc_dropped(qp, ssn)) {
		mrc_count(qp->mdev, MRC_CNT_PROTO_ERR, 1);
		qp->pending_error = true;
		return;
	}
	__clear_bit(ssn % MRC_MAX_MSGS, qp->uc_drop);
	qp->uc_drops--;
	qp->rq_ssn++;
	mrc_uc_bind_follow(qp);
}

static void mrc_resp_post_wc(struct mrc_qp *qp, struct mrc_rwqe *rw,
			     const struct mrc_inmsg *im, u8 status)
{
	struct ib_uverbs_wc wc = {};

	wc.wr_id = rw->wr_id;
	wc.status = status;
	wc.opcode = IB_WC_RECV;
	wc.qp_num = mrc_qpn(qp);
	wc.src_qp = qp->attr.dest_qp_num;
	wc.port_num = 1;
	if (im) {
		wc.byte_len = im->len;
		if (im->opcode == MRC_OP_WRITE_IMM)
			wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
		if (im->opcode == MRC_OP_SEND_INV) {
			wc.ex.invalidate_rkey = im->rkey;
			wc.wc_flags = MRC_UWC_WITH_INV;
		} else if (im->opcode != MRC_OP_SEND) {
			wc.ex.imm_data = im->imm;
			wc.wc_flags = IB_WC_WITH_IMM;
		}
	}
	rw->bound = false;
	qp->rq_ssn++;
	mrc_uc_bind_follow(qp);
	/* The slot is free before the completion is seen, as in rxe: a
	 * program that posts one receive per completion on a queue of
	 * depth 1 (qperf's rc_lat) would otherwise find its ring full.
	 * An SRQ's WQE left its ring when it was taken.
	 */
	if (!qp->srq)
		mrc_queue_set_consumer(&qp->rq, qp->rq.index + 1);
	if (mrc_cq_post(qp->rcq, &wc, im && im->solicited))
		qp->pending_error = true;
}

/* Run a READ or ATOMIC, in order, and queue its response. */
static void mrc_resp_execute(struct mrc_qp *qp, const struct mrc_inmsg *im)
{
	struct mrc_resp *r = &qp->resp[qp->resp_tail % MRC_RESP_SLOTS];
	bool is_read = im->opcode == MRC_OP_READ_REQ;
	struct mrc_mr *mr = NULL;
	int err;

	qp->resp_reserved--;
	if (im->len) {
		/* Checked at placement; the MR may have gone since. */
		mr = mrc_rkey_get(qp, im->rkey, im->va, im->len,
				  is_read ? IB_ACCESS_REMOTE_READ :
					    IB_ACCESS_REMOTE_ATOMIC);
		if (!mr) {
			qp->pending_error = true;
			return;
		}
	}
	memset(r, 0, sizeof(*r));
	r->rsn = im->seq;
	r->va = im->va;
	if (is_read) {
		r->opcode = MRC_OP_READ_RESP;
		r->len = im->len;
		r->mr = mr;		/* held until the response is acked */
	} else {
		r->opcode = MRC_OP_ATOMIC_RESP;
		err = mrc_mr_atomic(mr, im->va,
				    im->opcode == MRC_OP_ATOMIC_CS,
				    im->compare, im->swap_add, &r->orig);
		mrc_mr_put(mr);
		if (err) {
			/* Placement checked the alignment: not reached. */
			mrc_count(qp->mdev, MRC_CNT_PROTO_ERR, 1);
			qp->pending_error = true;
			return;
		}
	}
	qp->resp_tail++;
}

void mrc_resp_recv_complete(struct mrc_qp *qp, const struct mrc_inmsg *im)
{
	struct mrc_rwqe *rw = mrc_rwqe_head(qp);

	lockdep_assert_held(&qp->lock);

	switch (im->opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_WRITE_IMM:
		if (im->dropped) {
			mrc_resp_uc_retire(qp, im->seq);
			break;
		}
		if (!rw->bound || rw->ssn != im->seq) {
			/* The peer skipped a send sequence number: its
			 * messages no longer match our receive queue.
			 */
			mrc_count(qp->mdev, MRC_CNT_PROTO_ERR, 1);
			qp->pending_error = true;
			return;
		}
		/* Checked at placement; our own invalidate or rebind may
		 * have come in between: then the receive fails.
		 */
		if (im->opcode == MRC_OP_SEND_INV &&
		    rw->status == IB_WC_SUCCESS &&
		    mrc_remote_invalidate(qp, im->rkey, true)) {
			rw->status = IB_WC_REM_INV_REQ_ERR;
			qp->pending_error = true;
		}
		mrc_resp_post_wc(qp, rw, im, rw->status);
		break;
	case MRC_OP_READ_REQ:
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		mrc_resp_execute(qp, im);
		break;
	default:
		break;		/* WRITE: nothing to complete */
	}
}

/* Give owed responses to the engine (outside its callbacks). */
void mrc_resp_post(struct mrc_qp *qp, u64 now)
{
	struct mrc_resp *r;
	struct mrc_msg m;
	u32 msn;

	lockdep_assert_held(&qp->lock);

	while (qp->resp_queued != qp->resp_tail) {
		r = &qp->resp[qp->resp_queued % MRC_RESP_SLOTS];
		m.cookie = MRC_COOKIE_RESP | qp->resp_queued;
		m.len = r->opcode == MRC_OP_READ_RESP ? r->len : 0;
		m.opcode = r->opcode;
		m.ack_req = qp->resp_queued + 1 == qp->resp_tail;
		if (mrc_conn_send(qp->conn, &m, &msn, now))
			break;
		qp->resp_queued++;
	}
}

void mrc_resp_xmit(struct mrc_qp *qp, const struct mrc_tx_desc *d,
		   struct mrc_pkt *pkt)
{
	struct mrc_resp *r = &qp->resp[(u32)d->cookie % MRC_RESP_SLOTS];
	struct sk_buff *skb;
	u8 *payload;

	lockdep_assert_held(&qp->lock);

	if (d->len && !r->mr) {
		/* The MR was deregistered under the response (detached by
		 * mrc_resp_detach_mr()): its data is gone, so this QP
		 * cannot keep its promise.  A local error of the responder:
		 * the QP ends, and the requester, who never gets the rest,
		 * fails its READ by its retry budget.
		 */
		qp->pending_error = true;
		return;
	}
	if (r->opcode == MRC_OP_READ_RESP) {
		pkt->u.send.msg.msn = r->rsn;
	} else {
		pkt->u.atomic_resp.msn = r->rsn;
		pkt->u.atomic_resp.orig = r->orig;
	}
	if (d->len >= MRC_ZC_MIN) {
		struct mrc_xfer x = { .dir = MRC_MR_TO_FRAGS };

		x.skb = mrc_net_alloc_paged(qp, pkt);
		if (!x.skb)
			return;
		if (!mrc_mr_xfer(r->mr, r->va + d->offset, &x, d->len)) {
			mrc_net_queue(qp, x.skb);
			return;
		}
		kfree_skb(x.skb);	/* out of frags: copy it */
	}
	skb = mrc_net_alloc(qp, pkt, &payload);
	if (!skb)
		return;
	if (d->len)
		mrc_mr_copy(r->mr, r->va + d->offset, payload, d->len,
			    MRC_FROM_MR);
	mrc_net_queue(qp, skb);
}

void mrc_resp_send_complete(struct mrc_qp *qp, u64 cookie)
{
	struct mrc_resp *r = &qp->resp[(u32)cookie % MRC_RESP_SLOTS];

	lockdep_assert_held(&qp->lock);

	if (r->mr)
		mrc_mr_put(r->mr);
	r->mr = NULL;
	qp->resp_head++;
}

/* QP in ERR with an SRQ: the WQEs it took complete (flushed, or with
 * the error their message hit), in message order; those still in the
 * SRQ are not the QP's and stay for the other QPs (IBA 10.2.9.5).
 */
static void mrc_resp_flush_srq(struct mrc_qp *qp)
{
	u32 i, ssn = qp->rq_ssn, mask = qp->rwqe_num - 1;
	struct mrc_rwqe *rw;

	/* Every slot: a message ahead may have taken one while an older
	 * one had not yet arrived.  mrc_resp_post_wc() counts rq_ssn on.
	 */
	for (i = 0; i < qp->rwqe_num; i++) {
		rw = &qp->rwqe[(ssn + i) & mask];
		if (rw->bound)
			mrc_resp_post_wc(qp, rw, NULL,
					 rw->status != IB_WC_SUCCESS ?
					 rw->status : IB_WC_WR_FLUSH_ERR);
	}
}

/* QP in ERR: every posted receive WQE completes (flushed, or with the
 * error its message hit).
 */
void mrc_resp_flush_rq(struct mrc_qp *qp)
{
	u32 n;
	struct mrc_rwqe *rw;
	u8 status;

	lockdep_assert_held(&qp->lock);

	if (qp->srq) {
		mrc_resp_flush_srq(qp);
		return;
	}
	n = mrc_queue_count(&qp->rq, mrc_queue_user_producer(&qp->rq),
			    qp->rq.index);
	while (n--) {
		rw = &qp->rwqe[qp->rq.index];
		status = IB_WC_WR_FLUSH_ERR;
		if (!rw->bound)
			mrc_resp_fetch_rwqe(qp, rw, qp->rq.index, qp->rq_ssn);
		else if (rw->status != IB_WC_SUCCESS)
			status = rw->status;
		mrc_resp_post_wc(qp, rw, NULL, status);
	}
}

/* ibv_dereg_mr() of @mr: no response keeps its reference any longer, so
 * that deregistration never waits for the peer's ACKs (which a peer may
 * withhold for as long as its retry budget lasts, or for ever).  A
 * response whose packets all went out once still completes when the
 * peer ACKs it; one that has to send a packet again ends the QP
 * (mrc_resp_xmit()).
 */
void mrc_resp_detach_mr(struct mrc_qp *qp, void *arg)
{
	struct mrc_mr *mr = arg;
	struct mrc_resp *r;
	u32 i;

	spin_lock_bh(&qp->lock);
	for (i = qp->resp_head; i != qp->resp_tail; i++) {
		r = &qp->resp[i % MRC_RESP_SLOTS];
		if (r->mr != mr)
			continue;
		r->mr = NULL;
		mrc_mr_put(mr);
	}
	spin_unlock_bh(&qp->lock);
}

/* Drop owed responses and the MR references they hold. */
void mrc_resp_release(struct mrc_qp *qp)
{
	struct mrc_resp *r;

	lockdep_assert_held(&qp->lock);

	while (qp->resp_head != qp->resp_tail) {
		r = &qp->resp[qp->resp_head % MRC_RESP_SLOTS];
		if (r->mr)
			mrc_mr_put(r->mr);
		r->mr = NULL;
		qp->resp_head++;
	}
	qp->resp_queued = qp->resp_tail;
	qp->resp_reserved = 0;
}
