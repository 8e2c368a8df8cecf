// SPDX-License-Identifier: GPL-2.0-only
/*
 * A controller's PORT_STATUS (MRC_CMD_EP_BATCH with op port-status,
 * mrc_ctl_ep_batch_send_wait(MRC_CTL_EP_OP_PORT_STATUS_UPDATE)): the
 * planes a peer should believe up, sent on every connection of the
 * instance to that peer as the kernel sends its own when a plane goes
 * down or up (qp_path.c), with the next number of the instance's
 * sequence, so that whichever status is sent last wins at the peer.
 * PORT_STATUS has no answer on the wire.
 */

#include <net/ipv6.h>

#include "probe.h"

struct mrc_ep_port_ctx {
	const struct sockaddr *peer;
	const struct sockaddr *local;	/* NULL: any */
	u16 up_mask;
	u32 seq;
	u32 sent;
};

static bool mrc_ep_addr_eq(const union mrc_sockaddr *a,
			   const struct sockaddr *b)
{
	if (b->sa_family == AF_INET6)
		return a->v6.sin6_family == AF_INET6 &&
		       ipv6_addr_equal(&a->v6.sin6_addr,
				       &((const struct sockaddr_in6 *)b)->sin6_addr);
	return a->v4.sin_family == AF_INET &&
	       a->v4.sin_addr.s_addr ==
	       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
}

static void mrc_ep_port_apply(struct mrc_qp *qp, void *arg)
{
	struct mrc_ep_port_ctx *c = arg;
	u64 now = mrc_now();

	spin_lock_bh(&qp->lock);
	if (!qp->conn_ready || !qp->conn || qp->state == IB_QPS_ERR ||
	    !mrc_ep_addr_eq(&qp->daddr, c->peer) ||
	    (c->local && !mrc_ep_addr_eq(&qp->saddr, c->local)))
		goto out;
	mrc_conn_send_port_status(qp->conn, c->seq, c->up_mask, now);
	mrc_qp_kick_at(qp, now);
	c->sent++;
out:
	mrc_qp_unlock_xmit(qp);
}

/**
 * mrc_ep_port_status - send a controller's PORT_STATUS to a peer
 * @mdev: the instance
 * @peer: the peer (its plane-1 address, as the connections' address
 *	vectors name it)
 * @local: only connections from this address; NULL: any
 * @up_mask: bit p - 1: plane p is up
 *
 * Process context.  Return: the number of connections it went out on.
 */
u32 mrc_ep_port_status(struct mrc_dev *mdev, const struct sockaddr *peer,
		       const struct sockaddr *local, u16 up_mask)
{
	struct mrc_ep_port_ctx c = {
		.peer = peer, .local = local, .up_mask = up_mask,
	};

	c.seq = atomic_inc_return(&mdev->port_seq);
	mrc_qp_for_each(mdev, mrc_ep_port_apply, &c);
	return c.sent;
}
