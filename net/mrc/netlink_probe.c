// SPDX-License-Identifier: GPL-2.0-only
/*
 * MRC_CMD_PROBE ("mrcctl probe"): the op.  It parses the request, picks
 * the paths (a QP's to that peer, or one explicit EV), lets probe.c send
 * the probes and collect the answers, and replies with one
 * PROBE_RESULT { CONN_EV_INDEX, CONN_EV_PLANE, CONN_EV_SPORT
 * [, PROBE_ADDR] [, PROBE_RTT] } per path.
 */

#include <linux/slab.h>
#include <asm/unaligned.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "netlink.h"
#include "probe.h"

#define MRC_PROBE_TIMEOUT_MS	1000
#define MRC_PROBE_TIMEOUT_MAX	60000

static int mrc_probe_put_result(struct sk_buff *msg,
				const struct mrc_probe_run *run, u32 i,
				bool v6)
{
	const struct mrc_qp_plane *pl = &run->plane[run->prep.evs[i].plane];
	struct nlattr *nest;

	nest = nla_nest_start(msg, MRC_A_PROBE_RESULT);
	if (!nest ||
	    nla_put_u32(msg, MRC_A_PROBE_RESULT_EV_INDEX, i) ||
	    nla_put_u32(msg, MRC_A_PROBE_RESULT_EV_PLANE,
			run->prep.evs[i].plane) ||
	    nla_put_u16(msg, MRC_A_PROBE_RESULT_EV_SPORT,
			ntohs(run->ev[i].sport)) ||
	    (pl->valid && nla_put(msg, MRC_A_PROBE_RESULT_ADDR, v6 ? 16 : 4,
				  v6 ? (const void *)&pl->daddr.v6.sin6_addr :
				       (const void *)&pl->daddr.v4.sin_addr)) ||
	    (run->rtt[i] && nla_put_u64_64bit(msg, MRC_A_PROBE_RESULT_RTT,
					      run->rtt[i],
					      MRC_A_PROBE_RESULT_PAD)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int mrc_probe_reply(struct genl_info *info, const struct mrc_dev_id *dev,
			   const struct mrc_probe_run *run, bool v6)
{
	struct nlattr *results;
	struct sk_buff *msg;
	void *hdr;
	u32 i;

	msg = nlmsg_new(64 * 1024 - NLMSG_HDRLEN, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				MRC_CMD_PROBE);
	if (!hdr)
		goto toobig;
	if (nla_put_u32(msg, MRC_A_DEV_INDEX, dev->index) ||
	    nla_put_string(msg, MRC_A_DEV_NAME, dev->name))
		goto toobig;
	results = nla_nest_start(msg, MRC_A_PROBE_RESULTS);
	if (!results)
		goto toobig;
	for (i = 0; i < run->n; i++)
		if (mrc_probe_put_result(msg, run, i, v6))
			goto toobig;
	nla_nest_end(msg, results);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
toobig:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* The request's peer address as a sockaddr. */
static int mrc_probe_peer(struct genl_info *info, struct sockaddr_storage *ss)
{
	struct nlattr *nla = info->attrs[MRC_A_PROBE_TO];

	if (!nla) {
		memset(ss, 0, sizeof(*ss));
		NL_SET_ERR_MSG(info->extack,
			       "missing peer address (MRC_A_PROBE_TO)");
		return -EINVAL;
	}
	return mrc_nl_sockaddr(nla, ss, info->extack,
			       "peer address must be 4 (IPv4) or 16 (IPv6) bytes");
}

/* "ev PORT plane N": one UDP EV instead of the route's set. */
static int mrc_probe_one_ev(struct genl_info *info,
			    struct mrc_qp_path_prep *prep)
{
	struct nlattr *sport = info->attrs[MRC_A_PROBE_EV_SPORT];
	struct nlattr *plane = info->attrs[MRC_A_PROBE_EV_PLANE];
	u32 p;

	if (!sport && !plane)
		return 0;
	if (!sport || !plane) {
		NL_SET_ERR_MSG_ATTR(info->extack, sport ?: plane,
				    "an explicit EV needs both its UDP source port and its plane");
		return -EINVAL;
	}
	p = nla_get_u32(plane);
	if (!p || p > MRC_MAX_PLANES) {
		NL_SET_ERR_MSG_ATTR(info->extack, plane,
				    "plane out of range (1..16)");
		return -ERANGE;
	}
	if (!nla_get_u16(sport)) {
		NL_SET_ERR_MSG_ATTR(info->extack, sport,
				    "UDP source port 0 names no EV");
		return -EINVAL;
	}
	memset(&prep->evs[0], 0, sizeof(prep->evs[0]));
	prep->evs[0].plane = p;
	prep->evs[0].len = 2;
	put_unaligned_be16(nla_get_u16(sport), prep->evs[0].value);
	prep->format = MRC_EV_FMT_UDP;
	prep->n_evs = 1;
	return 0;
}

int mrc_nl_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct mrc_net *mn = mrc_net(net);
	struct mrc_probe_run *run;
	struct sockaddr_storage peer;
	struct mrc_dev_id dev;
	struct mrc_dev *mdev;
	u32 timeout = MRC_PROBE_TIMEOUT_MS;
	bool v6;
	int err;

	if (info->attrs[MRC_A_PROBE_TIMEOUT])
		timeout = nla_get_u32(info->attrs[MRC_A_PROBE_TIMEOUT]);
	if (!timeout || timeout > MRC_PROBE_TIMEOUT_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[MRC_A_PROBE_TIMEOUT],
				    "timeout out of range (1..60000 ms)");
		return -ERANGE;
	}
	err = mrc_probe_peer(info, &peer);
	if (err)
		return err;
	v6 = peer.ss_family == AF_INET6;
	run = kvzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;

	/* The instance stays while we hold the lock; sending does not. */
	mutex_lock(&mrc_cfg_lock);
	mdev = mrc_nl_find_dev(net, info->attrs, info->extack);
	if (IS_ERR(mdev)) {
		mutex_unlock(&mrc_cfg_lock);
		err = PTR_ERR(mdev);
		goto out;
	}
	dev.index = mdev->ibdev.index;
	strscpy(dev.name, mrc_dev_name(mdev), sizeof(dev.name));
	if (v6 && !mn->sock6) {
		mutex_unlock(&mrc_cfg_lock);
		NL_SET_ERR_MSG(info->extack, "IPv6 is disabled");
		err = -EAFNOSUPPORT;
		goto out;
	}
	/* Keeps the instance (and the namespace's socket) until sent. */
	if (!ib_device_try_get(&mdev->ibdev)) {
		mutex_unlock(&mrc_cfg_lock);
		NL_SET_ERR_MSG(info->extack, "device is being removed");
		err = -ENODEV;
		goto out;
	}
	mutex_unlock(&mrc_cfg_lock);

	err = mrc_paths_prepare(mdev, (struct sockaddr *)&peer, 0,
				info->attrs[MRC_A_PROBE_EV_PROFILE] ?
				nla_get_u32(info->attrs[MRC_A_PROBE_EV_PROFILE]) :
				MRC_PATHS_ROUTE_PROFILE,
				MRC_PATHS_ROUTE_PROFILE, &run->prep);
	if (!err)
		err = mrc_probe_one_ev(info, &run->prep);
	if (err) {
		ib_device_put(&mdev->ibdev);
		if (err == -ENOENT)
			NL_SET_ERR_MSG(info->extack, "no such EV profile");
		else if (err == -EAFNOSUPPORT)
			NL_SET_ERR_MSG(info->extack,
				       "STEV and SRV6 EVs need an IPv6 peer");
		else if (!info->extack->_msg)
			NL_SET_ERR_MSG(info->extack,
				       "EV profile not online, or no paths to this peer");
		goto out;
	}
	mrc_probe_run_start(mn, mdev, run, (struct sockaddr *)&peer);
	ib_device_put(&mdev->ibdev);
	mrc_probe_run_wait(mn, run, timeout);
	err = mrc_probe_reply(info, &dev, run, v6);
out:
	kvfree(run);
	return err;
}
