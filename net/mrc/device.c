// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ib_device of an MRC instance: "rdma link add NAME type mrc netdev X"
 * creates it with X as plane 1; its single RDMA port is a RoCEv2 (UDP
 * encapsulated) port whose GIDs the RDMA core derives from X's addresses.
 *
 * The device speaks the rxe user ABI (driver_id RDMA_DRIVER_RXE) so that the
 * stock rdma-core rxe provider opens it.  Kernel consumers are served too
 * (kverbs.c): the port is a full RoCEv2 port for the IB core, with the MAD
 * and CM capabilities, so the MAD layer opens QP1 (the GSI QP, a UD QP of
 * ours) and the CM and rdma_cm run over it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/rdma_netlink.h>

#include "mrc.h"
#include "nl_event.h"
#include "verbs.h"

/* The user ABI version of the rxe provider (drivers/infiniband/sw/rxe/rxe.h,
 * not exported in a header).
 */
#define MRC_RXE_UVERBS_ABI_VERSION	2

/* Plane 1's netdev; the caller holds mrc_cfg_lock or the RCU read lock. */
static struct net_device *mrc_dev_link_ndev(struct mrc_dev *mdev)
{
	struct mrc_plane *plane;

	plane = rcu_dereference_check(mdev->planes[1],
				      lockdep_is_held(&mrc_cfg_lock));
	return plane ? plane->ndev : NULL;
}

static int mrc_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *uhw)
{
	/* No vendor extension exists: refuse unknown input or output. */
	if (uhw->inlen || uhw->outlen)
		return -EINVAL;

	*attr = to_mdev(ibdev)->attr;
	return 0;
}

/* RDMA path MTU: the netdev MTU minus the worst-case MRC headers. */
enum ib_mtu mrc_path_mtu(unsigned int ndev_mtu)
{
	int payload = (int)ndev_mtu - MRC_MAX_HDR_LEN;

	if (payload < 256)
		return IB_MTU_256;
	return min_t(enum ib_mtu, ib_mtu_int_to_enum(payload), IB_MTU_4096);
}

static int mrc_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	struct net_device *ndev;
	bool active;

	/* The caller zeroed *attr. */
	active = READ_ONCE(mdev->port_active);
	attr->state = active ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = active ? IB_PORT_PHYS_STATE_LINK_UP :
				    IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_256;
	attr->gid_tbl_len = MRC_GID_TBL_LEN;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = MRC_MAX_MSG_SIZE;
	/* The CM runs on QP1 (ib_cm, rdma_cm). */
	attr->port_cap_flags = IB_PORT_CM_SUP;

	rcu_read_lock();
	ndev = mrc_dev_link_ndev(mdev);
	if (ndev)
		attr->active_mtu = mrc_path_mtu(READ_ONCE(ndev->mtu));
	rcu_read_unlock();

	/* Speed and width of plane 1's netdev, via ethtool (takes RTNL).  It
	 * fails only when the netdev is already gone, while the instance is
	 * being removed: report the slowest rate rather than an error.
	 */
	if (ib_get_eth_speed(ibdev, port, &attr->active_speed,
			     &attr->active_width)) {
		attr->active_speed = IB_SPEED_SDR;
		attr->active_width = IB_WIDTH_1X;
	}
	return 0;
}

static int mrc_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey)
{
	/* RoCE has a single, full-membership default partition. */
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static enum rdma_link_layer mrc_get_link_layer(struct ib_device *ibdev,
					       u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int mrc_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	/* RoCEv2 addressing (GIDs from the netdev's IP addresses) with the
	 * MAD and CM capabilities: the MAD layer opens QP1 on the port
	 * (a GSI QP, carried as UD datagrams: kverbs.c, ud.c), the CM and
	 * rdma_cm bind to it.  No SMI: RoCE has no subnet management.
	 */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = MRC_GID_TBL_LEN;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static int mrc_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibuc->device);

	return mrc_obj_limit_get(&mdev->nr_ucontext, MRC_MAX_UCONTEXT);
}

static void mrc_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	mrc_obj_limit_put(&to_mdev(ibuc->device)->nr_ucontext);
}

static int mrc_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibpd->device);

	/* A kernel PD (the MAD layer's) is not counted in the users' limit. */
	to_mpd(ibpd)->kernel = !udata;
	return udata ? mrc_obj_limit_get(&mdev->nr_pd, MRC_MAX_PD) : 0;
}

static int mrc_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	if (!to_mpd(ibpd)->kernel)
		mrc_obj_limit_put(&to_mdev(ibpd->device)->nr_pd);
	return 0;
}

/* The core is taking a live user context away (the instance is being
 * removed while a program still has it open): it zaps the ring mappings
 * (rdma_user_mmap_entry) and destroys every object through the normal
 * destroy verbs, which flush outstanding work.  Nothing else is tied to
 * the process, so there is nothing to do here; offering the op is what
 * lets "rdma link del", netdev removal and namespace teardown finish
 * without waiting for the program to exit.
 */
static void mrc_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

static int mrc_enable_driver(struct ib_device *ibdev)
{
	struct mrc_dev *mdev = to_mdev(ibdev);

	/* Initial port state, before the core's clients first query it; the
	 * port events start once mrc_newlink() marks the device registered.
	 */
	mutex_lock(&mrc_cfg_lock);
	mrc_dev_update_port(mdev);
	mutex_unlock(&mrc_cfg_lock);
	return 0;
}

/* The single teardown path of an instance (see mrc.h).  Called by the core
 * in process context after every client is gone, or by ib_dealloc_device()
 * when registration failed.
 */
static void mrc_dealloc_driver(struct ib_device *ibdev)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	struct mrc_plane *plane;
	bool announce;
	u32 id;

	mutex_lock(&mrc_cfg_lock);
	announce = mdev->registered;
	mdev->registered = false;
	mdev->dying = true;
	list_del_init(&mdev->node);
	/* Routes first: they name planes. */
	mrc_route_flush(mdev, announce);
	/* Then the profiles the routes named. */
	mrc_profiles_flush(mdev, announce);
	for (id = MRC_MAX_PLANES; id >= 1; id--) {
		plane = mrc_plane_get_locked(mdev, id);
		if (!plane)
			continue;
		if (announce)
			mrc_genl_event_plane(plane, MRC_EVENT_PLANE_DEL);
		RCU_INIT_POINTER(mdev->planes[id], NULL);
		mdev->nr_planes--;
		mrc_plane_release(plane);
	}
	if (announce)
		mrc_genl_event_dev(mdev, MRC_EVENT_DEV_DEL);
	if (mdev->has_sock)
		mrc_net_sock_put(mdev->mnet);
	mdev->has_sock = false;
	mutex_unlock(&mrc_cfg_lock);
}

static const struct ib_device_ops mrc_dev_ops = {
	.owner = THIS_MODULE,
	/* The rdma-core rxe provider binds by this id; see conflict.c. */
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = MRC_RXE_UVERBS_ABI_VERSION,

	.alloc_pd = mrc_alloc_pd,
	.alloc_ucontext = mrc_alloc_ucontext,
	.dealloc_driver = mrc_dealloc_driver,
	.dealloc_pd = mrc_dealloc_pd,
	.dealloc_ucontext = mrc_dealloc_ucontext,
	.disassociate_ucontext = mrc_disassociate_ucontext,
	.enable_driver = mrc_enable_driver,
	.get_link_layer = mrc_get_link_layer,
	.get_port_immutable = mrc_get_port_immutable,
	.query_device = mrc_query_device,
	.query_pkey = mrc_query_pkey,
	.query_port = mrc_query_port,

	INIT_RDMA_OBJ_SIZE(ib_pd, mrc_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, mrc_ucontext, ibuc),
};

static void mrc_dev_init_attr(struct mrc_dev *mdev, struct net_device *ndev)
{
	struct ib_device_attr *attr = &mdev->attr;
	struct ib_device *ibdev = &mdev->ibdev;

	/* IEEE "no vendor", as soft-RoCE reports. */
	attr->vendor_id = 0xffffff;
	attr->device_cap_flags = IB_DEVICE_PORT_ACTIVE_EVENT |
				 IB_DEVICE_SYS_IMAGE_GUID |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B |
				 IB_DEVICE_SRQ_RESIZE;
	/* "rdma link del" may remove the device. */
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_pd = MRC_MAX_PD;
	attr->max_pkeys = 1;
	attr->max_mr_size = MRC_MAX_MR_SIZE;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = MRC_MAX_QP;
	attr->max_qp_wr = MRC_MAX_QP_WR;
	attr->max_send_sge = MRC_MAX_SGE;
	attr->max_recv_sge = MRC_MAX_SGE;
	attr->max_sge_rd = MRC_MAX_SGE;
	attr->max_cq = MRC_MAX_CQ;
	attr->max_cqe = MRC_MAX_CQE;
	attr->max_mr = MRC_MAX_MR;
	attr->max_mw = MRC_MAX_MW;
	attr->max_ah = MRC_MAX_AH;
	attr->max_srq = MRC_MAX_SRQ;
	attr->max_srq_wr = MRC_MAX_QP_WR;
	attr->max_srq_sge = MRC_MAX_SGE;
	attr->max_qp_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = MRC_MAX_RD_ATOMIC * MRC_MAX_QP;
	/* Atomics are serialised per MR against each other (not against the
	 * CPU): the verbs' IB_ATOMIC_HCA.
	 */
	attr->atomic_cap = IB_ATOMIC_HCA;
	addrconf_addr_eui48((unsigned char *)&attr->sys_image_guid,
			    ndev->dev_addr);

	strscpy(ibdev->node_desc, "mrc", sizeof(ibdev->node_desc));
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = 1;
	/* Legacy write() commands the rxe provider issues that the core does
	 * not enable by default: the send doorbell and CQ arming.
	 */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	ibdev->local_dma_lkey = 0;
	ibdev->node_guid = attr->sys_image_guid;
	ib_set_device_ops(ibdev, &mrc_dev_ops);
	/* Each verbs file brings its own ops (verbs.h). */
	ib_set_device_ops(ibdev, &mrc_queue_ops);
	ib_set_device_ops(ibdev, &mrc_cq_ops);
	ib_set_device_ops(ibdev, &mrc_mr_ops);
	ib_set_device_ops(ibdev, &mrc_mw_ops);
	ib_set_device_ops(ibdev, &mrc_ah_ops);
	ib_set_device_ops(ibdev, &mrc_qp_ops);
	ib_set_device_ops(ibdev, &mrc_srq_ops);
	ib_set_device_ops(ibdev, &mrc_counter_ops);
	/* The MRC methods (uverbs_mrc.c, include/uapi/rdma/mrc-abi.h). */
	ibdev->driver_def = mrc_uapi_defs;
}

/* Recompute the RDMA port state: active while at least one plane is
 * operationally up (MRC keeps connections alive over any surviving plane).
 * Caller holds mrc_cfg_lock.
 */
void mrc_dev_update_port(struct mrc_dev *mdev)
{
	struct mrc_plane *plane;
	struct ib_event ev = {};
	bool active = false;
	u32 id;

	lockdep_assert_held(&mrc_cfg_lock);

	for (id = 1; id <= MRC_MAX_PLANES; id++) {
		plane = mrc_plane_get_locked(mdev, id);
		if (plane && plane->oper_up)
			active = true;
	}
	if (active == mdev->port_active)
		return;
	WRITE_ONCE(mdev->port_active, active);
	/* ib_dispatch_event() only queues work that uses the device later.
	 * Holding a registration reference makes sure the core's unregister
	 * path has not passed the flush of that work yet; without it a
	 * carrier change racing "rdma link del" could queue work on a freed
	 * device.
	 */
	if (!mdev->registered || !ib_device_try_get(&mdev->ibdev))
		return;

	ev.device = &mdev->ibdev;
	ev.element.port_num = 1;
	ev.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
	ib_dispatch_event(&ev);
	ib_device_put(&mdev->ibdev);
}

/* A visible instance of namespace @mn by ib_device name, or by index
 * when @name is NULL.  Caller holds mrc_cfg_lock.
 */
struct mrc_dev *mrc_dev_find(struct mrc_net *mn, const char *name, u32 index)
{
	struct mrc_dev *mdev;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry(mdev, &mn->devs, node) {
		if (!mrc_dev_visible(mdev))
			continue;
		if (name ? !strcmp(mrc_dev_name(mdev), name) :
			   mdev->ibdev.index == index)
			return mdev;
	}
	return NULL;
}

static int mrc_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct mrc_dev *mdev;
	bool dying;
	int err;

	mdev = ib_alloc_device(mrc_dev, ibdev);
	if (!mdev)
		return -ENOMEM;
	INIT_LIST_HEAD(&mdev->node);
	INIT_LIST_HEAD(&mdev->routes);
	xa_init(&mdev->ev_profiles);
	xa_init(&mdev->cc_profiles);
	xa_init_flags(&mdev->mrs, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->mws, XA_FLAGS_ALLOC);
	/* Its lock is taken with BH off: the UD doorbell looks AHs up
	 * under qp->lock, which the receive softirq takes (ud.c).
	 */
	xa_init_flags(&mdev->ahs, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	xa_init_flags(&mdev->srqs, XA_FLAGS_ALLOC);
	mrc_dev_init_attr(mdev, ndev);

	/* Under RTNL the netdev cannot go away unseen: either it is still
	 * registered here, or our notifier will see its NETDEV_UNREGISTER
	 * and find the instance on the list.
	 */
	rtnl_lock();
	mutex_lock(&mrc_cfg_lock);
	/* Only under RTNL: the netdev may have moved to another netns since
	 * the core looked it up, and that netns may be on its way out.
	 */
	mdev->mnet = mrc_net(dev_net(ndev));
	err = mrc_net_sock_get(mdev->mnet);
	if (!err) {
		mdev->has_sock = true;
		err = mrc_plane_add(mdev, ndev, 1, NULL);
	}
	if (!err)
		list_add_tail(&mdev->node, &mdev->mnet->devs);
	mutex_unlock(&mrc_cfg_lock);
	rtnl_unlock();
	if (err)
		goto err_dealloc;

	err = ib_device_set_netdev(&mdev->ibdev, ndev, 1);
	if (err)
		goto err_dealloc;

	/* Keeps @mdev's memory ours if "rdma link del" races with us. */
	get_device(&mdev->ibdev.dev);
	err = ib_register_device(&mdev->ibdev, ibdev_name, NULL);
	if (err) {
		put_device(&mdev->ibdev.dev);
		pr_err("%s: cannot register RDMA device: %d\n", ibdev_name, err);
		goto err_dealloc;
	}

	mutex_lock(&mrc_cfg_lock);
	dying = mdev->dying;
	if (!dying) {
		mdev->registered = true;
		mrc_genl_event_dev(mdev, MRC_EVENT_DEV_ADD);
		mrc_genl_event_plane(mrc_plane_get_locked(mdev, 1),
				     MRC_EVENT_PLANE_ADD);
		mrc_dev_update_port(mdev);
	}
	mutex_unlock(&mrc_cfg_lock);

	if (dying) {
		/* The netdev went away during registration. */
		ib_unregister_device(&mdev->ibdev);
		err = -ENODEV;
	} else {
		dev_info(&mdev->ibdev.dev, "created on %s\n", netdev_name(ndev));
	}
	put_device(&mdev->ibdev.dev);
	return err;

err_dealloc:
	ib_dealloc_device(&mdev->ibdev);
	return err;
}

static struct rdma_link_ops mrc_link_ops = {
	.type = "mrc",
	.newlink = mrc_newlink,
};

/* Unregister every instance of @mn and wait until each one's teardown has
 * run (see mrc_net_exit()).
 */
void mrc_dev_unregister_all(struct mrc_net *mn)
{
	struct mrc_dev *mdev;
	bool registered;

	for (;;) {
		mutex_lock(&mrc_cfg_lock);
		mdev = list_first_entry_or_null(&mn->devs, struct mrc_dev, node);
		if (mdev) {
			get_device(&mdev->ibdev.dev);
			registered = mdev->registered;
		}
		mutex_unlock(&mrc_cfg_lock);
		if (!mdev)
			return;
		if (registered) {
			/* Fenced against a concurrent (queued) unregistration
			 * by the core: when this returns, dealloc_driver has
			 * run and @mdev has left the list.
			 */
			ib_unregister_device(&mdev->ibdev);
		} else {
			/* mrc_newlink() is still registering it, and will
			 * remove it (its netdev left with the namespace).
			 */
			schedule_timeout_uninterruptible(1);
		}
		put_device(&mdev->ibdev.dev);
	}
}

int mrc_device_init(void)
{
	rdma_link_register(&mrc_link_ops);
	return 0;
}

void mrc_device_exit(void)
{
	/* No newlink runs after this returns (the core's link_ops_rwsem). */
	rdma_link_unregister(&mrc_link_ops);
	/* Every RDMA_DRIVER_RXE device is ours: rdma_rxe cannot be loaded. */
	ib_unregister_driver(RDMA_DRIVER_RXE);
}
