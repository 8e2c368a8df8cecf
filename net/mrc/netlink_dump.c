// SPDX-License-Identifier: GPL-2.0-only
/*
 * The walk over the instances of a network namespace that the dumps of
 * planes, routes and profiles share (netlink.h, mrc_nl_dump_devs()).
 *
 * A dump is resumed in a fresh skb each time the previous one is full, so
 * where it stands lives in the callback: cb->args[0] counts the instances
 * done, cb->args[1] is the cursor inside the next one (0: its start), which
 * only the per-instance function interprets.
 */

#include <net/genetlink.h>
#include <net/netlink.h>

#include "netlink.h"

/* Dump from every visible instance of the namespace, or only from the
 * one the request names by MRC_A_DEV_NAME or MRC_A_DEV_INDEX (an unknown
 * one fails the dump with its extack message).
 */
int mrc_nl_dump_devs(struct sk_buff *skb, struct netlink_callback *cb,
		     mrc_nl_dump_dev_t dump_dev, const void *arg)
{
	struct nlattr **attrs = mrc_genl_dump_attrs(cb);
	struct net *net = sock_net(skb->sk);
	struct mrc_dev *mdev, *only = NULL;
	long idx = 0, start = cb->args[0];
	int err = 0;

	mutex_lock(&mrc_cfg_lock);
	if (attrs[MRC_A_DEV_NAME] || attrs[MRC_A_DEV_INDEX]) {
		only = mrc_nl_find_dev(net, attrs, cb->extack);
		if (IS_ERR(only)) {
			err = PTR_ERR(only);
			goto out;
		}
	}
	list_for_each_entry(mdev, &mrc_net(net)->devs, node) {
		if (!mrc_dev_visible(mdev) || (only && mdev != only))
			continue;
		if (idx++ < start)
			continue;
		err = dump_dev(skb, cb, mdev, arg);
		if (err) {
			/* This instance again, from where dump_dev stopped. */
			idx--;
			break;
		}
		cb->args[1] = 0;
	}
	cb->args[0] = idx;
	/* A full skb ends this round; an empty one means too small. */
	if (!err || skb->len)
		err = skb->len;
out:
	mutex_unlock(&mrc_cfg_lock);
	return err;
}
