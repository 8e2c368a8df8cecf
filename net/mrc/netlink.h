/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of the generic netlink family share (netlink.c holds
 * the family; netlink_conn.c the connection dump, events and probes).
 */
#ifndef _NET_MRC_NETLINK_H
#define _NET_MRC_NETLINK_H

#include <net/genetlink.h>

#include "mrc.h"

extern struct genl_family mrc_genl_family;

/* An instance as messages name it, copied out of mrc_cfg_lock. */
struct mrc_dev_id {
	u32 index;
	char name[IB_DEVICE_NAME_MAX];
};

int mrc_nl_put_dev_id(struct sk_buff *skb, const struct mrc_dev *mdev);
/* Caller holds mrc_cfg_lock. */
struct mrc_dev *mrc_nl_find_dev(struct net *net, struct nlattr **attrs,
				struct netlink_ext_ack *extack);
struct sk_buff *mrc_nl_event_new(struct mrc_dev *mdev, enum mrc_event type,
				 void **hdr, gfp_t gfp);
void mrc_nl_event_send(struct mrc_dev *mdev, struct sk_buff *msg, void *hdr,
		       gfp_t gfp);

/* netlink_conn.c */
int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _NET_MRC_NETLINK_H */
