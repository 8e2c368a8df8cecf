/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of the "mrc" generic netlink family share: netlink.c
 * (family, instances, planes, routes), netlink_profile.c and
 * netlink_cc_profile.c (profiles), netlink_conn.c (connections and their
 * events) and probe.c (probes).
 */
#ifndef _NET_MRC_NETLINK_H
#define _NET_MRC_NETLINK_H

#include <net/genetlink.h>

#include "mrc.h"

extern struct genl_family mrc_genl_family;

/* netlink.c */
struct mrc_dev *mrc_nl_find_dev(struct net *net, struct nlattr **attrs,
				struct netlink_ext_ack *extack);
int mrc_nl_put_dev_id(struct sk_buff *skb, const struct mrc_dev *mdev);
struct sk_buff *mrc_nl_event_new(struct mrc_dev *mdev, enum mrc_event type,
				 size_t size, void **hdr, gfp_t gfp);
void mrc_nl_event_send(struct mrc_dev *mdev, struct sk_buff *msg, void *hdr,
		       gfp_t gfp);

/* An instance as messages name it, copied out of mrc_cfg_lock. */
struct mrc_dev_id {
	u32 index;
	char name[IB_DEVICE_NAME_MAX];
};

/* netlink_conn.c */
int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* probe.c */
int mrc_nl_probe_doit(struct sk_buff *skb, struct genl_info *info);

/* nlmsg.c: extack texts with values in them. */
__printf(1, 2) const char *mrc_nl_msg(const char *fmt, ...);
void mrc_nl_msg_free_all(void);

/* NL_SET_ERR_MSG() for a text of mrc_nl_msg() (it takes literals only). */
static inline void mrc_nl_set_msg(struct netlink_ext_ack *extack,
				  const char *text)
{
	if (extack)
		extack->_msg = text;
}

/* The same, blaming attribute @nla (may be NULL). */
static inline void mrc_nl_set_msg_attr(struct netlink_ext_ack *extack,
				       const struct nlattr *nla,
				       const char *text)
{
	if (!extack)
		return;
	extack->_msg = text;
	if (nla)
		extack->bad_attr = nla;
}

/* netlink_profile.c: the ops of MRC_CMD_EV_PROFILE_*, dumps of both kinds
 * and the id of a request.
 */
int mrc_nl_profile_id(struct genl_info *info, int type, bool zero_ok, u32 *id);
int mrc_nl_ev_profile_add_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_start(struct netlink_callback *cb);
int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
/* netlink_cc_profile.c: the ops of MRC_CMD_CC_PROFILE_*. */
int mrc_nl_fill_cc_profile(struct sk_buff *skb, struct mrc_dev *mdev, u32 id,
			   const struct mrc_nscc_params *p, u32 portid, u32 seq,
			   int flags);
int mrc_nl_cc_profile_add_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);

#endif /* _NET_MRC_NETLINK_H */
