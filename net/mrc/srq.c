// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared receive queues in the rxe user ABI: the provider writes struct
 * rxe_recv_wqe elements into a ring it maps (ibv_post_srq_recv() makes no
 * system call), the kernel consumes them.  RC QPs created with an SRQ take
 * the receive WQE of each arriving SEND / SEND_WITH_IMM / WRITE_WITH_IMM
 * from it (mrc_srq_take(), called by the responder under the QP's lock).
 *
 * A WQE is copied into the QP's kernel slot (struct mrc_rwqe) and the ring's
 * consumer index advanced at once: from then on it belongs to that QP and
 * completes into the QP's receive CQ, flushed if the QP ends first; the
 * WQEs still in the ring belong to no QP and stay there when one of the QPs
 * goes to ERR (IBA 10.2.9.5).
 *
 * Everything in the ring is the user's and may change at any moment: the
 * producer index is masked, num_sge read once and checked against what a
 * slot holds, the SGEs' keys and bounds are checked when data lands.
 *
 * Only user SRQs exist (no kernel verbs on this device, verbs.h).
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "qp.h"

static u32 mrc_srq_slot_sge(const struct mrc_queue *q)
{
	u32 n = ((1U << q->log2_elem_size) - sizeof(struct rxe_recv_wqe)) /
		sizeof(struct rxe_sge);

	return min_t(u32, n, MRC_MAX_SGE);
}

static u32 mrc_srq_wqe_size(u32 max_sge)
{
	return sizeof(struct rxe_recv_wqe) + max_sge * sizeof(struct rxe_sge);
}

static void mrc_srq_raise(struct mrc_srq *srq, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.event = type,
		.element.srq = &srq->ibsrq,
	};

	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}

void mrc_srq_raise_limit(struct mrc_srq *srq)
{
	mrc_srq_raise(srq, IB_EVENT_SRQ_LIMIT_REACHED);
}

int mrc_srq_take(struct mrc_qp *qp, struct mrc_rwqe *rw, u32 ssn)
{
	struct mrc_srq *srq = qp->srq;
	struct mrc_queue *q = &srq->rq;
	u32 prod, left;

	lockdep_assert_held(&qp->lock);

	spin_lock(&srq->lock);
	prod = mrc_queue_user_producer(q);
	if (!mrc_queue_count(q, prod, q->index)) {
		spin_unlock(&srq->lock);
		return -EAGAIN;
	}
	mrc_rwqe_fetch(rw, mrc_queue_addr(q, q->index), srq->max_sge, ssn);
	mrc_queue_set_consumer(q, q->index + 1);
	/* IBA 10.2.9.4: armed by a limit, fired once when fewer WQEs than
	 * the limit remain; the user arms it again with modify_srq.
	 */
	left = mrc_queue_count(q, prod, q->index);
	if (srq->limit && left < srq->limit) {
		srq->limit = 0;
		qp->srq_limit_due = true;	/* raised after qp->lock */
	}
	spin_unlock(&srq->lock);
	return 0;
}

static int mrc_srq_check_attr(const struct ib_srq_attr *a)
{
	if (a->max_wr < 1 || a->max_wr > MRC_MAX_QP_WR)
		return -EINVAL;
	if (a->max_sge > MRC_MAX_SGE)
		return -EINVAL;
	return 0;
}

static int mrc_create_srq(struct ib_srq *ibsrq,
			  struct ib_srq_init_attr *init,
			  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibsrq->device);
	struct mrc_srq *srq = to_msrq(ibsrq);
	struct rxe_create_srq_resp resp = {};
	struct ib_srq_attr *a = &init->attr;
	struct mrc_ucontext *uctx;
	u32 capacity;
	int err;

	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;	/* no XRC, no tag matching */
	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	err = mrc_srq_check_attr(a);
	if (err)
		return err;
	uctx = rdma_udata_to_drv_context(udata, struct mrc_ucontext, ibuc);
	err = mrc_obj_limit_get(&mdev->nr_srq, MRC_MAX_SRQ);
	if (err)
		return err;

	srq->mdev = mdev;
	spin_lock_init(&srq->lock);
	err = mrc_queue_init(&srq->rq, a->max_wr,
			     mrc_srq_wqe_size(max_t(u32, a->max_sge, 1)),
			     &capacity);
	if (err)
		goto err_count;
	srq->max_sge = mrc_srq_slot_sge(&srq->rq);
	/* As rxe: a limit given at creation arms the event already. */
	srq->limit = min_t(u32, a->srq_limit, capacity);
	err = xa_alloc_cyclic(&mdev->srqs, &srq->srq_num, srq,
			      XA_LIMIT(1, MRC_MAX_SRQ_NUM), &mdev->srq_next,
			      GFP_KERNEL);
	if (err < 0)
		goto err_queue;
	err = mrc_queue_publish(&srq->rq, &uctx->ibuc, &resp.mi);
	if (err)
		goto err_xa;
	resp.srq_num = srq->srq_num;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_xa;

	/* What the provider and the user see (the core copies them back). */
	a->max_wr = capacity;
	a->max_sge = srq->max_sge;
	return 0;

err_xa:
	xa_erase(&mdev->srqs, srq->srq_num);
err_queue:
	mrc_queue_cleanup(&srq->rq);
err_count:
	mrc_obj_limit_put(&mdev->nr_srq);
	return err;
}

/* Move the WQEs still in the ring into @nq (not yet used) and make it the
 * SRQ's ring; the old one is returned in @oq.  -EINVAL if they do not fit.
 * The provider holds its own lock over the resize and posts nothing
 * meanwhile; a user who does anyway only loses (or duplicates) its own
 * WQEs.
 */
static int mrc_srq_swap(struct mrc_srq *srq, struct mrc_queue *nq,
			u32 capacity, struct mrc_queue *oq)
{
	struct mrc_queue *q = &srq->rq;
	u32 prod, n, i, size = 1U << q->log2_elem_size;

	lockdep_assert_held(&srq->lock);

	prod = mrc_queue_user_producer(q);
	n = mrc_queue_count(q, prod, q->index);
	if (n > capacity || (srq->limit && srq->limit > capacity))
		return -EINVAL;
	/* Same element size: max_sge does not change. */
	for (i = 0; i < n; i++)
		memcpy(mrc_queue_addr(nq, i), mrc_queue_addr(q, q->index + i),
		       size);
	nq->buf->producer_index = n;
	nq->buf->consumer_index = 0;
	nq->index = 0;
	*oq = *q;
	*q = *nq;
	return 0;
}

static int mrc_srq_resize(struct mrc_srq *srq, u32 max_wr,
			  struct ib_udata *udata, u64 mi_addr)
{
	struct mrc_ucontext *uctx;
	struct mrc_queue nq, oq;
	struct mminfo mi = {};
	u32 capacity;
	int err;

	uctx = rdma_udata_to_drv_context(udata, struct mrc_ucontext, ibuc);
	err = mrc_queue_init(&nq, max_wr, 1U << srq->rq.log2_elem_size,
			     &capacity);
	if (err)
		return err;
	err = mrc_queue_publish(&nq, &uctx->ibuc, &mi);
	if (err)
		goto err_queue;
	/* The rxe ABI answers through a user pointer in the command, not
	 * the response: written before the swap, so that a fault leaves
	 * the SRQ as it was.
	 */
	if (copy_to_user(u64_to_user_ptr(mi_addr), &mi, sizeof(mi))) {
		err = -EFAULT;
		goto err_queue;
	}
	spin_lock_bh(&srq->lock);
	err = mrc_srq_swap(srq, &nq, capacity, &oq);
	spin_unlock_bh(&srq->lock);
	if (err)
		goto err_queue;
	mrc_queue_cleanup(&oq);
	return 0;

err_queue:
	mrc_queue_cleanup(&nq);
	return err;
}

static int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_msrq(ibsrq);
	struct rxe_modify_srq_cmd cmd = {};
	int err = 0;

	if (!udata)
		return -EOPNOTSUPP;
	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR) {
		if (attr->max_wr < 1 || attr->max_wr > MRC_MAX_QP_WR)
			return -EINVAL;
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		err = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
		if (err)
			return err;
		err = mrc_srq_resize(srq, attr->max_wr, udata,
				     cmd.mmap_info_addr);
		if (err)
			return err;
	}
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_bh(&srq->lock);
		if (attr->srq_limit > srq->rq.index_mask)
			err = -EINVAL;
		else
			srq->limit = attr->srq_limit;
		spin_unlock_bh(&srq->lock);
	}
	return err;
}

static int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mrc_srq *srq = to_msrq(ibsrq);

	spin_lock_bh(&srq->lock);
	attr->max_wr = srq->rq.index_mask;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_bh(&srq->lock);
	return 0;
}

static int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_msrq(ibsrq);

	/* The core refuses (EBUSY) while a QP uses it (ibsrq->usecnt): no
	 * responder takes from the ring any more.
	 */
	xa_erase(&srq->mdev->srqs, srq->srq_num);
	mrc_queue_cleanup(&srq->rq);
	mrc_obj_limit_put(&srq->mdev->nr_srq);
	return 0;
}

static int mrc_post_srq_recv(struct ib_srq *ibsrq,
			     const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr)
{
	/* The provider writes SRQ WQEs into the ring itself. */
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

const struct ib_device_ops mrc_srq_ops = {
	.create_srq = mrc_create_srq,
	.modify_srq = mrc_modify_srq,
	.query_srq = mrc_query_srq,
	.destroy_srq = mrc_destroy_srq,
	.post_srq_recv = mrc_post_srq_recv,
	INIT_RDMA_OBJ_SIZE(ib_srq, mrc_srq, ibsrq),
};
