// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rings shared with userspace in the rxe layout (struct rxe_queue_buf),
 * and the mmap device ops through which the rxe provider maps them.
 *
 * Accounting: a ring is the user's memory for as long as the verbs object
 * lives, so it is charged to the creating process's memory cgroup
 * (MRC_GFP_USER).  A kernel consumer's ring is the kernel's
 * (MRC_GFP_KOBJ): QP1 is created by whichever process ran "rdma link
 * add", and must not stay charged to its cgroup.  6.1 exports neither
 * a vmalloc_user() that takes gfp flags nor __vmalloc_node_range(), and
 * remap_vmalloc_range() refuses an area without VM_USERMAP, which only
 * vmalloc_user() sets: so the ring comes from __vmalloc() (zeroed) and
 * mrc_mmap() inserts its pages itself (mrc_queue_remap()), the same
 * vm_insert_page() walk that remap_vmalloc_range() does.
 *
 * Lifetime of a ring's memory: the buffer comes from __vmalloc() and is
 * mapped into the user's address space page by page with
 * vm_insert_page().  In 6.1 that takes a page
 * reference per mapped page (insert_page_into_pte_locked(): get_page()),
 * and vfree() only drops the vmalloc area's own reference on each order-0
 * page (__vunmap() -> __free_pages(page, 0) -> put_page_testzero()).  So
 * an existing user mapping keeps its pages, and vfree() with the ring
 * still mapped would be safe by itself.
 *
 * It is not safe against an mmap() in flight, though: mrc_mmap() holds
 * only a reference on the mmap entry while mrc_queue_remap() walks
 * the vmalloc area, and rdma_user_mmap_entry_remove() does not wait for
 * it.  Freeing in mrc_queue_cleanup() could vfree() the area under that
 * walk (destroy_cq and mmap() of the same ring from two threads).  So
 * once a ring is published its buffer belongs to the mmap entry and is
 * freed by mrc_mmap_free(), which the core calls when the entry is both
 * removed and no longer referenced by an mmap() call; in the usual case
 * that is synchronously inside rdma_user_mmap_entry_remove().  Mappings
 * made before keep their pages through the page references above.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mrc.h"
#include "verbs.h"

/* Bound on one ring's buffer: far above any ring the limits of verbs.h
 * allow (32768 CQEs of 64 bytes is 2 MiB), and low enough that the slot
 * arithmetic below cannot overflow and mminfo.size (u32) holds it.
 */
#define MRC_QUEUE_MAX_BYTES	(256UL << 20)

/* An mmap entry of the RDMA core that knows which buffer it maps. */
struct mrc_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	void *buf;			/* const; owned: vfree()d in mmap_free */
};

static struct mrc_mmap_entry *to_mmap_entry(struct rdma_user_mmap_entry *e)
{
	return container_of(e, struct mrc_mmap_entry, rdma);
}

int mrc_queue_init(struct mrc_queue *q, u32 num_elem, u32 elem_size,
		   u32 *capacity)
{
	return mrc_queue_init_gfp(q, num_elem, elem_size, capacity,
				  MRC_GFP_USER);
}

int mrc_queue_init_gfp(struct mrc_queue *q, u32 num_elem, u32 elem_size,
		       u32 *capacity, gfp_t gfp)
{
	unsigned long slots, elem, size;

	/* num_elem 0 (a QP's queue of depth 0) gives one slot, index_mask
	 * 0: the ring is always full for its producer and always empty for
	 * its consumer, as rxe's.  The callers refuse 0 where it makes no
	 * sense (a CQ).
	 */
	if (!elem_size)
		return -EINVAL;
	/* Checked before rounding: roundup_pow_of_two() of values above
	 * 2^31 is undefined for 32-bit longs and pointless here.
	 */
	if (num_elem >= MRC_QUEUE_MAX_BYTES || elem_size > MRC_QUEUE_MAX_BYTES)
		return -EINVAL;

	/* One slot always stays empty so that full and empty differ. */
	slots = roundup_pow_of_two((unsigned long)num_elem + 1);
	elem = roundup_pow_of_two(elem_size);
	if (slots > MRC_QUEUE_MAX_BYTES / elem)
		return -EINVAL;
	size = PAGE_ALIGN(sizeof(struct rxe_queue_buf) + slots * elem);
	if (size > MRC_QUEUE_MAX_BYTES)
		return -EINVAL;

	/* Zeroed: the user sees no stale kernel memory in the slots. */
	q->buf = __vmalloc(size, gfp | __GFP_ZERO);
	if (!q->buf)
		return -ENOMEM;
	q->buf_size = size;
	q->log2_elem_size = order_base_2(elem);
	q->index_mask = slots - 1;
	q->index = 0;
	q->mmap = NULL;

	/* The provider reads the geometry from the shared header. */
	q->buf->log2_elem_size = q->log2_elem_size;
	q->buf->index_mask = q->index_mask;
	q->buf->producer_index = 0;
	q->buf->consumer_index = 0;

	*capacity = q->index_mask;
	return 0;
}

int mrc_queue_publish(struct mrc_queue *q, struct ib_ucontext *uctx,
		      struct mminfo *mi)
{
	struct mrc_mmap_entry *entry;
	int err;

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;
	entry->buf = q->buf;

	err = rdma_user_mmap_entry_insert(uctx, &entry->rdma, q->buf_size);
	if (err) {
		/* Not inserted: the core never calls mmap_free for it, and
		 * the buffer stays with the queue.
		 */
		kfree(entry);
		return err;
	}
	q->mmap = &entry->rdma;

	mi->offset = rdma_user_mmap_get_offset(q->mmap);
	mi->size = q->buf_size;
	mi->pad = 0;
	return 0;
}

void mrc_queue_cleanup(struct mrc_queue *q)
{
	if (q->mmap) {
		/* The entry owns the buffer now (see the top of this file):
		 * the core frees both through mrc_mmap_free() once no
		 * mmap() call holds the entry any more.
		 */
		rdma_user_mmap_entry_remove(q->mmap);
		q->mmap = NULL;
	} else {
		vfree(q->buf);
	}
	q->buf = NULL;
}

/* Map the @size bytes (page aligned) of ring buffer @buf at @vma. */
static int mrc_queue_remap(struct vm_area_struct *vma, void *buf,
			   size_t size)
{
	size_t off;
	int err;

	for (off = 0; off < size; off += PAGE_SIZE) {
		err = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page(buf + off));
		if (err)
			return err;
	}
	/* As remap_vmalloc_range(): no mremap() growth, no core dump. */
	mrc_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	size_t size = vma->vm_end - vma->vm_start;
	struct rdma_user_mmap_entry *rdma;
	struct mrc_mmap_entry *entry;
	int err;

	/* Looks the entry up by vma->vm_pgoff and takes a reference that
	 * keeps it and its buffer alive (mrc_mmap_free() cannot run before
	 * the put below); refuses private mappings.
	 */
	rdma = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma)
		return -EINVAL;
	entry = to_mmap_entry(rdma);

	/* Whole ring or nothing: the provider maps exactly mi.size. */
	if (size != rdma->npages << PAGE_SHIFT) {
		err = -EINVAL;
		goto out;
	}
	/* vm_pgoff is the core's lookup key, not an offset into the ring. */
	err = mrc_queue_remap(vma, entry->buf, size);
out:
	rdma_user_mmap_entry_put(rdma);
	return err;
}

void mrc_mmap_free(struct rdma_user_mmap_entry *rdma)
{
	struct mrc_mmap_entry *entry = to_mmap_entry(rdma);

	/* Removed and unreferenced: no mmap() is walking the buffer, and
	 * the user's mappings hold their own page references.
	 */
	vfree(entry->buf);
	kfree(entry);
}

const struct ib_device_ops mrc_queue_ops = {
	.mmap = mrc_mmap,
	.mmap_free = mrc_mmap_free,
};
