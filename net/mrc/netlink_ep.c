// SPDX-License-Identifier: GPL-2.0-only
/*
 * MRC_CMD_EP_BATCH: a controller's batch of endpoint operations of one
 * kind (lib_mrc's mrc_ctl_ep_batch_send_wait(), "mrcctl probe ... ev").
 *
 *   EP_OP EV_PROBE:    one connectionless probe per request on its
 *                      explicit EV (plane, format, value) toward its
 *                      daddr (probe.c sends and matches); wait up to
 *                      EP_TIMEOUT ns for all answers; reply with one
 *                      EP_ANSWER { ID, PLANE, RTT, SVC_TIME } per answer,
 *                      in arrival order.
 *   EP_OP PORT_STATUS: the request's bitmap as a PORT_STATUS on every
 *                      connection to its daddr (ep_port.c); one
 *                      EP_ANSWER { ID } per request sent on at least one.
 *
 * A request is at most MRC_EP_MAX_REQS entries, each parsed into a
 * bounded array before anything is sent: nothing a request controls
 * allocates more.
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <rdma/ib_cache.h>

#include "netlink.h"
#include "nl_event.h"
#include "nl_policy.h"
#include "probe.h"
#include "profile.h"

#define MRC_EP_MAX_REQS		MRC_MAX_EVS
#define MRC_EP_TIMEOUT_NS	NSEC_PER_SEC
#define MRC_EP_TIMEOUT_MAX_NS	(60 * NSEC_PER_SEC)

struct mrc_ep_req {
	u16 id;
	bool has_saddr;
	struct sockaddr_storage daddr, saddr;
	u8 format;
	struct mrc_ev ev;
	u16 up_mask;
	const struct nlattr *nla;	/* for extack */
};

/* A 4- or 16-byte address attribute as a sockaddr. */
static int mrc_ep_addr(const struct nlattr *nla, struct sockaddr_storage *ss,
		       struct netlink_ext_ack *extack)
{
	return mrc_nl_sockaddr(nla, ss, extack,
			       "address must be 4 (IPv4) or 16 (IPv6) bytes");
}

static int mrc_ep_missing(struct netlink_ext_ack *extack,
			  const struct nlattr *nla, const char *what)
{
	mrc_nl_set_msg_attr(extack, nla, what);
	return -EINVAL;
}

/* The EV of an ev-probe request, checked as a profile's EV would be. */
static int mrc_ep_parse_ev(struct nlattr **tb, struct mrc_ep_req *r,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *value = tb[MRC_A_EP_REQ_VALUE];
	int err;

	if (tb[MRC_A_EP_REQ_PORT_STATUS])
		return mrc_ep_missing(extack, tb[MRC_A_EP_REQ_PORT_STATUS],
				      "port-status belongs to port-status batches");
	if (!tb[MRC_A_EP_REQ_FORMAT] || !tb[MRC_A_EP_REQ_PLANE] || !value)
		return mrc_ep_missing(extack, r->nla,
				      "an ev-probe request needs its EV's format, plane and value");
	r->format = nla_get_u8(tb[MRC_A_EP_REQ_FORMAT]);
	r->ev.plane = nla_get_u8(tb[MRC_A_EP_REQ_PLANE]);
	r->ev.len = nla_len(value);
	memcpy(r->ev.value, nla_data(value), r->ev.len);
	err = mrc_ev_check(r->format, &r->ev);
	if (err) {
		if (-err == MRC_EV_EPLANE)
			value = tb[MRC_A_EP_REQ_PLANE];
		else if (-err == MRC_EV_EFORMAT)
			value = tb[MRC_A_EP_REQ_FORMAT];
		return mrc_ev_err(extack, value, err);
	}
	if (r->format != MRC_EV_FMT_UDP && r->daddr.ss_family != AF_INET6) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_EP_REQ_FORMAT],
				    "STEV and SRV6 EVs need an IPv6 peer");
		return -EAFNOSUPPORT;
	}
	return 0;
}

static int mrc_ep_parse_req(struct nlattr *nla, u8 op, struct mrc_ep_req *r,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_A_EP_REQ_MAX + 1];
	int err;

	r->nla = nla;
	err = nla_parse_nested(tb, MRC_A_EP_REQ_MAX, nla, mrc_ep_req_nl_policy,
			       extack);
	if (err)
		return err;
	if (!tb[MRC_A_EP_REQ_ID])
		return mrc_ep_missing(extack, nla, "request without its id");
	if (!tb[MRC_A_EP_REQ_DADDR])
		return mrc_ep_missing(extack, nla,
				      "request without its peer (daddr)");
	r->id = nla_get_u16(tb[MRC_A_EP_REQ_ID]);
	err = mrc_ep_addr(tb[MRC_A_EP_REQ_DADDR], &r->daddr, extack);
	if (err)
		return err;
	if (tb[MRC_A_EP_REQ_SADDR]) {
		err = mrc_ep_addr(tb[MRC_A_EP_REQ_SADDR], &r->saddr, extack);
		if (err)
			return err;
		if (r->saddr.ss_family != r->daddr.ss_family)
			return mrc_ep_missing(extack, tb[MRC_A_EP_REQ_SADDR],
					      "saddr and daddr of different families");
		r->has_saddr = true;
	}
	if (op == MRC_EP_OP_EV_PROBE)
		return mrc_ep_parse_ev(tb, r, extack);
	if (tb[MRC_A_EP_REQ_FORMAT] || tb[MRC_A_EP_REQ_PLANE] ||
	    tb[MRC_A_EP_REQ_VALUE])
		return mrc_ep_missing(extack, nla,
				      "a port-status request carries no EV");
	if (!tb[MRC_A_EP_REQ_PORT_STATUS])
		return mrc_ep_missing(extack, nla,
				      "a port-status request needs its bitmap (port-status)");
	r->up_mask = nla_get_u16(tb[MRC_A_EP_REQ_PORT_STATUS]);
	return 0;
}

/* Every request of the batch into @reqs (@n of them, counted before). */
static int mrc_ep_parse(struct genl_info *info, u8 op, struct mrc_ep_req *reqs,
			u32 n)
{
	struct nlattr *nla;
	u32 i = 0, j;
	int rem, err;

	nla_for_each_nested(nla, info->attrs[MRC_A_EP_REQS], rem) {
		err = mrc_ep_parse_req(nla, op, &reqs[i], info->extack);
		if (err)
			return err;
		for (j = 0; j < i; j++) {
			if (reqs[j].id == reqs[i].id) {
				NL_SET_ERR_MSG_ATTR(info->extack, nla,
						    "duplicate request id");
				return -EINVAL;
			}
		}
		i++;
	}
	return 0;
}

/* The entries of EP_REQS: 1..MRC_EP_MAX_REQS, all EP_REQ. */
static int mrc_ep_count(struct genl_info *info, u32 *n)
{
	struct nlattr *reqs = info->attrs[MRC_A_EP_REQS], *nla;
	int rem;

	*n = 0;
	if (!reqs)
		return mrc_ep_missing(info->extack, NULL,
				      "missing requests (MRC_A_EP_REQS)");
	nla_for_each_nested(nla, reqs, rem) {
		if (nla_type(nla) != MRC_A_EP_REQ)
			return mrc_ep_missing(info->extack, nla,
					      "MRC_A_EP_REQS holds only MRC_A_EP_REQ entries");
		if (++*n > MRC_EP_MAX_REQS)
			return mrc_ep_missing(info->extack, reqs,
					      "more than 256 requests in one batch");
	}
	if (!*n)
		return mrc_ep_missing(info->extack, reqs, "no requests");
	return 0;
}

/* Is @ss one of the instance's (RoCEv2) GIDs? */
static bool mrc_ep_local(struct mrc_dev *mdev,
			 const struct sockaddr_storage *ss)
{
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	if (ss->ss_family == AF_INET6)
		memcpy(&gid, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
	else
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)ss)->sin_addr.s_addr,
				       (struct in6_addr *)&gid);
	attr = rdma_find_gid_by_port(&mdev->ibdev, &gid,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, 1, NULL);
	if (IS_ERR(attr))
		return false;
	rdma_put_gid_attr(attr);
	return true;
}

static int mrc_ep_check_addrs(struct mrc_net *mn, struct mrc_dev *mdev,
			      const struct mrc_ep_req *reqs, u32 n,
			      struct netlink_ext_ack *extack)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (reqs[i].daddr.ss_family == AF_INET6 && !mn->sock6) {
			NL_SET_ERR_MSG_ATTR(extack, reqs[i].nla,
					    "IPv6 is disabled");
			return -EAFNOSUPPORT;
		}
		if (reqs[i].has_saddr && !mrc_ep_local(mdev, &reqs[i].saddr)) {
			NL_SET_ERR_MSG_ATTR(extack, reqs[i].nla,
					    "saddr is not one of the instance's GIDs");
			return -EINVAL;
		}
	}
	return 0;
}

static void mrc_ep_copy_addr(union mrc_sockaddr *to,
			     const struct sockaddr_storage *from)
{
	memcpy(to, from, from->ss_family == AF_INET6 ?
	       sizeof(to->v6) : sizeof(to->v4));
}

/* Path @i of the run: toward the route's hop on the EV's plane, or
 * (no route) to the peer itself through the plane's netdev, as a QP's
 * packets would go.  The source: @r's saddr on plane 1 (and on every
 * plane without a route), else the routing's choice.
 */
static void mrc_ep_path(struct mrc_probe_run *run, u32 i,
			const struct mrc_ep_req *r,
			const struct mrc_route_info *route, bool has_route)
{
	struct mrc_qp_plane *pl = &run->bpl[i];
	u8 p = r->ev.plane;
	bool v6 = r->daddr.ss_family == AF_INET6;

	run->prep.evs[i] = r->ev;
	run->fmt[i] = r->format;
	pl->oif = run->prep.oif[p];
	pl->saddr.v4.sin_family = r->daddr.ss_family;
	if (r->has_saddr && (p == 1 || !has_route))
		mrc_ep_copy_addr(&pl->saddr, &r->saddr);
	if (!has_route) {
		mrc_ep_copy_addr(&pl->daddr, &r->daddr);
	} else if (route->hops[p].valid) {
		pl->daddr.v4.sin_family = r->daddr.ss_family;
		if (v6)
			memcpy(&pl->daddr.v6.sin6_addr, route->hops[p].addr, 16);
		else
			memcpy(&pl->daddr.v4.sin_addr, route->hops[p].addr, 4);
	} else {
		return;		/* the route has no hop there: unanswered */
	}
	pl->valid = pl->oif != 0;
}

static int mrc_ep_put_answer(struct sk_buff *msg, u16 id, u8 plane, u64 rtt,
			     u32 svc)
{
	struct nlattr *nest = nla_nest_start(msg, MRC_A_EP_ANSWER);

	if (!nest || nla_put_u16(msg, MRC_A_EP_ANSWER_ID, id) ||
	    (plane && nla_put_u8(msg, MRC_A_EP_ANSWER_PLANE, plane)) ||
	    (rtt && nla_put_u64_64bit(msg, MRC_A_EP_ANSWER_RTT, rtt,
				      MRC_A_EP_ANSWER_PAD)) ||
	    (rtt && nla_put_u32(msg, MRC_A_EP_ANSWER_SVC_TIME, svc)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* The reply: the handle and the answers.  @run (probes) or @sent
 * (port status: connections each request went out on).
 */
static int mrc_ep_reply(struct genl_info *info, const struct mrc_dev_id *dev,
			const struct mrc_ep_req *reqs, u32 n,
			const struct mrc_probe_run *run, const u32 *sent)
{
	struct nlattr *answers;
	struct sk_buff *msg;
	void *hdr;
	u32 k, i;

	msg = nlmsg_new(NLMSG_GOODSIZE + n * 64, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				MRC_CMD_EP_BATCH);
	if (!hdr ||
	    nla_put_u32(msg, MRC_A_EP_DEV_INDEX, dev->index) ||
	    nla_put_string(msg, MRC_A_EP_DEV_NAME, dev->name))
		goto toobig;
	answers = nla_nest_start(msg, MRC_A_EP_ANSWERS);
	if (!answers)
		goto toobig;
	if (run) {
		for (k = 0; k < run->answered; k++) {
			i = run->order[k];
			if (mrc_ep_put_answer(msg, reqs[i].id, run->port[i],
					      run->rtt[i], run->svc[i]))
				goto toobig;
		}
	} else {
		for (i = 0; i < n; i++)
			if (sent[i] &&
			    mrc_ep_put_answer(msg, reqs[i].id, 0, 0, 0))
				goto toobig;
	}
	nla_nest_end(msg, answers);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
toobig:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int mrc_ep_probe(struct genl_info *info, struct mrc_net *mn,
			struct mrc_dev *mdev, const struct mrc_dev_id *dev,
			const struct mrc_ep_req *reqs, u32 n, u64 timeout)
{
	struct mrc_route_info *route;
	struct mrc_probe_run *run;
	struct mrc_plane *plane;
	bool has_route = false;
	int err = -ENOMEM;
	u32 i, p;

	run = kvzalloc(sizeof(*run), GFP_KERNEL);
	route = kzalloc(sizeof(*route), GFP_KERNEL);
	if (!run || !route)
		goto out;
	mutex_lock(&mrc_cfg_lock);
	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		plane = mrc_plane_get_locked(mdev, p);
		if (plane)
			run->prep.oif[p] = plane->ndev->ifindex;
	}
	mutex_unlock(&mrc_cfg_lock);
	run->n = n;
	for (i = 0; i < n; i++) {
		/* One lookup per run of requests to the same peer. */
		if (!i || memcmp(&reqs[i].daddr, &reqs[i - 1].daddr,
				 sizeof(reqs[i].daddr))) {
			memset(route, 0, sizeof(*route));
			has_route = !mrc_route_lookup(mdev,
						      (const struct sockaddr *)&reqs[i].daddr,
						      route);
		}
		mrc_ep_path(run, i, &reqs[i], route, has_route);
	}
	mrc_probe_batch_start(mn, mdev, run);
	ib_device_put(&mdev->ibdev);
	mdev = NULL;
	mrc_probe_run_wait_ns(mn, run, timeout);
	err = mrc_ep_reply(info, dev, reqs, n, run, NULL);
out:
	if (mdev)
		ib_device_put(&mdev->ibdev);
	kfree(route);
	kvfree(run);
	return err;
}

static int mrc_ep_port_statuses(struct genl_info *info, struct mrc_dev *mdev,
				const struct mrc_dev_id *dev,
				const struct mrc_ep_req *reqs, u32 n)
{
	u32 *sent, i;
	int err;

	sent = kcalloc(n, sizeof(*sent), GFP_KERNEL);
	if (!sent) {
		ib_device_put(&mdev->ibdev);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		sent[i] = mrc_ep_port_status(mdev,
					     (const struct sockaddr *)&reqs[i].daddr,
					     reqs[i].has_saddr ?
					     (const struct sockaddr *)&reqs[i].saddr :
					     NULL, reqs[i].up_mask);
	ib_device_put(&mdev->ibdev);
	err = mrc_ep_reply(info, dev, reqs, n, NULL, sent);
	kfree(sent);
	return err;
}

/* The instance, referenced (ib_device_try_get()), and its handle. */
static struct mrc_dev *mrc_ep_get_dev(struct genl_info *info,
				      struct mrc_dev_id *dev)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_cfg_lock);
	mdev = mrc_nl_find_dev(genl_info_net(info), info->attrs,
			       info->extack);
	if (IS_ERR(mdev))
		goto out;
	dev->index = mdev->ibdev.index;
	strscpy(dev->name, mrc_dev_name(mdev), sizeof(dev->name));
	if (!ib_device_try_get(&mdev->ibdev)) {
		NL_SET_ERR_MSG(info->extack, "device is being removed");
		mdev = ERR_PTR(-ENODEV);
	}
out:
	mutex_unlock(&mrc_cfg_lock);
	return mdev;
}

int mrc_nl_ep_batch_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *nla_op = info->attrs[MRC_A_EP_OP];
	struct nlattr *nla_to = info->attrs[MRC_A_EP_TIMEOUT];
	u64 timeout = MRC_EP_TIMEOUT_NS;
	struct mrc_ep_req *reqs;
	struct mrc_dev_id dev;
	struct mrc_dev *mdev;
	u32 n;
	u8 op;
	int err;

	if (!nla_op)
		return mrc_ep_missing(info->extack, NULL,
				      "missing operation (MRC_A_EP_OP)");
	op = nla_get_u8(nla_op);
	if (op != MRC_EP_OP_EV_PROBE && op != MRC_EP_OP_PORT_STATUS)
		return mrc_ep_missing(info->extack, nla_op,
				      "unknown operation");
	if (nla_to)
		timeout = nla_get_u64(nla_to);
	if (!timeout || timeout > MRC_EP_TIMEOUT_MAX_NS) {
		NL_SET_ERR_MSG_ATTR(info->extack, nla_to,
				    "timeout out of range (1 ns..60 s)");
		return -ERANGE;
	}
	err = mrc_ep_count(info, &n);
	if (err)
		return err;
	reqs = kvcalloc(n, sizeof(*reqs), GFP_KERNEL);
	if (!reqs)
		return -ENOMEM;
	err = mrc_ep_parse(info, op, reqs, n);
	if (err)
		goto out;
	mdev = mrc_ep_get_dev(info, &dev);
	if (IS_ERR(mdev)) {
		err = PTR_ERR(mdev);
		goto out;
	}
	err = mrc_ep_check_addrs(mn, mdev, reqs, n, info->extack);
	if (err) {
		ib_device_put(&mdev->ibdev);
		goto out;
	}
	/* Both consume the reference. */
	if (op == MRC_EP_OP_EV_PROBE)
		err = mrc_ep_probe(info, mn, mdev, &dev, reqs, n, timeout);
	else
		err = mrc_ep_port_statuses(info, mdev, &dev, reqs, n);
out:
	kvfree(reqs);
	return err;
}
