// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per network namespace state.  An instance belongs to the namespace its
 * plane-1 netdev lived in when it was created; netlink requests only see the
 * instances of the caller's namespace, and the namespace's teardown removes
 * them.
 */

#include <linux/list.h>
#include <net/netns/generic.h>

#include "mrc.h"

static unsigned int mrc_net_id __read_mostly;

struct mrc_net *mrc_net(const struct net *net)
{
	return net_generic(net, mrc_net_id);
}

static int __net_init mrc_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);

	mn->net = net;
	INIT_LIST_HEAD(&mn->devs);
	xa_init_flags(&mn->qps, XA_FLAGS_ALLOC);
	spin_lock_init(&mn->probe_lock);
	INIT_LIST_HEAD(&mn->probes);
	mrc_probe_net_init(mn);
	return 0;
}

/* Runs after the namespace's netdevs are gone (we are a subsys, device
 * operations exit first), so most instances are already unregistering; a
 * plane-1 netdev that was moved back to init_net only queued its
 * unregistration.  Wait for all of them: dealloc_driver still uses @mn.
 */
static void __net_exit mrc_net_exit(struct net *net)
{
	mrc_dev_unregister_all(mrc_net(net));
}

static struct pernet_operations mrc_net_ops = {
	.init = mrc_net_init,
	.exit = mrc_net_exit,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

int mrc_pernet_init(void)
{
	return register_pernet_subsys(&mrc_net_ops);
}

void mrc_pernet_exit(void)
{
	unregister_pernet_subsys(&mrc_net_ops);
}
