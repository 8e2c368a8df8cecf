// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live connections over generic netlink: MRC_CMD_CONN_GET (one QP, or a
 * dump of all of them).  The EV_STATE and QP_ERROR events are raised by
 * the data path through nl_event.c.
 *
 *   CONN_GET reply (set "conn" at the top level): CONN_DEV_INDEX,
 *                   CONN_DEV_NAME, CONN_QPN, CONN_DEST_QPN, CONN_PEER,
 *                   CONN_STATE, CONN_STATUS, CONN_EV_PROFILE,
 *                   CONN_CC_PROFILE, PSNs,
 *                   window, RTT, counters, EV counts
 *                   [, CONN_PLANES { CONN_PLANE { CONN_PLANE_ID,
 *                   CONN_PLANE_EVS_USABLE, counters } ... }, CONN_EVS {
 *                   CONN_EVS_OFFSET, CONN_EVS_EV { CONN_EV_*, counters }
 *                   ... }]
 *   (the bracket only with CONN_WANT_STATS).  A dump puts as many EVs in a
 *   message as fit and continues the same QP in the next message, with
 *   CONN_EVS_OFFSET the index of its first EV.
 *   Events (nl_event.c): EVENT_CONN { CONN_QPN, CONN_DEST_QPN, CONN_PEER,
 *   and CONN_EV { CONN_EV_* } (EV_STATE) or CONN_STATUS (QP_ERROR) }.
 *
 * A QP is read under its lock into a snapshot, then formatted: the lock
 * is never held while a message is built.
 *
 * The PSNs (CONN_SND_UNA, CONN_SND_NXT, CONN_RCV_NXT) are what a forged
 * packet has to hit: only CAP_NET_ADMIN in the namespace's user namespace
 * or the QP's owner (the euid that created it) sees them.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "netlink.h"
#include "qp.h"

/* One QP as read under its lock. */
struct mrc_conn_snap {
	u32 qpn;
	u32 dest_qpn;
	u32 dev_index;
	u8 state;			/* enum ib_qp_state */
	bool ipv6;
	bool ready;			/* RTR reached: the engine exists */
	bool show_psn;			/* the caller may see the PSNs */
	u8 peer[16];
	u32 ev_profile;
	u32 cc_profile;
	u16 planes_up;			/* bit p - 1: plane p usable here */
	struct mrc_conn_stats st;
	u32 n_evs;
	struct mrc_ev_info ev[MRC_MAX_EVS];
	__be16 sport[MRC_MAX_EVS];
};

/* The uapi enums (generated from the spec) are the engine's, value for
 * value: the netlink code passes engine values through unchanged.
 */
#define MRC_CONN_SAME(a, b)	static_assert((int)(a) == (int)(b))
MRC_CONN_SAME(MRC_CONN_OK, MRC_ST_OK);
MRC_CONN_SAME(MRC_CONN_RETRY_EXCEEDED, MRC_ST_RETRY_EXCEEDED);
MRC_CONN_SAME(MRC_CONN_RNR_EXCEEDED, MRC_ST_RNR_EXCEEDED);
MRC_CONN_SAME(MRC_CONN_REMOTE_ACCESS, MRC_ST_REMOTE_ACCESS);
MRC_CONN_SAME(MRC_CONN_INVALID_REQUEST, MRC_ST_INVALID_REQUEST);
MRC_CONN_SAME(MRC_CONN_FLUSHED, MRC_ST_FLUSHED);
MRC_CONN_SAME(MRC_CONN_NO_PATH, MRC_ST_NO_PATH);
MRC_CONN_SAME(MRC_CONN_EV_UNKNOWN, MRC_EV_UNKNOWN);
MRC_CONN_SAME(MRC_CONN_EV_GOOD, MRC_EV_GOOD);
MRC_CONN_SAME(MRC_CONN_EV_ASSUMED_BAD, MRC_EV_ASSUMED_BAD);
MRC_CONN_SAME(MRC_CONN_EV_DENIED, MRC_EV_DENIED);
MRC_CONN_SAME(MRC_CONN_EVR_CONFIG, MRC_EVR_CONFIG);
MRC_CONN_SAME(MRC_CONN_EVR_LOSS, MRC_EVR_LOSS);
MRC_CONN_SAME(MRC_CONN_EVR_TIMEOUT, MRC_EVR_TIMEOUT);
MRC_CONN_SAME(MRC_CONN_EVR_PROBE_OK, MRC_EVR_PROBE_OK);
MRC_CONN_SAME(MRC_CONN_EVR_MIN_ACTIVE, MRC_EVR_MIN_ACTIVE);
MRC_CONN_SAME(MRC_CONN_EVR_CONTROLLER, MRC_EVR_CONTROLLER);

/* May the sender of @req see @qp's PSNs? */
static bool mrc_nl_may_see_psn(const struct sk_buff *req,
			       const struct mrc_qp *qp)
{
	const struct sock *sk = NETLINK_CB(req).sk;

	return netlink_net_capable(req, CAP_NET_ADMIN) ||
	       (sk && uid_eq(sk->sk_uid, qp->owner));
}

static void mrc_conn_snap_take(struct mrc_qp *qp, struct mrc_conn_snap *s,
			       const struct sk_buff *req)
{
	const struct mrc_qp_paths *paths;
	u32 i;

	s->show_psn = mrc_nl_may_see_psn(req, qp);
	spin_lock_bh(&qp->lock);
	s->qpn = mrc_qpn(qp);
	s->dest_qpn = qp->attr.dest_qp_num;
	s->dev_index = qp->mdev->ibdev.index;
	s->state = qp->state;
	s->ipv6 = qp->ipv6;
	if (qp->ipv6)
		memcpy(s->peer, &qp->daddr.v6.sin6_addr, 16);
	else
		memcpy(s->peer, &qp->daddr.v4.sin_addr, 4);
	s->ready = qp->conn_ready;
	s->n_evs = 0;
	paths = mrc_qp_paths(qp);
	s->ev_profile = paths->ev_profile;
	s->cc_profile = paths->cc_profile;
	s->planes_up = 0;
	if (s->ready) {
		mrc_conn_get_stats(qp->conn, &s->st);
		s->n_evs = min_t(u32, mrc_conn_nr_evs(qp->conn), MRC_MAX_EVS);
		for (i = 0; i < s->n_evs; i++) {
			mrc_conn_get_ev_info(qp->conn, i, &s->ev[i]);
			s->sport[i] = paths->ev[i].sport;
		}
		for (i = 1; i <= MRC_MAX_PLANES; i++)
			if (paths->plane[i].valid)
				s->planes_up |= BIT(i - 1);
	}
	spin_unlock_bh(&qp->lock);
}

/* The counters that a connection, each of its planes and each of its EVs
 * carry, in the attributes of that one's set (@a).
 */
struct mrc_nl_ctr_attrs {
	u16 tx_pkts, tx_bytes, retx, lost, ecn, pad;
};

static const struct mrc_nl_ctr_attrs mrc_nl_conn_ctrs = {
	MRC_A_CONN_TX_PKTS, MRC_A_CONN_TX_BYTES, MRC_A_CONN_RETX_PKTS,
	MRC_A_CONN_LOST_PKTS, MRC_A_CONN_ECN_MARKS, MRC_A_CONN_PAD,
};

static const struct mrc_nl_ctr_attrs mrc_nl_conn_plane_ctrs = {
	MRC_A_CONN_PLANE_TX_PKTS, MRC_A_CONN_PLANE_TX_BYTES,
	MRC_A_CONN_PLANE_RETX_PKTS, MRC_A_CONN_PLANE_LOST_PKTS,
	MRC_A_CONN_PLANE_ECN_MARKS, MRC_A_CONN_PLANE_PAD,
};

static const struct mrc_nl_ctr_attrs mrc_nl_conn_ev_ctrs = {
	MRC_A_CONN_EV_TX_PKTS, MRC_A_CONN_EV_TX_BYTES, MRC_A_CONN_EV_RETX_PKTS,
	MRC_A_CONN_EV_LOST_PKTS, MRC_A_CONN_EV_ECN_MARKS, MRC_A_CONN_EV_PAD,
};

static int mrc_nl_put_counters(struct sk_buff *skb,
			       const struct mrc_nl_ctr_attrs *a, u64 tx_pkts,
			       u64 tx_bytes, u64 retx, u64 lost, u64 ecn)
{
	if (nla_put_u64_64bit(skb, a->tx_pkts, tx_pkts, a->pad) ||
	    nla_put_u64_64bit(skb, a->tx_bytes, tx_bytes, a->pad) ||
	    nla_put_u64_64bit(skb, a->retx, retx, a->pad) ||
	    nla_put_u64_64bit(skb, a->lost, lost, a->pad) ||
	    nla_put_u64_64bit(skb, a->ecn, ecn, a->pad))
		return -EMSGSIZE;
	return 0;
}

static int mrc_nl_put_conn_head(struct sk_buff *skb,
				const struct mrc_conn_snap *s)
{
	const struct mrc_conn_stats *st = &s->st;

	if (nla_put_u32(skb, MRC_A_CONN_QPN, s->qpn) ||
	    nla_put_u32(skb, MRC_A_CONN_DEST_QPN, s->dest_qpn) ||
	    nla_put_u32(skb, MRC_A_CONN_STATE, s->state) ||
	    nla_put_u32(skb, MRC_A_CONN_EV_PROFILE, s->ev_profile) ||
	    nla_put_u32(skb, MRC_A_CONN_CC_PROFILE, s->cc_profile))
		return -EMSGSIZE;
	if (!s->ready)
		return 0;
	if (nla_put(skb, MRC_A_CONN_PEER, s->ipv6 ? 16 : 4, s->peer) ||
	    nla_put_u32(skb, MRC_A_CONN_STATUS, st->status))
		return -EMSGSIZE;
	if (s->show_psn &&
	    (nla_put_u32(skb, MRC_A_CONN_SND_UNA, st->snd_una) ||
	     nla_put_u32(skb, MRC_A_CONN_SND_NXT, st->snd_nxt) ||
	     nla_put_u32(skb, MRC_A_CONN_RCV_NXT, st->rcv_nxt)))
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_CONN_INFLIGHT, st->inflight) ||
	    nla_put_u32(skb, MRC_A_CONN_CWND, st->cwnd) ||
	    nla_put_u32(skb, MRC_A_CONN_SRTT, st->srtt) ||
	    nla_put_u32(skb, MRC_A_CONN_RTO, st->rto) ||
	    mrc_nl_put_counters(skb, &mrc_nl_conn_ctrs, st->tx_pkts,
				st->tx_bytes, st->retx_pkts, st->lost_pkts,
				st->ecn_acks) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RX_PKTS, st->rx_pkts,
			      MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TIMEOUTS, st->timeouts,
			      MRC_A_CONN_PAD) ||
	    nla_put_u32(skb, MRC_A_CONN_EVS_TOTAL, st->evs_total) ||
	    nla_put_u32(skb, MRC_A_CONN_EVS_USABLE, st->evs_usable) ||
	    nla_put_u32(skb, MRC_A_CONN_EVS_BAD, st->evs_bad) ||
	    nla_put_u32(skb, MRC_A_CONN_EVS_DENIED, st->evs_denied))
		return -EMSGSIZE;
	return 0;
}

/* Per plane: the sums of its EVs. */
static int mrc_nl_put_conn_planes(struct sk_buff *skb,
				  const struct mrc_conn_snap *s)
{
	struct nlattr *planes, *nest;
	u64 pkts, bytes, retx, lost, ecn;
	u32 p, i, usable;

	planes = nla_nest_start(skb, MRC_A_CONN_PLANES);
	if (!planes)
		return -EMSGSIZE;
	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		if (!(s->planes_up & BIT(p - 1)))
			continue;
		pkts = 0;
		bytes = 0;
		retx = 0;
		lost = 0;
		ecn = 0;
		usable = 0;
		for (i = 0; i < s->n_evs; i++) {
			const struct mrc_ev_info *e = &s->ev[i];

			if (e->plane != p)
				continue;
			pkts += e->tx_pkts;
			bytes += e->tx_bytes;
			retx += e->retx_pkts;
			lost += e->lost_pkts;
			ecn += e->ecn_marks;
			usable += e->state == MRC_EV_GOOD;
		}
		nest = nla_nest_start(skb, MRC_A_CONN_PLANE);
		if (!nest || nla_put_u32(skb, MRC_A_CONN_PLANE_ID, p) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_EVS_USABLE, usable) ||
		    mrc_nl_put_counters(skb, &mrc_nl_conn_plane_ctrs, pkts,
					bytes, retx, lost, ecn))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	nla_nest_end(skb, planes);
	return 0;
}

static int mrc_nl_put_conn_ev(struct sk_buff *skb,
			      const struct mrc_conn_snap *s, u32 i)
{
	const struct mrc_ev_info *e = &s->ev[i];
	struct nlattr *nest;

	nest = nla_nest_start(skb, MRC_A_CONN_EVS_EV);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_CONN_EV_INDEX, i) ||
	    nla_put_u32(skb, MRC_A_CONN_EV_PLANE, e->plane) ||
	    nla_put_u32(skb, MRC_A_CONN_EV_STATE, e->state) ||
	    nla_put_u32(skb, MRC_A_CONN_EV_RTT, e->srtt) ||
	    nla_put_u16(skb, MRC_A_CONN_EV_SPORT, ntohs(s->sport[i])) ||
	    mrc_nl_put_counters(skb, &mrc_nl_conn_ev_ctrs, e->tx_pkts,
				e->tx_bytes, e->retx_pkts, e->lost_pkts,
				e->ecn_marks)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* One message for the QP of @s, its EVs from *@ev_off on.  Returns 0 when
 * the QP is complete, -EAGAIN when EVs are left (*@ev_off: the next one),
 * -EMSGSIZE when not even the head fitted (nothing added).
 */
static int mrc_nl_fill_conn(struct sk_buff *skb, const struct mrc_conn_snap *s,
			    const struct mrc_dev_id *dev, u32 portid, u32 seq,
			    int flags, bool stats, u32 *ev_off)
{
	struct nlattr *evs;
	void *hdr;
	u32 i = *ev_off;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags,
			  MRC_CMD_CONN_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_DEV_INDEX, dev->index) ||
	    nla_put_string(skb, MRC_A_DEV_NAME, dev->name))
		goto cancel;
	if (mrc_nl_put_conn_head(skb, s))
		goto cancel;
	if (stats && s->ready) {
		if (!i && mrc_nl_put_conn_planes(skb, s))
			goto cancel;
		evs = nla_nest_start(skb, MRC_A_CONN_EVS);
		if (!evs || nla_put_u32(skb, MRC_A_CONN_EVS_OFFSET, i))
			goto cancel;
		for (; i < s->n_evs; i++)
			if (mrc_nl_put_conn_ev(skb, s, i))
				break;
		/* Not one EV fitted: the message is of no use. */
		if (i == *ev_off && i < s->n_evs)
			goto cancel;
		nla_nest_end(skb, evs);
	}
	genlmsg_end(skb, hdr);
	if (stats && i < s->n_evs) {
		*ev_off = i;
		return -EAGAIN;
	}
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* The QP after @index (inclusive) with a reference, or NULL. */
static struct mrc_qp *mrc_nl_next_qp(struct mrc_net *mn, unsigned long *index)
{
	struct mrc_qp *qp;

	rcu_read_lock();
	for (;;) {
		qp = xa_find(&mn->qps, index, ULONG_MAX, XA_PRESENT);
		if (!qp || refcount_inc_not_zero(&qp->ref))
			break;
		(*index)++;
	}
	rcu_read_unlock();
	return qp;
}

static int mrc_nl_dev_id(struct net *net, struct nlattr **attrs,
			 struct mrc_dev_id *id, bool *all,
			 struct netlink_ext_ack *extack)
{
	struct mrc_dev *mdev;

	*all = !attrs[MRC_A_DEV_NAME] && !attrs[MRC_A_DEV_INDEX];
	if (*all)
		return 0;
	mutex_lock(&mrc_cfg_lock);
	mdev = mrc_nl_find_dev(net, attrs, extack);
	if (!IS_ERR(mdev)) {
		id->index = mdev->ibdev.index;
		strscpy(id->name, mrc_dev_name(mdev), sizeof(id->name));
	}
	mutex_unlock(&mrc_cfg_lock);
	return PTR_ERR_OR_ZERO(mdev);
}

static void mrc_nl_qp_dev_id(struct mrc_qp *qp, struct mrc_dev_id *id)
{
	id->index = qp->mdev->ibdev.index;
	strscpy(id->name, mrc_dev_name(qp->mdev), sizeof(id->name));
}

int mrc_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = mrc_genl_dump_attrs(cb);
	bool stats = nla_get_flag(attrs[MRC_A_CONN_WANT_STATS]);
	struct net *net = sock_net(skb->sk);
	struct mrc_net *mn = mrc_net(net);
	unsigned long index = cb->args[0];
	u32 ev_off = cb->args[1];
	struct mrc_conn_snap *s;
	struct mrc_dev_id only, dev;
	struct mrc_qp *qp;
	bool all;
	int err;

	err = mrc_nl_dev_id(net, attrs, &only, &all, cb->extack);
	if (err)
		return err;
	s = kvmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	while ((qp = mrc_nl_next_qp(mn, &index))) {
		mrc_nl_qp_dev_id(qp, &dev);
		/* Connections only: a UD QP (QP1 of the MAD layer among
		 * them) has no engine connection and no peer.
		 */
		if ((!all && dev.index != only.index) || mrc_qp_is_ud(qp)) {
			mrc_qp_put(qp);
			index++;
			continue;
		}
		mrc_conn_snap_take(qp, s, cb->skb);
		mrc_qp_put(qp);
		err = mrc_nl_fill_conn(skb, s, &dev,
				       NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI, stats,
				       &ev_off);
		if (err)
			break;
		index++;
		ev_off = 0;
	}
	kvfree(s);
	cb->args[0] = index;
	cb->args[1] = ev_off;
	/* A full skb ends this round; an empty one means too small. */
	if (err == -EMSGSIZE && !skb->len)
		return err;
	return skb->len;
}

int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	bool stats = nla_get_flag(info->attrs[MRC_A_CONN_WANT_STATS]);
	struct mrc_conn_snap *s;
	struct mrc_dev_id only, dev;
	struct sk_buff *msg;
	struct mrc_qp *qp;
	u32 ev_off = 0;
	bool all;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_CONN_QPN)) {
		NL_SET_ERR_MSG(info->extack, "missing QP number (MRC_A_QPN)");
		return -EINVAL;
	}
	err = mrc_nl_dev_id(net, info->attrs, &only, &all, info->extack);
	if (err)
		return err;
	qp = mrc_qp_get(mrc_net(net), nla_get_u32(info->attrs[MRC_A_CONN_QPN]));
	if (qp)
		mrc_nl_qp_dev_id(qp, &dev);
	if (!qp || (!all && dev.index != only.index)) {
		if (qp)
			mrc_qp_put(qp);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_CONN_QPN],
				    "no such QP");
		return -ENOENT;
	}
	if (mrc_qp_is_ud(qp)) {
		mrc_qp_put(qp);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_CONN_QPN],
				    "a UD QP has no connection");
		return -ENOENT;
	}
	s = kvmalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		mrc_qp_put(qp);
		return -ENOMEM;
	}
	mrc_conn_snap_take(qp, s, skb);
	mrc_qp_put(qp);
	/* Every EV in one reply: up to 256 of them. */
	msg = nlmsg_new(stats ? 64 * 1024 - NLMSG_HDRLEN : NLMSG_GOODSIZE,
			GFP_KERNEL);
	err = -ENOMEM;
	if (msg) {
		err = mrc_nl_fill_conn(msg, s, &dev, info->snd_portid,
				       info->snd_seq, 0, stats, &ev_off);
		if (err)
			nlmsg_free(msg);
	}
	kvfree(s);
	if (err)
		return err == -EAGAIN ? -EMSGSIZE : err;
	return genlmsg_reply(msg, info);
}
