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
 *     (mrc_route_check_profiles()); while it does, those profiles cannot
 *     be deleted nor taken OFFLINE (mrc_route_using_profile());
 *   - the routes go with the instance (mrc_route_flush()).
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>

#include "mrc.h"
#include "netlink.h"
#include "nl_event.h"
#include "profile.h"

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
 * replace the existing one of the same peer if @replace.
 */
int mrc_route_add(struct mrc_dev *mdev, const struct mrc_route *tmpl,
		  bool replace, struct netlink_ext_ack *extack)
{
	struct mrc_route *route;

	lockdep_assert_held(&mrc_cfg_lock);

	route = mrc_route_find(mdev, tmpl->family, tmpl->peer);
	if (route && !replace) {
		NL_SET_ERR_MSG(extack,
			       "a route to this peer exists (use ROUTE_SET to replace it)");
		return -EEXIST;
	}
	if (!route && replace) {
		NL_SET_ERR_MSG(extack, "no route to this peer");
		return -ENOENT;
	}
	if (route) {
		route->info = tmpl->info;
	} else {
		if (mdev->nr_routes >= MRC_MAX_ROUTES) {
			NL_SET_ERR_MSG(extack,
				       "route table full (1024 routes per device)");
			return -ENOSPC;
		}
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

int mrc_route_del(struct mrc_dev *mdev, u8 family, const u8 *peer,
		  struct netlink_ext_ack *extack)
{
	struct mrc_route *route;

	lockdep_assert_held(&mrc_cfg_lock);

	route = mrc_route_find(mdev, family, peer);
	if (!route) {
		NL_SET_ERR_MSG(extack, "no route to this peer");
		return -ENOENT;
	}
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

/* Refuse a change of a profile (@what) that @route uses: -EBUSY, and an
 * extack naming the route's peer.
 */
int mrc_route_busy(struct mrc_dev *mdev, const struct mrc_route *route,
		   const char *what, struct netlink_ext_ack *extack)
{
	const char *text;

	if (route->family == AF_INET)
		text = mrc_nl_msg("%s in use by the route to %pI4", what,
				  route->peer);
	else
		text = mrc_nl_msg("%s in use by the route to %pI6c", what,
				  route->peer);
	if (text)
		mrc_nl_set_msg(extack, text);
	else
		NL_SET_ERR_MSG(extack, "profile in use by a route");
	return -EBUSY;
}

/* ROUTE_ADD/SET: the profiles @info names must exist, the EV profile must
 * be ONLINE.  @ev_nla/@cc_nla: the request's attributes (may be NULL).
 */
int mrc_route_check_profiles(struct mrc_dev *mdev,
			     const struct mrc_route_info *info,
			     struct nlattr *ev_nla, struct nlattr *cc_nla,
			     struct netlink_ext_ack *extack)
{
	struct mrc_ev_prof *ev;

	lockdep_assert_held(&mrc_cfg_lock);

	if (info->ev_profile) {
		ev = mrc_ev_prof_find(mdev, info->ev_profile);
		if (!ev) {
			NL_SET_ERR_MSG_ATTR(extack, ev_nla,
					    "no EV profile with this id");
			return -ENOENT;
		}
		if (ev->p.state != MRC_EV_PROF_ONLINE) {
			NL_SET_ERR_MSG_ATTR(extack, ev_nla,
					    "EV profile is not ONLINE");
			return -EINVAL;
		}
	}
	if (info->cc_profile && !mrc_cc_prof_find(mdev, info->cc_profile)) {
		NL_SET_ERR_MSG_ATTR(extack, cc_nla, "no CC profile with this id");
		return -ENOENT;
	}
	return 0;
}
