// SPDX-License-Identifier: GPL-2.0-only
/*
 * UD queue pairs: datagrams.
 *
 * A UD QP has the rings of an RC QP (the rxe ABI) and no engine
 * connection: every send WQE is one UD_SEND or UD_SEND_IMM packet
 * (Documentation/networking/mrc.rst) built at the doorbell and sent on
 * plane 1, toward the address its address handle (or the address vector
 * the provider copied into the WQE) names, and completed as soon as it
 * is handed to the network.  No PSN reliability, no ACK, no
 * retransmission.  A datagram that arrives takes the next receive WQE of
 * the QP it names, if its Q_Key is the QP's; the 40-byte GRH (the IPv6
 * header, or 20 zero bytes and the IPv4 header) lands in front of the
 * payload, as on RoCEv2.  Everything else is dropped and counted
 * (rx_ud_drop).
 *
 * Context: the doorbell runs in process context with qp->lock held
 * (spin_lock_bh); the receive side in softirq, taking qp->lock.  Packets
 * built under the lock go out after it is released (mrc_qp_unlock_xmit(),
 * mrc_ud_xmit()).  Nothing here sleeps.
 */

#include <linux/hash.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/inet_ecn.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "qp.h"

/* The GRH in front of every received datagram (struct ib_grh). */
#define MRC_UD_GRH_LEN		40
/* Q_Key of a send WQE with this bit set: the QP's own (IBA 10.2.5). */
#define MRC_UD_QKEY_QP		0x80000000u

/* Where one datagram goes, resolved at the doorbell and carried in the
 * skb's control buffer to mrc_ud_xmit().  IPv4 addresses are in the
 * first four bytes of the in6_addr.
 */
struct mrc_ud_dest {
	struct in6_addr saddr;
	struct in6_addr daddr;
	int oif;
	u16 mtu;		/* bytes: the path MTU of the source netdev */
	u8 ipv6;
	u8 tos;
	u8 ttl;
};

static struct mrc_ud_dest *mrc_ud_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mrc_ud_dest) > sizeof(skb->cb));
	return (struct mrc_ud_dest *)skb->cb;
}

/* The source GID @sattr and destination @dgid of an address vector:
 * both RoCEv2 addresses of one family, the source one of this device.
 */
static u8 mrc_ud_dest_fill(struct mrc_qp *qp, const struct ib_gid_attr *sattr,
			   const union ib_gid *dgid, u8 tclass, u8 hop_limit,
			   struct mrc_ud_dest *d)
{
	struct sockaddr_storage s, t;
	struct net_device *ndev;

	if (!sattr || sattr->device != qp->ibqp.device ||
	    sattr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return IB_WC_LOC_QP_OP_ERR;
	rdma_gid2ip((struct sockaddr *)&s, &sattr->gid);
	rdma_gid2ip((struct sockaddr *)&t, dgid);
	if (s.ss_family != t.ss_family)
		return IB_WC_LOC_QP_OP_ERR;
	memset(d, 0, sizeof(*d));
	if (s.ss_family == AF_INET6) {
		if (!qp->mnet->sock6)
			return IB_WC_LOC_QP_OP_ERR;	/* IPv6 disabled */
		d->saddr = ((struct sockaddr_in6 *)&s)->sin6_addr;
		d->daddr = ((struct sockaddr_in6 *)&t)->sin6_addr;
		d->ipv6 = 1;
	} else {
		d->saddr.s6_addr32[0] = ((struct sockaddr_in *)&s)->sin_addr.s_addr;
		d->daddr.s6_addr32[0] = ((struct sockaddr_in *)&t)->sin_addr.s_addr;
	}
	d->tos = tclass & ~INET_ECN_MASK;
	d->ttl = hop_limit ? hop_limit : 64;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(sattr);
	if (!IS_ERR(ndev)) {
		d->oif = ndev->ifindex;
		d->mtu = ib_mtu_enum_to_int(mrc_path_mtu(READ_ONCE(ndev->mtu)));
	}
	rcu_read_unlock();
	return d->oif ? IB_WC_SUCCESS : IB_WC_LOC_QP_OP_ERR;
}

/* An address handle by number: it must exist and be of the QP's PD.
 * Looked up and read under the xarray's lock, which destroy_ah takes to
 * erase it before the core frees it (ah.c); a BH lock, so taking it
 * inside qp->lock is safe against the receive softirq.
 */
static u8 mrc_ud_dest_ah(struct mrc_qp *qp, u32 ah_num, struct mrc_ud_dest *d)
{
	struct mrc_dev *mdev = qp->mdev;
	const struct ib_global_route *grh;
	struct mrc_ah *ah;
	u8 st = IB_WC_LOC_QP_OP_ERR;

	lockdep_assert_held(&qp->lock);
	xa_lock(&mdev->ahs);		/* BH is off: qp->lock */
	ah = xa_load(&mdev->ahs, ah_num);
	if (ah && ah->ibah.pd == qp->ibqp.pd) {
		grh = rdma_ah_read_grh(&ah->attr);
		st = mrc_ud_dest_fill(qp, grh->sgid_attr, &grh->dgid,
				      grh->traffic_class, grh->hop_limit, d);
	}
	xa_unlock(&mdev->ahs);
	return st;
}

/* The address vector the provider copied into the WQE (a provider that
 * got no ah_num back from create_ah): read once, every field checked.
 * The source is the device's GID the vector's index names.
 */
static u8 mrc_ud_dest_av(struct mrc_qp *qp, const struct rxe_av *uav,
			 struct mrc_ud_dest *d)
{
	const struct ib_gid_attr *sattr;
	struct rxe_av av;
	union ib_gid dgid;
	u8 st;

	memcpy(&av, uav, sizeof(av));
	if (av.port_num != 1)
		return IB_WC_LOC_QP_OP_ERR;
	switch (av.network_type) {
	case RXE_NETWORK_TYPE_IPV4:
		if (av.dgid_addr._sockaddr_in.sin_family != AF_INET)
			return IB_WC_LOC_QP_OP_ERR;
		ipv6_addr_set_v4mapped(av.dgid_addr._sockaddr_in.sin_addr.s_addr,
				       (struct in6_addr *)dgid.raw);
		break;
	case RXE_NETWORK_TYPE_IPV6:
		if (av.dgid_addr._sockaddr_in6.sin6_family != AF_INET6)
			return IB_WC_LOC_QP_OP_ERR;
		memcpy(dgid.raw, &av.dgid_addr._sockaddr_in6.sin6_addr,
		       sizeof(dgid.raw));
		/* A mapped IPv4 address is not an IPv6 destination. */
		if (ipv6_addr_v4mapped((struct in6_addr *)dgid.raw))
			return IB_WC_LOC_QP_OP_ERR;
		break;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
	sattr = rdma_get_gid_attr(qp->ibqp.device, 1, av.grh.sgid_index);
	if (IS_ERR(sattr))
		return IB_WC_LOC_QP_OP_ERR;
	st = mrc_ud_dest_fill(qp, sattr, &dgid, av.grh.traffic_class,
			      av.grh.hop_limit, d);
	rdma_put_gid_attr(sattr);
	return st;
}

/* Copy the ring's WQE @u into @w and resolve its destination: the
 * completion status it deserves.
 */
static u8 mrc_ud_fetch(struct mrc_qp *qp, struct mrc_swqe *w,
		       const struct rxe_send_wqe *u, struct mrc_ud_dest *d,
		       u32 *dqpn, u32 *qkey)
{
	u32 ah_num;
	u8 st;

	memset(w, 0, offsetof(struct mrc_swqe, sge));
	w->wr_id = READ_ONCE(u->wr.wr_id);
	w->opcode = READ_ONCE(u->wr.opcode);
	w->send_flags = READ_ONCE(u->wr.send_flags);
	if (qp->state != IB_QPS_RTS)
		return IB_WC_WR_FLUSH_ERR;	/* ERR or SQE */
	/* A datagram is a SEND; everything else is RC's or UC's. */
	if (w->opcode != IB_WR_SEND && w->opcode != IB_WR_SEND_WITH_IMM)
		return IB_WC_LOC_QP_OP_ERR;
	w->imm = READ_ONCE(u->wr.ex.imm_data);
	st = mrc_req_fetch_data(qp, w, u);
	if (st != IB_WC_SUCCESS)
		return st;
	*dqpn = READ_ONCE(u->wr.wr.ud.remote_qpn);
	/* QPN 0 is no QP (connectionless probes use it). */
	if (!*dqpn || *dqpn > MRC_QPN_MASK)
		return IB_WC_LOC_QP_OP_ERR;
	*qkey = READ_ONCE(u->wr.wr.ud.remote_qkey);
	if (*qkey & MRC_UD_QKEY_QP)
		*qkey = qp->attr.qkey;
	ah_num = READ_ONCE(u->wr.wr.ud.ah_num);
	st = ah_num ? mrc_ud_dest_ah(qp, ah_num, d) :
		      mrc_ud_dest_av(qp, &u->wr.wr.ud.av, d);
	if (st != IB_WC_SUCCESS)
		return st;
	/* One packet per message: no more than the path MTU (a clean
	 * error rather than rxe's silent success, IBA C10-93.1.1).
	 */
	if (w->length > d->mtu)
		return IB_WC_LOC_LEN_ERR;
	return IB_WC_SUCCESS;
}

/* Build the datagram and queue it (sent after qp->lock is released).
 * No memory for it: lost, as a datagram may be (counted in tx_drop).
 */
static u8 mrc_ud_build(struct mrc_qp *qp, const struct mrc_swqe *w,
		       const struct mrc_ud_dest *d, u32 dqpn, u32 qkey)
{
	struct sk_buff *skb;
	struct mrc_pkt pkt;
	u8 *payload;

	mrc_pkt_init(&pkt, w->opcode == IB_WR_SEND_WITH_IMM ?
			   MRC_OP_UD_SEND_IMM : MRC_OP_UD_SEND);
	pkt.hdr.flags = MRC_F_FIRST | MRC_F_LAST;
	if (w->send_flags & IB_SEND_SOLICITED)
		pkt.hdr.flags |= MRC_F_SOLICITED;
	pkt.hdr.dqpn = dqpn;
	pkt.hdr.sqpn = mrc_qpn(qp);
	/* The QP's datagram count from sq_psn: no receiver checks it. */
	pkt.hdr.psn = qp->ssn_next++;
	pkt.hdr.plane = 1;
	pkt.hdr.ts = (u32)mrc_now();
	pkt.u.ud.qkey = qkey;
	if (pkt.hdr.opcode == MRC_OP_UD_SEND_IMM)
		pkt.u.ud.imm = be32_to_cpu(w->imm);
	pkt.payload_len = w->length;
	skb = mrc_net_alloc(qp, &pkt, &payload);
	if (!skb)
		return IB_WC_SUCCESS;
	if (w->length && (w->send_flags & IB_SEND_INLINE)) {
		memcpy(payload, w->inline_data, w->length);
	} else if (w->length &&
		   mrc_sge_copy(qp->mdev, &qp->pd->ibpd, w->sge, w->num_sge,
				0, payload, w->length, MRC_FROM_MR)) {
		kfree_skb(skb);
		return IB_WC_LOC_PROT_ERR;
	}
	*mrc_ud_cb(skb) = *d;
	mrc_net_queue(qp, skb);
	return IB_WC_SUCCESS;
}

/**
 * mrc_ud_doorbell - send the new WQEs of a UD QP's send ring
 * @qp: the UD QP, its lock held
 *
 * Every WQE is taken, sent and completed here, in ring order: a UD send
 * completes once its packet is queued.  A WQE that fails a check
 * completes with its status and moves the QP to SQE (IBA 10.3.1: a send
 * queue error of a UD QP leaves its receive side working); in SQE and
 * ERR every WQE completes as flushed.
 */
void mrc_ud_doorbell(struct mrc_qp *qp)
{
	u32 prod = mrc_queue_user_producer(&qp->sq);
	u32 n = mrc_queue_count(&qp->sq, prod, qp->sq.index);
	struct ib_uverbs_wc wc;
	struct mrc_ud_dest d;
	struct mrc_swqe *w;
	bool post;
	u32 dqpn = 0, qkey = 0;
	u8 st;

	lockdep_assert_held(&qp->lock);

	/* n is at most the ring's size whatever the user wrote. */
	while (n--) {
		w = &qp->swqe[qp->sq.index];
		st = mrc_ud_fetch(qp, w, mrc_queue_addr(&qp->sq, qp->sq.index),
				  &d, &dqpn, &qkey);
		if (st == IB_WC_SUCCESS)
			st = mrc_ud_build(qp, w, &d, dqpn, qkey);
		if (st != IB_WC_SUCCESS && st != IB_WC_WR_FLUSH_ERR)
			qp->state = IB_QPS_SQE;
		post = qp->sq_sig_all || (w->send_flags & IB_SEND_SIGNALED) ||
		       st != IB_WC_SUCCESS;
		if (post) {
			memset(&wc, 0, sizeof(wc));
			wc.wr_id = w->wr_id;
			wc.status = st;
			wc.opcode = IB_UVERBS_WC_SEND;
			wc.byte_len = st == IB_WC_SUCCESS ? w->length : 0;
			wc.qp_num = mrc_qpn(qp);
		}
		/* The slot is free before its completion is seen. */
		mrc_queue_set_consumer(&qp->sq, qp->sq.index + 1);
		if (post && mrc_cq_post(qp->scq, &wc, false))
			qp->pending_error = true;	/* overrun */
	}
	/* Nothing is outstanding: the RC bookkeeping stays empty. */
	qp->sq_fetch = qp->sq.index;
	qp->sq_post = qp->sq.index;
}

/* Send a datagram queued by mrc_ud_build(), after qp->lock is released,
 * on plane 1: through the source GID's netdev (the instance's) toward
 * the address vector's address.  The route is looked up per packet (the
 * destination differs per WQE); the UDP source port is fixed per pair of
 * QPs so that a flow stays on one ECMP path.
 */
void mrc_ud_xmit(struct mrc_qp *qp, struct sk_buff *skb)
{
	struct mrc_ud_dest d = *mrc_ud_cb(skb);
	struct mrc_qp_plane pl = {};
	struct mrc_qp_ev ev = {};
	struct mrc_xmit x = {
		.mn = qp->mnet, .mdev = qp->mdev, .ipv6 = d.ipv6,
		.format = MRC_EV_FMT_UDP, .tos = d.tos, .ttl = d.ttl,
		.plane_id = 1, .pl = &pl, .ev = &ev,
	};
	const u8 *hdr = skb->data;
	u32 flow;

	/* No dst_cache: mrc_net_send() looks the route up. */
	pl.oif = d.oif;
	pl.valid = true;
	if (d.ipv6) {
		pl.daddr.v6.sin6_family = AF_INET6;
		pl.daddr.v6.sin6_addr = d.daddr;
		pl.saddr.v6.sin6_family = AF_INET6;
		pl.saddr.v6.sin6_addr = d.saddr;
	} else {
		pl.daddr.v4.sin_family = AF_INET;
		pl.daddr.v4.sin_addr.s_addr = d.daddr.s6_addr32[0];
		pl.saddr.v4.sin_family = AF_INET;
		pl.saddr.v4.sin_addr.s_addr = d.saddr.s6_addr32[0];
	}
	/* dqpn and sqpn of the MRC header, which the skb starts with. */
	flow = get_unaligned_be32(hdr + 4) ^ get_unaligned_be32(hdr + 8);
	ev.sport = htons(0xc000 | (hash_32(flow, 14)));
	mrc_net_send(&x, skb);
}

/* The states in which a QP's receive side works (IBA 10.3.1). */
static bool mrc_ud_can_receive(enum ib_qp_state s)
{
	return s == IB_QPS_RTR || s == IB_QPS_RTS || s == IB_QPS_SQD ||
	       s == IB_QPS_SQE;
}

static u32 mrc_ud_rq_max_sge(const struct mrc_qp *qp)
{
	return ((1U << qp->rq.log2_elem_size) - sizeof(struct rxe_recv_wqe)) /
	       sizeof(struct rxe_sge);
}

/* The GRH that lands in front of the payload: the IPv6 header, or for
 * IPv4 20 zero bytes and the IPv4 header (RoCEv2's rule, as rxe).
 */
static void mrc_ud_grh(const struct sk_buff *skb, u8 *grh)
{
	memset(grh, 0, MRC_UD_GRH_LEN);
	if (skb->protocol == htons(ETH_P_IPV6))
		memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
	else
		memcpy(grh + MRC_UD_GRH_LEN - sizeof(struct iphdr),
		       ip_hdr(skb), sizeof(struct iphdr));
}

/* Place the datagram @pkt into the receive WQE @rw; its status. */
static u8 mrc_ud_place(struct mrc_qp *qp, struct mrc_rwqe *rw,
		       const struct mrc_pkt *pkt, const struct sk_buff *skb)
{
	u8 grh[MRC_UD_GRH_LEN];
	struct mrc_xfer x;

	lockdep_assert_held(&qp->lock);

	if (rw->status != IB_WC_SUCCESS) {
		qp->pending_error = true;	/* a malformed WQE: ours */
		return rw->status;
	}
	/* Too small for what arrived: this receive fails, the QP goes on
	 * (the sender, not the QP's owner, chose the size).
	 */
	if ((u64)MRC_UD_GRH_LEN + pkt->payload_len > rw->length)
		return IB_WC_LOC_LEN_ERR;
	mrc_ud_grh(skb, grh);
	if (mrc_sge_copy(qp->mdev, &qp->pd->ibpd, rw->sge, rw->num_sge, 0,
			 grh, sizeof(grh), MRC_TO_MR))
		goto prot;
	if (!pkt->payload_len)
		return IB_WC_SUCCESS;
	mrc_qp_rx_src(qp, pkt, &x);
	if (mrc_sge_xfer(qp->mdev, &qp->pd->ibpd, rw->sge, rw->num_sge,
			 MRC_UD_GRH_LEN, &x, pkt->payload_len))
		goto prot;
	return IB_WC_SUCCESS;
prot:
	qp->pending_error = true;	/* a bad lkey in our WQE */
	return IB_WC_LOC_PROT_ERR;
}

/* The RoCE packet type of a datagram in its user completion's sl, as
 * mlx5 NICs report it (RoCE has no SL): bit 3 "has a UDP header", bits
 * 2:0 the L3 header, 1 IPv6, 2 IPv4.  The user ABI's completion has no
 * network header type, and UCX's UD transport reads this to know how
 * much of the GRH is a destination address: with 0 it takes an IPv4
 * datagram's GRH for IPv6 and drops every one.  Kernel consumers get
 * the type from the GRH (ib_get_net_type_by_grh()) and sl 0, as before.
 */
static u8 mrc_ud_roce_pkt_type(const struct sk_buff *skb)
{
	return 0x8 | (skb->protocol == htons(ETH_P_IPV6) ? 0x1 : 0x2);
}

/**
 * mrc_ud_rx - a UD_SEND or UD_SEND_IMM packet for @qp (softirq)
 * @qp: the QP the destination QPN names, referenced
 * @pkt: the decoded packet
 * @skb: the packet (its IP header is the GRH; a paged payload stays in it)
 *
 * Dropped and counted in rx_ud_drop unless @qp is a UD QP that can
 * receive, the Q_Key is its own and a receive WQE is posted; then it
 * completes that WQE at once.
 */
void mrc_ud_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
	       const struct sk_buff *skb)
{
	struct ib_uverbs_wc wc = {};
	struct mrc_rwqe *rw;
	u32 idx;
	u8 st;

	spin_lock_bh(&qp->lock);
	if (!mrc_qp_is_ud(qp) || !mrc_ud_can_receive(qp->state) ||
	    pkt->u.ud.qkey != qp->attr.qkey ||
	    !mrc_queue_count(&qp->rq, mrc_queue_user_producer(&qp->rq),
			     qp->rq.index)) {
		mrc_count(qp->mdev, MRC_CNT_UD_DROP, 1);
		goto out;
	}
	idx = qp->rq.index;
	rw = &qp->rwqe[idx];
	mrc_rwqe_fetch(rw, mrc_queue_addr(&qp->rq, idx),
		       mrc_ud_rq_max_sge(qp), 0);
	qp->rx_skb = skb;
	st = mrc_ud_place(qp, rw, pkt, skb);
	qp->rx_skb = NULL;

	wc.wr_id = rw->wr_id;
	wc.status = st;
	wc.opcode = IB_WC_RECV;
	wc.qp_num = mrc_qpn(qp);
	wc.src_qp = pkt->hdr.sqpn;
	wc.port_num = 1;
	if (st == IB_WC_SUCCESS) {
		wc.byte_len = MRC_UD_GRH_LEN + pkt->payload_len;
		wc.wc_flags = IB_WC_GRH;
		if (!mrc_qp_is_kernel(qp))
			wc.sl = mrc_ud_roce_pkt_type(skb);
		if (pkt->hdr.opcode == MRC_OP_UD_SEND_IMM) {
			wc.wc_flags |= IB_WC_WITH_IMM;
			wc.ex.imm_data = cpu_to_be32(pkt->u.ud.imm);
		}
	}
	rw->bound = false;
	mrc_queue_set_consumer(&qp->rq, idx + 1);
	if (mrc_cq_post(qp->rcq, &wc, pkt->hdr.flags & MRC_F_SOLICITED))
		qp->pending_error = true;	/* CQ overrun */
	if (qp->pending_error)
		mrc_qp_kick(qp);		/* to ERR, flushing */
out:
	mrc_qp_unlock_xmit(qp);
}
