// SPDX-License-Identifier: GPL-2.0-only
/*
 * The wire side of the data path.
 *
 * Each network namespace with at least one instance has one UDP tunnel
 * socket on the MRC port.  Its encap_rcv callback runs in softirq for
 * every datagram: decode and ICRC check, find the QP by destination QPN,
 * check that the packet comes from that QP's peer, hand it to the engine.
 * A data packet a switch trimmed (the trimmed DSCP, the payload cut) has
 * no ICRC to check: its headers are decoded as such and the engine is
 * told (MRC_RX_TRIMMED), which NACKs it for a resend.
 * Whatever fails is counted (per namespace before a QP is known, per
 * instance after) and dropped.
 *
 * Transmit: the engine's packets are encoded into skbs while the QP lock
 * is held (queued on qp->txq) and routed and sent after it is released,
 * through udp_tunnel_xmit_skb() from the namespace's socket.  Headers are
 * in the skb's head; a payload of MRC_ZC_MIN bytes or more is a list of
 * page references into the MR (no copy), and its ICRC a frag after it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <linux/seg6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "icrc.h"
#include "qp.h"

/* Room for the link layer, IPv6 (or IPv4) and UDP in front of the MRC
 * headers.
 */
#define MRC_SKB_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
				 MRC_SRH_LEN + sizeof(struct udphdr))
/* A one-segment SRH (SRV6 EVs of 32 bytes). */
#define MRC_SRH_LEN		(sizeof(struct ipv6_sr_hdr) + \
				 sizeof(struct in6_addr))

/* What mrc_net_xmit() needs of a queued skb, kept in skb->cb. */
struct mrc_skb_cb {
	u16 ev;
	u8 plane;
};

static struct mrc_skb_cb *mrc_skb_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mrc_skb_cb) > sizeof(skb->cb));
	return (struct mrc_skb_cb *)skb->cb;
}

static int mrc_udp_encap_recv(struct sock *sk, struct sk_buff *skb);

static int mrc_net_sock_open(struct mrc_net *mn, int family,
			     struct socket **sockp)
{
	struct udp_tunnel_sock_cfg tcfg = {};
	struct udp_port_cfg cfg = {};
	int err;

	cfg.family = family;
	if (family == AF_INET6) {
		cfg.local_ip6 = in6addr_any;
		cfg.ipv6_v6only = 1;
	} else {
		cfg.local_ip.s_addr = htonl(INADDR_ANY);
	}
	cfg.local_udp_port = htons(mrc_udp_port);
	err = udp_sock_create(mn->net, &cfg, sockp);
	if (err)
		return err;
	tcfg.encap_type = 1;
	tcfg.encap_rcv = mrc_udp_encap_recv;
	tcfg.sk_user_data = mn;
	setup_udp_tunnel_sock(mn->net, *sockp, &tcfg);
	return 0;
}

int mrc_net_sock_get(struct mrc_net *mn)
{
	int err;

	lockdep_assert_held(&mrc_cfg_lock);
	if (mn->sock_users++)
		return 0;
	err = mrc_net_sock_open(mn, AF_INET, &mn->sock4);
	if (err)
		goto err;
	/* IPv6 may be disabled (ipv6.disable=1): IPv4 peers still work,
	 * an IPv6 address vector is refused at RTR.
	 */
	if (ipv6_mod_enabled()) {
		err = mrc_net_sock_open(mn, AF_INET6, &mn->sock6);
		if (err) {
			udp_tunnel_sock_release(mn->sock4);
			mn->sock4 = NULL;
			goto err;
		}
	}
	return 0;
err:
	mn->sock_users--;
	return err;
}

void mrc_net_sock_put(struct mrc_net *mn)
{
	lockdep_assert_held(&mrc_cfg_lock);
	if (--mn->sock_users)
		return;
	udp_tunnel_sock_release(mn->sock4);
	mn->sock4 = NULL;
	if (mn->sock6)
		udp_tunnel_sock_release(mn->sock6);
	mn->sock6 = NULL;
}

static void mrc_net_drop(struct mrc_net *mn, enum mrc_net_counter c)
{
	atomic64_inc(&mn->rx_drop[c]);
}

/* The QP's peer sent it: its QPN, and its address on the plane the
 * packet names (set at RTR from the route or the address vector).
 */
static bool mrc_net_from_peer(const struct mrc_qp *qp,
			      const struct sk_buff *skb,
			      const struct mrc_pkt *pkt)
{
	return pkt->hdr.sqpn == qp->attr.dest_qp_num &&
	       mrc_qp_paths_from_peer(qp, skb, pkt->hdr.plane);
}

static bool mrc_net_ecn_ce(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IPV6))
		return INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
	return INET_ECN_is_ce(ip_hdr(skb)->tos);
}

static void mrc_net_count_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			     u32 len)
{
	struct mrc_plane *plane;

	mrc_count(qp->mdev, MRC_CNT_RX_PKTS, 1);
	mrc_count(qp->mdev, MRC_CNT_RX_BYTES, len);
	plane = rcu_dereference(qp->mdev->planes[pkt->hdr.plane]);
	if (plane) {
		atomic64_inc(&plane->rx_pkts);
		atomic64_add(len, &plane->rx_bytes);
	}
}

/* The ICRC state over @len bytes of @skb from @off: its head and page
 * frags, read in place (no frag list: the caller linearized those).
 */
static u32 mrc_net_icrc_skb(const struct sk_buff *skb, u32 off, u32 len)
{
	u32 s = mrc_icrc_init(), n, start = skb_headlen(skb), i;

	if (off < start) {
		n = min(len, start - off);
		s = mrc_icrc_update(s, skb->data + off, n);
		off += n;
		len -= n;
	}
	for (i = 0; len && i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];
		u32 end = start + skb_frag_size(f), p_off, p_len, copied;
		struct page *p;
		u8 *va;

		if (off < end) {
			n = min(len, end - off);
			skb_frag_foreach_page(f, skb_frag_off(f) + off - start,
					      n, p, p_off, p_len, copied) {
				va = kmap_local_page(p);
				s = mrc_icrc_update(s, va + p_off, p_len);
				kunmap_local(va);
			}
			off += n;
			len -= n;
		}
		start = end;
	}
	return mrc_icrc_final(s);
}

/* Decode the MRC packet after the UDP header.  A linear skb is decoded in
 * place; a paged one (a veth peer's zero-copy packet, a NIC's page
 * buffers) has its headers pulled and its ICRC run over the pages, and
 * its payload stays where it is (pkt->payload NULL: placement copies it
 * out of the skb, mrc_qp_rx()).  Frag lists (GRO) and probes, rare, are
 * linearized.
 */
static int mrc_net_rx_decode(struct sk_buff *skb, struct mrc_pkt *pkt)
{
	u32 len = skb->len - sizeof(struct udphdr), pull;
	__be32 icrc, *ip;
	int err;

	if (!skb_is_nonlinear(skb))
		goto linear;
	if (skb_has_frag_list(skb))
		goto linearize;
	pull = min_t(u32, skb->len, sizeof(struct udphdr) +
		     MRC_COMMON_HDR_LEN + MRC_MAX_DATA_EXT_LEN);
	if (!pskb_may_pull(skb, pull))
		return -MRC_WIRE_ETRUNC;
	if (!skb_is_nonlinear(skb))
		goto linear;
	err = mrc_pkt_decode_hdr(skb->data + sizeof(struct udphdr),
				 skb_headlen(skb) - sizeof(struct udphdr),
				 len, pkt);
	/* A header longer than the data opcodes' (no payload anyway). */
	if (err == -MRC_WIRE_ETRUNC)
		goto linearize;
	if (err)
		return err;
	if (!pkt->hdr.dqpn)
		goto linearize;
	ip = skb_header_pointer(skb, skb->len - MRC_ICRC_LEN, MRC_ICRC_LEN,
				&icrc);
	if (!ip || get_unaligned_be32(ip) !=
	    mrc_net_icrc_skb(skb, sizeof(struct udphdr), len - MRC_ICRC_LEN))
		return -MRC_WIRE_EICRC;
	return 0;
linearize:
	if (skb_linearize(skb))
		return -MRC_WIRE_ETRUNC;
linear:
	return mrc_pkt_decode(skb->data + sizeof(struct udphdr), len, pkt);
}

/* The DSCP of the packet's (outer) IP header. */
static int mrc_net_dscp(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IPV6))
		return ipv6_get_dsfield(ipv6_hdr(skb)) >> 2;
	return ip_hdr(skb)->tos >> 2;
}

/* A trimmed packet (Documentation/networking/mrc.rst, "Trimmed packets"):
 * the headers of a data packet, with fewer of its bytes after them than
 * the headers say, marked with the trimmed DSCP by the switch that cut
 * it.  Only the headers are pulled and read: the ICRC went with the
 * payload.  0, or a negative MRC_WIRE_E* (not trimmed, or malformed).
 */
static int mrc_net_rx_trimmed(struct sk_buff *skb, u32 len,
			      struct mrc_pkt *pkt)
{
	int dscp = READ_ONCE(mrc_trim_dscp);
	u32 pull;

	if (dscp < 0 || mrc_net_dscp(skb) != dscp)
		return -MRC_WIRE_EPAYLOAD_LEN;
	pull = min_t(u32, len, MRC_COMMON_HDR_LEN + MRC_MAX_DATA_EXT_LEN);
	if (!pskb_may_pull(skb, sizeof(struct udphdr) + pull))
		return -MRC_WIRE_ETRUNC;
	return mrc_pkt_decode_trimmed(skb->data + sizeof(struct udphdr),
				      skb_headlen(skb) - sizeof(struct udphdr),
				      len, pkt);
}

static int mrc_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct mrc_net *mn = rcu_dereference_sk_user_data(sk);
	struct mrc_pkt pkt;
	struct mrc_qp *qp;
	u32 len, flags = 0;
	int err;

	if (!mn)
		goto drop;
	len = skb->len - sizeof(struct udphdr);
	/* Not trimmed after all (a whole packet with that DSCP), or not
	 * well formed as trimmed: decoded and checked as any other.
	 */
	if (!mrc_net_rx_trimmed(skb, len, &pkt)) {
		flags |= MRC_RX_TRIMMED;
		err = 0;
	} else {
		err = mrc_net_rx_decode(skb, &pkt);
	}
	if (err) {
		mrc_net_drop(mn, err == -MRC_WIRE_EICRC ? MRC_NCNT_BAD_ICRC :
							  MRC_NCNT_MALFORMED);
		goto drop;
	}
	/* QPN 0 is no QP: connectionless probes use it. */
	if (!pkt.hdr.dqpn && mrc_probe_rx(mn, skb, &pkt)) {
		consume_skb(skb);
		return 0;
	}
	qp = mrc_qp_get(mn, pkt.hdr.dqpn);
	if (!qp) {
		mrc_net_drop(mn, MRC_NCNT_NO_QP);
		goto drop;
	}
	if (mrc_opcode_is_ud(pkt.hdr.opcode)) {
		/* A datagram: from anyone, to a UD QP (ud.c). */
		mrc_net_count_rx(qp, &pkt, len);
		mrc_ud_rx(qp, &pkt, skb);
	} else if (!mrc_net_from_peer(qp, skb, &pkt)) {
		mrc_count(qp->mdev, MRC_CNT_SPOOFED, 1);
	} else {
		mrc_net_count_rx(qp, &pkt, len);
		if (flags & MRC_RX_TRIMMED)
			mrc_count(qp->mdev, MRC_CNT_RX_TRIMMED, 1);
		if (mrc_net_ecn_ce(skb))
			flags |= MRC_RX_ECN_CE;
		mrc_qp_rx(qp, &pkt, flags, skb);
	}
	mrc_qp_put(qp);
	consume_skb(skb);
	return 0;
drop:
	kfree_skb(skb);
	return 0;
}

static struct sk_buff *mrc_net_build_len(const struct mrc_pkt *pkt, u32 body,
					 u8 **payload)
{
	int hlen = mrc_hdr_len(pkt->hdr.opcode);
	struct sk_buff *skb;
	u8 *p;

	if (hlen < 0)
		return NULL;
	skb = alloc_skb(MRC_SKB_HEADROOM + hlen + body, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, MRC_SKB_HEADROOM);
	p = skb_put(skb, hlen + body);
	if (mrc_pkt_encode_hdr(pkt, p, hlen) != hlen) {
		/* What the encoder refuses a peer would drop.  The fields
		 * come from the engine and from WQEs and requests checked
		 * at fetch and placement, so this is not expected; still no
		 * WARN: they are what a user or a peer chose.  The callers
		 * count it as a tx_drop.
		 */
		net_dbg_ratelimited("mrc: cannot encode opcode %u\n",
				    pkt->hdr.opcode);
		kfree_skb(skb);
		return NULL;
	}
	mrc_skb_cb(skb)->ev = pkt->hdr.ev;
	mrc_skb_cb(skb)->plane = pkt->hdr.plane;
	if (payload)
		*payload = p + hlen;
	return skb;
}

/* An skb with @pkt's headers encoded and room for its payload and ICRC
 * (mrc_net_seal()); NULL if no memory.
 */
struct sk_buff *mrc_net_build(const struct mrc_pkt *pkt, u8 **payload)
{
	return mrc_net_build_len(pkt, pkt->payload_len + MRC_ICRC_LEN,
				 payload);
}

/* The ICRC over everything before it: the payload is in place.  A paged
 * skb (payload in page frags) gets the ICRC in a frag of its own after
 * them; -ENOMEM if there is no memory for it.
 */
static int mrc_net_seal_paged(struct sk_buff *skb)
{
	struct page *page;
	__be32 *icrc;
	u32 n = skb->len;

	icrc = netdev_alloc_frag(MRC_ICRC_LEN);
	if (!icrc)
		return -ENOMEM;
	*icrc = cpu_to_be32(mrc_net_icrc_skb(skb, 0, n));
	page = virt_to_head_page(icrc);
	skb_fill_page_desc(skb, skb_shinfo(skb)->nr_frags, page,
			   (u8 *)icrc - (u8 *)page_address(page),
			   MRC_ICRC_LEN);
	skb->len += MRC_ICRC_LEN;
	skb->data_len += MRC_ICRC_LEN;
	skb->truesize += SKB_DATA_ALIGN(MRC_ICRC_LEN);
	/* Its pages are the user's: whoever wants to write into the
	 * packet (netem's corruption, a tc action) copies first.
	 */
	skb_shinfo(skb)->flags |= SKBFL_SHARED_FRAG;
	return 0;
}

void mrc_net_seal(struct sk_buff *skb)
{
	u32 n = skb->len - MRC_ICRC_LEN;

	put_unaligned_be32(mrc_icrc(skb->data, n), skb->data + n);
}

struct sk_buff *mrc_net_alloc(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			      u8 **payload)
{
	struct sk_buff *skb = mrc_net_build(pkt, payload);

	if (!skb)
		mrc_count(qp->mdev, MRC_CNT_TX_DROP, 1);
	return skb;
}

struct sk_buff *mrc_net_alloc_paged(struct mrc_qp *qp,
				    const struct mrc_pkt *pkt)
{
	struct sk_buff *skb = mrc_net_build_len(pkt, 0, NULL);

	if (!skb)
		mrc_count(qp->mdev, MRC_CNT_TX_DROP, 1);
	return skb;
}

void mrc_net_queue(struct mrc_qp *qp, struct sk_buff *skb)
{
	lockdep_assert_held(&qp->lock);		/* qp->txq is unlocked */

	if (!skb_is_nonlinear(skb)) {
		mrc_net_seal(skb);
	} else if (mrc_net_seal_paged(skb)) {
		mrc_count(qp->mdev, MRC_CNT_TX_DROP, 1);
		kfree_skb(skb);
		return;
	}
	__skb_queue_tail(&qp->txq, skb);
}

static void mrc_net_count_tx(struct mrc_dev *mdev, u8 plane_id, u32 len)
{
	struct mrc_plane *plane;

	if (!mdev)
		return;		/* a probe answer: no instance's traffic */
	mrc_count(mdev, MRC_CNT_TX_PKTS, 1);
	mrc_count(mdev, MRC_CNT_TX_BYTES, len);
	rcu_read_lock();
	plane = rcu_dereference(mdev->planes[plane_id]);
	if (plane) {
		atomic64_inc(&plane->tx_pkts);
		atomic64_add(len, &plane->tx_bytes);
	}
	rcu_read_unlock();
}

static void mrc_net_tx_drop(const struct mrc_xmit *x, struct sk_buff *skb)
{
	if (x->mdev)
		mrc_count(x->mdev, MRC_CNT_TX_DROP, 1);
	else
		atomic64_inc(&x->mn->probe_tx_drop);
	kfree_skb(skb);
}

static struct dst_entry *mrc_net_route6(const struct mrc_xmit *x,
					const struct mrc_qp_plane *pl,
					const struct in6_addr *daddr,
					struct in6_addr *saddr)
{
	struct sock *sk = x->mn->sock6->sk;
	struct flowi6 fl6 = {};
	struct dst_entry *dst;

	fl6.flowi6_oif = pl->oif;
	fl6.flowi6_proto = IPPROTO_UDP;
	fl6.daddr = *daddr;
	fl6.saddr = pl->saddr.v6.sin6_addr;
	/* Fills in the source address when the plane has none fixed. */
	dst = ipv6_stub->ipv6_dst_lookup_flow(sock_net(sk), sk, &fl6, NULL);
	*saddr = fl6.saddr;
	return dst;
}

/* SRV6 EV: the outer destination is the EV's SID, a 32-byte EV adds a
 * one-segment SRH (segments_left 1) that the last End node turns into
 * the peer's address.  The SID differs per EV, so the route is looked up
 * per packet.  No UDP checksum: the ICRC covers the payload and the
 * receiving socket accepts a zero checksum (RFC 6936 tunnel rule).
 */
static void mrc_net_xmit_srv6(const struct mrc_xmit *x, struct sk_buff *skb)
{
	const struct mrc_qp_plane *pl = x->pl;
	const struct mrc_qp_ev *ev = x->ev;
	struct sock *sk = x->mn->sock6->sk;
	struct ipv6_sr_hdr *srh;
	struct dst_entry *dst;
	struct in6_addr saddr;
	struct ipv6hdr *ip6h;
	struct udphdr *uh;
	u8 nexthdr = IPPROTO_UDP;

	dst = mrc_net_route6(x, pl, &ev->sid, &saddr);
	if (IS_ERR(dst)) {
		mrc_net_tx_drop(x, skb);
		return;
	}
	uh = skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh->source = ev->sport;
	uh->dest = htons(mrc_udp_port);
	uh->len = htons(skb->len);
	uh->check = 0;
	if (ev->nseg) {
		srh = skb_push(skb, MRC_SRH_LEN);
		memset(srh, 0, MRC_SRH_LEN);
		srh->nexthdr = IPPROTO_UDP;
		srh->hdrlen = sizeof(struct in6_addr) / 8;
		srh->type = IPV6_SRCRT_TYPE_4;
		srh->segments_left = 1;
		srh->first_segment = 0;
		srh->segments[0] = ev->seg;
		nexthdr = IPPROTO_ROUTING;
	}
	ip6h = skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6_flow_hdr(ip6h, x->tos | INET_ECN_ECT_0, 0);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = nexthdr;
	ip6h->hop_limit = x->ttl;
	ip6h->daddr = ev->sid;
	ip6h->saddr = saddr;
	skb->protocol = htons(ETH_P_IPV6);
	skb->ip_summed = CHECKSUM_NONE;
	skb_dst_set(skb, dst);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	ip6_local_out(sock_net(sk), sk, skb);
}

static void mrc_net_xmit6(const struct mrc_xmit *x, struct sk_buff *skb)
{
	struct mrc_qp_plane *pl = x->pl;
	const struct mrc_qp_ev *ev = x->ev;
	struct socket *sock = x->mn->sock6;
	struct in6_addr saddr;
	struct dst_entry *dst;

	dst = dst_cache_get_ip6(&pl->dst_cache, &saddr);
	if (!dst) {
		dst = mrc_net_route6(x, pl, &pl->daddr.v6.sin6_addr, &saddr);
		if (IS_ERR(dst)) {
			mrc_net_tx_drop(x, skb);
			return;
		}
		dst_cache_set_ip6(&pl->dst_cache, dst, &saddr);
	}
	/* No device: it would charge the tunnel statistics of a device
	 * that is no tunnel (the plane's netdev counts the packet itself).
	 * The flow label carries STEV's upper bits; IPv6 wants a UDP
	 * checksum (RFC 8200), which veth and NICs offload.
	 */
	udp_tunnel6_xmit_skb(dst, sock->sk, skb, NULL, &saddr,
			     &pl->daddr.v6.sin6_addr,
			     x->tos | INET_ECN_ECT_0, x->ttl, ev->flowlabel,
			     ev->sport, htons(mrc_udp_port), false);
}

static void mrc_net_xmit4(const struct mrc_xmit *x, struct sk_buff *skb)
{
	struct mrc_qp_plane *pl = x->pl;
	const struct mrc_qp_ev *ev = x->ev;
	struct socket *sock = x->mn->sock4;
	struct flowi4 fl4 = {};
	struct rtable *rt;

	fl4.daddr = pl->daddr.v4.sin_addr.s_addr;
	/* The route is looked up once per plane and cached (invalidated
	 * when it goes stale): a lookup per packet costs as much as
	 * building it.
	 */
	rt = dst_cache_get_ip4(&pl->dst_cache, &fl4.saddr);
	if (!rt) {
		fl4.flowi4_oif = pl->oif;
		fl4.flowi4_proto = IPPROTO_UDP;
		fl4.saddr = pl->saddr.v4.sin_addr.s_addr;
		rt = ip_route_output_key(sock_net(sock->sk), &fl4);
		if (IS_ERR(rt)) {
			mrc_net_tx_drop(x, skb);
			return;
		}
		dst_cache_set_ip4(&pl->dst_cache, &rt->dst, fl4.saddr);
	}
	/* ECT(0): routers mark congestion instead of dropping.  The ICRC
	 * covers the payload, so the UDP checksum is left out.
	 */
	udp_tunnel_xmit_skb(rt, sock->sk, skb, fl4.saddr, fl4.daddr,
			    x->tos | INET_ECN_ECT_0, x->ttl, htons(IP_DF),
			    ev->sport, htons(mrc_udp_port), false, true);
}

/**
 * mrc_net_send - send one packet (headers and ICRC built) on a path
 * @x: the path: plane, EV, addresses and IP fields
 * @skb: the packet; consumed
 *
 * Counted on the instance and plane; dropped (and counted) when no route.
 */
void mrc_net_send(const struct mrc_xmit *x, struct sk_buff *skb)
{
	mrc_net_count_tx(x->mdev, x->plane_id, skb->len);
	if (!x->ipv6)
		mrc_net_xmit4(x, skb);
	else if (x->format == MRC_EV_FMT_SRV6)
		mrc_net_xmit_srv6(x, skb);
	else
		mrc_net_xmit6(x, skb);
}

/* Send one packet on the plane and EV the engine chose for it. */
void mrc_net_xmit(struct mrc_qp *qp, struct sk_buff *skb)
{
	struct mrc_skb_cb *cb = mrc_skb_cb(skb);
	struct mrc_qp_paths *paths;
	struct mrc_xmit x = {
		.mn = qp->mnet, .mdev = qp->mdev, .ipv6 = qp->ipv6,
		.tos = qp->tos, .ttl = qp->ttl, .plane_id = cb->plane,
	};

	if (mrc_qp_is_ud(qp)) {
		mrc_ud_xmit(qp, skb);	/* its destination is in the cb */
		return;
	}
	/* The table published now, whole (qp->paths): a packet built
	 * before a route change leaves by the new one's plane and EV of
	 * its numbers, or is dropped when they name none; the engine
	 * resends it either way (mrc_conn_replace_evs()).
	 */
	rcu_read_lock();
	paths = rcu_dereference(qp->paths);
	x.format = paths->format;
	if (!cb->plane || cb->plane > MRC_MAX_PLANES ||
	    cb->ev >= paths->n_evs || !paths->plane[cb->plane].valid) {
		mrc_net_tx_drop(&x, skb);
	} else {
		x.pl = &paths->plane[cb->plane];
		x.ev = &paths->ev[cb->ev];
		mrc_net_send(&x, skb);
	}
	rcu_read_unlock();
}
