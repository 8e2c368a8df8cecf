// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address handles.  Only UD work requests use them (RC QPs get their
 * destination from modify_qp), and only RoCE v2 addressing exists: a GRH
 * whose source GID is one of the port's IPv4-mapped or IPv6 GIDs.
 *
 * The rxe provider builds its own copy of the address vector and passes
 * the AH to the kernel by number (ah_num in the send WQE), so every AH gets
 * a number in mdev->ahs, returned in struct rxe_create_ah_resp.
 *
 * The core frees the AH right after destroy_ah returns, without an RCU
 * grace period: the data path must look an AH up under xa_lock(&ahs)
 * (the UD doorbell, ud.c, with qp->lock held) and copy what it needs
 * before unlocking; xa_erase_bh() below takes the same lock.  The lock
 * is a BH one (XA_FLAGS_LOCK_BH): qp->lock, held around the lookup, is
 * also taken by the receive softirq.
 */

#include <rdma/ib_cache.h>

#include "mrc.h"
#include "verbs.h"

static int mrc_ah_check_attr(const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;

	if (rdma_ah_get_port_num(attr) != 1)
		return -EINVAL;
	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;

	/* The core resolved the source GID's attribute for us. */
	grh = rdma_ah_read_grh(attr);
	sgid = grh->sgid_attr;
	if (!sgid || sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	return 0;
}

static int mrc_ah_respond(struct mrc_ah *ah, struct ib_udata *udata)
{
	struct rxe_create_ah_resp resp = { .ah_num = ah->ah_num };

	/* Older providers pass no response buffer and send address vectors
	 * inline; they get nothing back.
	 */
	if (!udata || udata->outlen < sizeof(resp))
		return 0;
	return ib_copy_to_udata(udata, &resp, sizeof(resp));
}

int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibah->device);
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);
	gfp_t gfp = init->flags & RDMA_CREATE_AH_SLEEPABLE ?
		    GFP_KERNEL : GFP_ATOMIC;
	int err;

	err = mrc_ah_check_attr(init->ah_attr);
	if (err)
		return err;

	/* The CM's AHs (kernel, one per MAD exchange) are not counted in
	 * the users' limit.
	 */
	ah->kernel = !udata;
	err = udata ? mrc_obj_limit_get(&mdev->nr_ah, MRC_MAX_AH) : 0;
	if (err)
		return err;

	/* The GID attribute reference in init->ah_attr is the caller's and
	 * dropped after we return; ibah->sgid_attr is the AH's own, held
	 * by the core until the AH is destroyed.
	 */
	ah->attr = *init->ah_attr;
	ah->attr.grh.sgid_attr = ibah->sgid_attr;

	err = xa_alloc_cyclic_bh(&mdev->ahs, &ah->ah_num, ah,
				 XA_LIMIT(1, MRC_MAX_AH), &mdev->ah_next, gfp);
	if (err < 0) {
		if (err == -EBUSY)
			err = -ENOMEM;
		goto err_count;
	}

	err = mrc_ah_respond(ah, udata);
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase_bh(&mdev->ahs, ah->ah_num);
err_count:
	if (udata)
		mrc_obj_limit_put(&mdev->nr_ah);
	return err;
}

int mrc_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct mrc_dev *mdev = to_mdev(ibah->device);
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);

	xa_erase_bh(&mdev->ahs, ah->ah_num);
	if (!ah->kernel)
		mrc_obj_limit_put(&mdev->nr_ah);
	return 0;
}

int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);

	/* rdma_query_ah() hands out no GID attribute reference. */
	*attr = ah->attr;
	attr->grh.sgid_attr = NULL;
	return 0;
}

const struct ib_device_ops mrc_ah_ops = {
	.create_ah = mrc_create_ah,
	.create_user_ah = mrc_create_ah,
	.destroy_ah = mrc_destroy_ah,
	.query_ah = mrc_query_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, mrc_ah, ibah),
};
