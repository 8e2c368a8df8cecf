// SPDX-License-Identifier: GPL-2.0-only
/*
 * Software MRC (Multipath Reliable Connection) for Linux: module entry.
 *
 * Registration order matters: the rdma_rxe guard comes first (so rxe cannot
 * slip in while we set up), the "rdma link add" hook last (so no instance can
 * exist before everything it needs is in place).  Exit runs in reverse.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>

#include "mrc.h"

static int __init mrc_init(void)
{
	int err;

	if (!mrc_udp_port) {
		pr_err("udp_port must not be 0\n");
		return -EINVAL;
	}

	err = mrc_conflict_init();
	if (err)
		return err;
	err = mrc_pernet_init();
	if (err)
		goto err_conflict;
	err = mrc_netdev_init();
	if (err)
		goto err_pernet;
	err = mrc_genl_init();
	if (err)
		goto err_netdev;
	err = mrc_device_init();
	if (err)
		goto err_genl;

	pr_info("loaded (UDP port %u)\n", mrc_udp_port);
	return 0;

err_genl:
	mrc_genl_exit();
err_netdev:
	mrc_netdev_exit();
err_pernet:
	mrc_pernet_exit();
err_conflict:
	mrc_conflict_exit();
	return err;
}

static void __exit mrc_exit(void)
{
	/* Removes every instance; their teardown still sends events. */
	mrc_device_exit();
	mrc_genl_exit();
	mrc_netdev_exit();
	mrc_pernet_exit();
	mrc_conflict_exit();
	/* Planes are freed by RCU callbacks that run module code. */
	rcu_barrier();
	pr_info("unloaded\n");
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_DESCRIPTION("Software MRC (Multipath Reliable Connection) RDMA transport");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_LINK("mrc");
MODULE_ALIAS_GENL_FAMILY(MRC_GENL_NAME);
