// SPDX-License-Identifier: GPL-2.0-only
/*
 * Connectionless EV probes ("mrcctl probe"): the packet side.  The op
 * MRC_CMD_PROBE (netlink_probe.c) prepares a run, starts it here and
 * waits; net.c hands every packet to destination QPN 0 to mrc_probe_rx().
 *
 * A probe run sends one PROBE_REQ with destination QPN 0 on each path
 * toward a peer (the paths a QP to that peer would use, or those of an
 * explicit EV) and waits for the PROBE_RESPs; the RTT of each path is the
 * time between sending and the answer's arrival.  Any host with an mrc
 * instance answers a PROBE_REQ addressed to QPN 0, from softirq, back to
 * the request's source with the request's UDP source port and flow label,
 * so that an ECMP fabric hashes the answer like the request where it can,
 * and reports in svc_time how long it held the request.
 *
 * An endpoint batch (MRC_CMD_EP_BATCH, mrc_ctl_ep_batch_send_wait())
 * is a run whose paths each have their own peer, format and EV; its
 * answers also record the plane they arrived on and their order, and
 * their RTT is less the responder's svc_time.
 *
 * Runs are on a per-namespace list under mn->probe_lock; each owns a
 * range of probe ids starting at a random one, so that an answer finds
 * its run and EV by id, and an off-path host cannot guess an id.  An
 * answer counts only from the address its probe went to; a late answer
 * (after the run gave up), a forged or a misdirected one finds nothing
 * and is dropped (rx_probe_stray).
 *
 * Anyone can send a PROBE_REQ, with any source address: answers are
 * limited per namespace to MRC_PROBE_ANSWER_RATE a second in bursts of
 * MRC_PROBE_ANSWER_BURST (a run over every EV of a connection), the rest
 * is counted (probe_limited) and not answered.  An answer is no larger
 * than its request: no amplification either.
 */

#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/wait.h>
#include <net/ipv6.h>

#include "probe.h"

#define MRC_PROBE_ANSWER_RATE	1000
#define MRC_PROBE_ANSWER_BURST	(2 * MRC_MAX_EVS)
#define MRC_PROBE_TOKEN_NS	(NSEC_PER_SEC / MRC_PROBE_ANSWER_RATE)

void mrc_probe_net_init(struct mrc_net *mn)
{
	spin_lock_init(&mn->probe_rl_lock);
	mn->probe_rl_last = ktime_get_ns();
	mn->probe_rl_tokens = MRC_PROBE_ANSWER_BURST;
}

/* Take a token for one answer; false when the bucket is empty. */
static bool mrc_probe_answer_allowed(struct mrc_net *mn)
{
	u64 now = ktime_get_ns(), n;
	bool ok;

	spin_lock(&mn->probe_rl_lock);
	n = div64_u64(now - mn->probe_rl_last, MRC_PROBE_TOKEN_NS);
	if (n) {
		mn->probe_rl_last += n * MRC_PROBE_TOKEN_NS;
		mn->probe_rl_tokens = min_t(u64, MRC_PROBE_ANSWER_BURST,
					    mn->probe_rl_tokens + n);
	}
	ok = mn->probe_rl_tokens > 0;
	if (ok)
		mn->probe_rl_tokens--;
	spin_unlock(&mn->probe_rl_lock);
	return ok;
}

/* Answer a PROBE_REQ: back to its source, on the way it came as far as
 * the headers can say (same UDP source port, same flow label).
 */
static void mrc_probe_answer(struct mrc_net *mn, struct sk_buff *skb,
			     const struct mrc_pkt *req)
{
	struct mrc_qp_plane pl = {};
	struct mrc_qp_ev ev = {};
	struct mrc_xmit x = {
		.mn = mn, .format = MRC_EV_FMT_UDP, .ttl = 64,
		.plane_id = req->hdr.plane, .pl = &pl, .ev = &ev,
	};
	u64 t_rx = mrc_now();
	struct sk_buff *ans;
	struct mrc_pkt r;
	u8 *payload;

	if (!mrc_probe_answer_allowed(mn)) {
		atomic64_inc(&mn->rx_drop[MRC_NCNT_PROBE_LIMITED]);
		return;
	}
	mrc_pkt_init(&r, MRC_OP_PROBE_RESP);
	r.hdr.ev = req->hdr.ev;
	r.hdr.plane = req->hdr.plane;
	r.hdr.ts = (u32)mrc_now();
	r.u.probe = req->u.probe;
	r.u.probe.ts_echo = req->hdr.ts;
	r.u.probe.svc_time = 0;
	ev.sport = udp_hdr(skb)->source;
	if (skb->protocol == htons(ETH_P_IPV6)) {
		if (!mn->sock6)
			return;
		x.ipv6 = true;
		pl.daddr.v6.sin6_family = AF_INET6;
		pl.daddr.v6.sin6_addr = ipv6_hdr(skb)->saddr;
		pl.saddr.v6.sin6_family = AF_INET6;
		pl.saddr.v6.sin6_addr = ipv6_hdr(skb)->daddr;
		ev.flowlabel = ip6_flowlabel(ipv6_hdr(skb));
	} else {
		pl.daddr.v4.sin_family = AF_INET;
		pl.daddr.v4.sin_addr.s_addr = ip_hdr(skb)->saddr;
		pl.saddr.v4.sin_family = AF_INET;
		pl.saddr.v4.sin_addr.s_addr = ip_hdr(skb)->daddr;
	}
	/* From the request's hand-over (decoded, ICRC checked) to the
	 * answer's encoding; at least 1: 0 says "not reported".
	 */
	r.u.probe.svc_time = (u32)min_t(u64, max_t(u64, mrc_now() - t_rx, 1),
					U32_MAX);
	ans = mrc_net_build(&r, &payload);
	if (!ans) {
		atomic64_inc(&mn->probe_tx_drop);
		return;
	}
	mrc_net_seal(ans);
	mrc_net_send(&x, ans);
}

/* Where path @i of @run leads. */
static struct mrc_qp_plane *mrc_probe_pl(struct mrc_probe_run *run, u32 i)
{
	return run->batch ? &run->bpl[i] : &run->plane[run->prep.evs[i].plane];
}

/* Does @skb come from where path @i of @run was probed? */
static bool mrc_probe_from(struct mrc_probe_run *run, u32 i,
			   const struct sk_buff *skb)
{
	const struct mrc_qp_plane *pl = mrc_probe_pl(run, i);

	if (!pl->valid)
		return false;
	if (skb->protocol == htons(ETH_P_IPV6))
		return pl->daddr.v6.sin6_family == AF_INET6 &&
		       ipv6_addr_equal(&ipv6_hdr(skb)->saddr,
				       &pl->daddr.v6.sin6_addr);
	return pl->daddr.v4.sin_family == AF_INET &&
	       ip_hdr(skb)->saddr == pl->daddr.v4.sin_addr.s_addr;
}

/* Batch path @i answered (run->rtt[i] set, run->answered not yet
 * counted): the plane it came in on, the responder's time, the order.
 */
static void mrc_probe_batch_answered(struct mrc_probe_run *run, u32 i,
				     const struct sk_buff *skb, u32 svc)
{
	u32 p;

	run->port[i] = run->prep.evs[i].plane;
	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		if (run->prep.oif[p] && run->prep.oif[p] == skb->skb_iif) {
			run->port[i] = p;
			break;
		}
	}
	/* A time no shorter than the RTT itself is no time to believe. */
	if (svc && svc < run->rtt[i]) {
		run->svc[i] = svc;
		run->rtt[i] -= svc;
	}
	run->order[run->answered] = i;
}

static void mrc_probe_answered(struct mrc_net *mn, const struct sk_buff *skb,
			       const struct mrc_pkt *pkt)
{
	const struct mrc_probe_ext *pr = &pkt->u.probe;
	u32 id = pr->probe_id, i;
	struct mrc_probe_run *run;
	u64 now = mrc_now();
	bool found = false;

	spin_lock(&mn->probe_lock);
	list_for_each_entry(run, &mn->probes, node) {
		i = id - run->base;
		if (i >= run->n || run->rtt[i] || pr->ev != i ||
		    pr->plane != run->prep.evs[i].plane ||
		    !mrc_probe_from(run, i, skb))
			continue;
		run->rtt[i] = max_t(u64, now - run->sent[i], 1);
		if (run->batch)
			mrc_probe_batch_answered(run, i, skb, pr->svc_time);
		if (++run->answered == run->n)
			wake_up(&run->wq);
		found = true;
		break;
	}
	spin_unlock(&mn->probe_lock);
	if (!found)
		atomic64_inc(&mn->rx_drop[MRC_NCNT_PROBE_STRAY]);
}

bool mrc_probe_rx(struct mrc_net *mn, struct sk_buff *skb,
		  const struct mrc_pkt *pkt)
{
	switch (pkt->hdr.opcode) {
	case MRC_OP_PROBE_REQ:
		mrc_probe_answer(mn, skb, pkt);
		return true;
	case MRC_OP_PROBE_RESP:
		mrc_probe_answered(mn, skb, pkt);
		return true;
	default:
		return false;
	}
}

/* The paths of the run: plane p toward the route's hop (or the peer on
 * plane 1), its netdev; EV i's outer headers.
 */
static void mrc_probe_paths(struct mrc_probe_run *run,
			    const struct sockaddr *peer)
{
	struct mrc_qp_path_prep *prep = &run->prep;
	bool v6 = peer->sa_family == AF_INET6;
	struct mrc_qp_plane *pl;
	u32 p, i;

	for (p = 1; p <= MRC_MAX_PLANES; p++) {
		pl = &run->plane[p];
		pl->oif = prep->oif[p];
		pl->saddr.v4.sin_family = peer->sa_family;
		if (prep->has_route && prep->route.hops[p].valid) {
			pl->daddr.v4.sin_family = peer->sa_family;
			if (v6)
				memcpy(&pl->daddr.v6.sin6_addr,
				       prep->route.hops[p].addr, 16);
			else
				memcpy(&pl->daddr.v4.sin_addr,
				       prep->route.hops[p].addr, 4);
			pl->valid = pl->oif;
		} else if (!prep->has_route && p == 1) {
			memcpy(&pl->daddr, peer, v6 ? sizeof(pl->daddr.v6) :
						      sizeof(pl->daddr.v4));
			pl->valid = pl->oif;
		}
	}
	for (i = 0; i < prep->n_evs; i++)
		mrc_path_ev_outer(0, prep->format, &prep->evs[i], &run->ev[i]);
}

static void mrc_probe_send(struct mrc_net *mn, struct mrc_dev *mdev,
			   struct mrc_probe_run *run, bool v6)
{
	struct mrc_qp_path_prep *prep = &run->prep;
	struct mrc_xmit x = {
		.mn = mn, .mdev = mdev, .ipv6 = v6, .format = prep->format,
		.ttl = 64,
	};
	struct sk_buff *skb;
	struct mrc_pkt pkt;
	u8 *payload;
	u32 i;

	for (i = 0; i < run->n; i++) {
		u8 plane = prep->evs[i].plane;
		struct mrc_qp_plane *pl = mrc_probe_pl(run, i);

		run->sent[i] = mrc_now();
		if (!pl->valid)
			continue;	/* reported as unanswered */
		mrc_pkt_init(&pkt, MRC_OP_PROBE_REQ);
		pkt.hdr.ev = i;
		pkt.hdr.plane = plane;
		pkt.hdr.ts = (u32)run->sent[i];
		pkt.u.probe.probe_id = run->base + i;
		pkt.u.probe.ev = i;
		pkt.u.probe.plane = plane;
		skb = mrc_net_build(&pkt, &payload);
		if (!skb) {
			mrc_count(mdev, MRC_CNT_TX_DROP, 1);
			continue;
		}
		mrc_net_seal(skb);
		x.plane_id = plane;
		x.pl = pl;
		x.ev = &run->ev[i];
		if (run->batch) {
			x.format = run->fmt[i];
			x.ipv6 = pl->daddr.v6.sin6_family == AF_INET6;
		}
		local_bh_disable();
		mrc_net_send(&x, skb);
		local_bh_enable();
	}
}

/**
 * mrc_probe_run_start - send the probes of a prepared run
 * @mn: the namespace of the run (its socket, its list of runs)
 * @mdev: the instance the probes go out of; the caller holds a reference
 * @run: zeroed, then run->prep filled (mrc_paths_prepare(), or one EV)
 * @peer: the peer probed (sockaddr_in or sockaddr_in6)
 *
 * Puts the run on mn->probes, where answers find it, and sends one
 * PROBE_REQ per path.  Process context.  mrc_probe_run_wait() takes the
 * run off the list again.
 */
void mrc_probe_run_start(struct mrc_net *mn, struct mrc_dev *mdev,
			 struct mrc_probe_run *run,
			 const struct sockaddr *peer)
{
	mrc_probe_paths(run, peer);
	run->n = run->prep.n_evs;
	init_waitqueue_head(&run->wq);

	run->base = get_random_u32();
	spin_lock_bh(&mn->probe_lock);
	list_add(&run->node, &mn->probes);
	spin_unlock_bh(&mn->probe_lock);

	mrc_probe_send(mn, mdev, run, peer->sa_family == AF_INET6);
}

/**
 * mrc_probe_batch_start - send the probes of an endpoint batch
 * @mn: the namespace of the run
 * @mdev: the instance; the caller holds a reference
 * @run: zeroed, then for each of run->n paths: prep.evs[i] (checked),
 *	fmt[i], bpl[i] (daddr, saddr, oif, valid); prep.oif[] the planes'
 *	netdevs
 *
 * As mrc_probe_run_start(), with each path's own peer and format.
 */
void mrc_probe_batch_start(struct mrc_net *mn, struct mrc_dev *mdev,
			   struct mrc_probe_run *run)
{
	u32 i;

	run->batch = true;
	for (i = 0; i < run->n; i++)
		mrc_path_ev_outer(0, run->fmt[i], &run->prep.evs[i],
				  &run->ev[i]);
	init_waitqueue_head(&run->wq);

	run->base = get_random_u32();
	spin_lock_bh(&mn->probe_lock);
	list_add(&run->node, &mn->probes);
	spin_unlock_bh(&mn->probe_lock);

	mrc_probe_send(mn, mdev, run, false);
}

/* Wait up to @timeout_ns for every answer of @run (or a signal), then
 * take it off the list: run->rtt[] and the batch fields are final
 * afterwards.
 */
void mrc_probe_run_wait_ns(struct mrc_net *mn, struct mrc_probe_run *run,
			   u64 timeout_ns)
{
	unsigned long j = max_t(unsigned long, nsecs_to_jiffies(timeout_ns), 1);

	wait_event_interruptible_timeout(run->wq,
					 READ_ONCE(run->answered) == run->n,
					 j);

	spin_lock_bh(&mn->probe_lock);
	list_del(&run->node);
	spin_unlock_bh(&mn->probe_lock);
}

/* Wait up to @timeout_ms, as mrc_probe_run_wait_ns(). */
void mrc_probe_run_wait(struct mrc_net *mn, struct mrc_probe_run *run,
			u32 timeout_ms)
{
	mrc_probe_run_wait_ns(mn, run, (u64)timeout_ms * NSEC_PER_MSEC);
}
