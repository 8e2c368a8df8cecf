/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RC queue pairs: the verbs object, its kernel copies of work requests and
 * the per-QP engine connection that carries them.
 *
 *   qp.c     create / modify (state machine) / query / destroy, doorbell
 *   req.c    requester: send queue -> engine messages, in-order send
 *            completions, READ and ATOMIC responses
 *   resp.c   responder: placement of arriving packets (SEND into receive
 *            WQEs, WRITE/READ/ATOMIC against MRs), in-order completions,
 *            READ/ATOMIC execution
 *   net.c    UDP tunnel socket per netns, packet build and transmit,
 *            receive and dispatch by destination QPN
 *
 * Every function here that touches a QP's mutable state runs with
 * qp->lock held (spin_lock_bh), which also serialises all calls into the
 * QP's struct mrc_conn as the engine requires.  Packets built under the
 * lock are queued on qp->txq and sent after it is released.
 */
#ifndef _NET_MRC_QP_H
#define _NET_MRC_QP_H

#include <net/dst_cache.h>

#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "ev_profile.h"
#include "verbs.h"

/* READ/ATOMIC responses a responder keeps (queued or unacknowledged). */
#define MRC_RESP_SLOTS		32
/* Engine messages reserved for responses: requests never take them all. */
#define MRC_REQ_MSGS		(MRC_MAX_MSGS - MRC_RESP_SLOTS)
/* Packets one call of the transmit pump builds before yielding. */
#define MRC_TX_BUDGET		64

/* Kernel copy of a send WQE, taken at doorbell time: the shared ring can
 * change under us at any moment, this cannot.
 */
enum mrc_swqe_state {
	MRC_SWQE_FETCHED = 0,	/* copied, not yet given to the engine */
	MRC_SWQE_POSTED,	/* an engine message */
	MRC_SWQE_DONE,		/* ready to complete (status set) */
};

struct mrc_swqe {
	u64 wr_id;
	u64 remote_addr;
	u64 compare_add;
	u64 swap;
	u64 atomic_orig;	/* ATOMIC: value returned by the responder */
	u32 opcode;		/* IB_WR_* (same values as the user ABI) */
	u32 send_flags;		/* IB_SEND_* */
	__be32 imm;
	u32 inv_rkey;		/* SEND_WITH_INV: the peer's key to invalidate */
	u32 rkey;
	u32 length;		/* message bytes */
	u32 num_sge;		/* 0 with IB_SEND_INLINE */
	u32 seq;		/* SEND/WRITE_IMM: ssn; READ/ATOMIC: rsn */
	u8 state;		/* enum mrc_swqe_state */
	u8 status;		/* enum ib_wc_status once DONE */
	bool acked;		/* engine: request acknowledged */
	bool resp_done;		/* READ/ATOMIC: response complete */
	bool resp_last;		/* READ/ATOMIC: its LAST packet placed */
	union {
		struct rxe_sge sge[MRC_MAX_SGE];
		u8 inline_data[MRC_MAX_INLINE];
	};
};

/* Kernel copy of a receive WQE, taken when a SEND (or WRITE_IMM) first
 * binds it.
 */
struct mrc_rwqe {
	u64 wr_id;
	u32 length;		/* sum of the SGE lengths */
	u32 num_sge;
	u32 ssn;		/* the message bound to it */
	bool bound;
	u8 status;		/* IB_WC_SUCCESS or the placement error */
	struct rxe_sge sge[MRC_MAX_SGE];
};

/* What the last packet of an arriving message said, for the in-order
 * completion that follows (indexed by PSN modulo MRC_MAX_WINDOW).
 */
struct mrc_inmsg {
	u64 va;			/* READ/ATOMIC: responder address */
	u64 swap_add;
	u64 compare;
	u32 rkey;		/* READ/ATOMIC; SEND_INV: the key to invalidate */
	u32 len;		/* message length */
	u32 seq;		/* ssn or rsn */
	__be32 imm;
	u8 opcode;		/* enum mrc_opcode */
	u8 solicited;
	u8 status;		/* 0, or the IB_WC_* the receive completes with */
	u8 dropped;		/* UC: the message was dropped (no WQE) */
};

/* A READ or ATOMIC response the responder owes. */
struct mrc_resp {
	struct mrc_mr *mr;	/* READ: reference held until acknowledged
				 * or until the MR is deregistered
				 */
	u64 va;
	u64 orig;		/* ATOMIC: original value */
	u32 len;
	u32 rsn;
	u8 opcode;		/* MRC_OP_READ_RESP / MRC_OP_ATOMIC_RESP */
};

union mrc_sockaddr {
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
};

/* Where a QP's packets go on one plane. */
struct mrc_qp_plane {
	union mrc_sockaddr daddr;	/* the peer's address on the plane */
	union mrc_sockaddr saddr;	/* plane 1: the GID's; else routing's */
	int oif;			/* the plane's netdev */
	bool valid;			/* the route (or the AV) names it */
	/* Not ours to send on any more (it left the route), but the peer,
	 * whose own route may still use it, is known there by daddr: its
	 * packets are accepted (mrc_qp_paths_from_peer()).
	 */
	bool rx_only;
	struct dst_cache dst_cache;	/* route to daddr; per CPU, BH off */
};

/* How one EV appears in the outer headers (proto/ev_profile.h). */
struct mrc_qp_ev {
	__be16 sport;			/* UDP source port */
	__be32 flowlabel;		/* STEV: IPv6 flow label; else 0 */
	u8 nseg;			/* SRV6: 1 with an SRH segment */
	struct in6_addr sid;		/* SRV6: outer IPv6 destination */
	struct in6_addr seg;		/* SRV6: the SRH's segment */
	u8 len;				/* of value */
	u8 value[MRC_EV_MAX_LEN];	/* as the profile gave it: events */
};

/* One path table of a QP (qp->paths).  Built whole in process context,
 * then published; never changed in place once published, except:
 *   - dst_cache, which is per CPU and safe with BH off;
 *   - plane[].oif of a plane attached again to another netdev (one int,
 *     WRITE_ONCE() under qp->lock, mrc_qp_plane_changed()).
 * A route change (mrc_qp_repath_*()) and an EV replace on live QPs
 * (mrc_qp_ev_changed()) build a new table and swap it.
 */
struct mrc_qp_paths {
	struct rcu_head rcu;		/* freed after the readers of a swap */
	u8 format;			/* enum mrc_ev_format */
	u16 n_evs;
	u16 route_planes;		/* bit p - 1: plane p is used (a hop) */
	u32 ev_profile;			/* the profile the EVs came from */
	u32 cc_profile;			/* the CC profile the engine runs */
	u32 event_mask;			/* MRC_EV_EVT_*: EV events wanted */
	struct mrc_qp_plane plane[MRC_MAX_PLANES + 1];	/* [0] unused */
	struct mrc_qp_ev ev[MRC_MAX_EVS];
};

/* What RTR needs and may only be found in process context (the route
 * table and the profiles sleep): gathered before qp->lock is taken.
 */
struct mrc_qp_path_prep {
	struct mrc_route_info route;
	bool has_route;
	u8 format;
	u16 n_evs;
	u16 min_active;
	u32 ev_profile;
	u32 event_mask;
	u16 ev_planes;			/* bit p - 1: an EV of plane p */
	bool direct;			/* no route: ev_planes to the GID */
	int oif[MRC_MAX_PLANES + 1];	/* plane netdevs, 0 if detached */
	bool plane_up[MRC_MAX_PLANES + 1];
	u16 up_mask;			/* bit p - 1: plane p is up */
	u32 cc_profile;			/* the CC profile (0: built-in) */
	struct mrc_nscc_params cc;	/* its parameters */
	struct mrc_ev evs[MRC_MAX_EVS];
	struct mrc_ev_cfg cfg[MRC_MAX_EVS];
	u32 route_gen;			/* mdev->route_gen it was built from */
	/* The table to publish (mrc_qp_paths_prepare() allocates it,
	 * installing takes it; mrc_qp_path_prep_free() frees what is left).
	 */
	struct mrc_qp_paths *paths;
};

/* The MRC attributes of a QP (uverbs_mrc.c, include/uapi/rdma/mrc-abi.h);
 * under qp->lock.  Profile ids are read before the lock at RTR (they only
 * change in RESET).
 */
struct mrc_qp_mrc {
	u32 set;			/* MRC_IB_QP_* set by the user */
	u32 flags;			/* MRC_IB_QP_F_* */
	u32 ev_profile;			/* with MRC_IB_QP_EV_PROFILE set */
	u32 cc_profile;			/* with MRC_IB_QP_CC_PROFILE set */
	u32 cap;			/* MRC_IB_QP_CAP_* */
	u16 max_wimm;
	u16 max_wimm_dest;
	u8 mpr;				/* the peer's window: our flight */
	u8 mpr_dest;			/* our receive window */
	u8 timeout;
	u8 retry_linear;
	u8 retry_exp;
};

/* mrc_paths_prepare(): no EV profile override, the route's. */
#define MRC_PATHS_ROUTE_PROFILE		U32_MAX

struct mrc_qp {
	struct ib_qp ibqp;
	struct mrc_dev *mdev;		/* const */
	struct mrc_net *mnet;		/* const */
	/* const: never reused while the module is loaded; names the QP a
	 * type 2 memory window is bound to (mw.c).
	 */
	u64 uid;
	refcount_t ref;			/* receive path lookups + 1 */
	struct completion released;

	spinlock_t lock;		/* everything below that is not const */
	enum ib_qp_state state;
	struct ib_qp_attr attr;		/* as modified and queried */
	bool sq_draining;		/* SQD requested */
	bool pending_error;		/* move to ERR once out of the engine */
	/* The affiliated asynchronous event (IBA 11.6.3) of the error that
	 * ends the QP: chosen by its first cause (mrc_qp_fail()), due when
	 * the QP enters ERR by an error of its own (not by modify_qp),
	 * raised once, after qp->lock is released (mrc_qp_unlock_xmit()).
	 */
	enum ib_event_type err_event;
	bool err_event_due;
	bool dying;			/* destroy_qp: do not re-arm the timer */

	struct mrc_pd *pd;		/* const */
	struct mrc_cq *scq;		/* const */
	struct mrc_cq *rcq;		/* const */
	struct list_head rcq_node;	/* in rcq->rq_qps; rcq->rq_qps_lock */
	u32 sq_sig_all;			/* const */
	kuid_t owner;			/* const: creator's euid (conn dump) */
	u32 max_sge;			/* const */
	u32 max_inline;			/* const */
	/* const: a kernel consumer's QP (no udata at create): its rings
	 * are never mapped, the kernel produces into them (kverbs.c).
	 */
	bool kernel;

	/* Send queue: ring shared with the provider, kernel copies. */
	struct mrc_queue sq;
	struct mrc_swqe *swqe;		/* index_mask + 1 entries */
	u32 sq_fetch;			/* next ring index to copy */
	u32 sq_post;			/* next copy to give to the engine */
	u32 ssn_next;			/* SEND / WRITE_IMM sequence */
	u32 rsn_next;			/* READ / ATOMIC sequence */
	u32 rsn_done;			/* oldest READ/ATOMIC without response */
	u32 rd_slot[MRC_MAX_RD_ATOMIC];	/* rsn -> swqe ring index */
	u32 req_msgs;			/* requests inside the engine */

	/* Receive queue: its own ring, or the SRQ's (then rq has none). */
	struct mrc_queue rq;
	struct mrc_rwqe *rwqe;		/* rwqe_num entries */
	u32 rwqe_num;			/* const: rq slots, or
					 * MRC_SRQ_QP_SLOTS with an SRQ
					 */
	u32 rq_ssn;			/* ssn of the oldest receive due */
	struct mrc_srq *srq;		/* const; NULL without an SRQ */
	bool srq_limit_due;		/* raise SRQ_LIMIT after the lock */
	bool last_wqe_due;		/* raise QP_LAST_WQE_REACHED so */
	bool last_wqe_done;		/* raised since RESET */
	/* UC: messages rq_ssn.. that were dropped (no receive WQE, or a
	 * refused WRITE_WITH_IMM), bit ssn % MRC_MAX_MSGS, until their
	 * in-order completion retires them; uc_drops of them are set.
	 * uc_bind_next is one past the newest ssn that bound a WQE.
	 */
	DECLARE_BITMAP(uc_drop, MRC_MAX_MSGS);
	u32 uc_drops;
	u32 uc_bind_next;

	/* Responder. */
	struct mrc_inmsg *inmsg;	/* MRC_MAX_WINDOW entries */
	struct mrc_resp resp[MRC_RESP_SLOTS];
	u32 resp_head;			/* oldest unacknowledged response */
	u32 resp_tail;			/* next free slot */
	u32 resp_queued;		/* next slot to give to the engine */
	u32 resp_reserved;		/* READ/ATOMIC placed, not completed */

	/* The address vector of RTR: the peer's plane-1 address. */
	union mrc_sockaddr daddr, saddr;
	bool ipv6;
	int oif;			/* ifindex of the source GID's netdev */
	u8 tos;
	u8 ttl;
	/* Every plane and EV the connection sprays over (qp_path.c).
	 * Published with rcu_assign_pointer() under qp->lock (at RTR, and
	 * on a route change under mrc_cfg_lock as well); the old table is
	 * freed after an RCU grace period (call_rcu()).  Read under qp->lock
	 * (mrc_qp_paths()) or in an RCU read-side section: the receive path
	 * (softirq) and mrc_net_xmit() after the lock is dropped.  Never NULL
	 * from create to destroy.
	 */
	struct mrc_qp_paths __rcu *paths;
	/* The event mask of EV set installs that are news (a live QP
	 * moving), 0 otherwise: MRC_EVR_CONFIG events are not news at RTR.
	 */
	u32 repath_event_mask;

	struct mrc_qp_mrc mrc;		/* MRC attributes */
	u32 wimm_inflight;		/* WRITE_IMM in the engine, unacked */
	u32 wimm_inflight_max;		/* ... most at once since RESET */

	struct mrc_conn *conn;		/* kvzalloc(mrc_conn_size()) */
	bool conn_ready;		/* RTR reached: conn initialised */
	struct hrtimer timer;		/* engine deadline, or "pump again" */
	struct sk_buff_head txq;	/* built under lock, sent after */
	/* The packet mrc_qp_rx() hands to the engine, while it does: a
	 * paged one's payload is copied out of it at placement.
	 */
	const struct sk_buff *rx_skb;
};

static inline struct mrc_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mrc_qp, ibqp);
}

static inline u32 mrc_qpn(const struct mrc_qp *qp)
{
	return qp->ibqp.qp_num;
}

/* qp.c */
struct mrc_qp *mrc_qp_get(struct mrc_net *mn, u32 qpn);
void mrc_qp_put(struct mrc_qp *qp);
void mrc_qp_for_each(struct mrc_dev *mdev,
		     void (*fn)(struct mrc_qp *qp, void *arg), void *arg);

/* datapath.c */
extern const struct mrc_conn_ops mrc_qp_conn_ops;
u64 mrc_now(void);
/* With qp->lock held, state already ERR: abort the connection and flush
 * every outstanding work request with completions.  Idempotent.
 */
void mrc_qp_error(struct mrc_qp *qp);
void mrc_qp_fail(struct mrc_qp *qp, enum ib_event_type event);
/* With qp->lock held: handle a pending error, post what the engine
 * allows, complete what is done, re-arm the timer.
 */
void mrc_qp_kick(struct mrc_qp *qp);
/* The same with the time already read (clock reads are not free). */
void mrc_qp_kick_at(struct mrc_qp *qp, u64 now);
/* Release qp->lock (taken with spin_lock_bh) and send the packets built
 * under it.
 */
void mrc_qp_unlock_xmit(struct mrc_qp *qp) __releases(&qp->lock);
/* qp->lock for a kernel consumer's call, which may come with IRQs off
 * (ib_mad posts its sends under its own irqsave lock): true if they
 * were.  Released with mrc_qp_unlock_any(), which then leaves the
 * sending and the events to the QP's timer (softirq).
 */
bool mrc_qp_lock_any(struct mrc_qp *qp) __acquires(&qp->lock);
void mrc_qp_unlock_any(struct mrc_qp *qp, bool irqs_off)
	__releases(&qp->lock);
enum hrtimer_restart mrc_qp_timer_fn(struct hrtimer *t);
/* A packet from the QP's peer (receive path, softirq). */
void mrc_qp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt, u32 flags,
	       const struct sk_buff *skb);
/* Where the payload of the packet being placed is, for @x's transfer into
 * MRs: pkt->payload, or the received skb (paged receive).
 */
void mrc_qp_rx_src(const struct mrc_qp *qp, const struct mrc_pkt *pkt,
		   struct mrc_xfer *x);

/* req.c */
void mrc_req_doorbell(struct mrc_qp *qp);
/* The gather list or inline data of the ring's WQE @u into @w (its
 * length set): IB_WC_SUCCESS or the local error its sizes deserve.
 */
u8 mrc_req_fetch_data(struct mrc_qp *qp, struct mrc_swqe *w,
		      const struct rxe_send_wqe *u);
void mrc_req_post(struct mrc_qp *qp, u64 now);
bool mrc_req_tx(struct mrc_qp *qp, u64 now);
int mrc_req_place_resp(struct mrc_qp *qp, const struct mrc_pkt *pkt);
void mrc_req_resp_complete(struct mrc_qp *qp, const struct mrc_inmsg *im);
void mrc_req_send_complete(struct mrc_qp *qp, u64 cookie, int status);
void mrc_req_complete(struct mrc_qp *qp);
void mrc_req_flush(struct mrc_qp *qp);
int mrc_wc_status(int mrc_status);
/* Engine cookies: requests carry their send ring index, responses
 * their response slot with this bit.
 */
#define MRC_COOKIE_RESP		BIT_ULL(63)

/* resp.c */
/* Copy the user's receive WQE @u (a ring slot holding at most @max_sge
 * SGEs) into @rw for message @ssn: read once, checked.
 */
void mrc_rwqe_fetch(struct mrc_rwqe *rw, const struct rxe_recv_wqe *u,
		    u32 max_sge, u32 ssn);
int mrc_resp_place(struct mrc_qp *qp, const struct mrc_pkt *pkt);
void mrc_resp_recv_complete(struct mrc_qp *qp, const struct mrc_inmsg *im);
void mrc_resp_post(struct mrc_qp *qp, u64 now);
void mrc_resp_send_complete(struct mrc_qp *qp, u64 cookie);
/* Build and queue the READ_RESP / ATOMIC_RESP packet @d describes. */
void mrc_resp_xmit(struct mrc_qp *qp, const struct mrc_tx_desc *d,
		   struct mrc_pkt *pkt);
void mrc_resp_flush_rq(struct mrc_qp *qp);
void mrc_resp_release(struct mrc_qp *qp);
/* mrc_qp_for_each() callback of ibv_dereg_mr(): the QP's responses let
 * go of the MR @arg (they fail if they need it again).
 */
void mrc_resp_detach_mr(struct mrc_qp *qp, void *arg);

/* srq.c */
/* Kernel slots of an SRQ QP for the receives it has taken from the SRQ
 * and not completed: one per message the engine may hold, so that the
 * window never makes a SEND wait for a slot.  A power of two.
 */
#define MRC_SRQ_QP_SLOTS	MRC_MAX_MSGS
/* With qp->lock held: take the next WQE of the QP's SRQ into @rw for
 * message @ssn; -EAGAIN when the SRQ is empty (RNR).
 */
int mrc_srq_take(struct mrc_qp *qp, struct mrc_rwqe *rw, u32 ssn);

/* qp.c: MRC defaults of a new QP (also after RESET: kept, the user's). */
void mrc_qp_mrc_init(struct mrc_qp *qp);
static inline bool mrc_qp_is_mrc(const struct mrc_qp *qp)
{
	return qp->mrc.flags & MRC_IB_QP_F_MRC;
}

static inline bool mrc_qp_is_uc(const struct mrc_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UC;
}

/* QP1 (GSI) is a UD QP whose number is 1 (kverbs.c). */
static inline bool mrc_qp_is_ud(const struct mrc_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD ||
	       qp->ibqp.qp_type == IB_QPT_GSI;
}

/* A QP of a kernel consumer: rings that no user maps (kverbs.c). */
static inline bool mrc_qp_is_kernel(const struct mrc_qp *qp)
{
	return qp->kernel;
}

/* qp.c: the doorbell of either kind of QP, with qp->lock held. */
int mrc_qp_doorbell(struct mrc_qp *qp);

/* kverbs.c: work requests of kernel consumers, written into the rings */
int mrc_kpost_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		   const struct ib_send_wr **bad_wr);
int mrc_kpost_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		   const struct ib_recv_wr **bad_wr);

/* ud.c: UD QPs (datagrams, no engine connection) */
void mrc_ud_doorbell(struct mrc_qp *qp);
void mrc_ud_xmit(struct mrc_qp *qp, struct sk_buff *skb);
void mrc_ud_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
	       const struct sk_buff *skb);

/* uverbs_mrc.c: the limits its device query reports */
#define MRC_KABI_MAX_WIMM	MRC_REQ_MSGS
/* The engine's doubling retries after a verbs QP's linear ones. */
#define MRC_QP_VERBS_BACKOFF	7
#define MRC_KABI_MAX_WIMM_DEST	MRC_MAX_QP_WR
#define MRC_KABI_MAX_TIMEOUT	24
#define MRC_KABI_MAX_LINEAR	7

/* qp_path.c */
int mrc_qp_paths_alloc(struct mrc_qp *qp);
void mrc_qp_paths_free(struct mrc_qp *qp);
/* qp->paths for holders of qp->lock. */
static inline struct mrc_qp_paths *mrc_qp_paths(const struct mrc_qp *qp)
{
	return rcu_dereference_protected(qp->paths,
					 lockdep_is_held(&qp->lock));
}

void mrc_qp_path_prep_free(struct mrc_qp_path_prep *prep);
/* After modify_qp to RTR with @prep: if the route table changed since
 * @prep was gathered, move the QP to the current one.  Process context.
 */
void mrc_qp_paths_recheck(struct mrc_qp *qp,
			  const struct mrc_qp_path_prep *prep);
int mrc_paths_prepare(struct mrc_dev *mdev, const struct sockaddr *peer,
		      u32 qpn, u32 ev_profile, u32 cc_profile,
		      struct mrc_qp_path_prep *prep);
/* How EV @ev of @format appears in the outer headers of QP @qpn's
 * packets.
 */
void mrc_path_ev_outer(u32 qpn, u8 format, const struct mrc_ev *ev,
		       struct mrc_qp_ev *out);
/* Process context, before qp->lock: route, planes and EVs for the peer
 * the address vector @ah names.  0 or -errno.
 */
int mrc_qp_paths_prepare(struct mrc_qp *qp, const struct rdma_ah_attr *ah,
			 struct mrc_qp_path_prep *prep);
/* With qp->lock held, once the connection is initialised. */
int mrc_qp_paths_install(struct mrc_qp *qp, struct mrc_qp_path_prep *prep,
			 bool live, u64 now);
/* Receive path (RCU): does @skb come from the peer's address on @plane? */
bool mrc_qp_paths_from_peer(const struct mrc_qp *qp,
			    const struct sk_buff *skb, u8 plane);

/* Where and how one packet leaves: a QP's (mrc_net_xmit()) or a
 * probe's.  @pl may have an unset dst_cache (no caching).
 */
struct mrc_xmit {
	struct mrc_net *mn;
	struct mrc_dev *mdev;
	bool ipv6;
	u8 format;		/* enum mrc_ev_format */
	u8 tos, ttl;
	u8 plane_id;
	struct mrc_qp_plane *pl;
	const struct mrc_qp_ev *ev;
};

void mrc_net_send(const struct mrc_xmit *x, struct sk_buff *skb);

/* net.c */
/* Build the packet for @pkt (headers, @payload_len bytes filled by
 * @fill, ICRC) towards the QP's peer and queue it on qp->txq.  Counted
 * and dropped (never an error to the engine) when no buffer or route.
 */
struct sk_buff *mrc_net_alloc(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			      u8 **payload);
/* The same with the headers only: the caller appends the payload as page
 * frags (MRC_MR_TO_FRAGS); mrc_net_queue() adds the ICRC.
 */
struct sk_buff *mrc_net_alloc_paged(struct mrc_qp *qp,
				    const struct mrc_pkt *pkt);
/* Payloads from this size up are sent as page references, not copied:
 * below it a copy costs less than the references and the ICRC's frag.
 */
#define MRC_ZC_MIN	256
struct sk_buff *mrc_net_build(const struct mrc_pkt *pkt, u8 **payload);
void mrc_net_seal(struct sk_buff *skb);

/* probe.c: a packet with destination QPN 0; true if it was a probe (the
 * caller frees the skb either way).
 */
bool mrc_probe_rx(struct mrc_net *mn, struct sk_buff *skb,
		  const struct mrc_pkt *pkt);
void mrc_net_queue(struct mrc_qp *qp, struct sk_buff *skb);
void mrc_net_xmit(struct mrc_qp *qp, struct sk_buff *skb);

#endif /* _NET_MRC_QP_H */
