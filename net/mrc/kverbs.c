// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel consumers: the IB core's MAD layer (QP1, the GSI QP that carries
 * the CM's datagrams) and any kernel ULP.  Their QPs and CQs have the
 * rings of user ones (queue.c), never mapped: post_send and post_recv
 * write the work requests into the rings in the rxe layout, as the rxe
 * provider does for a program, and ring the same doorbell; poll_cq reads
 * the completions the data path produced.  So a kernel work request takes
 * exactly the path of a user one, and is checked the same way by the
 * doorbell (a bad one completes with its error status).  What post time
 * refuses (-EINVAL, -ENOMEM with *bad_wr) is only what cannot be written
 * into a ring slot: too many SGEs, inline data larger than the slot, a
 * full ring, an address handle of another device.
 *
 * Scatter lists name memory by the PD's local_dma_lkey (the DMA MR of
 * mr.c) with kernel virtual addresses: the core does no DMA mapping for
 * a device without a DMA device.
 *
 * Context: post_send / post_recv from any context but hard IRQ (they take
 * qp->lock with BHs off, as the doorbell); poll_cq from any context (the
 * CQ lock is irqsave).  Nothing here sleeps.
 */

#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "qp.h"

/* The ring's completion flags are the user ABI's (ib_uverbs_wc_flags),
 * whose bits 2 and 3 are swapped against the kernel's ib_wc_flags.
 */
#define MRC_UWC_IP_CSUM_OK	BIT(2)
#define MRC_UWC_WITH_INV	BIT(3)

static int mrc_kcq_flags(u32 uflags)
{
	int f = uflags & (IB_WC_GRH | IB_WC_WITH_IMM);

	if (uflags & MRC_UWC_IP_CSUM_OK)
		f |= IB_WC_IP_CSUM_OK;
	if (uflags & MRC_UWC_WITH_INV)
		f |= IB_WC_WITH_INVALIDATE;
	return f;
}

/* The SGEs a receive ring slot of @q holds. */
static u32 mrc_kq_rq_max_sge(const struct mrc_queue *q)
{
	u32 n = ((1U << q->log2_elem_size) - sizeof(struct rxe_recv_wqe)) /
		sizeof(struct rxe_sge);

	return min_t(u32, n, MRC_MAX_SGE);
}

/* The kernel's producer index of a ring it fills (never user memory). */
static u32 mrc_kq_producer(const struct mrc_queue *q)
{
	return READ_ONCE(q->buf->producer_index) & q->index_mask;
}

static bool mrc_kq_full(const struct mrc_queue *q, u32 prod)
{
	u32 cons;

	/* Acquire: the consumer (mrc_queue_set_consumer()) has finished
	 * with the slots it freed before we overwrite them.
	 */
	cons = smp_load_acquire(&q->buf->consumer_index);
	return ((prod + 1) & q->index_mask) == (cons & q->index_mask);
}

static void mrc_kq_publish(struct mrc_queue *q, u32 prod)
{
	/* Release: the slots before @prod are written before the consumer
	 * (mrc_queue_user_producer()) sees the index.
	 */
	smp_store_release(&q->buf->producer_index, prod & q->index_mask);
}

static void mrc_kq_sges(struct rxe_dma_info *dma, const struct ib_sge *sg,
			int num_sge)
{
	u32 len = 0;
	int i;

	for (i = 0; i < num_sge; i++) {
		dma->sge[i].addr = sg[i].addr;
		dma->sge[i].length = sg[i].length;
		dma->sge[i].lkey = sg[i].lkey;
		len += sg[i].length;
	}
	dma->num_sge = num_sge;
	dma->length = len;
	dma->resid = len;
}

/* Inline data: the bytes themselves, from kernel virtual addresses. */
static int mrc_kq_inline(const struct mrc_qp *qp, struct rxe_dma_info *dma,
			 const struct ib_sge *sg, int num_sge)
{
	u64 len = 0;
	int i;

	for (i = 0; i < num_sge; i++)
		len += sg[i].length;
	if (len > qp->max_inline)
		return -EINVAL;
	len = 0;
	for (i = 0; i < num_sge; i++) {
		memcpy(dma->inline_data + len, (void *)(uintptr_t)sg[i].addr,
		       sg[i].length);
		len += sg[i].length;
	}
	dma->length = len;
	dma->resid = len;
	return 0;
}

/* Write @wr into the ring slot @u as the rxe provider would.  Opcodes
 * are written as they are: the doorbell refuses the ones it does not
 * execute (a completion with IB_WC_LOC_QP_OP_ERR).
 */
static int mrc_kq_send_wqe(struct mrc_qp *qp, struct rxe_send_wqe *u,
			   const struct ib_send_wr *wr)
{
	struct rxe_send_wr *s = &u->wr;
	struct mrc_ah *ah;

	if (wr->num_sge < 0 || wr->num_sge > MRC_MAX_SGE)
		return -EINVAL;
	if (!(wr->send_flags & IB_SEND_INLINE) &&
	    (u32)wr->num_sge > qp->max_sge)
		return -EINVAL;
	memset(u, 0, sizeof(*u));
	s->wr_id = wr->wr_id;
	s->opcode = wr->opcode;
	s->send_flags = wr->send_flags;
	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		s->ex.imm_data = wr->ex.imm_data;
		break;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
		s->ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	default:
		break;
	}
	if (mrc_qp_is_ud(qp)) {
		if (!ud_wr(wr)->ah || ud_wr(wr)->ah->device != qp->ibqp.device)
			return -EINVAL;
		ah = container_of(ud_wr(wr)->ah, struct mrc_ah, ibah);
		s->wr.ud.remote_qpn = ud_wr(wr)->remote_qpn;
		s->wr.ud.remote_qkey = ud_wr(wr)->remote_qkey;
		s->wr.ud.pkey_index = ud_wr(wr)->pkey_index;
		s->wr.ud.ah_num = ah->ah_num;
	} else {
		switch (wr->opcode) {
		case IB_WR_RDMA_WRITE:
		case IB_WR_RDMA_WRITE_WITH_IMM:
		case IB_WR_RDMA_READ:
			s->wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
			s->wr.rdma.rkey = rdma_wr(wr)->rkey;
			break;
		case IB_WR_ATOMIC_CMP_AND_SWP:
		case IB_WR_ATOMIC_FETCH_AND_ADD:
			s->wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
			s->wr.atomic.compare_add = atomic_wr(wr)->compare_add;
			s->wr.atomic.swap = atomic_wr(wr)->swap;
			s->wr.atomic.rkey = atomic_wr(wr)->rkey;
			break;
		default:
			break;
		}
	}
	if (wr->send_flags & IB_SEND_INLINE)
		return mrc_kq_inline(qp, &u->dma, wr->sg_list, wr->num_sge);
	mrc_kq_sges(&u->dma, wr->sg_list, wr->num_sge);
	return 0;
}

int mrc_kpost_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		   const struct ib_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	const struct ib_send_wr *first = wr;
	bool irqs_off;
	u32 prod;
	int err = 0;

	irqs_off = mrc_qp_lock_any(qp);
	prod = mrc_kq_producer(&qp->sq);
	for (; wr; wr = wr->next) {
		if (mrc_kq_full(&qp->sq, prod)) {
			err = -ENOMEM;
			break;
		}
		err = mrc_kq_send_wqe(qp, mrc_queue_addr(&qp->sq, prod), wr);
		if (err)
			break;
		prod = (prod + 1) & qp->sq.index_mask;
	}
	if (err)
		*bad_wr = wr;
	mrc_kq_publish(&qp->sq, prod);
	if (mrc_qp_doorbell(qp)) {
		/* Not in a state that sends: nothing was taken. */
		*bad_wr = first;
		err = -EINVAL;
	}
	mrc_qp_unlock_any(qp, irqs_off);
	return err;
}

int mrc_kpost_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		   const struct ib_recv_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	struct rxe_recv_wqe *u;
	u32 prod, max_sge;
	bool irqs_off;
	int err = 0;

	/* A kernel QP has no SRQ (mrc_qp_check_init()). */
	if (qp->srq) {
		*bad_wr = wr;
		return -EINVAL;
	}
	max_sge = mrc_kq_rq_max_sge(&qp->rq);
	irqs_off = mrc_qp_lock_any(qp);
	/* IBA 10.8.3.1: no receives before INIT. */
	if (qp->state == IB_QPS_RESET) {
		err = -EINVAL;
		goto out;
	}
	prod = mrc_kq_producer(&qp->rq);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || (u32)wr->num_sge > max_sge) {
			err = -EINVAL;
			break;
		}
		if (mrc_kq_full(&qp->rq, prod)) {
			err = -ENOMEM;
			break;
		}
		u = mrc_queue_addr(&qp->rq, prod);
		memset(u, 0, sizeof(*u));
		u->wr_id = wr->wr_id;
		mrc_kq_sges(&u->dma, wr->sg_list, wr->num_sge);
		prod = (prod + 1) & qp->rq.index_mask;
	}
	mrc_kq_publish(&qp->rq, prod);
	/* A QP in ERR completes what it is given as flushed. */
	if (qp->state == IB_QPS_ERR)
		mrc_resp_flush_rq(qp);
out:
	if (err)
		*bad_wr = wr;
	mrc_qp_unlock_any(qp, irqs_off);
	return err;
}

/* A completion of the ring as the verbs consumer wants it.  false when
 * its QP is gone (a completion left behind by a destroyed QP): skipped.
 */
static bool mrc_kcq_wc(struct mrc_cq *cq, const struct ib_uverbs_wc *u,
		       struct ib_wc *wc)
{
	struct mrc_dev *mdev = to_mdev(cq->ibcq.device);
	struct mrc_qp *qp;

	qp = mrc_qp_get(mdev->mnet, u->qp_num);
	if (!qp)
		return false;
	memset(wc, 0, sizeof(*wc));
	wc->qp = &qp->ibqp;
	/* The consumer owns the QP and destroys it only after it stopped
	 * polling for it: the pointer outlives the reference.
	 */
	mrc_qp_put(qp);
	if (wc->qp->device != cq->ibcq.device)
		return false;
	wc->wr_id = u->wr_id;
	wc->status = u->status;
	wc->opcode = u->opcode;
	wc->vendor_err = u->vendor_err;
	wc->byte_len = u->byte_len;
	wc->ex.imm_data = u->ex.imm_data;
	wc->src_qp = u->src_qp;
	wc->wc_flags = mrc_kcq_flags(u->wc_flags);
	wc->pkey_index = u->pkey_index;
	wc->slid = u->slid;
	wc->sl = u->sl;
	wc->dlid_path_bits = u->dlid_path_bits;
	wc->port_num = u->port_num;
	return true;
}

int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	struct mrc_queue *q = &cq->queue;
	unsigned long flags;
	int n = 0;
	u32 cons;

	if (!cq->kernel)
		return -EOPNOTSUPP;	/* the provider polls the ring */
	spin_lock_irqsave(&cq->lock, flags);
	cons = READ_ONCE(q->buf->consumer_index) & q->index_mask;
	while (n < num_entries && cons != q->index) {
		if (mrc_kcq_wc(cq, mrc_queue_addr(q, cons), &wc[n]))
			n++;
		cons = (cons + 1) & q->index_mask;
	}
	/* The producer (mrc_cq_post()) reads it under the same lock. */
	WRITE_ONCE(q->buf->consumer_index, cons);
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}
