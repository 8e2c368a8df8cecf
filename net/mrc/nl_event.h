/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bottom layer of the generic netlink family "mrc": the family itself
 * and its "events" group, the events the core raises, and the fill
 * helpers that both events and replies use.  Core code calls only this
 * header; it never includes netlink.h nor calls an op.  nl_event.c calls
 * nothing of the netlink ops: they sit above it (they add their ops to
 * the family in mrc_genl_init() and reuse the fill helpers).
 *
 * Every event checks genl_has_listeners() before it allocates anything.
 * The events of the control plane run in process context with
 * mrc_cfg_lock held; the connection event runs on the data path with
 * qp->lock held.
 */
#ifndef _NET_MRC_NL_EVENT_H
#define _NET_MRC_NL_EVENT_H

#include <net/genetlink.h>

#include "mrc.h"

struct mrc_cc_prof;
struct mrc_conn_event;
struct mrc_ev_prof;
struct mrc_ev_profile;
struct mrc_nscc_params;
struct mrc_qp;

/* Name, version and groups; the ops are added by netlink.c. */
extern struct genl_family mrc_genl_family;

/* Announce on "events" (process context, caller holds mrc_cfg_lock). */
void mrc_genl_event_dev(struct mrc_dev *mdev, enum mrc_event type);
void mrc_genl_event_plane(struct mrc_plane *plane, enum mrc_event type);
void mrc_genl_event_route(struct mrc_dev *mdev, const struct mrc_route *route,
			  enum mrc_event type);
void mrc_genl_event_ev_profile(struct mrc_dev *mdev,
			       const struct mrc_ev_prof *prof,
			       enum mrc_event type);
void mrc_genl_event_cc_profile(struct mrc_dev *mdev,
			       const struct mrc_cc_prof *prof,
			       enum mrc_event type);
/* An EV state change or failure (data path, caller holds qp->lock). */
void mrc_genl_event_conn(struct mrc_qp *qp, const struct mrc_conn_event *ev);

/* Fill helpers: one nest each, cancelled again when @skb is full. */
int mrc_nl_put_dev_id(struct sk_buff *skb, const struct mrc_dev *mdev);
int mrc_nl_put_plane(struct sk_buff *skb, int type,
		     const struct mrc_plane *plane,
		     bool stats);
int mrc_nl_put_route(struct sk_buff *skb, int type,
		     const struct mrc_route *route);
int mrc_nl_put_ev_profile(struct sk_buff *skb, int type, u32 id,
			  const struct mrc_ev_profile *p);
int mrc_nl_put_cc_profile(struct sk_buff *skb, int type, u32 id,
			  const struct mrc_nscc_params *p);

/* An object's attributes go at the top level of its own messages (@type
 * 0: no nest, *@nest NULL) and in a nest of type @type elsewhere (an
 * event, a list): Documentation/netlink/specs/mrc.yaml, "Wire shape".
 * nla_nest_cancel() takes a NULL nest as well.
 */
static inline int mrc_nl_nest_start(struct sk_buff *skb, int type,
				    struct nlattr **nest)
{
	*nest = NULL;
	if (!type)
		return 0;
	*nest = nla_nest_start(skb, type);
	return *nest ? 0 : -EMSGSIZE;
}

static inline void mrc_nl_nest_end(struct sk_buff *skb, struct nlattr *nest)
{
	if (nest)
		nla_nest_end(skb, nest);
}

/* NL_SET_ERR_MSG() for a text that is not a literal (mrc_nl_msg(), the
 * engine's static texts): NL_SET_ERR_MSG() takes literals only.
 */
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

/* An EV profile message: fixed part, then one MRC_A_EV nest per EV. */
#define MRC_NL_EV_PROFILE_FIXED	2048
#define MRC_NL_EV_SIZE		64	/* nest + index, plane, value, state */
#define MRC_NL_EV_PROFILE_MAX	(MRC_NL_EV_PROFILE_FIXED + \
				 MRC_MAX_EVS * MRC_NL_EV_SIZE)

/* The CC_* attributes and where their values live in mrc_nscc_params
 * (the ops parse requests with the same table).
 */
struct mrc_nl_cc_field {
	u16 attr;
	u8 size;			/* 4: u32, 1: u8 */
	u16 off;
};

extern const struct mrc_nl_cc_field mrc_nl_cc_fields[];
extern const unsigned int mrc_nl_cc_nr_fields;

#endif /* _NET_MRC_NL_EVENT_H */
