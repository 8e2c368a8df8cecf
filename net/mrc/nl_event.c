// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bottom layer of the generic netlink family "mrc" (nl_event.h): the
 * family and its "events" group, the events that the core raises, and
 * the fill helpers that events and the ops' replies share.  Nothing here
 * calls up into the ops (netlink*.c); they add themselves to the family
 * in mrc_genl_init().
 *
 *   EVENT: EVENT_TYPE, DEV_INDEX, DEV_NAME [, PLANE { PLANE_* }]
 *          [, ROUTE { ... }] [, EV_PROFILE { ... }] [, CC_PROFILE { ... }]
 *          [, CONN { QPN, CONN_DEST_QPN, CONN_PEER, CONN_EV { ... } or
 *          CONN_STATUS }]
 *
 * Every event first asks genl_has_listeners(): nothing is allocated or
 * formatted for nobody.  An event that cannot be allocated is lost.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "nl_event.h"
#include "profile.h"
#include "qp.h"

static const struct genl_multicast_group mrc_genl_mcgrps[] = {
	{ .name = MRC_GENL_MCGRP_EVENTS },
};

struct genl_family mrc_genl_family __ro_after_init = {
	.name = MRC_GENL_NAME,
	.version = MRC_GENL_VERSION,
	.netnsok = true,
	/* mrc_cfg_lock serialises what needs it; RTNL nests inside genl. */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.mcgrps = mrc_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mrc_genl_mcgrps),
};

const struct mrc_nl_cc_field mrc_nl_cc_fields[] = {
#define MRC_CC_U32(a, f) { a, 4, offsetof(struct mrc_nscc_params, f) }
#define MRC_CC_U8(a, f) { a, 1, offsetof(struct mrc_nscc_params, f) }
	MRC_CC_U32(MRC_A_CC_BASE_RTT, base_rtt),
	MRC_CC_U32(MRC_A_CC_TARGET_DELAY, target_delay),
	MRC_CC_U32(MRC_A_CC_QA_THRESHOLD, qa_threshold),
	MRC_CC_U32(MRC_A_CC_ADJUST_BYTES, adjust_bytes),
	MRC_CC_U32(MRC_A_CC_ADJUST_PERIOD, adjust_period),
	MRC_CC_U32(MRC_A_CC_ETA, eta),
	MRC_CC_U32(MRC_A_CC_FI, fi),
	MRC_CC_U32(MRC_A_CC_FI_SCALE, fi_scale),
	MRC_CC_U32(MRC_A_CC_GAMMA, gamma),
	MRC_CC_U32(MRC_A_CC_MAX_MD_JUMP, max_md_jump),
	MRC_CC_U32(MRC_A_CC_MAX_CWND, max_cwnd),
	MRC_CC_U32(MRC_A_CC_MIN_CWND, min_cwnd),
	MRC_CC_U32(MRC_A_CC_INIT_CWND, init_cwnd),
	MRC_CC_U8(MRC_A_CC_QA_GATE, qa_gate),
	MRC_CC_U8(MRC_A_CC_DISABLE_QA, disable_qa),
#undef MRC_CC_U32
#undef MRC_CC_U8
};

const unsigned int mrc_nl_cc_nr_fields = ARRAY_SIZE(mrc_nl_cc_fields);

static int mrc_nl_put_stat(struct sk_buff *skb, int type,
			   const atomic64_t *v)
{
	return nla_put_u64_64bit(skb, type, atomic64_read(v), MRC_A_STAT_PAD);
}

/* The plane's traffic as an MRC_A_PLANE_STATS nest. */
static int mrc_nl_put_plane_stats(struct sk_buff *skb,
				  const struct mrc_plane *plane)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, MRC_A_PLANE_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (mrc_nl_put_stat(skb, MRC_A_STAT_TX_PKTS, &plane->tx_pkts) ||
	    mrc_nl_put_stat(skb, MRC_A_STAT_TX_BYTES, &plane->tx_bytes) ||
	    mrc_nl_put_stat(skb, MRC_A_STAT_RX_PKTS, &plane->rx_pkts) ||
	    mrc_nl_put_stat(skb, MRC_A_STAT_RX_BYTES, &plane->rx_bytes)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Put @plane's attributes (set "plane") as one nest of type @type, or at
 * the top level if @type is 0, with its counters if
 * @stats.
 */
int mrc_nl_put_plane(struct sk_buff *skb, int type,
		     const struct mrc_plane *plane,
		     bool stats)
{
	struct nlattr *nest;

	if (mrc_nl_nest_start(skb, type, &nest))
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_PLANE_ID, plane->id) ||
	    nla_put_u32(skb, MRC_A_PLANE_IFINDEX, plane->ndev->ifindex) ||
	    nla_put_string(skb, MRC_A_PLANE_IFNAME, netdev_name(plane->ndev)) ||
	    nla_put_u8(skb, MRC_A_PLANE_ADMIN_UP, plane->admin_up) ||
	    nla_put_u8(skb, MRC_A_PLANE_OPER_UP, plane->oper_up) ||
	    (stats && mrc_nl_put_plane_stats(skb, plane))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	mrc_nl_nest_end(skb, nest);
	return 0;
}

/* The instance as every message names it. */
int mrc_nl_put_dev_id(struct sk_buff *skb, const struct mrc_dev *mdev)
{
	if (nla_put_u32(skb, MRC_A_DEV_INDEX, mdev->ibdev.index) ||
	    nla_put_string(skb, MRC_A_DEV_NAME, mrc_dev_name(mdev)))
		return -EMSGSIZE;
	return 0;
}

/* @route (set "route") as one nest of type @type, or at the top level if
 * @type is 0.
 */
int mrc_nl_put_route(struct sk_buff *skb, int type,
		     const struct mrc_route *route)
{
	const struct mrc_route_hop *h;
	struct nlattr *nest, *hops, *hop;
	u32 id;

	if (mrc_nl_nest_start(skb, type, &nest))
		return -EMSGSIZE;
	if (nla_put(skb, MRC_A_ROUTE_PEER,
		    route->family == AF_INET ? 4 : 16, route->peer))
		goto cancel;
	hops = nla_nest_start(skb, MRC_A_ROUTE_HOPS);
	if (!hops)
		goto cancel;
	for (id = 1; id <= MRC_MAX_PLANES; id++) {
		h = &route->info.hops[id];
		if (!h->valid)
			continue;
		hop = nla_nest_start(skb, MRC_A_ROUTE_HOP);
		if (!hop ||
		    nla_put_u32(skb, MRC_A_ROUTE_HOP_PLANE, id) ||
		    nla_put(skb, MRC_A_ROUTE_HOP_VIA,
			    h->family == AF_INET ? 4 : 16, h->addr))
			goto cancel;
		nla_nest_end(skb, hop);
	}
	nla_nest_end(skb, hops);
	if (nla_put_u32(skb, MRC_A_ROUTE_EV_PROFILE, route->info.ev_profile) ||
	    nla_put_u32(skb, MRC_A_ROUTE_CC_PROFILE, route->info.cc_profile))
		goto cancel;
	mrc_nl_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static size_t mrc_nl_ev_profile_size(const struct mrc_ev_profile *p)
{
	return MRC_NL_EV_PROFILE_FIXED + (size_t)p->n_evs * MRC_NL_EV_SIZE;
}

static int mrc_nl_put_gen(struct sk_buff *skb, const struct mrc_ev_profile *p)
{
	const struct mrc_ev_gen_field *f;
	struct nlattr *fields, *field;
	unsigned int i;

	if (nla_put_u16(skb, MRC_A_EV_PROFILE_PLANE_MASK, p->gen.plane_mask) ||
	    nla_put_u8(skb, MRC_A_EV_PROFILE_GEN_SHIFT, p->gen.shift) ||
	    nla_put(skb, MRC_A_EV_PROFILE_GEN_BASE,
		    mrc_ev_format_len(p->format), p->gen.base))
		return -EMSGSIZE;
	fields = nla_nest_start(skb, MRC_A_EV_PROFILE_GEN_FIELDS);
	if (!fields)
		return -EMSGSIZE;
	for (i = 0; i < p->gen.n_fields; i++) {
		f = &p->gen.fields[i];
		field = nla_nest_start(skb, MRC_A_EV_GEN_FIELD);
		if (!field ||
		    nla_put_u8(skb, MRC_A_EV_GEN_WIDTH, f->width) ||
		    nla_put_u32(skb, MRC_A_EV_GEN_INIT, f->init) ||
		    nla_put_u32(skb, MRC_A_EV_GEN_MIN, f->min) ||
		    nla_put_u32(skb, MRC_A_EV_GEN_MAX, f->max) ||
		    nla_put_u32(skb, MRC_A_EV_GEN_MASK, f->mask))
			return -EMSGSIZE;
		nla_nest_end(skb, field);
	}
	nla_nest_end(skb, fields);
	return 0;
}

static int mrc_nl_put_evs(struct sk_buff *skb, const struct mrc_ev_profile *p)
{
	const struct mrc_ev *ev;
	struct nlattr *evs, *nest;
	u16 i;

	evs = nla_nest_start(skb, MRC_A_EV_PROFILE_EVS);
	if (!evs)
		return -EMSGSIZE;
	for (i = 0; i < p->n_evs; i++) {
		ev = &p->evs[i];
		nest = nla_nest_start(skb, MRC_A_EV);
		if (!nest ||
		    nla_put_u16(skb, MRC_A_EV_INDEX, i) ||
		    nla_put_u8(skb, MRC_A_EV_PLANE, ev->plane) ||
		    nla_put(skb, MRC_A_EV_VALUE, ev->len, ev->value) ||
		    nla_put_u8(skb, MRC_A_EV_STATE, ev->state))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	nla_nest_end(skb, evs);
	return 0;
}

/* Profile @id (set "ev-profile") as one nest of type @type, or at the top
 * level if @type is 0.
 */
int mrc_nl_put_ev_profile(struct sk_buff *skb, int type, u32 id,
			  const struct mrc_ev_profile *p)
{
	struct nlattr *nest;
	int err = -EMSGSIZE;

	if (mrc_nl_nest_start(skb, type, &nest))
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_EV_PROFILE_ID, id) ||
	    nla_put_u8(skb, MRC_A_EV_PROFILE_MODE, p->mode) ||
	    nla_put_u8(skb, MRC_A_EV_PROFILE_FORMAT, p->format) ||
	    nla_put_u8(skb, MRC_A_EV_PROFILE_STATE, p->state) ||
	    nla_put_u16(skb, MRC_A_EV_PROFILE_MIN_ACTIVE, p->ev_min_active) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_EVENT_MASK, p->event_mask))
		goto cancel;
	switch (p->mode) {
	case MRC_EV_MODE_AUTO:
		/* Profile 0 has no plane mask: it uses the route's planes. */
		if (nla_put_u16(skb, MRC_A_EV_PROFILE_COUNT, p->auto_count) ||
		    (p->auto_plane_mask &&
		     nla_put_u16(skb, MRC_A_EV_PROFILE_PLANE_MASK,
				 p->auto_plane_mask)))
			goto cancel;
		break;
	case MRC_EV_MODE_GEN:
		err = mrc_nl_put_gen(skb, p);
		if (err)
			goto cancel;
		fallthrough;
	default:
		err = mrc_nl_put_evs(skb, p);
		if (err)
			goto cancel;
		break;
	}
	mrc_nl_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* CC profile @id (set "cc-profile") as one nest of type @type, or at the
 * top level if @type is 0.
 */
int mrc_nl_put_cc_profile(struct sk_buff *skb, int type, u32 id,
			  const struct mrc_nscc_params *p)
{
	const u8 *src;
	struct nlattr *nest;
	unsigned int i;
	int err;

	if (mrc_nl_nest_start(skb, type, &nest))
		return -EMSGSIZE;
	err = nla_put_u32(skb, MRC_A_CC_PROFILE_ID, id) ||
	      nla_put_string(skb, MRC_A_CC_ALGO,
			     p->no_cc ? MRC_CC_ALGO_NONE : MRC_CC_ALGO_NSCC);
	for (i = 0; !err && i < mrc_nl_cc_nr_fields; i++) {
		src = (const u8 *)p + mrc_nl_cc_fields[i].off;
		if (mrc_nl_cc_fields[i].size == 4)
			err = nla_put_u32(skb, mrc_nl_cc_fields[i].attr,
					  *(const u32 *)src);
		else
			err = nla_put_u8(skb, mrc_nl_cc_fields[i].attr, *src);
	}
	if (err) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	mrc_nl_nest_end(skb, nest);
	return 0;
}

/* Start an event message of @size bytes; NULL if nobody listens (nothing
 * is allocated then) or out of memory: the event is lost either way.
 */
static struct sk_buff *mrc_nl_event_new(struct mrc_dev *mdev,
					enum mrc_event type, size_t size,
					void **hdr, gfp_t gfp)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&mrc_genl_family, mdev->mnet->net, 0))
		return NULL;
	msg = nlmsg_new(size, gfp);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &mrc_genl_family, 0, MRC_CMD_EVENT);
	if (!*hdr || nla_put_u32(msg, MRC_A_EVENT_TYPE, type) ||
	    mrc_nl_put_dev_id(msg, mdev)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void mrc_nl_event_send(struct mrc_dev *mdev, struct sk_buff *msg,
			      void *hdr, gfp_t gfp)
{
	genlmsg_end(msg, hdr);
	/* -ESRCH (no listener) is not an error. */
	genlmsg_multicast_netns(&mrc_genl_family, mdev->mnet->net, msg, 0, 0,
				gfp);
}

/* A configuration event being built: process context, the caller holds
 * mrc_cfg_lock.
 */
struct mrc_nl_cfg_event {
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	void *hdr;
};

/* Start @e, an event of @size bytes; false if there is nothing to send
 * (see mrc_nl_event_new()).
 */
static bool mrc_nl_cfg_event_new(struct mrc_nl_cfg_event *e,
				 struct mrc_dev *mdev, enum mrc_event type,
				 size_t size)
{
	lockdep_assert_held(&mrc_cfg_lock);
	e->mdev = mdev;
	e->msg = mrc_nl_event_new(mdev, type, size, &e->hdr, GFP_KERNEL);
	return e->msg;
}

/* Send @e, or drop it if putting its body failed (@err). */
static void mrc_nl_cfg_event_end(struct mrc_nl_cfg_event *e, int err)
{
	if (err)
		nlmsg_free(e->msg);
	else
		mrc_nl_event_send(e->mdev, e->msg, e->hdr, GFP_KERNEL);
}

/* Announce an instance event on "events".  Caller holds mrc_cfg_lock. */
void mrc_genl_event_dev(struct mrc_dev *mdev, enum mrc_event type)
{
	struct mrc_nl_cfg_event e;

	lockdep_assert_held(&mrc_cfg_lock);
	if (mrc_nl_cfg_event_new(&e, mdev, type, NLMSG_GOODSIZE))
		mrc_nl_cfg_event_end(&e, 0);
}

/* Announce a plane event on "events".  Caller holds mrc_cfg_lock. */
void mrc_genl_event_plane(struct mrc_plane *plane, enum mrc_event type)
{
	struct mrc_nl_cfg_event e;

	lockdep_assert_held(&mrc_cfg_lock);
	if (!mrc_nl_cfg_event_new(&e, plane->mdev, type, NLMSG_GOODSIZE))
		return;
	mrc_nl_cfg_event_end(&e, mrc_nl_put_plane(e.msg, MRC_A_EVENT_PLANE,
						  plane, false));
}

/* Announce a route event on "events".  Caller holds mrc_cfg_lock. */
void mrc_genl_event_route(struct mrc_dev *mdev, const struct mrc_route *route,
			  enum mrc_event type)
{
	struct mrc_nl_cfg_event e;

	lockdep_assert_held(&mrc_cfg_lock);
	if (!mrc_nl_cfg_event_new(&e, mdev, type, NLMSG_GOODSIZE))
		return;
	mrc_nl_cfg_event_end(&e, mrc_nl_put_route(e.msg, MRC_A_EVENT_ROUTE,
						  route));
}

/* Announce an EV profile event.  Caller holds mrc_cfg_lock. */
void mrc_genl_event_ev_profile(struct mrc_dev *mdev,
			       const struct mrc_ev_prof *prof,
			       enum mrc_event type)
{
	struct mrc_nl_cfg_event e;

	lockdep_assert_held(&mrc_cfg_lock);
	if (!mrc_nl_cfg_event_new(&e, mdev, type,
				  mrc_nl_ev_profile_size(&prof->p)))
		return;
	mrc_nl_cfg_event_end(&e, mrc_nl_put_ev_profile(e.msg,
						       MRC_A_EVENT_EV_PROFILE,
						       prof->id, &prof->p));
}

/* Announce a CC profile event.  Caller holds mrc_cfg_lock. */
void mrc_genl_event_cc_profile(struct mrc_dev *mdev,
			       const struct mrc_cc_prof *prof,
			       enum mrc_event type)
{
	struct mrc_nl_cfg_event e;

	lockdep_assert_held(&mrc_cfg_lock);
	if (!mrc_nl_cfg_event_new(&e, mdev, type, NLMSG_GOODSIZE))
		return;
	mrc_nl_cfg_event_end(&e, mrc_nl_put_cc_profile(e.msg,
						       MRC_A_EVENT_CC_PROFILE,
						       prof->id, &prof->params));
}

/* The value of EV @idx of @qp, if it has one (caller holds qp->lock). */
static int mrc_nl_put_conn_ev_value(struct sk_buff *msg,
				    const struct mrc_qp *qp, u32 idx)
{
	const struct mrc_qp_paths *paths = mrc_qp_paths(qp);
	const struct mrc_qp_ev *e;

	lockdep_assert_held(&qp->lock);
	if (idx >= paths->n_evs)
		return 0;
	e = &paths->ev[idx];
	return e->len ? nla_put(msg, MRC_A_CONN_EV_VALUE, e->len, e->value) :
			0;
}

/* The most a connection event takes: an skb of NLMSG_GOODSIZE costs a
 * listener's receive buffer about ten times more, and a burst of EV
 * state events (a link cut, a plane down) must not overrun it.
 */
static size_t mrc_nl_conn_event_size(void)
{
	return nla_total_size(sizeof(u32)) +		/* EVENT_TYPE */
	       nla_total_size(sizeof(u32)) +		/* DEV_INDEX */
	       nla_total_size(IB_DEVICE_NAME_MAX) +	/* DEV_NAME */
	       nla_total_size(0) +			/* EVENT_CONN */
	       3 * nla_total_size(sizeof(u32)) +	/* QPN, DEST_QPN, EV_PROFILE */
	       nla_total_size(16) +			/* PEER */
	       nla_total_size(sizeof(u32)) +		/* STATUS */
	       nla_total_size(0) +			/* CONN_EV */
	       6 * nla_total_size(sizeof(u32)) +	/* INDEX..RTT */
	       nla_total_size(MRC_EV_MAX_LEN) +		/* EV_VALUE */
	       nla_total_size_64bit(sizeof(u64));	/* EV_SEQ */
}

/* A QP's connection event: an EV changed state, or the QP failed.  Data
 * path (softirq, qp->lock held): atomic, and only built if someone
 * listens.
 */
void mrc_genl_event_conn(struct mrc_qp *qp, const struct mrc_conn_event *ev)
{
	struct mrc_dev *mdev = qp->mdev;
	struct nlattr *conn, *nest;
	enum mrc_event type;
	struct sk_buff *msg;
	u64 seq = 0;
	void *hdr;

	lockdep_assert_held(&qp->lock);

	type = ev->type == MRC_EVT_EV_STATE ? MRC_EVENT_EV_STATE :
					      MRC_EVENT_QP_ERROR;
	/* Numbered before anything can fail: a listener counts every EV
	 * state event it did not get, ours (no memory) or its (overrun).
	 */
	if (type == MRC_EVENT_EV_STATE)
		seq = atomic64_inc_return(&mdev->ev_event_seq);
	msg = mrc_nl_event_new(mdev, type, mrc_nl_conn_event_size(), &hdr,
			       GFP_ATOMIC);
	if (!msg)
		return;
	conn = nla_nest_start(msg, MRC_A_EVENT_CONN);
	if (!conn || nla_put_u32(msg, MRC_A_CONN_QPN, mrc_qpn(qp)) ||
	    nla_put_u32(msg, MRC_A_CONN_DEST_QPN, qp->attr.dest_qp_num) ||
	    nla_put(msg, MRC_A_CONN_PEER, qp->ipv6 ? 16 : 4,
		    qp->ipv6 ? (void *)&qp->daddr.v6.sin6_addr :
			       (void *)&qp->daddr.v4.sin_addr))
		goto fail;
	if (ev->type == MRC_EVT_EV_STATE) {
		if (nla_put_u32(msg, MRC_A_CONN_EV_PROFILE,
				mrc_qp_paths(qp)->ev_profile))
			goto fail;
		nest = nla_nest_start(msg, MRC_A_CONN_EV);
		if (!nest || nla_put_u32(msg, MRC_A_CONN_EV_INDEX, ev->ev) ||
		    nla_put_u32(msg, MRC_A_CONN_EV_PLANE, ev->plane) ||
		    nla_put_u32(msg, MRC_A_CONN_EV_STATE, ev->new_state) ||
		    nla_put_u32(msg, MRC_A_CONN_EV_OLD_STATE, ev->old_state) ||
		    nla_put_u32(msg, MRC_A_CONN_EV_REASON, ev->reason) ||
		    (ev->rtt && nla_put_u32(msg, MRC_A_CONN_EV_RTT, ev->rtt)) ||
		    mrc_nl_put_conn_ev_value(msg, qp, ev->ev) ||
		    nla_put_u64_64bit(msg, MRC_A_CONN_EV_SEQ, seq,
				      MRC_A_CONN_EV_PAD))
			goto fail;
		nla_nest_end(msg, nest);
	} else if (nla_put_u32(msg, MRC_A_CONN_STATUS, ev->status)) {
		goto fail;
	}
	nla_nest_end(msg, conn);
	mrc_nl_event_send(mdev, msg, hdr, GFP_ATOMIC);
	return;
fail:
	nlmsg_free(msg);
}

