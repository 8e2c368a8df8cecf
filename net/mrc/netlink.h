/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the op files of the "mrc" generic netlink family share (the top
 * layer; the family and the events are in nl_event.h): netlink.c
 * (ops table, instances, planes, routes), netlink_dump.c (the walk of
 * dumps), netlink_prof_common.c, netlink_profile.c and
 * netlink_cc_profile.c (profiles), netlink_conn.c (connections) and
 * netlink_probe.c (probes).
 */
#ifndef _NET_MRC_NETLINK_H
#define _NET_MRC_NETLINK_H

#include <net/genetlink.h>

#include "mrc.h"
#include "nl_event.h"

/* netlink.c: the instance of a request, and the frame of every reply. */
struct mrc_dev *mrc_nl_find_dev(struct net *net, struct nlattr **attrs,
				struct netlink_ext_ack *extack);
struct mrc_dev *mrc_nl_lock_dev(struct genl_info *info);
void *mrc_nl_put_hdr(struct sk_buff *skb, const struct mrc_dev *mdev,
		     u32 portid, u32 seq, int flags, u8 cmd);
int mrc_nl_end_hdr(struct sk_buff *skb, void *hdr, int err);
int mrc_nl_reply(struct genl_info *info, struct sk_buff *msg, int err);
int mrc_nl_sockaddr(const struct nlattr *nla, struct sockaddr_storage *ss,
		    struct netlink_ext_ack *extack, const char *badlen);

/* netlink_dump.c: the walk over the instances that every dump but
 * DEV_GET's shares.  @dump_dev puts one instance's objects from cursor
 * cb->args[1] on and returns 0, or leaves in cb->args[1] where to resume
 * and returns the error (-EMSGSIZE: the skb is full).
 */
typedef int (*mrc_nl_dump_dev_t)(struct sk_buff *skb,
				 struct netlink_callback *cb,
				 struct mrc_dev *mdev, const void *arg);
int mrc_nl_dump_devs(struct sk_buff *skb, struct netlink_callback *cb,
		     mrc_nl_dump_dev_t dump_dev, const void *arg);

/* An instance as messages name it, copied out of mrc_cfg_lock. */
struct mrc_dev_id {
	u32 index;
	char name[IB_DEVICE_NAME_MAX];
};

/* netlink_conn.c */
int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink_probe.c */
int mrc_nl_probe_doit(struct sk_buff *skb, struct genl_info *info);
/* netlink_ep.c */
int mrc_nl_ep_batch_doit(struct sk_buff *skb, struct genl_info *info);

/* netlink_msg.c: extack texts with values in them. */
__printf(1, 2) const char *mrc_nl_msg(const char *fmt, ...);
void mrc_nl_msg_free_all(void);

/* What the ops that EV and CC profiles share need to know of a kind. */
struct mrc_nl_prof_kind {
	int id_attr;		/* MRC_A_EV_PROFILE_ID or MRC_A_CC_PROFILE_ID */
	const char *no_id;	/* extack texts: no id in the request, */
	const char *builtin;	/* id 0 where it cannot be changed, */
	const char *unknown;	/* no profile with that id */
	size_t msg_size;	/* of one GET reply */
	/* The xarray of @mdev's profiles of this kind, indexed by id. */
	struct xarray *(*profiles)(struct mrc_dev *mdev);
	/* Profile @id (@prof; NULL: the built-in profile 0) as one GET
	 * message.
	 */
	int (*fill)(struct sk_buff *skb, struct mrc_dev *mdev, u32 id,
		    const void *prof, u32 portid, u32 seq, int flags);
};

/* netlink_prof_common.c: the id of a request, lookup, GET and its dump. */
int mrc_nl_profile_id(struct genl_info *info,
		      const struct mrc_nl_prof_kind *kind, bool zero_ok,
		      u32 *id);
void *mrc_nl_profile_find(struct genl_info *info,
			  const struct mrc_nl_prof_kind *kind,
			  struct mrc_dev *mdev, u32 id);
int mrc_nl_profile_get(struct genl_info *info,
		       const struct mrc_nl_prof_kind *kind);
int mrc_nl_profile_dumpit(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct mrc_nl_prof_kind *kind);
int mrc_nl_route_busy(const struct mrc_route *route, const char *what,
		      struct netlink_ext_ack *extack);

/* netlink_profile.c: the ops of MRC_CMD_EV_PROFILE_*. */
int mrc_nl_ev_profile_add_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_start(struct netlink_callback *cb);
int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
/* netlink_cc_profile.c: the ops of MRC_CMD_CC_PROFILE_*. */
int mrc_nl_cc_profile_add_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);

#endif /* _NET_MRC_NETLINK_H */
