// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions: user memory pinned with ib_umem, found by key from the
 * data path, and the copy and atomic helpers every work request uses.
 *
 * Keys: lkey == rkey == (index << 8) | tag, where index is the MR's slot
 * in mdev->mrs and tag is 8 random bits.  The index is allocated
 * cyclically and the tag varies, so a stale key of a freed MR does not
 * name the MR that later reuses its slot.  The top bit of a key is clear:
 * keys with it set name memory windows (mw.c), which an lkey never does.
 *
 * Lifetime: the xarray entry is the only way to find an MR.  A lookup
 * runs under RCU and takes a reference with refcount_inc_not_zero(); a
 * holder keeps it for one copy or atomic, except a READ response, which
 * keeps it until the peer acknowledges the response.  Deregistration
 * unpublishes the MR, takes it from the READ responses (the peer's ACKs
 * do not bound how long it would wait), drops the initial reference and
 * waits until the remaining, short-lived holders are gone.
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "mrc.h"
#include "qp.h"

/* What an MR can grant (IB_ACCESS_MW_BIND: windows may be bound to it). */
#define MRC_MR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC | \
			 IB_ACCESS_MW_BIND)
/* Hints with no meaning for memory the CPU copies: accepted, ignored. */
#define MRC_MR_HINTS	(IB_ACCESS_HUGETLB | IB_ACCESS_OPTIONAL)
/* Defined by the verbs but not offered: no ODP, no zero-based regions. */
#define MRC_MR_UNSUPPORTED (IB_ZERO_BASED | IB_ACCESS_ON_DEMAND)

/* 23 bits: MRC_KEY_MW stays clear in an MR's key. */
#define MRC_MR_INDEX_MAX	((1U << 23) - 1)
#define MRC_MR_TAG_MASK		0xffU

static int mrc_mr_check_access(int access)
{
	if (access & MRC_MR_UNSUPPORTED)
		return -EOPNOTSUPP;
	if (access & ~(MRC_MR_ACCESS | MRC_MR_HINTS | MRC_MR_UNSUPPORTED))
		return -EINVAL;
	/* IB spec: remote write and remote atomic need local write. */
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

/* The umem's pages in order: the copy helpers index them directly. */
static int mrc_mr_init_pages(struct mrc_mr *mr)
{
	struct sg_table *sgt = &mr->umem->sgt_append.sgt;
	struct sg_page_iter piter;
	size_t npages;
	u32 i = 0;

	npages = ib_umem_num_pages(mr->umem);
	/* MRC_MAX_MR_SIZE bounds this far below U32_MAX. */
	if (WARN_ON_ONCE(!npages || npages > U32_MAX))
		return -EINVAL;

	mr->pages = kvmalloc_array(npages, sizeof(*mr->pages), MRC_GFP_USER);
	if (!mr->pages)
		return -ENOMEM;

	for_each_sgtable_page(sgt, &piter, 0) {
		if (WARN_ON_ONCE(i == npages))
			break;
		mr->pages[i++] = sg_page_iter_page(&piter);
	}
	if (WARN_ON_ONCE(i != npages)) {
		kvfree(mr->pages);
		mr->pages = NULL;
		return -EINVAL;
	}
	mr->npages = npages;
	return 0;
}

/* Publish @mr under a fresh key.  The slot is reserved first (a reserved
 * slot reads as NULL) so that the key is set before the pointer becomes
 * visible; xa_store() publishes it with release semantics, after every
 * field a lookup reads.
 */
static int mrc_mr_publish(struct mrc_dev *mdev, struct mrc_mr *mr)
{
	u32 tag = get_random_u32() & MRC_MR_TAG_MASK;
	u32 index;
	int err;

	err = xa_alloc_cyclic(&mdev->mrs, &index, NULL,
			      XA_LIMIT(1, MRC_MR_INDEX_MAX), &mdev->mr_next,
			      GFP_KERNEL);
	if (err < 0)
		return err == -EBUSY ? -ENOMEM : err;

	mr->ibmr.lkey = (index << 8) | tag;
	mr->ibmr.rkey = mr->ibmr.lkey;
	err = xa_err(xa_store(&mdev->mrs, index, mr, GFP_KERNEL));
	if (err)
		xa_erase(&mdev->mrs, index);
	return err;
}

/* What every MR starts with, then published: from here a lookup may find
 * it.  The core sets ibmr.pd and .device after we return, but
 * mrc_mr_check() must see the PD as soon as the MR is published.
 */
static int mrc_mr_init_publish(struct mrc_mr *mr, struct mrc_dev *mdev,
			       struct ib_pd *ibpd, u64 iova, u64 length,
			       int access)
{
	mr->mdev = mdev;
	mr->iova = iova;
	mr->length = length;
	mr->access = access;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->released);
	spin_lock_init(&mr->atomic_lock);
	spin_lock_init(&mr->mw_lock);
	mr->ibmr.pd = ibpd;
	mr->ibmr.device = ibpd->device;
	return mrc_mr_publish(mdev, mr);
}

struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibpd->device);
	struct mrc_mr *mr;
	int err;

	err = mrc_mr_check_access(access);
	if (err)
		return ERR_PTR(err);
	if (!length || length > MRC_MAX_MR_SIZE)
		return ERR_PTR(-EINVAL);
	/* The copy helpers map iova to the pages through the offset in the
	 * first page; an 8-byte aligned iova must stay an aligned address
	 * (atomics never cross a page).  The core already insists on this
	 * for the write command; repeat it for every other way in.
	 */
	if ((start ^ iova) & ~PAGE_MASK)
		return ERR_PTR(-EINVAL);

	err = mrc_obj_limit_get(&mdev->nr_mr, MRC_MAX_MR);
	if (err)
		return ERR_PTR(err);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		err = -ENOMEM;
		goto err_count;
	}

	mr->umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	err = mrc_mr_init_pages(mr);
	if (err)
		goto err_umem;

	mr->page_off = ib_umem_offset(mr->umem);
	err = mrc_mr_init_publish(mr, mdev, ibpd, iova, length,
				  access & MRC_MR_ACCESS);
	if (err)
		goto err_pages;
	return &mr->ibmr;

err_pages:
	kvfree(mr->pages);
err_umem:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
err_count:
	mrc_obj_limit_put(&mdev->nr_mr);
	return ERR_PTR(err);
}

/* The DMA MR of a kernel PD (ib_alloc_pd() asks for it: its lkey is the
 * PD's local_dma_lkey).  A kernel consumer's SGEs with that key carry
 * kernel virtual addresses (the core maps nothing for a device without a
 * DMA device: ib_uses_virt_dma()).  Local access only: a remote key to
 * all of kernel memory (IB_PD_UNSAFE_GLOBAL_RKEY) is refused, and a user
 * PD never matches the MR's PD, so no user work request can name it.
 */
static struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mrc_dev *mdev = to_mdev(ibpd->device);
	struct mrc_mr *mr;
	int err;

	if (ibpd->uobject)
		return ERR_PTR(-EOPNOTSUPP);
	if (access & ~IB_ACCESS_LOCAL_WRITE)
		return ERR_PTR(-EOPNOTSUPP);
	/* One per kernel PD, not counted in the users' limit. */
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->kva = true;
	err = mrc_mr_init_publish(mr, mdev, ibpd, 0, U64_MAX, access);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_mr *mr = to_mmr(ibmr);
	struct mrc_dev *mdev = mr->mdev;

	/* IBA 10.6.7.2.6: not while windows are bound to it (as rxe).  When
	 * the process exits the core destroys the windows first and tries
	 * again.  Once dead, no bind takes it (mrc_mw_bind()).
	 */
	spin_lock_bh(&mr->mw_lock);
	if (mr->num_mw) {
		spin_unlock_bh(&mr->mw_lock);
		return -EINVAL;
	}
	mr->dead = true;
	spin_unlock_bh(&mr->mw_lock);

	/* No new lookup finds it.  The READ responses that hold it until
	 * the peer ACKs them let go (the peer decides when that is, and
	 * must not decide how long we wait); the responses executed after
	 * this point find no MR.  Then wait for the remaining holders,
	 * each of which copies at most one packet's worth under its QP's
	 * lock.
	 */
	xa_erase(&mdev->mrs, mr->ibmr.lkey >> 8);
	mrc_qp_for_each(mdev, mrc_resp_detach_mr, mr);
	mrc_mr_put(mr);
	wait_for_completion(&mr->released);

	/* Only reference holders touch the pages and the umem. */
	kvfree(mr->pages);
	ib_umem_release(mr->umem);

	/* A lookup that loaded the pointer from the xarray before the
	 * erase may still be inside its RCU read-side section, about to
	 * compare the key or fail refcount_inc_not_zero() on the structure
	 * itself.  So the structure is freed only after a grace period;
	 * this variant needs no rcu_head in struct mrc_mr (it may sleep,
	 * which dereg_mr may).
	 */
	if (!mr->kva)
		mrc_obj_limit_put(&mdev->nr_mr);
	kfree_rcu_mightsleep(mr);
	return 0;
}

struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, u32 key)
{
	struct mrc_mr *mr;

	rcu_read_lock();
	mr = xa_load(&mdev->mrs, key >> 8);
	/* The full key: a stale tag does not match.  A zero refcount means
	 * deregistration already dropped the initial reference.
	 */
	if (mr && (mr->ibmr.lkey != key || !refcount_inc_not_zero(&mr->ref)))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}

struct mrc_mr *mrc_rkey_get(struct mrc_qp *qp, u32 rkey, u64 iova, u64 len,
			    int access)
{
	struct mrc_mr *mr;

	if (rkey & MRC_KEY_MW)
		return mrc_mw_get_mr(qp, rkey, iova, len, access);
	mr = mrc_mr_get(qp->mdev, rkey);
	if (mr && mrc_mr_check(mr, &qp->pd->ibpd, iova, len, access)) {
		mrc_mr_put(mr);
		mr = NULL;
	}
	return mr;
}

void mrc_mr_put(struct mrc_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->released);
}

int mrc_mr_check(const struct mrc_mr *mr, const struct ib_pd *pd, u64 iova,
		 u64 len, int access)
{
	u64 off;

	if (mr->ibmr.pd != pd)
		return -EACCES;
	if (access & ~mr->access)
		return -EACCES;
	/* Without overflow: iova - mr->iova and length - off cannot wrap
	 * once each is known to be non-negative.
	 */
	if (iova < mr->iova)
		return -ERANGE;
	off = iova - mr->iova;
	if (off > mr->length || len > mr->length - off)
		return -ERANGE;
	return 0;
}

/* Byte offset of @iova from the start of pages[0]. */
static u64 mrc_mr_offset(const struct mrc_mr *mr, u64 iova)
{
	return iova - mr->iova + mr->page_off;
}

/* One page's piece of a transfer between an MR and @x's other end. */
static int mrc_xfer_chunk(struct mrc_xfer *x, struct page *page, u32 pgoff,
			  u32 chunk)
{
	struct skb_shared_info *si;
	void *va;
	int err = 0;

	switch (x->dir) {
	case MRC_TO_MR:
	case MRC_FROM_MR:
		if (!x->buf)
			return -EFAULT;
		va = kmap_local_page(page);
		if (x->dir == MRC_TO_MR) {
			memcpy(va + pgoff, x->buf + x->off, chunk);
			/* The user maps this page too (aliasing caches). */
			flush_dcache_page(page);
		} else {
			memcpy(x->buf + x->off, va + pgoff, chunk);
		}
		kunmap_local(va);
		break;
	case MRC_SKB_TO_MR:
		va = kmap_local_page(page);
		err = skb_copy_bits(x->skb, x->off, va + pgoff, chunk);
		flush_dcache_page(page);
		kunmap_local(va);
		break;
	case MRC_MR_TO_FRAGS:
		/* One frag stays free for the ICRC (mrc_net_seal()). */
		si = skb_shinfo(x->skb);
		if (si->nr_frags >= MAX_SKB_FRAGS - 1)
			return -EMSGSIZE;
		/* The reference keeps the page (not the MR) until the skb
		 * is freed: a deregistration in between unpins it and the
		 * page goes when the stack is done with it, never reused
		 * under the packet.  The peer gets what the WQE named
		 * (checked against its key like a copy); what the user
		 * writes there before the completion may change the bytes,
		 * as with any RDMA send buffer, and the ICRC then fails.
		 */
		get_page(page);
		skb_fill_page_desc(x->skb, si->nr_frags, page, pgoff, chunk);
		x->skb->len += chunk;
		x->skb->data_len += chunk;
		x->skb->truesize += chunk;
		break;
	}
	x->off += chunk;
	return err;
}

/* The page of kernel virtual address @va (a DMA MR's memory: linear map
 * or vmalloc).
 */
static struct page *mrc_kva_page(const void *va)
{
	return is_vmalloc_addr(va) ? vmalloc_to_page(va) : virt_to_page(va);
}

/* A DMA MR's transfer: @iova is a kernel virtual address. */
static int mrc_mr_xfer_kva(u64 iova, struct mrc_xfer *x, u32 len)
{
	u32 pgoff = offset_in_page(iova);
	u32 chunk;
	int err;

	while (len) {
		chunk = min_t(u32, len, PAGE_SIZE - pgoff);
		err = mrc_xfer_chunk(x, mrc_kva_page((void *)(uintptr_t)iova),
				     pgoff, chunk);
		if (err)
			return err;
		len -= chunk;
		iova += chunk;
		pgoff = 0;
	}
	return 0;
}

int mrc_mr_xfer(struct mrc_mr *mr, u64 iova, struct mrc_xfer *x, u32 len)
{
	u64 off = mrc_mr_offset(mr, iova);
	u64 idx = off >> PAGE_SHIFT;
	u32 pgoff = off & ~PAGE_MASK;
	u32 chunk;
	int err;

	if (mr->kva) {
		/* Kernel memory (slab objects among it) is never lent to
		 * an skb: the callers copy instead.
		 */
		if (x->dir == MRC_MR_TO_FRAGS)
			return -EMSGSIZE;
		return mrc_mr_xfer_kva(iova, x, len);
	}
	while (len) {
		chunk = min_t(u32, len, PAGE_SIZE - pgoff);
		err = mrc_xfer_chunk(x, mr->pages[idx], pgoff, chunk);
		if (err)
			return err;
		len -= chunk;
		idx++;
		pgoff = 0;
	}
	return 0;
}

void mrc_mr_copy(struct mrc_mr *mr, u64 iova, void *buf, u32 len,
		 enum mrc_copy_dir dir)
{
	struct mrc_xfer x = { .dir = dir, .buf = buf };

	mrc_mr_xfer(mr, iova, &x, len);		/* a copy cannot fail */
}

int mrc_mr_atomic(struct mrc_mr *mr, u64 iova, bool is_cs, u64 compare,
		  u64 swap_add, u64 *orig)
{
	u64 off = mrc_mr_offset(mr, iova);
	unsigned long flags;
	struct page *page;
	u64 *word;
	void *va;

	/* Never granted remote atomic access (mrc_get_dma_mr()). */
	if (mr->kva)
		return -EINVAL;
	page = mr->pages[off >> PAGE_SHIFT];

	/* iova and start share their page offset (see mrc_reg_user_mr()),
	 * so an aligned iova is an aligned word within one page.  Placement
	 * refuses a misaligned atomic before it gets here; the peer chose
	 * the address, so a slip is an error for the caller, not a WARN.
	 */
	if (iova & (sizeof(u64) - 1))
		return -EINVAL;

	va = kmap_local_page(page);
	word = va + (off & ~PAGE_MASK);

	spin_lock_irqsave(&mr->atomic_lock, flags);
	*orig = READ_ONCE(*word);
	if (!is_cs)
		WRITE_ONCE(*word, *orig + swap_add);
	else if (*orig == compare)
		WRITE_ONCE(*word, swap_add);
	spin_unlock_irqrestore(&mr->atomic_lock, flags);

	flush_dcache_page(page);
	kunmap_local(va);
	return 0;
}

/* One SGE's part of a transfer: [@off, @off + @len) of @sge. */
static int mrc_sge_xfer_one(struct mrc_dev *mdev, const struct ib_pd *pd,
			    const struct rxe_sge *sge, u32 off,
			    struct mrc_xfer *x, u32 len)
{
	bool to_mr = x->dir == MRC_TO_MR || x->dir == MRC_SKB_TO_MR;
	int access = to_mr ? IB_ACCESS_LOCAL_WRITE : 0;
	u64 iova = sge->addr + off;
	struct mrc_mr *mr;
	int err;

	/* An SGE that wraps around the address space is out of range even
	 * if the wrapped address happens to fall in some MR.
	 */
	if (iova < sge->addr)
		return -ERANGE;

	mr = mrc_mr_get(mdev, sge->lkey);
	if (!mr)
		return -EACCES;
	err = mrc_mr_check(mr, pd, iova, len, access);
	if (!err)
		err = mrc_mr_xfer(mr, iova, x, len);
	mrc_mr_put(mr);
	return err;
}

int mrc_sge_xfer(struct mrc_dev *mdev, const struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 num_sge, u32 offset,
		 struct mrc_xfer *x, u32 len)
{
	u32 i, piece;
	int err;

	for (i = 0; i < num_sge && len; i++) {
		if (offset >= sge[i].length) {
			offset -= sge[i].length;
			continue;
		}
		piece = min(sge[i].length - offset, len);
		err = mrc_sge_xfer_one(mdev, pd, &sge[i], offset, x, piece);
		if (err)
			return err;
		len -= piece;
		offset = 0;
	}
	/* The list ended before the request did. */
	return len ? -ERANGE : 0;
}

int mrc_sge_copy(struct mrc_dev *mdev, const struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 num_sge, u32 offset,
		 void *buf, u32 len, enum mrc_copy_dir dir)
{
	struct mrc_xfer x = { .dir = dir, .buf = buf };

	return mrc_sge_xfer(mdev, pd, sge, num_sge, offset, &x, len);
}

const struct ib_device_ops mrc_mr_ops = {
	.dereg_mr = mrc_dereg_mr,
	.get_dma_mr = mrc_get_dma_mr,
	.reg_user_mr = mrc_reg_user_mr,
};
