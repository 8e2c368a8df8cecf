// SPDX-License-Identifier: GPL-2.0-only
/*
 * Following the planes' netdevs: carrier and up/down change a plane's
 * operational state (and with it the RDMA port state); a plane whose netdev
 * unregisters (deleted, or moved to another namespace) is removed, and when
 * that is plane 1 the whole instance goes.
 */

#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/rtnetlink.h>

#include "mrc.h"
#include "nl_event.h"

/* Plane 1's netdev is going: the instance goes with it. */
static void mrc_netdev_gone_link(struct mrc_dev *mdev)
{
	mdev->dying = true;
	/* Not registered yet: mrc_newlink() sees @dying and unregisters.
	 * Otherwise queue the unregistration: it must not run under RTNL.
	 * Skip it if an unregistration already started (refcount zero).
	 */
	if (mdev->registered && ib_device_try_get(&mdev->ibdev)) {
		ib_unregister_device_queued(&mdev->ibdev);
		ib_device_put(&mdev->ibdev);
	}
}

static void mrc_netdev_gone(struct mrc_plane *plane)
{
	struct mrc_dev *mdev = plane->mdev;

	if (plane->id == 1) {
		mrc_netdev_gone_link(mdev);
		return;
	}
	RCU_INIT_POINTER(mdev->planes[plane->id], NULL);
	mdev->nr_planes--;
	if (mdev->registered)
		mrc_genl_event_plane(plane, MRC_EVENT_PLANE_DEL);
	mrc_plane_release(plane);
	mrc_dev_update_port(mdev);
}

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct mrc_plane *plane;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_UNREGISTER:
		break;
	default:
		return NOTIFY_DONE;
	}

	mutex_lock(&mrc_cfg_lock);
	plane = mrc_plane_find_ndev(mrc_net(dev_net(ndev)), ndev);
	if (plane) {
		if (event == NETDEV_UNREGISTER)
			mrc_netdev_gone(plane);
		else
			mrc_plane_refresh(plane);
	}
	mutex_unlock(&mrc_cfg_lock);
	return NOTIFY_DONE;
}

static struct notifier_block mrc_netdev_nb = {
	.notifier_call = mrc_netdev_event,
};

int mrc_netdev_init(void)
{
	return register_netdevice_notifier(&mrc_netdev_nb);
}

void mrc_netdev_exit(void)
{
	unregister_netdevice_notifier(&mrc_netdev_nb);
}
