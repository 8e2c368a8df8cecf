// SPDX-License-Identifier: GPL-2.0-only
/*
 * Planes: the netdevs an instance sprays over.  Plane N is one netdev of the
 * instance's network namespace; plane 1 is the "rdma link add" netdev and
 * lives as long as the instance.  A netdev serves at most one plane of one
 * instance.
 *
 * All functions here run under mrc_cfg_lock (asserted).  Binding a netdev
 * (mrc_plane_add()) also needs RTNL (asserted), so that a netdev found
 * registered cannot unregister before it is on a plane table, where the
 * netdevice notifier will find it.  Unbinding needs no RTNL: the plane
 * holds a reference on its netdev, and the notifier takes mrc_cfg_lock
 * too (PLANE_DEL and "rdma link del" come without RTNL).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "mrc.h"
#include "nl_event.h"

static bool mrc_ndev_carrier(const struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev);
}

/* Whether @ndev can carry a plane at all; sets an extack message if not. */
bool mrc_plane_ndev_ok(const struct net_device *ndev,
		       struct netlink_ext_ack *extack)
{
	if (ndev->reg_state != NETREG_REGISTERED) {
		NL_SET_ERR_MSG(extack, "netdev is being removed");
		return false;
	}
	/* RoCEv2 framing: UDP/IP over an Ethernet-like link. */
	if (ndev->type != ARPHRD_ETHER || (ndev->flags & IFF_LOOPBACK)) {
		NL_SET_ERR_MSG(extack, "plane netdev must be an Ethernet device");
		return false;
	}
	return true;
}

/* The plane that uses @ndev, in any instance of @mn; NULL if none. */
struct mrc_plane *mrc_plane_find_ndev(struct mrc_net *mn,
				      const struct net_device *ndev)
{
	struct mrc_plane *plane;
	struct mrc_dev *mdev;
	u32 id;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry(mdev, &mn->devs, node) {
		for (id = 1; id <= MRC_MAX_PLANES; id++) {
			plane = mrc_plane_get_locked(mdev, id);
			if (plane && plane->ndev == ndev)
				return plane;
		}
	}
	return NULL;
}

/* Recompute the plane's operational state (admin up and carrier) and
 * announce a change.  Returns true if it changed.
 */
bool mrc_plane_refresh(struct mrc_plane *plane)
{
	bool oper = plane->admin_up && mrc_ndev_carrier(plane->ndev);
	struct mrc_dev *mdev = plane->mdev;

	lockdep_assert_held(&mrc_cfg_lock);

	if (oper == plane->oper_up)
		return false;
	plane->oper_up = oper;
	mrc_qp_plane_changed(mdev, plane->id, plane->ndev->ifindex, oper);
	if (mdev->registered)
		mrc_genl_event_plane(plane, oper ? MRC_EVENT_PLANE_UP :
						   MRC_EVENT_PLANE_DOWN);
	mrc_dev_update_port(mdev);
	return true;
}

static void mrc_plane_free_rcu(struct rcu_head *head)
{
	struct mrc_plane *plane = container_of(head, struct mrc_plane, rcu);

	netdev_put(plane->ndev, &plane->ndev_tracker);
	kfree(plane);
}

/* Free a plane already removed from its table.  The netdev reference goes
 * with the RCU grace period, so datapath readers never see a freed netdev.
 * Every path that removes a plane ends here, so the routes' hops on the
 * plane are dropped here too (route.c; a dying instance has none left).
 */
void mrc_plane_release(struct mrc_plane *plane)
{
	lockdep_assert_held(&mrc_cfg_lock);

	/* Already out of the table: QPs see it down from now on. */
	mrc_qp_plane_changed(plane->mdev, plane->id, 0, false);

	mrc_route_plane_gone(plane->mdev, plane->id);
	call_rcu(&plane->rcu, mrc_plane_free_rcu);
}

/* The planes that can carry traffic: attached, admin and carrier up. */
u16 mrc_plane_up_mask(struct mrc_dev *mdev)
{
	struct mrc_plane *plane;
	u16 mask = 0;
	u32 id;

	lockdep_assert_held(&mrc_cfg_lock);

	for (id = 1; id <= MRC_MAX_PLANES; id++) {
		plane = mrc_plane_get_locked(mdev, id);
		if (plane && plane->oper_up)
			mask |= BIT(id - 1);
	}
	return mask;
}

static u32 mrc_plane_free_id(struct mrc_dev *mdev)
{
	u32 id;

	/* Plane 1 is reserved for the instance's own netdev. */
	for (id = 2; id <= MRC_MAX_PLANES; id++)
		if (!mrc_plane_get_locked(mdev, id))
			return id;
	return 0;
}

/* Attach @ndev to @mdev as plane @id (0: the lowest free id from 2).  Caller
 * holds RTNL and mrc_cfg_lock; @ndev must be in the instance's namespace.
 */
int mrc_plane_add(struct mrc_dev *mdev, struct net_device *ndev, u32 id,
		  struct netlink_ext_ack *extack)
{
	struct mrc_plane *plane;

	ASSERT_RTNL();
	lockdep_assert_held(&mrc_cfg_lock);

	if (mdev->dying) {
		NL_SET_ERR_MSG(extack, "device is being removed");
		return -ENODEV;
	}
	if (!net_eq(dev_net(ndev), mdev->mnet->net)) {
		NL_SET_ERR_MSG(extack,
			       "netdev is in another network namespace than the device");
		return -EXDEV;
	}
	if (!mrc_plane_ndev_ok(ndev, extack)) {
		if (!extack)
			pr_err("%s cannot carry an MRC plane (not a registered Ethernet device)\n",
			       netdev_name(ndev));
		return ndev->reg_state != NETREG_REGISTERED ? -ENODEV : -EINVAL;
	}
	plane = mrc_plane_find_ndev(mdev->mnet, ndev);
	if (plane) {
		NL_SET_ERR_MSG(extack,
			       "netdev is already a plane of an MRC device");
		if (!extack)
			pr_err("%s is already plane %u of %s\n",
			       netdev_name(ndev), plane->id,
			       mrc_dev_name(plane->mdev));
		return -EBUSY;
	}
	if (!id) {
		id = mrc_plane_free_id(mdev);
		if (!id) {
			NL_SET_ERR_MSG(extack, "device has no free plane id");
			return -ENOSPC;
		}
	} else if (id > MRC_MAX_PLANES) {
		NL_SET_ERR_MSG(extack, "plane id out of range");
		return -ERANGE;
	} else if (mrc_plane_get_locked(mdev, id)) {
		NL_SET_ERR_MSG(extack, "plane id already in use");
		return -EEXIST;
	}

	plane = kzalloc(sizeof(*plane), GFP_KERNEL);
	if (!plane)
		return -ENOMEM;
	plane->mdev = mdev;
	plane->id = id;
	plane->ndev = ndev;
	netdev_hold(ndev, &plane->ndev_tracker, GFP_KERNEL);
	plane->admin_up = true;
	plane->oper_up = mrc_ndev_carrier(ndev);

	rcu_assign_pointer(mdev->planes[id], plane);
	mdev->nr_planes++;
	if (plane->oper_up)
		mrc_qp_plane_changed(mdev, id, ndev->ifindex, true);
	if (mdev->registered) {
		mrc_genl_event_plane(plane, MRC_EVENT_PLANE_ADD);
		mrc_dev_update_port(mdev);
	}
	return 0;
}

/* Detach plane @id from @mdev.  Caller holds mrc_cfg_lock (not RTNL: see
 * the top of this file).
 */
int mrc_plane_del(struct mrc_dev *mdev, u32 id, struct netlink_ext_ack *extack)
{
	struct mrc_plane *plane;

	lockdep_assert_held(&mrc_cfg_lock);

	plane = id <= MRC_MAX_PLANES ? mrc_plane_get_locked(mdev, id) : NULL;
	if (!plane) {
		NL_SET_ERR_MSG(extack, "no such plane");
		return -ENOENT;
	}
	if (id == 1) {
		/* Plane 1 carries the device's GIDs and lives with it. */
		if (mdev->nr_planes > 1)
			NL_SET_ERR_MSG(extack,
				       "plane 1 is the device's own netdev: delete the other planes, then the device (rdma link del)");
		else
			NL_SET_ERR_MSG(extack,
				       "plane 1 is the device's own netdev: remove the device with rdma link del");
		return -EBUSY;
	}

	RCU_INIT_POINTER(mdev->planes[id], NULL);
	mdev->nr_planes--;
	mrc_genl_event_plane(plane, MRC_EVENT_PLANE_DEL);
	mrc_plane_release(plane);
	mrc_dev_update_port(mdev);
	return 0;
}

/* Set the administrative state of plane @id.  Caller holds mrc_cfg_lock. */
int mrc_plane_set_admin(struct mrc_dev *mdev, u32 id, bool up,
			struct netlink_ext_ack *extack)
{
	struct mrc_plane *plane;
	bool was_up;

	lockdep_assert_held(&mrc_cfg_lock);

	plane = id <= MRC_MAX_PLANES ? mrc_plane_get_locked(mdev, id) : NULL;
	if (!plane) {
		NL_SET_ERR_MSG(extack, "no such plane");
		return -ENOENT;
	}
	was_up = plane->admin_up;
	WRITE_ONCE(plane->admin_up, up);
	/* Taking a plane down administratively is announced even when its
	 * carrier was already down (oper state unchanged).
	 */
	if (!mrc_plane_refresh(plane) && was_up && !up)
		mrc_genl_event_plane(plane, MRC_EVENT_PLANE_DOWN);
	return 0;
}
