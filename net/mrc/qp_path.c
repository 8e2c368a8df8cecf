// SPDX-License-Identifier: GPL-2.0-only
/*
 * The paths of a QP: on which planes, toward which addresses and with
 * which EVs its packets leave.
 *
 * At RTR the peer's address (the address vector's) selects a route
 * (route.c).  With one, every plane the route names carries packets
 * toward the peer's address on that plane, and the route's EV profile
 * gives the EV set; profile 0, the built-in default, is AUTO format UDP
 * with MRC_QP_AUTO_EVS_PER_PLANE EVs per plane.  Without one, a QP given
 * an EV profile of its own (MRC_QP_EV_PROFILE_ID) uses every plane the
 * profile's EVs name: each plane's netdev carries packets from the QP's
 * GID address to the AV's, the peer's GID (planes joined directly, or a
 * fabric that delivers each host's address on every plane).  The peer
 * knows the QP by that one address on every plane, as the QP knows it.
 * Otherwise the QP behaves like a single-path RoCE QP: plane 1, the AV's
 * addresses, one EV.
 *
 * The work is split in two because the route table and profiles are
 * under a mutex: mrc_qp_paths_prepare() gathers everything and allocates
 * a new path table in process context, mrc_qp_paths_install() fills it
 * and publishes it under qp->lock.
 *
 * Live QPs move.  When the route to a peer is added, replaced or deleted
 * (route.c), or loses a hop because its plane went away, every QP of the
 * instance in RTR or later whose peer (its AV's address) the route names
 * is prepared again as at RTR, with the same precedence: the route's
 * planes and the route's EV profile, or the QP's own EV profile if it has
 * one; without a route the QP's own profile's planes, or plane 1 alone.
 * mrc_qp_repath_prepare() builds every new table first (a route change
 * that one QP cannot follow fails whole and changes nothing), then the
 * table changes and mrc_qp_repath_commit() swaps each QP's table under
 * its lock and gives the engine the new EV set (mrc_conn_replace_evs():
 * what is in flight is resent on it at once; PSNs, SACK and the reorder
 * window stay).  The data path never sees a half-built table: it reads
 * whichever table is published (RCU), and the old one is freed after a
 * grace period.  The CC profile stays the one of RTR.  A QP that reached
 * RTR with paths prepared before a route change (mdev->route_gen moved)
 * moves right after (mrc_qp_paths_recheck()).  Plane state changes do not
 * rebuild anything (mrc_qp_plane_changed()).
 */

#include <linux/hash.h>
#include <linux/in6.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <rdma/ib_addr.h>

#include "qp.h"

#define MRC_QP_AUTO_EVS_PER_PLANE	16

static void mrc_qp_paths_destroy(struct mrc_qp_paths *paths)
{
	int p;

	if (!paths)
		return;
	for (p = 1; p <= MRC_MAX_PLANES; p++)
		dst_cache_destroy(&paths->plane[p].dst_cache);
	kvfree(paths);
}

static void mrc_qp_paths_free_rcu(struct rcu_head *head)
{
	mrc_qp_paths_destroy(container_of(head, struct mrc_qp_paths, rcu));
}

/* An empty table (no plane valid, no EV). */
static struct mrc_qp_paths *mrc_qp_paths_new(void)
{
	struct mrc_qp_paths *paths;
	int p;

	paths = kvzalloc(sizeof(*paths), GFP_KERNEL);
	if (!paths)
		return NULL;
	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		if (dst_cache_init(&paths->plane[p].dst_cache, GFP_KERNEL)) {
			while (--p >= 1)
				dst_cache_destroy(&paths->plane[p].dst_cache);
			kvfree(paths);
			return NULL;
		}
	}
	return paths;
}

int mrc_qp_paths_alloc(struct mrc_qp *qp)
{
	struct mrc_qp_paths *paths = mrc_qp_paths_new();

	if (!paths)
		return -ENOMEM;
	RCU_INIT_POINTER(qp->paths, paths);
	return 0;
}

/* destroy_qp: no reader is left (synchronize_rcu(), references). */
void mrc_qp_paths_free(struct mrc_qp *qp)
{
	mrc_qp_paths_destroy(rcu_dereference_protected(qp->paths, true));
	RCU_INIT_POINTER(qp->paths, NULL);
}

void mrc_qp_path_prep_free(struct mrc_qp_path_prep *prep)
{
	if (!prep)
		return;
	mrc_qp_paths_destroy(prep->paths);
	kfree(prep);
}

/* The planes' netdevs and whether each can carry traffic now. */
static void mrc_qp_prep_planes(struct mrc_dev *mdev,
			       struct mrc_qp_path_prep *prep)
{
	struct mrc_plane *plane;
	int p;

	lockdep_assert_held(&mrc_cfg_lock);
	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		plane = mrc_plane_get_locked(mdev, p);
		if (!plane)
			continue;
		prep->oif[p] = plane->ndev->ifindex;
		prep->plane_up[p] = plane->oper_up;
	}
	prep->up_mask = mrc_plane_up_mask(mdev);
}

static u16 mrc_qp_route_planes(const struct mrc_route_info *route)
{
	u16 mask = 0;
	int p;

	for (p = 1; p <= MRC_MAX_PLANES; p++)
		if (route->hops[p].valid)
			mask |= BIT(p - 1);
	return mask;
}

/* The EV set: profile @id's (0: AUTO over the route's planes, or plane 1
 * alone without a route).
 */
static int mrc_prep_evs(struct mrc_dev *mdev, u32 qpn, u32 id,
			struct mrc_qp_path_prep *prep, bool ipv6)
{
	u16 mask = 0x1, count = 1;
	int n, i;

	prep->ev_profile = id;
	prep->ev_planes = 0;
	if (id) {
		n = __mrc_ev_profile_conn_get(mdev, id, qpn, prep->evs,
					      prep->cfg, MRC_MAX_EVS,
					      &prep->format, &prep->min_active,
					      &prep->event_mask);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++)
			if (prep->cfg[i].plane >= 1 &&
			    prep->cfg[i].plane <= MRC_MAX_PLANES)
				prep->ev_planes |= BIT(prep->cfg[i].plane - 1);
	} else {
		prep->format = MRC_EV_FMT_UDP;
		prep->min_active = 1;
		prep->event_mask = MRC_EV_EVT_ALL;
		if (prep->has_route) {
			mask = mrc_qp_route_planes(&prep->route);
			count = min_t(u16, MRC_MAX_EVS, hweight16(mask) *
				      MRC_QP_AUTO_EVS_PER_PLANE);
		}
		n = mrc_ev_auto_expand(prep->format, count, mask, qpn,
				       prep->evs, MRC_MAX_EVS);
		if (n < 0)
			return -EINVAL;
		for (i = 0; i < n; i++) {
			prep->cfg[i].plane = prep->evs[i].plane;
			prep->cfg[i].denied = 0;
		}
	}
	if (!ipv6 && prep->format != MRC_EV_FMT_UDP)
		return -EAFNOSUPPORT;	/* STEV and SRV6 live in IPv6 */
	prep->n_evs = n;
	/* No route: the QP's own profile's planes, straight to the GID. */
	prep->direct = !prep->has_route && id &&
		       (prep->ev_planes & ~BIT(0));
	return 0;
}

/* mrc_paths_prepare() with @route (NULL: none) as the peer's route;
 * caller holds mrc_cfg_lock.
 */
static int __mrc_paths_prepare(struct mrc_dev *mdev,
			       const struct mrc_route_info *route, bool ipv6,
			       u32 qpn, u32 ev_profile, u32 cc_profile,
			       struct mrc_qp_path_prep *prep)
{
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	prep->has_route = !!route;
	if (route)
		prep->route = *route;
	else
		memset(&prep->route, 0, sizeof(prep->route));
	prep->route_gen = mdev->route_gen;
	mrc_qp_prep_planes(mdev, prep);
	if (cc_profile == MRC_PATHS_ROUTE_PROFILE)
		cc_profile = prep->has_route ? prep->route.cc_profile : 0;
	prep->cc_profile = cc_profile;
	err = __mrc_cc_profile_get(mdev, cc_profile, &prep->cc);
	if (err)
		return err;
	if (ev_profile == MRC_PATHS_ROUTE_PROFILE)
		ev_profile = prep->has_route ? prep->route.ev_profile : 0;
	return mrc_prep_evs(mdev, qpn, ev_profile, prep, ipv6);
}

/**
 * mrc_paths_prepare - the planes, EVs and CC parameters toward a peer
 * @mdev: the instance
 * @peer: the peer's (plane-1) address, as a QP's address vector names it
 * @qpn: the QP (AUTO EVs derive from it; 0 for probes)
 * @ev_profile: the EV profile to use, or MRC_PATHS_ROUTE_PROFILE for the
 *	route's (0 without a route)
 * @cc_profile: the CC profile to use, or MRC_PATHS_ROUTE_PROFILE for the
 *	route's (0, the built-in one, without a route)
 * @prep: filled in
 *
 * Process context (takes mrc_cfg_lock).  Return: 0 or -errno: -ENOENT
 * for a profile that is gone, -EINVAL for one that is not online,
 * -EAFNOSUPPORT for an STEV or SRV6 profile toward an IPv4 peer.
 */
int mrc_paths_prepare(struct mrc_dev *mdev, const struct sockaddr *peer,
		      u32 qpn, u32 ev_profile, u32 cc_profile,
		      struct mrc_qp_path_prep *prep)
{
	struct mrc_route_info *route;
	int err;

	route = kmalloc(sizeof(*route), GFP_KERNEL);
	if (!route)
		return -ENOMEM;
	mutex_lock(&mrc_cfg_lock);
	err = mrc_route_lookup_locked(mdev, peer, route);
	if (!err || err == -ENOENT)
		err = __mrc_paths_prepare(mdev, err ? NULL : route,
					  peer->sa_family == AF_INET6, qpn,
					  ev_profile, cc_profile, prep);
	mutex_unlock(&mrc_cfg_lock);
	kfree(route);
	return err;
}

/* The QP's own profiles, or MRC_PATHS_ROUTE_PROFILE (set in RESET only,
 * so stable from INIT on).
 */
static void mrc_qp_own_profiles(const struct mrc_qp *qp, u32 *ev, u32 *cc)
{
	u32 set = READ_ONCE(qp->mrc.set);

	*ev = MRC_PATHS_ROUTE_PROFILE;
	*cc = MRC_PATHS_ROUTE_PROFILE;
	if (set & MRC_IB_QP_EV_PROFILE)
		*ev = READ_ONCE(qp->mrc.ev_profile);
	if (set & MRC_IB_QP_CC_PROFILE)
		*cc = READ_ONCE(qp->mrc.cc_profile);
}

int mrc_qp_paths_prepare(struct mrc_qp *qp, const struct rdma_ah_attr *ah,
			 struct mrc_qp_path_prep *prep)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(ah);
	struct sockaddr_storage d;
	u32 ev, cc;
	int err;

	if (!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH))
		return -EINVAL;
	mrc_qp_own_profiles(qp, &ev, &cc);
	rdma_gid2ip((struct sockaddr *)&d, &grh->dgid);
	err = mrc_paths_prepare(qp->mdev, (struct sockaddr *)&d, mrc_qpn(qp),
				ev, cc, prep);
	if (err)
		return err;
	prep->paths = mrc_qp_paths_new();
	return prep->paths ? 0 : -ENOMEM;
}

/* The planes a QP's packets may use: the route's, the profile's EVs'
 * without a route (mrc_prep_evs()), or plane 1 alone.
 */
static u16 mrc_qp_prep_planes_used(const struct mrc_qp_path_prep *prep)
{
	if (prep->has_route)
		return mrc_qp_route_planes(&prep->route);
	if (prep->direct)
		return prep->ev_planes | BIT(0);
	return BIT(0);
}

/* Plane @p from the route's hop (the AV's addresses for plane 1 without
 * a route, and for each of the profile's planes when direct).
 */
static void mrc_qp_install_plane(struct mrc_qp *qp,
				 const struct mrc_qp_path_prep *prep,
				 struct mrc_qp_paths *paths, int p)
{
	struct mrc_qp_plane *pl = &paths->plane[p];
	const struct mrc_route_hop *hop = &prep->route.hops[p];

	if (prep->has_route && !hop->valid)
		return;
	if (p != 1 && prep->direct) {
		if (!(prep->ev_planes & BIT(p - 1)))
			return;
		/* The GID's addresses on this plane's netdev (detached
		 * now, oif 0: down until it is attached).
		 */
		pl->oif = prep->oif[p];
		pl->saddr = qp->saddr;
		pl->daddr = qp->daddr;
		pl->valid = true;
		return;
	}
	if (p == 1) {
		/* The GID names the source and its netdev. */
		pl->oif = qp->oif;
		pl->saddr = qp->saddr;
		pl->daddr = qp->daddr;
	} else {
		if (!prep->has_route)
			return;
		/* Detached now (oif 0): plane down until it is attached. */
		pl->oif = prep->oif[p];
		pl->saddr.v4.sin_family = qp->ipv6 ? AF_INET6 : AF_INET;
	}
	if (prep->has_route) {
		if (qp->ipv6)
			memcpy(&pl->daddr.v6.sin6_addr, hop->addr, 16);
		else
			memcpy(&pl->daddr.v4.sin_addr, hop->addr, 4);
		pl->daddr.v4.sin_family = qp->ipv6 ? AF_INET6 : AF_INET;
	}
	pl->valid = true;
}

void mrc_path_ev_outer(u32 qpn, u8 format, const struct mrc_ev *ev,
		       struct mrc_qp_ev *out)
{
	struct mrc_ev_outer o;

	memset(out, 0, sizeof(*out));
	if (mrc_ev_to_outer(format, ev, &o))
		return;		/* validated by the profile: not reached */
	/* SRV6 EVs name the path by address: one source port per QP. */
	if (!o.udp_sport)
		o.udp_sport = MRC_EV_AUTO_SPORT_BASE |
			      (hash_32(qpn, 14) & 0x3fff);
	out->sport = htons(o.udp_sport);
	out->flowlabel = htonl(o.flow_label & 0xfffff);
	if (o.sid)
		memcpy(&out->sid, o.sid, sizeof(out->sid));
	if (o.segment) {
		memcpy(&out->seg, o.segment, sizeof(out->seg));
		out->nseg = 1;
	}
	/* EV state events name the EV by its value (MRC_A_CONN_EV_VALUE). */
	out->len = min_t(u8, ev->len, sizeof(out->value));
	memcpy(out->value, ev->value, out->len);
}

/* Plane @p of a QP moving from @old to @paths: one it leaves keeps
 * accepting the peer's packets from the address it had (the peer's
 * route may still use it).
 */
static void mrc_qp_keep_rx(const struct mrc_qp_paths *old,
			   struct mrc_qp_paths *paths, int p)
{
	const struct mrc_qp_plane *o = &old->plane[p];
	struct mrc_qp_plane *pl = &paths->plane[p];

	if (pl->valid || (!o->valid && !o->rx_only))
		return;
	pl->daddr = o->daddr;
	pl->rx_only = true;
}

/**
 * mrc_qp_paths_install - publish the paths @prep describes
 * @qp: the QP, qp->lock held
 * @prep: from mrc_qp_paths_prepare() or mrc_qp_repath_prepare(); its
 *	table is taken on success
 * @live: the connection is running (a route change): the engine gets the
 *	new EV set with mrc_conn_replace_evs(), else (RTR) mrc_conn_set_evs()
 * @now: the engine clock
 *
 * Return: 0, or -errno with nothing changed.
 */
int mrc_qp_paths_install(struct mrc_qp *qp, struct mrc_qp_path_prep *prep,
			 bool live, u64 now)
{
	struct mrc_qp_paths *old = mrc_qp_paths(qp);
	struct mrc_qp_paths *paths = prep->paths;
	int p, i, err;

	lockdep_assert_held(&qp->lock);

	if (!paths)
		return -EINVAL;
	paths->format = prep->format;
	paths->n_evs = prep->n_evs;
	paths->ev_profile = prep->ev_profile;
	paths->cc_profile = prep->cc_profile;
	paths->event_mask = prep->event_mask;
	paths->route_planes = mrc_qp_prep_planes_used(prep);
	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		mrc_qp_install_plane(qp, prep, paths, p);
		if (live)
			mrc_qp_keep_rx(old, paths, p);
	}
	for (i = 0; i < prep->n_evs; i++)
		mrc_path_ev_outer(mrc_qpn(qp), prep->format, &prep->evs[i],
				  &paths->ev[i]);
	/* Published before the engine hears of it: its EV events name the
	 * new EVs (mrc_genl_event_conn() reads the table).
	 */
	prep->paths = NULL;
	rcu_assign_pointer(qp->paths, paths);
	if (live) {
		/* The EV set's changes are news (monitor), unlike at RTR. */
		qp->repath_event_mask = prep->event_mask;
		err = mrc_conn_replace_evs(qp->conn, prep->cfg, prep->n_evs,
					   max_t(u16, prep->min_active, 1),
					   now);
		qp->repath_event_mask = 0;
	} else {
		err = mrc_conn_set_evs(qp->conn, prep->cfg, prep->n_evs, now);
	}
	if (err) {
		/* Refused before the engine changed anything: back to the
		 * old table; the new one may have been seen already.
		 */
		rcu_assign_pointer(qp->paths, old);
		old = paths;
	}
	/* Readers of the table that goes (the receive path, packets being
	 * sent after the lock) finish with it before it is freed.
	 */
	call_rcu(&old->rcu, mrc_qp_paths_free_rcu);
	if (err)
		return err;
	/* A route change may bring another CC profile (at RTR the engine
	 * started with prep->cc).
	 */
	if (live)
		mrc_conn_set_cc(qp->conn, &prep->cc, now);
	/* A plane without a hop, detached or down carries nothing; a peer
	 * that would use one of ours that is down hears it at once.
	 */
	for (p = 1; p <= MRC_MAX_PLANES; p++)
		mrc_conn_plane_set(qp->conn, p, paths->plane[p].valid &&
				   prep->plane_up[p], now);
	if ((paths->route_planes & prep->up_mask) != paths->route_planes)
		mrc_conn_send_port_status(qp->conn,
					  atomic_inc_return(&qp->mdev->port_seq),
					  prep->up_mask, now);
	return 0;
}

/* Receive path, in an RCU read-side section: does @skb come from the
 * peer's address on @plane?
 */
bool mrc_qp_paths_from_peer(const struct mrc_qp *qp,
			    const struct sk_buff *skb, u8 plane)
{
	const struct mrc_qp_paths *paths = rcu_dereference(qp->paths);
	const struct mrc_qp_plane *pl;

	if (!plane || plane > MRC_MAX_PLANES)
		return false;
	pl = &paths->plane[plane];
	if (!pl->valid && !pl->rx_only)
		return false;
	if (skb->protocol == htons(ETH_P_IPV6))
		return qp->ipv6 && ipv6_addr_equal(&ipv6_hdr(skb)->saddr,
						   &pl->daddr.v6.sin6_addr);
	return !qp->ipv6 && ip_hdr(skb)->saddr == pl->daddr.v4.sin_addr.s_addr;
}

/* One live QP moving (mrc_qp_repath_*()): a reference and its new paths. */
struct mrc_qp_move {
	struct list_head node;
	struct mrc_qp *qp;
	struct mrc_qp_path_prep prep;
};

static void mrc_qp_move_free(struct mrc_qp_move *m)
{
	list_del(&m->node);
	mrc_qp_paths_destroy(m->prep.paths);
	mrc_qp_put(m->qp);
	kvfree(m);
}

void mrc_qp_repath_abort(struct list_head *moves)
{
	struct mrc_qp_move *m, *tmp;

	list_for_each_entry_safe(m, tmp, moves, node)
		mrc_qp_move_free(m);
}

/* Is @qp live (RTR or later, not in error) and talking to @peer? */
static bool mrc_qp_moves_with(struct mrc_qp *qp, u8 family, const u8 *peer)
{
	bool match;

	spin_lock_bh(&qp->lock);
	match = qp->conn_ready && qp->state != IB_QPS_ERR &&
		qp->state != IB_QPS_RESET &&
		qp->ipv6 == (family == AF_INET6) &&
		(qp->ipv6 ? !memcmp(&qp->daddr.v6.sin6_addr, peer, 16) :
			    !memcmp(&qp->daddr.v4.sin_addr, peer, 4));
	spin_unlock_bh(&qp->lock);
	return match;
}

/* Gather and build one QP's move onto @route (NULL: none). */
static int mrc_qp_move_prepare(struct mrc_qp *qp,
			       const struct mrc_route_info *route,
			       struct list_head *moves)
{
	struct mrc_qp_move *m;
	u32 ev, cc;
	int err;

	m = kvzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		mrc_qp_put(qp);
		return -ENOMEM;
	}
	m->qp = qp;
	list_add_tail(&m->node, moves);
	mrc_qp_own_profiles(qp, &ev, &cc);
	err = __mrc_paths_prepare(qp->mdev, route, qp->ipv6, mrc_qpn(qp),
				  ev, cc, &m->prep);
	if (err)
		return err;
	m->prep.paths = mrc_qp_paths_new();
	return m->prep.paths ? 0 : -ENOMEM;
}

/* The next QP of @mdev at or after *@idx, with a reference, or NULL;
 * *@idx is its number (the caller steps past it).  One QP at a time, so
 * that the caller may sleep while it holds one (destroy_qp waits).
 */
static struct mrc_qp *mrc_qp_next_held(struct mrc_dev *mdev,
				       unsigned long *idx)
{
	struct mrc_qp *qp;

	for (;; (*idx)++) {
		rcu_read_lock();
		qp = xa_find(&mdev->mnet->qps, idx, ULONG_MAX, XA_PRESENT);
		if (qp && (qp->mdev != mdev || !refcount_inc_not_zero(&qp->ref)))
			qp = ERR_PTR(-ENOENT);
		rcu_read_unlock();
		if (!IS_ERR(qp))
			return qp;
	}
}

int mrc_qp_repath_prepare(struct mrc_dev *mdev, u8 family, const u8 *peer,
			  const struct mrc_route_info *route,
			  struct list_head *moves, u32 *bad_qpn)
{
	unsigned long idx = 0;
	struct mrc_qp *qp;
	u32 qpn;
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	*bad_qpn = 0;
	for (; (qp = mrc_qp_next_held(mdev, &idx)); idx++) {
		if (!mrc_qp_moves_with(qp, family, peer)) {
			mrc_qp_put(qp);
			continue;
		}
		qpn = mrc_qpn(qp);
		err = mrc_qp_move_prepare(qp, route, moves);
		if (err) {
			*bad_qpn = qpn;
			mrc_qp_repath_abort(moves);
			return err;
		}
		cond_resched();
	}
	return 0;
}

void mrc_qp_repath_commit(struct mrc_dev *mdev, struct list_head *moves)
{
	struct mrc_qp_move *m, *tmp;
	struct mrc_qp *qp;
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry_safe(m, tmp, moves, node) {
		qp = m->qp;
		spin_lock_bh(&qp->lock);
		/* Gone to RESET or ERR meanwhile: nothing to move. */
		if (qp->conn_ready && qp->state != IB_QPS_ERR &&
		    qp->state != IB_QPS_RESET) {
			err = mrc_qp_paths_install(qp, &m->prep, true,
						   mrc_now());
			if (err)
				pr_debug("mrc: QP %u keeps its paths (%d)\n",
					 mrc_qpn(qp), err);
			else
				mrc_qp_kick(qp);
		}
		mrc_qp_unlock_xmit(qp);
		mrc_qp_move_free(m);
	}
}

void mrc_qp_paths_recheck(struct mrc_qp *qp,
			  const struct mrc_qp_path_prep *prep)
{
	struct mrc_dev *mdev = qp->mdev;
	struct mrc_route *route;
	LIST_HEAD(moves);
	u8 peer[16] = {};
	u8 family;
	int err;

	mutex_lock(&mrc_cfg_lock);
	if (mdev->route_gen == prep->route_gen ||
	    !refcount_inc_not_zero(&qp->ref))
		goto out;
	spin_lock_bh(&qp->lock);
	family = qp->ipv6 ? AF_INET6 : AF_INET;
	if (qp->ipv6)
		memcpy(peer, &qp->daddr.v6.sin6_addr, 16);
	else
		memcpy(peer, &qp->daddr.v4.sin_addr, 4);
	spin_unlock_bh(&qp->lock);
	route = mrc_route_find(mdev, family, peer);
	if (!mrc_qp_moves_with(qp, family, peer)) {
		mrc_qp_put(qp);
		goto out;
	}
	err = mrc_qp_move_prepare(qp, route ? &route->info : NULL, &moves);
	if (err) {
		pr_debug("mrc: QP %u keeps the paths of RTR (%d)\n",
			 mrc_qpn(qp), err);
		mrc_qp_repath_abort(&moves);
	} else {
		mrc_qp_repath_commit(mdev, &moves);
	}
out:
	mutex_unlock(&mrc_cfg_lock);
}

struct mrc_qp_plane_change {
	u32 id;
	int ifindex;
	bool up;
	u16 up_mask;
	u32 seq;
};

static void mrc_qp_plane_apply(struct mrc_qp *qp, void *arg)
{
	const struct mrc_qp_plane_change *c = arg;
	struct mrc_qp_paths *paths;
	struct mrc_qp_plane *pl;
	u64 now = mrc_now();

	spin_lock_bh(&qp->lock);
	paths = mrc_qp_paths(qp);
	pl = &paths->plane[c->id];
	if (!qp->conn_ready || qp->state == IB_QPS_ERR ||
	    !(paths->route_planes & BIT(c->id - 1)))
		goto out;
	/* A plane attached again may be another netdev; plane 1 is the
	 * GID's netdev for the QP's whole life.
	 */
	if (c->id != 1 && c->ifindex)
		WRITE_ONCE(pl->oif, c->ifindex);
	mrc_conn_plane_set(qp->conn, c->id, c->up && pl->valid && pl->oif,
			   now);
	mrc_conn_send_port_status(qp->conn, c->seq, c->up_mask, now);
	mrc_qp_kick_at(qp, now);
out:
	mrc_qp_unlock_xmit(qp);
}

void mrc_qp_plane_changed(struct mrc_dev *mdev, u32 id, int ifindex,
			  bool up)
{
	struct mrc_qp_plane_change c = {
		.id = id, .ifindex = ifindex, .up = up,
	};

	lockdep_assert_held(&mrc_cfg_lock);

	c.up_mask = mrc_plane_up_mask(mdev);
	c.seq = atomic_inc_return(&mdev->port_seq);
	mrc_qp_for_each(mdev, mrc_qp_plane_apply, &c);
}

struct mrc_qp_ev_change {
	u32 profile;
	u32 qpn;			/* 0: every QP of the profile */
	u16 idx;
	const struct mrc_ev *ev;	/* replace, or NULL: deny/allow */
	int deny;
	u32 applied;
};

/* A copy of @from in @to (a new table): everything but its RCU head and
 * route caches (@to's start empty).
 */
static void mrc_qp_paths_copy(struct mrc_qp_paths *to,
			      const struct mrc_qp_paths *from)
{
	int p;

	to->format = from->format;
	to->n_evs = from->n_evs;
	to->route_planes = from->route_planes;
	to->ev_profile = from->ev_profile;
	to->cc_profile = from->cc_profile;
	to->event_mask = from->event_mask;
	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		to->plane[p].daddr = from->plane[p].daddr;
		to->plane[p].saddr = from->plane[p].saddr;
		to->plane[p].oif = READ_ONCE(from->plane[p].oif);
		to->plane[p].valid = from->plane[p].valid;
		to->plane[p].rx_only = from->plane[p].rx_only;
	}
	memcpy(to->ev, from->ev, from->n_evs * sizeof(to->ev[0]));
}

/* Apply @c to @qp; a replacement goes into the table *@spare (then
 * published, *@spare NULL).
 */
static void mrc_qp_ev_apply(struct mrc_qp *qp, struct mrc_qp_ev_change *c,
			    struct mrc_qp_paths **spare)
{
	struct mrc_qp_paths *paths;
	struct mrc_qp_ev outer;

	spin_lock_bh(&qp->lock);
	paths = mrc_qp_paths(qp);
	if (!qp->conn_ready || qp->state == IB_QPS_ERR ||
	    paths->ev_profile != c->profile || c->idx >= paths->n_evs)
		goto out;
	if (c->ev) {
		struct mrc_ev_info info;

		/* The engine keeps an EV's plane for the connection's life:
		 * a live copy changes its headers only.
		 */
		if (mrc_conn_get_ev_info(qp->conn, c->idx, &info) ||
		    info.plane != c->ev->plane)
			goto out;
		/* Checked against the profile by the caller; the QP's own
		 * format decides what its headers can carry.
		 */
		if (mrc_ev_check(paths->format, c->ev))
			goto out;
		mrc_path_ev_outer(mrc_qpn(qp), paths->format, c->ev, &outer);
		/* A new table with the one EV changed: packets being sent
		 * see the old EV or the new one, never a mix.
		 */
		mrc_qp_paths_copy(*spare, paths);
		(*spare)->ev[c->idx] = outer;
		rcu_assign_pointer(qp->paths, *spare);
		*spare = NULL;
		call_rcu(&paths->rcu, mrc_qp_paths_free_rcu);
	} else {
		mrc_conn_ev_deny(qp->conn, c->idx, c->deny, mrc_now());
		mrc_qp_kick(qp);
	}
	c->applied++;
out:
	mrc_qp_unlock_xmit(qp);
}

/**
 * mrc_qp_ev_changed - apply an EV change of profile @profile to live QPs
 * @mdev: the instance
 * @profile: the EV profile the QPs' EV sets came from
 * @qpn: only this QP, or 0 for all of them
 * @idx: the EV's index
 * @ev: the replacement, or NULL to deny/allow; a QP whose EV is on
 *	another plane than @ev's keeps its copy
 * @deny: without @ev: 1 deny, 0 allow
 *
 * Caller holds mrc_cfg_lock (process context: a replacement builds each
 * QP's new table before its lock).  A QP for which there is no memory
 * keeps its EV.  Return: how many QPs changed.
 */
u32 mrc_qp_ev_changed(struct mrc_dev *mdev, u32 profile, u32 qpn, u16 idx,
		      const struct mrc_ev *ev, int deny)
{
	struct mrc_qp_ev_change c = {
		.profile = profile, .qpn = qpn, .idx = idx, .ev = ev,
		.deny = deny,
	};
	struct mrc_qp_paths *spare = NULL;
	unsigned long i = 0;
	struct mrc_qp *qp;

	lockdep_assert_held(&mrc_cfg_lock);
	for (; (qp = mrc_qp_next_held(mdev, &i)); i++) {
		if (!qpn || mrc_qpn(qp) == qpn) {
			if (ev && !spare)
				spare = mrc_qp_paths_new();
			if (!ev || spare)
				mrc_qp_ev_apply(qp, &c, &spare);
		}
		mrc_qp_put(qp);
		cond_resched();
	}
	mrc_qp_paths_destroy(spare);
	return c.applied;
}

struct mrc_qp_cc_change {
	u32 profile;
	const struct mrc_nscc_params *params;
	u32 applied;
};

static void mrc_qp_cc_apply(struct mrc_qp *qp, void *arg)
{
	struct mrc_qp_cc_change *c = arg;
	u64 now = mrc_now();

	spin_lock_bh(&qp->lock);
	if (qp->conn_ready && qp->state != IB_QPS_ERR &&
	    mrc_qp_paths(qp)->cc_profile == c->profile) {
		mrc_conn_set_cc(qp->conn, c->params, now);
		/* A larger window may let more leave at once. */
		mrc_qp_kick_at(qp, now);
		c->applied++;
	}
	mrc_qp_unlock_xmit(qp);
}

/**
 * mrc_qp_cc_changed - CC profile @profile has new parameters: every live
 *	QP that runs it takes them (mrc_conn_set_cc())
 * @mdev: the instance
 * @profile: the profile's id
 * @params: its new parameters
 *
 * Caller holds mrc_cfg_lock, so no route change or RTR picks the old
 * parameters after this.  Return: how many QPs changed.
 */
u32 mrc_qp_cc_changed(struct mrc_dev *mdev, u32 profile,
		      const struct mrc_nscc_params *params)
{
	struct mrc_qp_cc_change c = { .profile = profile, .params = params };

	lockdep_assert_held(&mrc_cfg_lock);
	mrc_qp_for_each(mdev, mrc_qp_cc_apply, &c);
	return c.applied;
}

struct mrc_qp_ev_params {
	u32 profile;
	u16 min_active;
	u32 event_mask;
	u32 applied;
};

static void mrc_qp_ev_params_apply(struct mrc_qp *qp, void *arg)
{
	struct mrc_qp_ev_params *c = arg;
	struct mrc_qp_paths *paths;
	u64 now = mrc_now();

	spin_lock_bh(&qp->lock);
	paths = mrc_qp_paths(qp);
	if (qp->conn_ready && qp->state != IB_QPS_ERR &&
	    paths->ev_profile == c->profile) {
		/* Read under qp->lock only (mrc_cb_event()): no new table. */
		paths->event_mask = c->event_mask;
		mrc_conn_set_ev_min_active(qp->conn,
					   clamp_t(u16, c->min_active, 1,
						   max_t(u16, paths->n_evs, 1)),
					   now);
		mrc_qp_kick_at(qp, now);
		c->applied++;
	}
	mrc_qp_unlock_xmit(qp);
}

/**
 * mrc_qp_ev_params_changed - EV profile @profile has a new ev_min_active
 *	or event mask: every live QP whose EVs came from it takes both
 * @mdev: the instance
 * @profile: the profile's id
 * @min_active: its ev_min_active (a larger one restores EVs at once)
 * @event_mask: its MRC_EV_EVT_* mask (the EV events the QPs raise)
 *
 * Caller holds mrc_cfg_lock.  Return: how many QPs changed.
 */
u32 mrc_qp_ev_params_changed(struct mrc_dev *mdev, u32 profile,
			     u16 min_active, u32 event_mask)
{
	struct mrc_qp_ev_params c = {
		.profile = profile, .min_active = min_active,
		.event_mask = event_mask,
	};

	lockdep_assert_held(&mrc_cfg_lock);
	mrc_qp_for_each(mdev, mrc_qp_ev_params_apply, &c);
	return c.applied;
}
