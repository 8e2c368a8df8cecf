// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory windows (IBA 10.6.7), as soft-RoCE offers them: type 1 and
 * type 2B.
 *
 * A window grants remote access to a range of an MR bound to it.  Its
 * key is looked up by the responder of every packet that names it
 * (mrc_rkey_get()), exactly as an MR's rkey is: the window must be bound
 * (VALID, with memory), belong to the QP's PD, allow the access, and for
 * type 2 be bound to that very QP; the range must lie inside the window.
 *
 * Keys: MRC_KEY_MW | index << 8 | tag, index the window's slot in
 * mdev->mws.  A bind changes the tag to the one the provider chose
 * (ibv_inc_rkey()), so the key of an earlier binding names nothing.
 *
 * Lifetime: mws entries are found under RCU and inspected under mw->lock
 * without a reference: dealloc unpublishes, waits for a grace period and
 * only then lets the core free the window.  A bound window counts in its
 * MR's num_mw, and an MR with windows bound cannot be deregistered
 * (mrc_dereg_mr()), so the MR a VALID window names is alive; a lookup
 * takes a reference on it for the copy.
 *
 * Locks: mw->lock (_bh) nests inside qp->lock (the requester binds and
 * invalidates, the responder checks and invalidates, each under its own
 * QP's lock), mr->mw_lock inside mw->lock.
 */

#include <linux/random.h>

#include "mrc.h"
#include "qp.h"

#define MRC_MW_INDEX_MAX	((1U << 23) - 1)
#define MRC_MW_ACCESS		(IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ | \
				 IB_ACCESS_REMOTE_ATOMIC)

static u32 mrc_mw_index(u32 key)
{
	return (key & ~MRC_KEY_MW) >> 8;
}

static int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibmw->device);
	struct mrc_mw *mw = to_mmw(ibmw);
	u32 index;
	int err;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	err = mrc_obj_limit_get(&mdev->nr_mw, MRC_MAX_MW);
	if (err)
		return err;

	mw->mdev = mdev;
	spin_lock_init(&mw->lock);
	/* Type 1 is valid (bound to no memory) from the start; type 2 is
	 * free until a BIND_MW work request binds it.
	 */
	mw->state = ibmw->type == IB_MW_TYPE_1 ? MRC_MW_VALID : MRC_MW_FREE;

	err = xa_alloc_cyclic(&mdev->mws, &index, NULL,
			      XA_LIMIT(1, MRC_MW_INDEX_MAX), &mdev->mw_next,
			      GFP_KERNEL);
	if (err < 0) {
		err = err == -EBUSY ? -ENOMEM : err;
		goto err_count;
	}
	mw->rkey = MRC_KEY_MW | index << 8 | (get_random_u32() & 0xff);
	ibmw->rkey = mw->rkey;
	/* Published after every field a lookup reads (xa_store releases). */
	err = xa_err(xa_store(&mdev->mws, index, mw, GFP_KERNEL));
	if (err) {
		xa_erase(&mdev->mws, index);
		goto err_count;
	}
	return 0;

err_count:
	mrc_obj_limit_put(&mdev->nr_mw);
	return err;
}

/* Let go of the bound memory.  With mw->lock held. */
static void mrc_mw_unbind_locked(struct mrc_mw *mw)
{
	struct mrc_mr *mr = mw->mr;

	lockdep_assert_held(&mw->lock);
	if (mr) {
		spin_lock(&mr->mw_lock);
		mr->num_mw--;
		spin_unlock(&mr->mw_lock);
	}
	mw->mr = NULL;
	mw->addr = 0;
	mw->length = 0;
	mw->access = 0;
	mw->qp_uid = 0;
}

static int mrc_dealloc_mw(struct ib_mw *ibmw)
{
	struct mrc_mw *mw = to_mmw(ibmw);
	struct mrc_dev *mdev = mw->mdev;

	xa_erase(&mdev->mws, mrc_mw_index(mw->rkey));
	/* Lookups that found it finish inside their RCU section. */
	synchronize_rcu();
	spin_lock_bh(&mw->lock);
	mrc_mw_unbind_locked(mw);
	mw->state = MRC_MW_FREE;
	spin_unlock_bh(&mw->lock);
	mrc_obj_limit_put(&mdev->nr_mw);
	return 0;
}

/* The window of @rkey's index, or NULL; the caller is in an RCU
 * read-side section and checks the whole key under mw->lock (a window
 * rebound since has another tag).
 */
static struct mrc_mw *mrc_mw_find(struct mrc_dev *mdev, u32 rkey)
{
	if (!(rkey & MRC_KEY_MW))
		return NULL;
	return xa_load(&mdev->mws, mrc_mw_index(rkey));
}

/* @fn(mw, @arg) on the window @rkey names, under mw->lock, if there is
 * one with that whole key; its return, or -EINVAL if there is none.  The
 * one place that finds, locks and checks a window (the lock is taken and
 * dropped here, never held on return).
 */
static __always_inline int mrc_mw_call(struct mrc_dev *mdev, u32 rkey,
				       int (*fn)(struct mrc_mw *mw, void *arg),
				       void *arg)
{
	struct mrc_mw *mw;
	int ret = -EINVAL;

	rcu_read_lock();
	mw = mrc_mw_find(mdev, rkey);
	if (mw) {
		spin_lock_bh(&mw->lock);
		if (mw->rkey == rkey)
			ret = fn(mw, arg);
		spin_unlock_bh(&mw->lock);
	}
	rcu_read_unlock();
	return ret;
}

/* IBA 10.6.7.2 and C10-72..75, as rxe checks them: 0 or -EINVAL. */
static int mrc_mw_check_bind(struct mrc_qp *qp, struct mrc_mw *mw,
			     struct mrc_mr *mr, u64 addr, u64 length,
			     int access)
{
	if (mw->ibmw.pd != &qp->pd->ibpd)
		return -EINVAL;
	if (access & ~MRC_MW_ACCESS)
		return -EINVAL;		/* zero based, or not a remote right */
	if (mw->ibmw.type == IB_MW_TYPE_2) {
		/* A bound type 2 window is invalidated first; a bind of no
		 * memory is not how to invalidate it.
		 */
		if (mw->state != MRC_MW_FREE || !length)
			return -EINVAL;
	}
	if (!length)
		return 0;		/* type 1: unbind */
	if (!mr || mr->ibmr.pd != &qp->pd->ibpd ||
	    !(mr->access & IB_ACCESS_MW_BIND))
		return -EINVAL;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	/* Inside the MR, without wrapping. */
	if (addr + length < addr || addr < mr->iova ||
	    addr + length > mr->iova + mr->length)
		return -EINVAL;
	return 0;
}

struct mrc_mw_bind_args {
	struct mrc_qp *qp;
	struct mrc_mr *mr;	/* NULL: unbind (type 1) */
	u32 new_rkey;
	u64 addr;
	u64 length;
	int access;
};

static int mrc_mw_bind_locked(struct mrc_mw *mw, void *arg)
{
	struct mrc_mw_bind_args *b = arg;
	struct mrc_mr *mr = b->mr;

	lockdep_assert_held(&mw->lock);
	if (mrc_mw_check_bind(b->qp, mw, mr, b->addr, b->length, b->access))
		return -EINVAL;
	if (mr) {
		spin_lock(&mr->mw_lock);
		if (mr->dead) {
			spin_unlock(&mr->mw_lock);
			return -EINVAL;
		}
		mr->num_mw++;
		spin_unlock(&mr->mw_lock);
	}
	/* A type 1 rebind replaces what it was bound to. */
	mrc_mw_unbind_locked(mw);
	mw->mr = mr;
	mw->addr = b->addr;
	mw->length = b->length;
	mw->access = b->access;
	if (mw->ibmw.type == IB_MW_TYPE_2)
		mw->qp_uid = b->qp->uid;
	mw->state = MRC_MW_VALID;
	/* The provider chose the new tag; the index stays ours. */
	mw->rkey = (mw->rkey & ~0xffU) | (b->new_rkey & 0xff);
	return 0;
}

u8 mrc_mw_bind(struct mrc_qp *qp, u32 mw_rkey, u32 new_rkey, u32 mr_lkey,
	       u64 addr, u64 length, int access)
{
	struct mrc_mw_bind_args b = {
		.qp = qp, .new_rkey = new_rkey, .addr = addr,
		.length = length, .access = access,
	};
	int err;

	lockdep_assert_held(&qp->lock);

	if (length) {
		b.mr = mrc_mr_get(qp->mdev, mr_lkey);
		if (!b.mr)
			return IB_WC_MW_BIND_ERR;
	}
	err = mrc_mw_call(qp->mdev, mw_rkey, mrc_mw_bind_locked, &b);
	if (b.mr)
		mrc_mr_put(b.mr);
	return err ? IB_WC_MW_BIND_ERR : IB_WC_SUCCESS;
}

struct mrc_mw_inv_args {
	struct mrc_qp *qp;
	bool remote;
	bool doit;
};

static int mrc_mw_invalidate_locked(struct mrc_mw *mw, void *arg)
{
	struct mrc_mw_inv_args *a = arg;

	lockdep_assert_held(&mw->lock);
	if (mw->ibmw.type != IB_MW_TYPE_2 || mw->state != MRC_MW_VALID ||
	    mw->ibmw.pd != &a->qp->pd->ibpd ||
	    (a->remote && mw->qp_uid != a->qp->uid))
		return -EINVAL;
	if (a->doit) {
		mrc_mw_unbind_locked(mw);
		mw->state = MRC_MW_FREE;
	}
	return 0;
}

/* Invalidate the type 2 window @rkey for @qp: @remote (SEND_WITH_INV)
 * only if it is bound to @qp, a local invalidate if it is in @qp's PD.
 */
static int mrc_mw_invalidate(struct mrc_qp *qp, u32 rkey, bool remote,
			     bool doit)
{
	struct mrc_mw_inv_args a = { .qp = qp, .remote = remote, .doit = doit };

	return mrc_mw_call(qp->mdev, rkey, mrc_mw_invalidate_locked, &a);
}

u8 mrc_local_invalidate(struct mrc_qp *qp, u32 rkey)
{
	lockdep_assert_held(&qp->lock);
	/* No MR here is a fast-registration MR, the only kind a local
	 * invalidate may name (rxe refuses the others the same way).
	 */
	if (mrc_mw_invalidate(qp, rkey, false, true))
		return IB_WC_LOC_QP_OP_ERR;
	return IB_WC_SUCCESS;
}

int mrc_remote_invalidate(struct mrc_qp *qp, u32 rkey, bool doit)
{
	lockdep_assert_held(&qp->lock);
	return mrc_mw_invalidate(qp, rkey, true, doit);
}

struct mrc_mw_get_args {
	struct mrc_qp *qp;
	u64 iova;
	u64 len;
	int access;
	struct mrc_mr *mr;	/* out: referenced, or NULL */
};

static int mrc_mw_get_mr_locked(struct mrc_mw *mw, void *arg)
{
	struct mrc_mw_get_args *g = arg;
	u64 off;

	lockdep_assert_held(&mw->lock);
	if (mw->state != MRC_MW_VALID || !mw->length || !mw->mr ||
	    mw->ibmw.pd != &g->qp->pd->ibpd ||
	    (mw->ibmw.type == IB_MW_TYPE_2 && mw->qp_uid != g->qp->uid) ||
	    (g->access & ~mw->access))
		return -EINVAL;
	/* Inside the window (the bind put the window inside the MR). */
	if (g->iova < mw->addr)
		return -EINVAL;
	off = g->iova - mw->addr;
	if (off > mw->length || g->len > mw->length - off)
		return -EINVAL;
	/* Alive: it cannot be deregistered while we are bound to it. */
	if (!refcount_inc_not_zero(&mw->mr->ref))
		return -EINVAL;
	g->mr = mw->mr;
	return 0;
}

struct mrc_mr *mrc_mw_get_mr(struct mrc_qp *qp, u32 rkey, u64 iova, u64 len,
			     int access)
{
	struct mrc_mw_get_args g = {
		.qp = qp, .iova = iova, .len = len, .access = access,
	};

	mrc_mw_call(qp->mdev, rkey, mrc_mw_get_mr_locked, &g);
	return g.mr;
}

const struct ib_device_ops mrc_mw_ops = {
	.alloc_mw = mrc_alloc_mw,
	.dealloc_mw = mrc_dealloc_mw,

	INIT_RDMA_OBJ_SIZE(ib_mw, mrc_mw, ibmw),
};
