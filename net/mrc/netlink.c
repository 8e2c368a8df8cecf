// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic netlink family "mrc" (include/uapi/linux/mrc.h,
 * Documentation/netlink/specs/mrc.yaml): the ops table, and the ops of
 * instances, their planes and routes.  The family, its events and the
 * fill helpers they share with these replies are in nl_event.c.  The
 * profile ops are in netlink_prof_common.c, netlink_profile.c and
 * netlink_cc_profile.c; the walk over the instances that dumps share is
 * in netlink_dump.c.
 *
 * A request only sees the instances of the caller's network namespace.
 * Mutations need CAP_NET_ADMIN in that namespace (GENL_UNS_ADMIN_PERM);
 * reads do not.  Every refusal carries an extack message.
 *
 * Message layout (Documentation/netlink/specs/mrc.yaml, "Wire shape"):
 * each object has its own attribute set; the requests and the GET replies
 * of an object carry its set at the top level, beginning with the handle
 * DEV_INDEX, DEV_NAME:
 *   DEV_GET reply:    DEV_INDEX, DEV_NAME, DEV_CAPS, DEV_MAX_PLANES,
 *                     DEV_UDP_PORT, DEV_PLANES { DEV_PLANE { PLANE_* } ... }
 *                     [, DEV_STATS { STAT_* }]
 *   PLANE_GET reply:  PLANE_DEV_INDEX, PLANE_DEV_NAME, PLANE_*
 *   ROUTE_GET reply:  ROUTE_DEV_INDEX, ROUTE_DEV_NAME, ROUTE_PEER,
 *                     ROUTE_HOPS { ROUTE_HOP { HOP_PLANE, HOP_VIA } ... },
 *                     ROUTE_EV_PROFILE, ROUTE_CC_PROFILE
 * Route requests carry the same set: ROUTE_PEER and (ADD, SET)
 * ROUTE_HOPS, ROUTE_EV_PROFILE, ROUTE_CC_PROFILE.  Events (nl_event.c)
 * carry the object in a nest of the event set (EVENT_PLANE, ...).
 * where PLANE_* is PLANE_ID, PLANE_IFINDEX, PLANE_IFNAME, PLANE_ADMIN_UP,
 * PLANE_OPER_UP [, PLANE_STATS { STAT_{TX,RX}_{PKTS,BYTES} }].
 *
 * Counters (DEV_STATS, PLANE_STATS) are only in the replies of requests
 * that carry the flag *_WANT_STATS (do and dump), never in events: the
 * replies without it are unchanged.  They are read without any lock, each
 * one atomically; the set is not a snapshot.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "mrc.h"
#include "netlink.h"
#include "nl_policy.h"
#include "profile.h"

/* Every counter of the instance (counters.c) as an MRC_A_DEV_STATS nest. */
static int mrc_nl_put_dev_stats(struct sk_buff *skb,
				const struct mrc_dev *mdev)
{
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(skb, MRC_A_DEV_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < MRC_STATS_NR; i++) {
		if (nla_put_u64_64bit(skb, mrc_stat_attr[i],
				      mrc_stat_read(mdev, i), MRC_A_STAT_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Start a message of command @cmd about @mdev: the genl header and the
 * instance's index and name.  NULL (nothing left in @skb) if it is full.
 */
void *mrc_nl_put_hdr(struct sk_buff *skb, const struct mrc_dev *mdev,
		     u32 portid, u32 seq, int flags, u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
	if (!hdr)
		return NULL;
	if (mrc_nl_put_dev_id(skb, mdev)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

/* End the message mrc_nl_put_hdr() started, or take it back out of @skb
 * if putting its body failed (@err): a dump resumes with it later.
 */
int mrc_nl_end_hdr(struct sk_buff *skb, void *hdr, int err)
{
	if (err) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Send the reply @msg of a doit, or free it if filling it failed. */
int mrc_nl_reply(struct genl_info *info, struct sk_buff *msg, int err)
{
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_nl_fill_dev(struct sk_buff *skb, struct mrc_dev *mdev,
			   u32 portid, u32 seq, int flags, bool stats)
{
	struct mrc_plane *plane;
	struct nlattr *planes;
	void *hdr;
	u32 id, caps;

	lockdep_assert_held(&mrc_cfg_lock);

	hdr = mrc_nl_put_hdr(skb, mdev, portid, seq, flags, MRC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	/* Capabilities are protocol features of the data path: only
	 * TRIM_NACK (while trimmed packets are recognised) is implemented.
	 */
	caps = READ_ONCE(mrc_trim_dscp) >= 0 ? MRC_CAP_TRIM_NACK : 0;
	if (nla_put_u32(skb, MRC_A_DEV_CAPS, caps) ||
	    nla_put_u32(skb, MRC_A_DEV_MAX_PLANES, MRC_MAX_PLANES) ||
	    nla_put_u16(skb, MRC_A_DEV_UDP_PORT, mrc_udp_port))
		goto cancel;

	planes = nla_nest_start(skb, MRC_A_DEV_PLANES);
	if (!planes)
		goto cancel;
	for (id = 1; id <= MRC_MAX_PLANES; id++) {
		plane = mrc_plane_get_locked(mdev, id);
		if (plane &&
		    mrc_nl_put_plane(skb, MRC_A_DEV_PLANE, plane, stats))
			goto cancel;
	}
	nla_nest_end(skb, planes);
	if (stats && mrc_nl_put_dev_stats(skb, mdev))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int mrc_nl_fill_plane(struct sk_buff *skb, struct mrc_plane *plane,
			     u32 portid, u32 seq, int flags, u8 cmd,
			     bool stats)
{
	void *hdr;

	hdr = mrc_nl_put_hdr(skb, plane->mdev, portid, seq, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	return mrc_nl_end_hdr(skb, hdr, mrc_nl_put_plane(skb, 0, plane, stats));
}

/* The instance a request names by MRC_A_DEV_NAME and/or MRC_A_DEV_INDEX in
 * namespace @net.  Caller holds mrc_cfg_lock.
 */
struct mrc_dev *mrc_nl_find_dev(struct net *net, struct nlattr **attrs,
				struct netlink_ext_ack *extack)
{
	struct nlattr *nla_name = attrs[MRC_A_DEV_NAME];
	struct nlattr *nla_index = attrs[MRC_A_DEV_INDEX];
	struct mrc_net *mn = mrc_net(net);
	char name[IB_DEVICE_NAME_MAX];
	struct mrc_dev *mdev;

	lockdep_assert_held(&mrc_cfg_lock);

	if (nla_name) {
		nla_strscpy(name, nla_name, sizeof(name));
		mdev = mrc_dev_find(mn, name, 0);
	} else if (nla_index) {
		mdev = mrc_dev_find(mn, NULL, nla_get_u32(nla_index));
	} else {
		NL_SET_ERR_MSG(extack,
			       "missing device: give its name (MRC_A_DEV_NAME) or index (MRC_A_DEV_INDEX)");
		return ERR_PTR(-EINVAL);
	}
	if (!mdev) {
		NL_SET_ERR_MSG_ATTR(extack, nla_name ?: nla_index,
				    "no such MRC device in this network namespace");
		return ERR_PTR(-ENODEV);
	}
	if (nla_name && nla_index &&
	    mdev->ibdev.index != nla_get_u32(nla_index)) {
		NL_SET_ERR_MSG_ATTR(extack, nla_index,
				    "device name and index name different devices");
		return ERR_PTR(-EINVAL);
	}
	return mdev;
}

/* The instance a request names, with mrc_cfg_lock taken; on error (an
 * ERR_PTR, with the reason in extack) the lock is not held.
 */
struct mrc_dev *mrc_nl_lock_dev(struct genl_info *info)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_cfg_lock);
	mdev = mrc_nl_find_dev(genl_info_net(info), info->attrs, info->extack);
	if (IS_ERR(mdev))
		mutex_unlock(&mrc_cfg_lock);
	return mdev;
}

/* The plane a request names by MRC_A_PLANE_ID.  Caller holds mrc_cfg_lock. */
static struct mrc_plane *mrc_nl_find_plane(struct mrc_dev *mdev,
					   struct genl_info *info)
{
	struct mrc_plane *plane;

	lockdep_assert_held(&mrc_cfg_lock);

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PLANE_ID)) {
		NL_SET_ERR_MSG(info->extack, "missing plane id (MRC_A_PLANE_ID)");
		return ERR_PTR(-EINVAL);
	}
	plane = mrc_plane_get_locked(mdev,
				     nla_get_u32(info->attrs[MRC_A_PLANE_ID]));
	if (!plane) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_PLANE_ID],
				    "no such plane");
		return ERR_PTR(-ENOENT);
	}
	return plane;
}

/* A get's reply: a message that @fill(msg, mdev, info, @arg) writes the
 * object into, the instance the request names and mrc_cfg_lock held
 * meanwhile; the reply sent, or the error (extack set by
 * mrc_nl_lock_dev() or @fill).
 */
static int mrc_nl_get_reply(struct genl_info *info,
			    int (*fill)(struct sk_buff *msg,
					struct mrc_dev *mdev,
					struct genl_info *info,
					const void *arg),
			    const void *arg)
{
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int err;

	msg = nlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev)) {
		nlmsg_free(msg);
		return PTR_ERR(mdev);
	}
	err = fill(msg, mdev, info, arg);
	mutex_unlock(&mrc_cfg_lock);
	return mrc_nl_reply(info, msg, err);
}

/* The instance, for its get.  Caller holds mrc_cfg_lock. */
static int mrc_nl_dev_get_fill(struct sk_buff *msg, struct mrc_dev *mdev,
			       struct genl_info *info, const void *arg)
{
	lockdep_assert_held(&mrc_cfg_lock);
	return mrc_nl_fill_dev(msg, mdev, info->snd_portid, info->snd_seq, 0,
			       nla_get_flag(info->attrs[MRC_A_DEV_WANT_STATS]));
}

static int mrc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_reply(info, mrc_nl_dev_get_fill, NULL);
}

static int mrc_nl_dev_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct nlattr **attrs = mrc_genl_dump_attrs(cb);
	bool stats = nla_get_flag(attrs[MRC_A_DEV_WANT_STATS]);
	long idx = 0, start = cb->args[0];
	struct mrc_dev *mdev;
	int err = 0;

	mutex_lock(&mrc_cfg_lock);
	list_for_each_entry(mdev, &mn->devs, node) {
		if (!mrc_dev_visible(mdev))
			continue;
		if (idx++ < start)
			continue;
		err = mrc_nl_fill_dev(skb, mdev, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI, stats);
		if (err) {
			idx--;
			break;
		}
	}
	mutex_unlock(&mrc_cfg_lock);

	cb->args[0] = idx;
	/* A full skb ends this round; an empty one means too small. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* The netdev a PLANE_ADD names, looked up in @net.  Caller holds RTNL. */
static struct net_device *mrc_nl_find_ndev(struct net *net,
					   struct genl_info *info)
{
	struct nlattr *nla_name = info->attrs[MRC_A_PLANE_IFNAME];
	struct nlattr *nla_index = info->attrs[MRC_A_PLANE_IFINDEX];
	struct net_device *ndev, *by_index = NULL;
	char name[IFNAMSIZ];

	ASSERT_RTNL();

	if (!nla_name && !nla_index) {
		NL_SET_ERR_MSG(info->extack,
			       "missing netdev: give its name (MRC_A_PLANE_IFNAME) or index (MRC_A_PLANE_IFINDEX)");
		return ERR_PTR(-EINVAL);
	}
	if (nla_index) {
		by_index = __dev_get_by_index(net, nla_get_u32(nla_index));
		if (!by_index) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla_index,
					    "no netdev with this index in this network namespace");
			return ERR_PTR(-ENODEV);
		}
	}
	if (!nla_name)
		return by_index;

	nla_strscpy(name, nla_name, sizeof(name));
	ndev = __dev_get_by_name(net, name);
	if (!ndev) {
		NL_SET_ERR_MSG_ATTR(info->extack, nla_name,
				    "no netdev with this name in this network namespace");
		return ERR_PTR(-ENODEV);
	}
	if (by_index && by_index != ndev) {
		NL_SET_ERR_MSG_ATTR(info->extack, nla_index,
				    "netdev name and index name different netdevs");
		return ERR_PTR(-EINVAL);
	}
	return ndev;
}

static int mrc_nl_plane_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct net_device *ndev;
	struct mrc_dev *mdev;
	u32 id = 0;
	int err;

	if (info->attrs[MRC_A_PLANE_ID])
		id = nla_get_u32(info->attrs[MRC_A_PLANE_ID]);

	/* RTNL first: the netdev must stay registered until it is a plane. */
	rtnl_lock();
	mutex_lock(&mrc_cfg_lock);
	mdev = mrc_nl_find_dev(net, info->attrs, info->extack);
	if (IS_ERR(mdev)) {
		err = PTR_ERR(mdev);
		goto out;
	}
	ndev = mrc_nl_find_ndev(net, info);
	if (IS_ERR(ndev)) {
		err = PTR_ERR(ndev);
		goto out;
	}
	err = mrc_plane_add(mdev, ndev, id, info->extack);
out:
	mutex_unlock(&mrc_cfg_lock);
	rtnl_unlock();
	return err;
}

static int mrc_nl_plane_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PLANE_ID)) {
		NL_SET_ERR_MSG(info->extack, "missing plane id (MRC_A_PLANE_ID)");
		return -EINVAL;
	}

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_plane_del(mdev, nla_get_u32(info->attrs[MRC_A_PLANE_ID]),
			    info->extack);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

static int mrc_nl_plane_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	bool up;
	int err;
	u32 id;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PLANE_ID)) {
		NL_SET_ERR_MSG(info->extack, "missing plane id (MRC_A_PLANE_ID)");
		return -EINVAL;
	}
	/* The only settable property so far; nothing to do without it. */
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PLANE_ADMIN_UP)) {
		NL_SET_ERR_MSG(info->extack,
			       "missing admin state (MRC_A_PLANE_ADMIN_UP)");
		return -EINVAL;
	}

	id = nla_get_u32(info->attrs[MRC_A_PLANE_ID]);
	up = nla_get_u8(info->attrs[MRC_A_PLANE_ADMIN_UP]);

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_plane_set_admin(mdev, id, up, info->extack);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

/* The plane the request names, for its get.  Caller holds mrc_cfg_lock. */
static int mrc_nl_plane_get_fill(struct sk_buff *msg, struct mrc_dev *mdev,
				 struct genl_info *info, const void *arg)
{
	struct mrc_plane *plane;

	lockdep_assert_held(&mrc_cfg_lock);
	plane = mrc_nl_find_plane(mdev, info);
	if (IS_ERR(plane))
		return PTR_ERR(plane);
	return mrc_nl_fill_plane(msg, plane, info->snd_portid, info->snd_seq,
				 0, MRC_CMD_PLANE_GET,
				 nla_get_flag(info->attrs[MRC_A_PLANE_WANT_STATS]));
}

static int mrc_nl_plane_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_reply(info, mrc_nl_plane_get_fill, NULL);
}

/* One instance's planes from id cb->args[1] on; @arg: the flag "with
 * counters".
 */
static int mrc_nl_dump_dev_planes(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct mrc_dev *mdev, const void *arg)
{
	const bool *stats = arg;
	struct mrc_plane *plane;
	int err;
	u32 id;

	lockdep_assert_held(&mrc_cfg_lock);

	for (id = max_t(u32, cb->args[1], 1); id <= MRC_MAX_PLANES; id++) {
		plane = mrc_plane_get_locked(mdev, id);
		if (!plane)
			continue;
		err = mrc_nl_fill_plane(skb, plane, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI,
					MRC_CMD_PLANE_GET, *stats);
		if (err) {
			cb->args[1] = id;
			return err;
		}
	}
	return 0;
}

/* Dump every plane of the namespace, or of the one device the request
 * names.
 */
static int mrc_nl_plane_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	bool stats = nla_get_flag(mrc_genl_dump_attrs(cb)[MRC_A_PLANE_WANT_STATS]);

	return mrc_nl_dump_devs(skb, cb, mrc_nl_dump_dev_planes, &stats);
}

/* An address attribute (4 or 16 bytes) into @family and @addr. */
static int mrc_nl_get_addr(const struct nlattr *nla, u8 *family, u8 *addr)
{
	switch (nla_len(nla)) {
	case 4:
		*family = AF_INET;
		break;
	case 16:
		*family = AF_INET6;
		break;
	default:
		return -EINVAL;
	}
	memset(addr, 0, 16);
	memcpy(addr, nla_data(nla), nla_len(nla));
	return 0;
}

/* A 4- or 16-byte address attribute as a sockaddr (the rest of @ss zero);
 * another length is -EINVAL with @badlen, a static text, blaming @nla.
 */
int mrc_nl_sockaddr(const struct nlattr *nla, struct sockaddr_storage *ss,
		    struct netlink_ext_ack *extack, const char *badlen)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (nla_len(nla) == 4) {
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, nla_data(nla), 4);
		return 0;
	}
	if (nla_len(nla) == 16) {
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, nla_data(nla), 16);
		return 0;
	}
	mrc_nl_set_msg_attr(extack, nla, badlen);
	return -EINVAL;
}

static int mrc_nl_get_peer(struct nlattr **attrs, struct mrc_route *route,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *nla = attrs[MRC_A_ROUTE_PEER];

	if (!nla) {
		NL_SET_ERR_MSG(extack, "missing peer address (MRC_A_ROUTE_PEER)");
		return -EINVAL;
	}
	if (mrc_nl_get_addr(nla, &route->family, route->peer)) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "invalid peer address: 4 bytes (IPv4) or 16 bytes (IPv6)");
		return -EINVAL;
	}
	return 0;
}

static int mrc_nl_get_profile(struct nlattr *nla, u32 *val,
			      struct netlink_ext_ack *extack)
{
	if (!nla)
		return 0;
	*val = nla_get_u32(nla);
	if (*val > MRC_MAX_PROFILE) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "profile id out of range (0..65535)");
		return -ERANGE;
	}
	return 0;
}

/* One MRC_A_ROUTE_HOP nest into @route.  Caller holds mrc_cfg_lock. */
static int mrc_nl_get_hop(struct mrc_dev *mdev, struct nlattr *hop,
			  struct mrc_route *route,
			  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_A_ROUTE_HOP_MAX + 1];
	struct mrc_route_hop *h;
	u8 family, addr[16];
	int err;
	u32 id;

	lockdep_assert_held(&mrc_cfg_lock);

	if (nla_type(hop) != MRC_A_ROUTE_HOP) {
		NL_SET_ERR_MSG_ATTR(extack, hop,
				    "MRC_A_ROUTE_HOPS holds only MRC_A_ROUTE_HOP entries");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, MRC_A_ROUTE_HOP_MAX, hop,
			       mrc_route_hop_nl_policy, extack);
	if (err)
		return err;
	if (!tb[MRC_A_ROUTE_HOP_PLANE]) {
		NL_SET_ERR_MSG_ATTR(extack, hop,
				    "missing hop plane id (MRC_A_ROUTE_HOP_PLANE)");
		return -EINVAL;
	}
	id = nla_get_u32(tb[MRC_A_ROUTE_HOP_PLANE]);
	if (id < 1 || id > MRC_MAX_PLANES) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_ROUTE_HOP_PLANE],
				    "plane id out of range (1..16)");
		return -ERANGE;
	}
	if (!mrc_plane_get_locked(mdev, id)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_ROUTE_HOP_PLANE],
				    "no such plane in this device");
		return -ENOENT;
	}
	if (route->info.hops[id].valid) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_ROUTE_HOP_PLANE],
				    "plane given twice in one route");
		return -EINVAL;
	}
	if (!tb[MRC_A_ROUTE_HOP_VIA]) {
		NL_SET_ERR_MSG_ATTR(extack, hop,
				    "missing hop address (MRC_A_ROUTE_HOP_VIA)");
		return -EINVAL;
	}
	if (mrc_nl_get_addr(tb[MRC_A_ROUTE_HOP_VIA], &family, addr)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_ROUTE_HOP_VIA],
				    "invalid via address: 4 bytes (IPv4) or 16 bytes (IPv6)");
		return -EINVAL;
	}
	if (family != route->family) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_ROUTE_HOP_VIA],
				    "via address family differs from the peer's");
		return -EAFNOSUPPORT;
	}
	h = &route->info.hops[id];
	h->valid = true;
	h->family = family;
	memcpy(h->addr, addr, sizeof(h->addr));
	return 0;
}

/* ROUTE_ADD/SET: the profiles @info names must exist, the EV profile must
 * be ONLINE.  @ev_nla/@cc_nla: the request's attributes (may be NULL).
 */
static int mrc_nl_check_profiles(struct mrc_dev *mdev,
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

/* A whole ADD/SET request into @route.  Caller holds mrc_cfg_lock. */
static int mrc_nl_get_route(struct mrc_dev *mdev, struct genl_info *info,
			    struct mrc_route *route)
{
	struct nlattr *hops = info->attrs[MRC_A_ROUTE_HOPS];
	struct netlink_ext_ack *extack = info->extack;
	unsigned int n = 0;
	struct nlattr *hop;
	int err, rem;

	lockdep_assert_held(&mrc_cfg_lock);

	err = mrc_nl_get_peer(info->attrs, route, extack);
	if (err)
		return err;
	if (!hops) {
		NL_SET_ERR_MSG(extack, "missing hops (MRC_A_ROUTE_HOPS)");
		return -EINVAL;
	}
	/* Count first: too many hops is the error, whatever they name. */
	nla_for_each_nested(hop, hops, rem)
		n++;
	if (!n) {
		NL_SET_ERR_MSG_ATTR(extack, hops, "a route needs at least one hop");
		return -EINVAL;
	}
	if (n > MRC_MAX_PLANES) {
		NL_SET_ERR_MSG_ATTR(extack, hops, "more hops than planes (16)");
		return -E2BIG;
	}
	nla_for_each_nested(hop, hops, rem) {
		err = mrc_nl_get_hop(mdev, hop, route, extack);
		if (err)
			return err;
	}
	err = mrc_nl_get_profile(info->attrs[MRC_A_ROUTE_EV_PROFILE],
				 &route->info.ev_profile, extack);
	if (err)
		return err;
	err = mrc_nl_get_profile(info->attrs[MRC_A_ROUTE_CC_PROFILE],
				 &route->info.cc_profile, extack);
	if (err)
		return err;
	return mrc_nl_check_profiles(mdev, &route->info,
				     info->attrs[MRC_A_ROUTE_EV_PROFILE],
				     info->attrs[MRC_A_ROUTE_CC_PROFILE],
				     extack);
}

/* Why route.c refused a change (@err; @bad_qpn the live QP that could
 * not move, or 0), in @extack.  Returns @err.
 */
static int mrc_nl_route_err(struct netlink_ext_ack *extack, int err,
			    u32 bad_qpn)
{
	const char *why, *text;

	if (err && bad_qpn) {
		why = err == -ENOMEM ? "no memory" :
		      err == -ENOENT ? "its own EV profile is gone" :
		      err == -EAFNOSUPPORT ? "its EV format needs IPv6" :
		      "its EV profile is not usable";
		text = mrc_nl_msg("live QP %u cannot move to the changed route (%s); %s",
				  bad_qpn, why, "nothing changed");
		if (text)
			mrc_nl_set_msg(extack, text);
		else
			NL_SET_ERR_MSG(extack,
				       "a live QP cannot move to the changed route; nothing changed");
		return err;
	}
	switch (err) {
	case -EEXIST:
		NL_SET_ERR_MSG(extack,
			       "a route to this peer exists (use ROUTE_SET to replace it)");
		break;
	case -ENOENT:
		NL_SET_ERR_MSG(extack, "no route to this peer");
		break;
	case -ENOSPC:
		NL_SET_ERR_MSG(extack,
			       "route table full (1024 routes per device)");
		break;
	}
	return err;
}

static int mrc_nl_route_change(struct genl_info *info, bool replace)
{
	struct mrc_route *route;
	struct mrc_dev *mdev;
	u32 bad_qpn = 0;
	int err;

	route = kzalloc(sizeof(*route), GFP_KERNEL);
	if (!route)
		return -ENOMEM;

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev)) {
		err = PTR_ERR(mdev);
		goto out;
	}
	err = mrc_nl_get_route(mdev, info, route);
	if (!err) {
		err = mrc_route_add(mdev, route, replace, &bad_qpn);
		if (err)
			err = mrc_nl_route_err(info->extack, err, bad_qpn);
	}
	mutex_unlock(&mrc_cfg_lock);
out:
	kfree(route);
	return err;
}

static int mrc_nl_route_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_route_change(info, false);
}

static int mrc_nl_route_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_route_change(info, true);
}

static int mrc_nl_route_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_route peer = {};
	struct mrc_dev *mdev;
	u32 bad_qpn = 0;
	int err;

	err = mrc_nl_get_peer(info->attrs, &peer, info->extack);
	if (err)
		return err;

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_route_del(mdev, peer.family, peer.peer, &bad_qpn);
	if (err)
		err = mrc_nl_route_err(info->extack, err, bad_qpn);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

static int mrc_nl_fill_route(struct sk_buff *skb, struct mrc_dev *mdev,
			     const struct mrc_route *route, u32 portid,
			     u32 seq, int flags)
{
	void *hdr;

	hdr = mrc_nl_put_hdr(skb, mdev, portid, seq, flags, MRC_CMD_ROUTE_GET);
	if (!hdr)
		return -EMSGSIZE;
	return mrc_nl_end_hdr(skb, hdr, mrc_nl_put_route(skb, 0, route));
}

/* The route to @arg (a struct mrc_route with the peer), for its get.
 * Caller holds mrc_cfg_lock.
 */
static int mrc_nl_route_get_fill(struct sk_buff *msg, struct mrc_dev *mdev,
				 struct genl_info *info, const void *arg)
{
	const struct mrc_route *peer = arg;
	struct mrc_route *route;

	lockdep_assert_held(&mrc_cfg_lock);
	route = mrc_route_find(mdev, peer->family, peer->peer);
	if (!route) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_ROUTE_PEER],
				    "no route to this peer");
		return -ENOENT;
	}
	return mrc_nl_fill_route(msg, mdev, route, info->snd_portid,
				 info->snd_seq, 0);
}

static int mrc_nl_route_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_route peer = {};
	int err;

	err = mrc_nl_get_peer(info->attrs, &peer, info->extack);
	if (err)
		return err;
	return mrc_nl_get_reply(info, mrc_nl_route_get_fill, &peer);
}

/* One instance's routes, skipping the cb->args[1] done before. */
static int mrc_nl_dump_dev_routes(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct mrc_dev *mdev, const void *arg)
{
	struct mrc_route *route;
	long ridx = 0;
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	list_for_each_entry(route, &mdev->routes, node) {
		if (ridx++ < cb->args[1])
			continue;
		err = mrc_nl_fill_route(skb, mdev, route,
					NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (err) {
			cb->args[1] = ridx - 1;
			return err;
		}
	}
	return 0;
}

/* Dump every route of the namespace, or of the one device the request
 * names.
 */
static int mrc_nl_route_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	return mrc_nl_dump_devs(skb, cb, mrc_nl_dump_dev_routes, NULL);
}

/* Each op has its own policy (nl_policy.c, generated from mrc.yaml): the
 * attributes of its own set that its requests carry, so that anything else
 * is refused.  The EV profile dump says how large an skb must be before
 * the first one is allocated (.start): a profile with every EV does not
 * fit a default dump skb.
 */
static const struct genl_ops mrc_genl_ops[] = {
	{
		.cmd = MRC_CMD_DEV_GET,
		.doit = mrc_nl_dev_get_doit,
		.dumpit = mrc_nl_dev_get_dumpit,
		.policy = mrc_dev_get_nl_policy,
		.maxattr = MRC_A_DEV_MAX,
	},
	{
		.cmd = MRC_CMD_PLANE_ADD,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_plane_add_doit,
		.policy = mrc_plane_add_nl_policy,
		.maxattr = MRC_A_PLANE_MAX,
	},
	{
		.cmd = MRC_CMD_PLANE_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_plane_del_doit,
		.policy = mrc_plane_del_nl_policy,
		.maxattr = MRC_A_PLANE_MAX,
	},
	{
		.cmd = MRC_CMD_PLANE_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_plane_set_doit,
		.policy = mrc_plane_set_nl_policy,
		.maxattr = MRC_A_PLANE_MAX,
	},
	{
		.cmd = MRC_CMD_PLANE_GET,
		.doit = mrc_nl_plane_get_doit,
		.dumpit = mrc_nl_plane_get_dumpit,
		.policy = mrc_plane_get_nl_policy,
		.maxattr = MRC_A_PLANE_MAX,
	},
	{
		.cmd = MRC_CMD_ROUTE_ADD,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_route_add_doit,
		.policy = mrc_route_add_nl_policy,
		.maxattr = MRC_A_ROUTE_MAX,
	},
	{
		.cmd = MRC_CMD_ROUTE_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_route_del_doit,
		.policy = mrc_route_del_nl_policy,
		.maxattr = MRC_A_ROUTE_MAX,
	},
	{
		.cmd = MRC_CMD_ROUTE_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_route_set_doit,
		.policy = mrc_route_set_nl_policy,
		.maxattr = MRC_A_ROUTE_MAX,
	},
	{
		.cmd = MRC_CMD_ROUTE_GET,
		.doit = mrc_nl_route_get_doit,
		.dumpit = mrc_nl_route_get_dumpit,
		.policy = mrc_route_get_nl_policy,
		.maxattr = MRC_A_ROUTE_MAX,
	},
	{
		.cmd = MRC_CMD_CONN_GET,
		.doit = mrc_nl_conn_get_doit,
		.dumpit = mrc_nl_conn_get_dumpit,
		.policy = mrc_conn_get_nl_policy,
		.maxattr = MRC_A_CONN_MAX,
	},
	{
		.cmd = MRC_CMD_PROBE,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_probe_doit,
		.policy = mrc_probe_nl_policy,
		.maxattr = MRC_A_PROBE_MAX,
	},
	{
		.cmd = MRC_CMD_EP_BATCH,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_ep_batch_doit,
		.policy = mrc_ep_batch_nl_policy,
		.maxattr = MRC_A_EP_MAX,
	},
	{
		.cmd = MRC_CMD_EV_PROFILE_ADD,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_ev_profile_add_doit,
		.policy = mrc_ev_profile_add_nl_policy,
		.maxattr = MRC_A_EV_PROFILE_MAX,
	},
	{
		.cmd = MRC_CMD_EV_PROFILE_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_ev_profile_del_doit,
		.policy = mrc_ev_profile_del_nl_policy,
		.maxattr = MRC_A_EV_PROFILE_MAX,
	},
	{
		.cmd = MRC_CMD_EV_PROFILE_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_ev_profile_set_doit,
		.policy = mrc_ev_profile_set_nl_policy,
		.maxattr = MRC_A_EV_PROFILE_MAX,
	},
	{
		.cmd = MRC_CMD_EV_PROFILE_GET,
		.doit = mrc_nl_ev_profile_get_doit,
		.start = mrc_nl_ev_profile_get_start,
		.dumpit = mrc_nl_ev_profile_get_dumpit,
		.policy = mrc_ev_profile_get_nl_policy,
		.maxattr = MRC_A_EV_PROFILE_MAX,
	},
	{
		.cmd = MRC_CMD_CC_PROFILE_ADD,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_cc_profile_add_doit,
		.policy = mrc_cc_profile_add_nl_policy,
		.maxattr = MRC_A_CC_PROFILE_MAX,
	},
	{
		.cmd = MRC_CMD_CC_PROFILE_DEL,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_cc_profile_del_doit,
		.policy = mrc_cc_profile_del_nl_policy,
		.maxattr = MRC_A_CC_PROFILE_MAX,
	},
	{
		.cmd = MRC_CMD_CC_PROFILE_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = mrc_nl_cc_profile_set_doit,
		.policy = mrc_cc_profile_set_nl_policy,
		.maxattr = MRC_A_CC_PROFILE_MAX,
	},
	{
		.cmd = MRC_CMD_CC_PROFILE_GET,
		.doit = mrc_nl_cc_profile_get_doit,
		.dumpit = mrc_nl_cc_profile_get_dumpit,
		.policy = mrc_cc_profile_get_nl_policy,
		.maxattr = MRC_A_CC_PROFILE_MAX,
	},
};

/* The family (nl_event.c, the bottom layer) gets its ops and their policies
 * here, from above: nl_event.c does not know the ops.  Module init, before
 * the family is registered and __ro_after_init seals it.
 */
int mrc_genl_init(void)
{
	mrc_genl_family.ops = mrc_genl_ops;
	mrc_genl_family.n_ops = ARRAY_SIZE(mrc_genl_ops);
	/* A new family: strict header and attribute checks on every op. */
	mrc_genl_family.resv_start_op = MRC_CMD_DEV_GET;
	return genl_register_family(&mrc_genl_family);
}

void mrc_genl_exit(void)
{
	genl_unregister_family(&mrc_genl_family);
	mrc_nl_msg_free_all();
}
