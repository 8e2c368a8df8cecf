/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Verbs objects of an MRC instance: user contexts, PDs, MRs, CQs, QPs,
 * SRQs and AHs, behind the rxe user ABI (include/uapi/rdma/rdma_user_rxe.h) so that
 * the stock rdma-core rxe provider drives them.  Kernel consumers (the
 * MAD layer's QP1, kernel ULPs) get the same objects with rings no user
 * maps: kverbs.c writes their work requests into the rings and polls
 * their CQs.
 *
 * Locking (after the control-plane locks of mrc.h):
 *
 *   mrc_qp.lock      (spinlock, _bh) the QP's engine connection, its
 *                    kernel copies of work requests, its ring indices.  The
 *                    doorbell (process context), the UDP receive path and
 *                    the QP's hrtimer (softirq) all take it.
 *   mrc_cq.lock      (spinlock, irqsave) the CQ ring's producer side and
 *                    the notify state; taken inside mrc_qp.lock.
 *   mrc_srq.lock     (spinlock, _bh) the SRQ ring's consumer side, its
 *                    swap on resize, the limit; taken inside mrc_qp.lock
 *                    by the responders of the QPs that share it.
 *   mrc_mr.atomic    serialises atomics on an MR (inside mrc_qp.lock).
 *   RCU              lookups of QPs (per netns, by QPN) and MRs (per
 *                    instance, by key) from the receive path; an object
 *                    found holds a reference (refcount) until put.
 */
#ifndef _NET_MRC_VERBS_H
#define _NET_MRC_VERBS_H

#include <linux/hrtimer.h>
#include <linux/refcount.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/uverbs_ioctl.h>

#include "engine.h"

/* Limits enforced by the verbs below and reported by query_device. */
#define MRC_MAX_QP		1024
#define MRC_MAX_QP_WR		4096	/* send or receive WRs per queue */
#define MRC_MAX_SGE		16
#define MRC_MAX_INLINE		(MRC_MAX_SGE * sizeof(struct rxe_sge))
#define MRC_MAX_CQ		4096
#define MRC_MAX_CQE		32767	/* entries per CQ */
#define MRC_MAX_MR		65536
#define MRC_MAX_MW		65536
#define MRC_MAX_MR_SIZE		BIT_ULL(32)
#define MRC_MAX_AH		4096
#define MRC_MAX_SRQ		1024
#define MRC_MAX_SRQ_NUM		0xffffff	/* 24-bit SRQ numbers (IBA) */
#define MRC_MAX_RD_ATOMIC	16	/* READ/ATOMIC outstanding per QP */
#define MRC_MAX_MSG_SIZE	BIT(31)
#define MRC_QPN_MIN		16	/* 0 and 1 are the IB special QPs */

struct mrc_dev;

struct mrc_ucontext {
	struct ib_ucontext ibuc;
};

struct mrc_pd {
	struct ib_pd ibpd;
	bool kernel;			/* const: a kernel consumer's */
};

static inline struct mrc_pd *to_mpd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct mrc_pd, ibpd);
}

/* ------------------------------------------------------------------ queue.c
 * A ring shared with userspace in the rxe layout (struct rxe_queue_buf):
 * indices are stored masked; the ring has index_mask + 1 slots and holds at
 * most index_mask elements.  The side the kernel owns keeps its index in
 * @index (never trusting the shared copy); the user's index is read with
 * smp_load_acquire() and masked.
 */
struct mrc_queue {
	struct rxe_queue_buf *buf;	/* MRC_GFP_USER vmalloc, user mapped */
	size_t buf_size;		/* page aligned, header included */
	u32 log2_elem_size;
	u32 index_mask;
	u32 index;			/* kernel's own producer or consumer */
	struct rdma_user_mmap_entry *mmap;	/* NULL until published */
};

/* Allocate a ring for at least @num_elem elements of @elem_size bytes (a
 * power of two is chosen); *@slots receives the usable capacity.
 * Charged to the caller's memory cgroup (MRC_GFP_USER); _gfp: as @gfp
 * says (MRC_GFP_KOBJ for a kernel consumer's ring).
 */
int mrc_queue_init(struct mrc_queue *q, u32 num_elem, u32 elem_size,
		   u32 *capacity);
int mrc_queue_init_gfp(struct mrc_queue *q, u32 num_elem, u32 elem_size,
		       u32 *capacity, gfp_t gfp);
/* The memory of a kernel consumer's objects: not charged to a cgroup. */
#define MRC_GFP_KOBJ	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
/* Make @q mappable by @uctx and describe it for the create response. */
int mrc_queue_publish(struct mrc_queue *q, struct ib_ucontext *uctx,
		      struct mminfo *mi);
/* Unpublish and free (the user's mapping keeps its pages alive). */
void mrc_queue_cleanup(struct mrc_queue *q);

static inline void *mrc_queue_addr(const struct mrc_queue *q, u32 index)
{
	return q->buf->data + ((index & q->index_mask) << q->log2_elem_size);
}

/* Kernel consumer (SQ, RQ): elements the user has produced. */
static inline u32 mrc_queue_user_producer(const struct mrc_queue *q)
{
	/* Pairs with the provider's store-release of the index: the
	 * element it published is visible once we see the index.
	 */
	return smp_load_acquire(&q->buf->producer_index) & q->index_mask;
}

static inline u32 mrc_queue_count(const struct mrc_queue *q, u32 prod,
				  u32 cons)
{
	return (prod - cons) & q->index_mask;
}

/* Kernel consumer: publish a new consumer index. */
static inline void mrc_queue_set_consumer(struct mrc_queue *q, u32 cons)
{
	q->index = cons & q->index_mask;
	/* Our reads of the consumed elements complete before the provider
	 * may reuse their slots.
	 */
	smp_store_release(&q->buf->consumer_index, q->index);
}

/* mmap and mmap_free device ops (queue.c). */
int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void mrc_mmap_free(struct rdma_user_mmap_entry *entry);

/* ------------------------------------------------------------------ cq.c */
struct mrc_cq {
	struct ib_cq ibcq;
	spinlock_t lock;		/* queue producer side, notify, error */
	struct mrc_queue queue;
	u8 notify;			/* IB_CQ_NEXT_COMP / IB_CQ_SOLICITED / 0 */
	bool error;			/* overflowed: IB_EVENT_CQ_ERR raised */
	bool kernel;			/* const: a kernel consumer's (kverbs.c) */
	/* QPs whose receive queue completes here (struct mrc_qp.rcq_node),
	 * for flushing receives posted to a QP in ERR (qp.c).
	 */
	spinlock_t rq_qps_lock;
	struct list_head rq_qps;	/* rq_qps_lock */
};

static inline struct mrc_cq *to_mcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mrc_cq, ibcq);
}

/* Post one completion from any context (softirq included).  Wakes the
 * completion channel as armed by req_notify_cq.  -ENOSPC when the CQ is
 * full: the CQ is then in error and IB_EVENT_CQ_ERR was raised.
 */
int mrc_cq_post(struct mrc_cq *cq, const struct ib_uverbs_wc *wc,
		bool solicited);

int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
/* kverbs.c: a kernel consumer's CQ (its ring is the kernel's alone) */
int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
/* qp.c: complete (flushed) the receives posted since to QPs in ERR that
 * receive into @cq.  Process context.
 */
void mrc_cq_flush_err_qps(struct mrc_cq *cq);

/* ------------------------------------------------------------------ srq.c */
struct mrc_srq {
	struct ib_srq ibsrq;
	struct mrc_dev *mdev;		/* const */
	u32 srq_num;			/* const; in mdev->srqs */
	u32 max_sge;			/* const: SGEs a ring slot holds */
	spinlock_t lock;		/* rq (kernel side and swap), limit */
	struct mrc_queue rq;		/* the user produces, we consume */
	u32 limit;			/* 0: the limit event is not armed */
};

static inline struct mrc_srq *to_msrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct mrc_srq, ibsrq);
}

/* IB_EVENT_SRQ_LIMIT_REACHED, outside every lock of the data path. */
void mrc_srq_raise_limit(struct mrc_srq *srq);

/* ------------------------------------------------------------------ mr.c */
struct mrc_mr {
	struct ib_mr ibmr;		/* lkey == rkey == key */
	struct mrc_dev *mdev;		/* const */
	struct ib_umem *umem;		/* const; pins the user pages */
	struct page **pages;		/* const; umem pages in order */
	u32 npages;			/* const */
	u32 page_off;			/* const; offset of iova in pages[0] */
	u64 iova;			/* const */
	u64 length;			/* const */
	int access;			/* const; IB_ACCESS_* */
	refcount_t ref;			/* lookups in flight + 1 */
	struct completion released;	/* ref reached 0 (dereg waits) */
	spinlock_t atomic_lock;		/* makes CS/FA atomic per MR */
	spinlock_t mw_lock;		/* num_mw, dead */
	u32 num_mw;			/* windows bound to it (mw.c) */
	bool dead;			/* dereg passed: no new binding */
	/* const: a kernel PD's DMA MR (mr.c): no pages, addresses are
	 * kernel virtual addresses, local access only.
	 */
	bool kva;
};

static inline struct mrc_mr *to_mmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mrc_mr, ibmr);
}

enum mrc_copy_dir {
	MRC_TO_MR,			/* buffer -> memory region */
	MRC_FROM_MR,			/* memory region -> buffer */
	MRC_SKB_TO_MR,			/* skb bytes -> memory region */
	MRC_MR_TO_FRAGS,		/* memory region pages -> skb frags */
};

/* A transfer between memory regions and one buffer or skb: @off is where
 * the next byte goes in (or comes from) @buf or @skb, advanced as bytes
 * move.  MRC_MR_TO_FRAGS appends page references to @skb (no copy).
 */
struct mrc_xfer {
	enum mrc_copy_dir dir;
	u8 *buf;			/* MRC_TO_MR, MRC_FROM_MR */
	struct sk_buff *skb;		/* MRC_SKB_TO_MR, MRC_MR_TO_FRAGS */
	u32 off;
};

/* Find the MR with @key and take a reference (RCU inside); NULL if none. */
struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, u32 key);
void mrc_mr_put(struct mrc_mr *mr);
/* 0 if [@iova, @iova + @len) lies in @mr, @mr belongs to @pd and allows
 * every IB_ACCESS_* bit in @access (0 = local read); -EACCES or -ERANGE.
 */
int mrc_mr_check(const struct mrc_mr *mr, const struct ib_pd *pd, u64 iova,
		 u64 len, int access);
/* Copy @len bytes between @buf and @mr at @iova (already checked). */
void mrc_mr_copy(struct mrc_mr *mr, u64 iova, void *buf, u32 len,
		 enum mrc_copy_dir dir);
/* The same for any direction; -EMSGSIZE when the skb has no frag left
 * (MRC_MR_TO_FRAGS), -EFAULT when the skb is shorter (MRC_SKB_TO_MR).
 */
int mrc_mr_xfer(struct mrc_mr *mr, u64 iova, struct mrc_xfer *x, u32 len);
/* 8-byte atomic at @iova (checked): compare-and-swap when @is_cs, else
 * fetch-and-add; the original value in @orig.  -EINVAL if @iova is not
 * 8-byte aligned (nothing changed).
 */
int mrc_mr_atomic(struct mrc_mr *mr, u64 iova, bool is_cs, u64 compare,
		  u64 swap_add, u64 *orig);
/* Copy between @buf and the byte range [@offset, @offset + @len) of the
 * buffer described by a scatter list (lkeys of @pd).  The local side of
 * every work request goes through here.  0, or -EACCES / -ERANGE when an
 * SGE's key, PD, bounds or @access (IB_ACCESS_LOCAL_WRITE when writing
 * into it) do not hold.
 */
int mrc_sge_copy(struct mrc_dev *mdev, const struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 num_sge, u32 offset,
		 void *buf, u32 len, enum mrc_copy_dir dir);
int mrc_sge_xfer(struct mrc_dev *mdev, const struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 num_sge, u32 offset,
		 struct mrc_xfer *x, u32 len);

/* The memory a remote key (an MR's rkey or a bound window's) names for
 * @qp, checked for [@iova, @iova + @len) and every IB_ACCESS_* bit in
 * @access: the MR with a reference held, or NULL (a remote access
 * error).  Every remote access of every packet resolves its key here.
 */
struct mrc_qp;
struct mrc_mr *mrc_rkey_get(struct mrc_qp *qp, u32 rkey, u64 iova, u64 len,
			    int access);

struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

/* ------------------------------------------------------------------ mw.c
 * Memory windows (IBA 10.6.7): type 1, bound by ibv_bind_mw() and
 * tied to its PD, and type 2B, bound by a BIND_MW work request and tied
 * to the QP that bound it.  Their keys share the MRs' key space
 * (mr.c): an index with MRC_KEY_MW set names a window.
 */
#define MRC_KEY_MW		BIT(31)

enum mrc_mw_state {
	MRC_MW_FREE = 0,		/* type 2: not bound */
	MRC_MW_VALID,			/* type 1 always; type 2 bound */
};

struct mrc_mw {
	struct ib_mw ibmw;		/* ibmw.rkey: the key at alloc */
	struct mrc_dev *mdev;		/* const */
	spinlock_t lock;		/* everything below (_bh) */
	u32 rkey;			/* the current key (bind changes it) */
	u8 state;			/* enum mrc_mw_state */
	struct mrc_mr *mr;		/* bound MR (its num_mw counts us) */
	u64 addr;
	u64 length;			/* 0: not bound to memory */
	int access;			/* IB_ACCESS_REMOTE_* */
	u64 qp_uid;			/* type 2: the QP bound to (mrc_qp.uid) */
};

static inline struct mrc_mw *to_mmw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct mrc_mw, ibmw);
}

/* The requester's local operations (status IB_WC_SUCCESS or the error
 * the WQE completes with).  With the QP's lock held.
 */
u8 mrc_mw_bind(struct mrc_qp *qp, u32 mw_rkey, u32 new_rkey, u32 mr_lkey,
	       u64 addr, u64 length, int access);
u8 mrc_local_invalidate(struct mrc_qp *qp, u32 rkey);
/* SEND_WITH_INV at the responder: 0 if @qp may invalidate @rkey (a type
 * 2 window bound to it); with @doit, invalidate it.
 */
int mrc_remote_invalidate(struct mrc_qp *qp, u32 rkey, bool doit);
/* A window's memory for a remote access (mrc_rkey_get()). */
struct mrc_mr *mrc_mw_get_mr(struct mrc_qp *qp, u32 rkey, u64 iova, u64 len,
			     int access);

/* ------------------------------------------------------------------ ah.c */
struct mrc_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;	/* const */
	u32 ah_num;			/* const; given to the provider */
	bool kernel;			/* const: a kernel consumer's */
};

int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int mrc_destroy_ah(struct ib_ah *ibah, u32 flags);
int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);

/* Each file's device ops, merged by ib_set_device_ops() in device.c. */
extern const struct ib_device_ops mrc_queue_ops;	/* mmap */
extern const struct ib_device_ops mrc_cq_ops;
extern const struct ib_device_ops mrc_mr_ops;
extern const struct ib_device_ops mrc_mw_ops;
extern const struct ib_device_ops mrc_ah_ops;
extern const struct ib_device_ops mrc_qp_ops;
extern const struct ib_device_ops mrc_srq_ops;
/* uverbs_mrc.c: the device's own methods (include/uapi/rdma/mrc-abi.h) */
extern const struct uapi_definition mrc_uapi_defs[];

#endif /* _NET_MRC_VERBS_H */
