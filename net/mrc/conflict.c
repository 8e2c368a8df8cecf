// SPDX-License-Identifier: GPL-2.0-only
/*
 * mrc and rdma_rxe must never be loaded together.
 *
 * Both report driver_id RDMA_DRIVER_RXE so that the stock rdma-core rxe
 * provider drives our devices.  rdma_rxe, however, finds "its" devices by
 * that driver id (ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE)) and casts
 * them to its own structure, and its module exit calls
 * ib_unregister_driver(RDMA_DRIVER_RXE), which would remove our devices
 * behind our back.  So: refuse to load while rdma_rxe is present, and while
 * we are loaded refuse rdma_rxe's load from a module notifier.
 *
 * The notifier is registered before the check, so the only gap is an
 * rdma_rxe load that passed its own notifier call but has not created its
 * /sys/module entry yet at the moment of our check: both modules being
 * loaded at the same instant.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/string.h>

#include "mrc.h"

#define MRC_RXE_MODULE	"rdma_rxe"

static int mrc_module_event(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct module *mod = data;

	if (action != MODULE_STATE_COMING || strcmp(mod->name, MRC_RXE_MODULE))
		return NOTIFY_DONE;

	pr_err("mrc is loaded; mrc and rdma_rxe share the rxe user ABI and cannot run together: rmmod mrc first\n");
	return notifier_from_errno(-EBUSY);
}

static struct notifier_block mrc_module_nb = {
	.notifier_call = mrc_module_event,
};

/* Whether rdma_rxe is loaded.  find_module() is not exported; every loaded
 * module has a kobject in the "module" kset (/sys/module), which our own
 * module kobject belongs to, so look the name up there.
 */
static bool mrc_rxe_loaded(void)
{
	struct kset *modules = THIS_MODULE->mkobj.kobj.kset;
	struct kobject *kobj;

	if (WARN_ON_ONCE(!modules))
		return false;
	kobj = kset_find_obj(modules, MRC_RXE_MODULE);
	if (!kobj)
		return false;
	kobject_put(kobj);
	return true;
}

int mrc_conflict_init(void)
{
	int err;

	/* Notifier first: an rdma_rxe load racing with us is refused too. */
	err = register_module_notifier(&mrc_module_nb);
	if (err)
		return err;

	if (mrc_rxe_loaded()) {
		pr_err("rdma_rxe is loaded; mrc and rdma_rxe share the rxe user ABI and cannot run together: rmmod rdma_rxe first\n");
		unregister_module_notifier(&mrc_module_nb);
		return -EBUSY;
	}
	return 0;
}

void mrc_conflict_exit(void)
{
	unregister_module_notifier(&mrc_module_nb);
}
