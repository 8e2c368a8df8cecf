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
 *   - the routes go with the instance (mrc_route_flush()).
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
 * replace the existing one of the same peer if @replace.  Return: 0,
 * -EEXIST (a route to the peer exists, !@replace), -ENOENT (none, and
 * @replace), -ENOSPC (MRC_MAX_ROUTES reached) or -ENOMEM.
 */
int mrc_route_add(struct mrc_dev *mdev, const struct mrc_route *tmpl,
		  bool replace)
{
	struct mrc_route *route;

	lockdep_assert_held(&mrc_cfg_lock);

	route = mrc_route_find(mdev, tmpl->family, tmpl->peer);
	if (route && !replace)
		return -EEXIST;
	if (!route && replace)
		return -ENOENT;
	if (route) {
		route->info = tmpl->info;
	} else {
		if (mdev->nr_routes >= MRC_MAX_ROUTES)
			return -ENOSPC;
		route = kmemdup(tmpl, sizeof(*tmpl), GFP_KERNEL);
		if (!route)
			return -ENOMEM;
		list_add_tail(&route->node, &mdev->routes);
		mdev->nr_routes++;
	}
	if (mdev->registered)
		mrc_genl_event_route(mdev, route, MRC_EVENT_ROUTE_ADD);
	return 0;
}

static void mrc_route_unlink(struct mrc_dev *mdev, struct mrc_route *route,
			     bool announce)
{
	list_del(&route->node);
	mdev->nr_routes--;
	if (announce)
		mrc_genl_event_route(mdev, route, MRC_EVENT_ROUTE_DEL);
	kfree(route);
}

/* Delete the route to @peer.  Return: 0 or -ENOENT (no such route). */
int mrc_route_del(struct mrc_dev *mdev, u8 family, const u8 *peer)
{
	struct mrc_route *route;

	lockdep_assert_held(&mrc_cfg_lock);

	route = mrc_route_find(mdev, family, peer);
	if (!route)
		return -ENOENT;
	mrc_route_unlink(mdev, route, mdev->registered);
	return 0;
}

/* Plane @id left the instance: drop its hop from every route. */
void mrc_route_plane_gone(struct mrc_dev *mdev, u32 id)
{
	struct mrc_route *route, *tmp;
	bool any;
	u32 i;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry_safe(route, tmp, &mdev->routes, node) {
		if (!route->info.hops[id].valid)
			continue;
		any = false;
		for (i = 1; i <= MRC_MAX_PLANES; i++)
			any |= i != id && route->info.hops[i].valid;
		/* The last hop: the route goes, announced as it was. */
		if (!any) {
			mrc_route_unlink(mdev, route, mdev->registered);
			continue;
		}
		memset(&route->info.hops[id], 0, sizeof(route->info.hops[id]));
		if (mdev->registered)
			mrc_genl_event_route(mdev, route, MRC_EVENT_ROUTE_ADD);
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

	mutex_lock(&mrc_cfg_lock);
	route = mrc_route_find(mdev, peer->sa_family, addr);
	if (route)
		*out = route->info;
	else
		err = -ENOENT;
	mutex_unlock(&mrc_cfg_lock);
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
