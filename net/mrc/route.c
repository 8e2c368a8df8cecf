// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routes: per instance, how a peer is reached on each plane.  The peer is
 * the address a QP's address vector names (its plane-1 address); per plane
 * a route gives the peer's address on that plane ("via").  EV and CC
 * profile ids (0..MRC_MAX_PROFILE, 0 the built-in default) name profiles of
 * the instance (profile.h).
 *
 * The table is a list under mrc_cfg_lock, at most MRC_MAX_ROUTES entries.
 * Rules kept here:
 *   - every hop names a plane attached to the instance when the route is
 *     added or replaced;
 *   - when a plane goes away (PLANE_DEL or its netdev unregistering), its
 *     hop is removed from every route and MRC_EVENT_ROUTE_ADD announces the
 *     changed route; a route left without hops is deleted
 *     (MRC_EVENT_ROUTE_DEL);
 *   - a route names only existing profiles, and only ONLINE EV profiles
 *     (checked by the op, netlink.c); while it does, those profiles
 *     cannot be deleted nor taken OFFLINE (mrc_route_using_profile());
 *   - the routes go with the instance (mrc_route_flush());
 *   - a change moves the live QPs of the peer (qp_path.c,
 *     mrc_qp_repath_*()): gathered and built first, so that add, replace
 *     and delete fail whole when one QP cannot move; then the table
 *     changes, then the QPs.
 *
 * No extack text is built here: a refusal is an errno (and, for a
 * profile in use, the route), which the netlink op turns into the
 * message.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>

#include "mrc.h"
#include "nl_event.h"

static unsigned int mrc_addr_len(u8 family)
{
	return family == AF_INET ? 4 : 16;
}

/* The route of @peer (@family's length), or NULL. */
struct mrc_route *mrc_route_find(struct mrc_dev *mdev, u8 family,
				 const u8 *peer)
{
	struct mrc_route *route;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry(route, &mdev->routes, node)
		if (route->family == family &&
		    !memcmp(route->peer, peer, mrc_addr_len(family)))
			return route;
	return NULL;
}

/* Add the route @tmpl describes (already checked against the planes), or
 * replace the existing one of the same peer if @replace, and move the
 * peer's live QPs onto it.  Return: 0, -EEXIST (a route to the peer
 * exists, !@replace), -ENOENT (none, and @replace), -ENOSPC
 * (MRC_MAX_ROUTES reached), -ENOMEM, or the error of the live QP
 * *@bad_qpn that cannot move (then nothing changed).
 */
int mrc_route_add(struct mrc_dev *mdev, const struct mrc_route *tmpl,
		  bool replace, u32 *bad_qpn)
{
	struct mrc_route *route, *added = NULL;
	LIST_HEAD(moves);
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	*bad_qpn = 0;
	route = mrc_route_find(mdev, tmpl->family, tmpl->peer);
	if (route && !replace)
		return -EEXIST;
	if (!route && replace)
		return -ENOENT;
	if (!route) {
		if (mdev->nr_routes >= MRC_MAX_ROUTES)
			return -ENOSPC;
		added = kmemdup(tmpl, sizeof(*tmpl), GFP_KERNEL);
		if (!added)
			return -ENOMEM;
	}
	err = mrc_qp_repath_prepare(mdev, tmpl->family, tmpl->peer,
				    &tmpl->info, &moves, bad_qpn);
	if (err) {
		kfree(added);
		return err;
	}
	if (route) {
		route->info = tmpl->info;
	} else {
		route = added;
		list_add_tail(&route->node, &mdev->routes);
		mdev->nr_routes++;
	}
	mdev->route_gen++;
	if (mdev->registered)
		mrc_genl_event_route(mdev, route, MRC_EVENT_ROUTE_ADD);
	mrc_qp_repath_commit(mdev, &moves);
	return 0;
}

static void mrc_route_unlink(struct mrc_dev *mdev, struct mrc_route *route,
			     bool announce)
{
	list_del(&route->node);
	mdev->nr_routes--;
	mdev->route_gen++;
	if (announce)
		mrc_genl_event_route(mdev, route, MRC_EVENT_ROUTE_DEL);
	kfree(route);
}

/* Delete the route to @peer; its live QPs fall back to plane 1 alone
 * (or their own EV profile's planes).  Return: 0, -ENOENT (no such
 * route), or the error of the live QP *@bad_qpn that cannot move (then
 * nothing changed).
 */
int mrc_route_del(struct mrc_dev *mdev, u8 family, const u8 *peer,
		  u32 *bad_qpn)
{
	struct mrc_route *route;
	LIST_HEAD(moves);
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	*bad_qpn = 0;
	route = mrc_route_find(mdev, family, peer);
	if (!route)
		return -ENOENT;
	err = mrc_qp_repath_prepare(mdev, family, peer, NULL, &moves,
				    bad_qpn);
	if (err)
		return err;
	mrc_route_unlink(mdev, route, mdev->registered);
	mrc_qp_repath_commit(mdev, &moves);
	return 0;
}

/* Plane @id left the instance: drop its hop from every route and move
 * the live QPs of those peers.  This cannot be refused: a QP that cannot
 * move keeps its paths (the plane is down for it already).
 */
void mrc_route_plane_gone(struct mrc_dev *mdev, u32 id)
{
	struct mrc_route *route, *tmp;
	struct mrc_route_info info;
	LIST_HEAD(moves);
	u32 i, bad;
	bool any;
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry_safe(route, tmp, &mdev->routes, node) {
		if (!route->info.hops[id].valid)
			continue;
		any = false;
		for (i = 1; i <= MRC_MAX_PLANES; i++)
			any |= i != id && route->info.hops[i].valid;
		info = route->info;
		memset(&info.hops[id], 0, sizeof(info.hops[id]));
		err = mrc_qp_repath_prepare(mdev, route->family, route->peer,
					    any ? &info : NULL, &moves, &bad);
		if (err)
			pr_debug("mrc: plane %u gone: QP %u keeps its paths (%d)\n",
				 id, bad, err);
		/* The last hop: the route goes, announced as it was. */
		if (!any) {
			mrc_route_unlink(mdev, route, mdev->registered);
		} else {
			route->info = info;
			mdev->route_gen++;
			if (mdev->registered)
				mrc_genl_event_route(mdev, route,
						     MRC_EVENT_ROUTE_ADD);
		}
		if (!err)
			mrc_qp_repath_commit(mdev, &moves);
	}
}

/* Free every route of an instance going away. */
void mrc_route_flush(struct mrc_dev *mdev, bool announce)
{
	struct mrc_route *route, *tmp;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry_safe(route, tmp, &mdev->routes, node)
		mrc_route_unlink(mdev, route, announce);
}

/**
 * mrc_route_lookup - the route to a peer, for the data path
 * @mdev: the instance
 * @peer: the address a QP's address vector names (sockaddr_in or
 *	sockaddr_in6)
 * @out: filled with a copy of the route's hops and profiles
 *
 * Takes mrc_cfg_lock, so it sleeps: the data path calls it in process
 * context when a QP moves to RTR, and keeps the copy.
 *
 * Return: 0, -ENOENT if no route names @peer, -EAFNOSUPPORT for another
 * address family.
 */
int mrc_route_lookup(struct mrc_dev *mdev, const struct sockaddr *peer,
		     struct mrc_route_info *out)
{
	int err;

	mutex_lock(&mrc_cfg_lock);
	err = mrc_route_lookup_locked(mdev, peer, out);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

/* mrc_route_lookup() for holders of mrc_cfg_lock. */
int mrc_route_lookup_locked(struct mrc_dev *mdev, const struct sockaddr *peer,
			    struct mrc_route_info *out)
{
	const struct sockaddr_in6 *sin6;
	const struct sockaddr_in *sin;
	struct mrc_route *route;
	u8 addr[16] = {};
	int err = 0;

	switch (peer->sa_family) {
	case AF_INET:
		sin = (const struct sockaddr_in *)peer;
		memcpy(addr, &sin->sin_addr, 4);
		break;
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)peer;
		memcpy(addr, &sin6->sin6_addr, 16);
		break;
	default:
		return -EAFNOSUPPORT;
	}

	lockdep_assert_held(&mrc_cfg_lock);
	route = mrc_route_find(mdev, peer->sa_family, addr);
	if (route)
		*out = route->info;
	else
		err = -ENOENT;
	return err;
}

/* The first route naming EV (@cc false) or CC (@cc true) profile @id. */
struct mrc_route *mrc_route_using_profile(struct mrc_dev *mdev, bool cc,
					  u32 id)
{
	struct mrc_route *route;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry(route, &mdev->routes, node)
		if ((cc ? route->info.cc_profile : route->info.ev_profile) == id)
			return route;
	return NULL;
}
