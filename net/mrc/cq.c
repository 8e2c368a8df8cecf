// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion queues in the rxe user ABI: the kernel produces struct
 * ib_uverbs_wc elements into a ring the rxe provider maps and polls
 * without system calls; the provider consumes by advancing the shared
 * consumer_index.  The kernel keeps its producer index in queue.index and
 * never reads the shared producer_index back, and it masks the user's
 * consumer_index before any use, so a corrupt header can at worst make the
 * CQ look full or lose the user's own completions.
 *
 * A kernel consumer's CQ (no udata) has the same ring, never mapped: the
 * kernel is its consumer too, through poll_cq (kverbs.c).
 */
#include <linux/spinlock.h>
#include <linux/string.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "mrc.h"
#include "verbs.h"

/* Each CQE the provider reads is a struct ib_uverbs_wc. */
#define MRC_CQE_SIZE	sizeof(struct ib_uverbs_wc)

/* The user's consumer index, masked: only bits inside the ring are ever
 * trusted.
 */
static u32 mrc_cq_user_consumer(const struct mrc_queue *q)
{
	/* Pairs with the provider's store-release of consumer_index: the
	 * user has finished reading every slot the new index frees before
	 * the kernel may overwrite it.
	 */
	return smp_load_acquire(&q->buf->consumer_index) & q->index_mask;
}

/* Completions produced but not yet consumed by the user. */
static u32 mrc_cq_queued(const struct mrc_queue *q)
{
	return mrc_queue_count(q, q->index, mrc_cq_user_consumer(q));
}

static int mrc_cq_check_cqe(int cqe)
{
	return cqe < 1 || cqe > MRC_MAX_CQE ? -EINVAL : 0;
}

static struct ib_ucontext *mrc_cq_uctx(struct ib_udata *udata)
{
	struct mrc_ucontext *uc;

	uc = rdma_udata_to_drv_context(udata, struct mrc_ucontext, ibuc);
	return &uc->ibuc;
}

static void mrc_cq_raise_error(struct mrc_cq *cq)
{
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.event = IB_EVENT_CQ_ERR,
		.element.cq = &cq->ibcq,
	};

	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

int mrc_cq_post(struct mrc_cq *cq, const struct ib_uverbs_wc *wc,
		bool solicited)
{
	struct mrc_queue *q = &cq->queue;
	unsigned long flags;
	bool wake = false;
	u32 prod;

	/* irqsave, not _bh: callers already hold QP locks with BHs off, and
	 * a CQ is shared by every QP that completes into it.
	 */
	spin_lock_irqsave(&cq->lock, flags);
	if (unlikely(cq->error)) {
		spin_unlock_irqrestore(&cq->lock, flags);
		return -ENOSPC;
	}

	prod = q->index;
	if (unlikely(((prod + 1) & q->index_mask) == mrc_cq_user_consumer(q))) {
		/* Overflow is fatal for a CQ (IBA 11.4.2.1): stop producing
		 * and tell the user once.
		 */
		cq->error = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		mrc_cq_raise_error(cq);
		return -ENOSPC;
	}

	memcpy(mrc_queue_addr(q, prod), wc, sizeof(*wc));
	q->index = (prod + 1) & q->index_mask;
	/* Release: the provider sees the element before the new index. */
	smp_store_release(&q->buf->producer_index, q->index);

	/* One-shot arming: the user re-arms through req_notify_cq. */
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED && solicited)) {
		cq->notify = 0;
		wake = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	/* Outside the CQ lock: the uverbs handler takes the completion
	 * channel's lock and may wake the user.
	 */
	if (wake && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}

static int mrc_cq_check_create(struct ib_cq *ibcq,
			       const struct ib_cq_init_attr *attr,
			       struct ib_udata *udata)
{
	/* Timestamps and the other creation flags are not implemented. */
	if (attr->flags)
		return -EOPNOTSUPP;
	if (mrc_cq_check_cqe(attr->cqe))
		return -EINVAL;
	if (attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(struct rxe_create_cq_resp))
		return -EINVAL;
	return 0;
}

int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibcq->device);
	struct rxe_create_cq_resp resp = {};
	struct mrc_cq *cq = to_mcq(ibcq);
	u32 capacity;
	int err;

	err = mrc_cq_check_create(ibcq, attr, udata);
	if (err)
		return err;

	/* The limits are the users' (kverbs.c): a kernel object is not
	 * counted, so QP1 takes nothing from what max_cq promises.
	 */
	err = udata ? mrc_obj_limit_get(&mdev->nr_cq, MRC_MAX_CQ) : 0;
	if (err)
		return err;

	spin_lock_init(&cq->lock);
	spin_lock_init(&cq->rq_qps_lock);
	INIT_LIST_HEAD(&cq->rq_qps);
	cq->notify = 0;
	cq->error = false;
	cq->kernel = !udata;

	err = mrc_queue_init_gfp(&cq->queue, attr->cqe, MRC_CQE_SIZE,
				 &capacity, udata ? MRC_GFP_USER : MRC_GFP_KOBJ);
	if (err)
		goto err_count;
	if (cq->kernel) {
		ibcq->cqe = capacity;
		return 0;
	}
	err = mrc_queue_publish(&cq->queue, mrc_cq_uctx(udata), &resp.mi);
	if (err)
		goto err_queue;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_queue;

	ibcq->cqe = capacity;
	return 0;

err_queue:
	mrc_queue_cleanup(&cq->queue);
err_count:
	if (udata)
		mrc_obj_limit_put(&mdev->nr_cq);
	return err;
}

int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct mrc_cq *cq = to_mcq(ibcq);

	/* The core destroys a CQ only when no QP uses it (ibcq->usecnt), so
	 * nothing posts into the ring any more.
	 */
	mrc_queue_cleanup(&cq->queue);
	if (!cq->kernel)
		mrc_obj_limit_put(&to_mdev(ibcq->device)->nr_cq);
	return 0;
}

/* Move the queued completions of @cq into @nq (not yet in use by the
 * kernel) and make @nq the CQ's ring; the old ring is returned in @oq.
 * -EINVAL if they do not fit: completions may have arrived since the
 * caller's first check.
 */
static int mrc_cq_swap(struct mrc_cq *cq, struct mrc_queue *nq, u32 capacity,
		       struct mrc_queue *oq)
{
	struct mrc_queue *q = &cq->queue;
	unsigned long flags;
	u32 cons, n, i;

	/* Under the lock so that no mrc_cq_post() lands in the old ring
	 * after the copy.  The provider holds its own CQ lock across the
	 * resize call, so it does not consume meanwhile either.
	 */
	spin_lock_irqsave(&cq->lock, flags);
	cons = mrc_cq_user_consumer(q);
	n = mrc_queue_count(q, q->index, cons);
	if (n > capacity) {
		spin_unlock_irqrestore(&cq->lock, flags);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		memcpy(mrc_queue_addr(nq, i), mrc_queue_addr(q, cons + i),
		       MRC_CQE_SIZE);
	nq->index = n;
	/* The new ring is mappable already (published): the elements are
	 * visible before the index that covers them.
	 */
	smp_store_release(&nq->buf->producer_index, n);

	*oq = *q;
	*q = *nq;
	cq->ibcq.cqe = capacity;
	spin_unlock_irqrestore(&cq->lock, flags);
	return 0;
}

int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rxe_resize_cq_resp resp = {};
	struct mrc_cq *cq = to_mcq(ibcq);
	struct mrc_queue nq, oq;
	unsigned long flags;
	u32 capacity, queued;
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	if (mrc_cq_check_cqe(cqe))
		return -EINVAL;
	if (udata->outlen < sizeof(resp))
		return -EINVAL;

	/* Early refusal before allocating; mrc_cq_swap() checks again. */
	spin_lock_irqsave(&cq->lock, flags);
	queued = mrc_cq_queued(&cq->queue);
	spin_unlock_irqrestore(&cq->lock, flags);
	if ((u32)cqe < queued)
		return -EINVAL;

	err = mrc_queue_init(&nq, cqe, MRC_CQE_SIZE, &capacity);
	if (err)
		return err;
	err = mrc_queue_publish(&nq, mrc_cq_uctx(udata), &resp.mi);
	if (err)
		goto err_queue;
	/* Before the swap: once the old ring is gone, a failure here would
	 * leave the user without a way to find the new one.
	 */
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_queue;
	err = mrc_cq_swap(cq, &nq, capacity, &oq);
	if (err)
		goto err_queue;

	mrc_queue_cleanup(&oq);
	return 0;

err_queue:
	mrc_queue_cleanup(&nq);
	return err;
}

int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	/* Receives posted to a QP in ERR reach no kernel code (the provider
	 * only writes the ring): flush them now, before a program sleeps on
	 * this CQ waiting for them.
	 */
	mrc_cq_flush_err_qps(cq);
	spin_lock_irqsave(&cq->lock, irqflags);
	/* An armed "any completion" is never narrowed to solicited only. */
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	/* Completions already queued would not trigger the new arming. */
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && mrc_cq_queued(&cq->queue))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

const struct ib_device_ops mrc_cq_ops = {
	.create_cq = mrc_create_cq,
	.destroy_cq = mrc_destroy_cq,
	.poll_cq = mrc_poll_cq,
	.req_notify_cq = mrc_req_notify_cq,
	.resize_cq = mrc_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, mrc_cq, ibcq),
};
