/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private layout of struct mrc_conn and the internal interfaces between
 * the engine's files:
 *	conn.c		init, configuration, timers, failure, stats
 *	path.c		EV set: spraying, health, probes, planes
 *	sender.c	our stream: segmentation, ACK/NACK, loss, timeout
 *	receiver.c	the peer's stream: window, SACK, ACK coalescing
 *	nscc.c		congestion window
 *
 * Nothing here is locked: the caller serialises every call on a
 * connection (see engine.h).
 */
#ifndef _MRC_PROTO_CONN_H
#define _MRC_PROTO_CONN_H

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

#include "engine.h"
#include "nscc.h"
#include "psn.h"
#include "sack.h"

/* Per sent packet, in a ring indexed by PSN modulo MRC_MAX_WINDOW. */
#define MRC_TXP_SACKED		0x01	/* receiver has it */
#define MRC_TXP_LOST		0x02	/* declared lost, queued for retransmit */
#define MRC_TXP_FIRST		0x04
#define MRC_TXP_LAST		0x08
#define MRC_TXP_NOBLAME		0x10	/* NACKed OOW/RNR: not the path's fault */
#define MRC_TXP_RNR		0x20	/* waiting for the RNR timer */
#define MRC_TXP_ACKREQ		0x40

struct mrc_txpkt {
	u64 sent;		/* time of the latest transmission */
	u32 msn;
	u32 offset;
	u16 len;
	u16 ev;			/* EV of the latest transmission */
	u8 flags;		/* MRC_TXP_* */
	u8 tx_count;		/* transmissions so far */
};

struct mrc_txmsg {
	u64 cookie;
	u32 len;
	u8 opcode;
	u8 ack_req;
};

struct mrc_tx {
	struct mrc_txpkt pkt[MRC_MAX_WINDOW];
	struct mrc_txmsg msg[MRC_MAX_MSGS];
	u64 sacked[MRC_RING_WORDS];	/* PSN in flight and SACKed */
	u32 rtxq[MRC_MAX_WINDOW];	/* PSNs to retransmit, FIFO */
	u32 rtx_head, rtx_tail;		/* free-running indices */
	u32 snd_una;			/* oldest unacknowledged PSN */
	u32 snd_nxt;			/* next new PSN */
	u32 msn_una;			/* oldest message not completed */
	u32 msn_seg;			/* message being cut into packets */
	u32 msn_nxt;			/* next message sequence number */
	u32 seg_off;			/* next offset in msn_seg */
	u32 window;			/* peer_mpr x 128 PSNs */
	u32 inflight;			/* bytes sent, not acked, not lost */
	u32 srtt, rttvar, rtt_min, rtt_max;	/* ns, from ACK echoes */
	u32 rto_k;			/* consecutive ACK timeout expiries */
	u32 resp_wait;			/* READ/ATOMIC requests queued whose
					 * response has not completed
					 */
	u32 rnr_count;
	u64 rto_deadline;
	u64 rack_deadline;
	u64 rack_xmit;			/* latest send time known delivered */
	u32 rack_psn;			/* ... and that packet's PSN */
	u32 qdelay;			/* latest queueing delay sample */
	u8 rack_valid;
	u8 ack_slow;			/* the ACK being applied: its trigger ... */
	u32 ack_trig;			/* ... (this PSN) was marked or slow */
	u64 rnr_deadline;
};

struct mrc_rx {
	u64 rcvd[MRC_RING_WORDS];	/* PSN arrived (in window only) */
	u64 last[MRC_RING_WORDS];	/* ... and ended a message */
	u64 resp[MRC_RING_WORDS];	/* ... which answers our READ/ATOMIC */
	u32 rcv_nxt;			/* cumulative: every PSN before arrived */
	u32 msn;			/* peer messages completed */
	u32 window;			/* mpr x 128 */
	u32 pending;			/* data packets not yet ACKed */
	u64 ack_deadline;
	u64 trig_arrival;		/* latest packet, echoed by the ACK */
	u32 trig_psn;
	u32 trig_ts;
	u16 trig_ev;
	u8 trig_plane;
	u8 trig_ecn;
	u8 started;			/* a packet of the stream arrived */
	u8 alt_valid;			/* alt_psn may still be its start */
	u32 alt_psn;			/* mrc_conn_set_peer_alt_psn() */
};

/* Counters of one EV, reported by mrc_conn_get_ev_info(); each is bumped
 * on a path that already touches the EV, never by a walk of its own.
 */
struct mrc_ev_counters {
	u64 tx_pkts;		/* data packets sent on it, resends included */
	u64 tx_bytes;
	u64 retx_pkts;		/* resends sent on it */
	u64 lost_pkts;		/* sent on it, then declared lost */
	u64 ecn_marks;		/* ACKs echoing it with ECN CE */
	u64 acks;		/* ACKs echoing it */
	u64 probes_tx;
	u64 probes_ok;
};

struct mrc_ev {
	u64 ecn_until;		/* skip for spraying until then */
	u64 next_probe;
	u64 probe_sent;
	u64 state_since;	/* time of the latest state change */
	u64 echo_at;		/* latest ACK echoing it (0: none yet) */
	struct mrc_ev_counters cnt;
	u32 srtt, rttvar;	/* ns; srtt 0: no sample yet */
	u32 probe_id;		/* outstanding probe; 0 none */
	u16 losses;		/* loss score: "how bad" (least bad kept) */
	u16 acks_clean;		/* ACKs echoing it since the score last fell */
	u8 state;		/* enum mrc_ev_state */
	u8 plane;
	u8 probe_backoff;
	u8 ecn_marked;
};

/* EVs to reuse (MRC_SPRAY_RECYCLE): one entry per packet delivered
 * unmarked, oldest first.  A power of two; when full the oldest entry
 * is dropped.
 */
#define MRC_PATH_RECYCLE	MRC_MAX_WINDOW

struct mrc_paths {
	struct mrc_ev ev[MRC_MAX_EVS];
	u16 recycle[MRC_PATH_RECYCLE];
	u32 rc_head, rc_tail;	/* free-running indices into recycle[] */
	u32 n;
	u32 cursor;		/* data spraying round robin */
	u32 ctrl_cursor;	/* ACK/NACK path choice */
	u32 n_usable;		/* GOOD on a plane up at both ends */
	u32 n_ecn;		/* EVs with ecn_marked */
	u32 probe_id;
	u32 port_seq;
	/* RTT of plane p (index p-1) from the samples of all its EVs, ns */
	u32 plane_srtt[MRC_MAX_PLANES], plane_rttvar[MRC_MAX_PLANES];
	u16 planes_up;		/* bit p-1: our plane p is up */
	u16 peer_planes_up;	/* from the peer's PORT_STATUS */
	u8 port_seq_valid;
	u64 probe_deadline;	/* earliest next_probe of a probed EV */
};

struct mrc_conn {
	struct mrc_conn_config cfg;
	const struct mrc_conn_ops *ops;
	void *priv;
	u8 status;		/* enum mrc_status; != 0: failed */
	struct mrc_conn_stats st;
	struct mrc_nscc cc;
	struct mrc_paths paths;
	struct mrc_tx tx;
	struct mrc_rx rx;
};

static inline u64 mrc_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

/* conn.c */
void mrc_conn_emit_event(struct mrc_conn *c, const struct mrc_conn_event *e);
/* Fail the connection: message @err_msn gets @status, the others FLUSHED. */
void mrc_conn_fail(struct mrc_conn *c, int status, u32 err_msn, u64 now);
void mrc_conn_emit_ctrl(struct mrc_conn *c, struct mrc_pkt *pkt);

/* path.c */
void mrc_path_init(struct mrc_conn *c, u64 now);
/* Install @n EVs from @evs, or with @evs NULL @n EVs on plane 1 (AUTO). */
int mrc_path_set(struct mrc_conn *c, const struct mrc_ev_cfg *evs, u32 n,
		 u64 now);
/* 0 if @n EVs @evs (NULL: AUTO, on plane 1) can be installed, else
 * -EINVAL.
 */
int mrc_path_check(const struct mrc_ev_cfg *evs, u32 n);
/* The same on a live connection (mrc_conn_replace_evs()): every EV whose
 * state or plane changes is reported (reason MRC_EVR_CONFIG), those that
 * leave the set as UNKNOWN.
 */
int mrc_path_replace(struct mrc_conn *c, const struct mrc_ev_cfg *evs,
		     u32 n, u64 now);
/* EV for the next data packet, avoiding @exclude (-1: none); -1 if none. */
int mrc_path_pick(struct mrc_conn *c, u64 now, int exclude);
/* Path for a control packet, @hint (an EV index) preferred. */
int mrc_path_pick_ctrl(struct mrc_conn *c, u32 hint, u64 now);
/* Start control packet @pkt, opcode @op, PSN @psn, on the path
 * mrc_path_pick_ctrl(@hint) picks (its EV, plane and timestamp); false if
 * there is none (nothing to send).
 */
bool mrc_ctrl_pkt_init(struct mrc_conn *c, struct mrc_pkt *pkt, u8 op,
		       u32 hint, u32 psn, u64 now);
/* Clean ACKs of an EV that halve its loss score. */
#define MRC_PATH_CLEAN_ACKS	64
/* Largest doubling of the first probe's wait after a loss: 2^16 probe
 * intervals (3.3 s at the default 50 us).
 */
#define MRC_PATH_HOLD_SHIFT	16
void mrc_path_on_ack(struct mrc_conn *c, u32 ev);
/* Recycling needs an ACK that echoed the EV within this many RTTs. */
#define MRC_PATH_ECHO_RTTS	8
/* A packet sent on @ev was delivered without an ECN mark. */
void mrc_path_on_delivered(struct mrc_conn *c, u32 ev, u64 now);
void mrc_path_on_loss(struct mrc_conn *c, u32 ev, u8 reason, u64 now);
void mrc_path_on_ecn(struct mrc_conn *c, u32 ev, u64 now);
void mrc_path_on_rtt(struct mrc_conn *c, u32 ev, u32 rtt);
/* Expected ACK time after sending on @ev (RTT estimate + allowance). */
u64 mrc_path_expect(const struct mrc_conn *c, u32 ev);
/* 0, or MRC_RX_INVALID (counted, nothing changed). */
int mrc_path_rx_probe(struct mrc_conn *c, const struct mrc_pkt *pkt, u64 now);
int mrc_path_rx_port_status(struct mrc_conn *c, const struct mrc_pkt *pkt,
			    u64 now);
int mrc_path_deny(struct mrc_conn *c, u32 ev, bool deny, u64 now);
void mrc_path_min_active_changed(struct mrc_conn *c, u64 now);
int mrc_path_plane(struct mrc_conn *c, u8 plane, bool up, u64 now);
void mrc_path_timer(struct mrc_conn *c, u64 now);

static inline bool mrc_path_plane_up(const struct mrc_paths *p, u8 plane)
{
	u16 bit = (u16)(1u << (plane - 1));

	return (p->planes_up & bit) && (p->peer_planes_up & bit);
}

static inline bool mrc_path_usable(const struct mrc_paths *p,
				   const struct mrc_ev *e)
{
	return e->state == MRC_EV_GOOD && mrc_path_plane_up(p, e->plane);
}

/* sender.c */
void mrc_tx_init(struct mrc_conn *c);
/* 0, or MRC_RX_INVALID (counted, nothing changed). */
int mrc_tx_rx_ack(struct mrc_conn *c, const struct mrc_pkt *pkt, u64 now);
int mrc_tx_rx_nack(struct mrc_conn *c, const struct mrc_pkt *pkt, u64 now);
void mrc_tx_timer(struct mrc_conn *c, u64 now);
void mrc_tx_flush(struct mrc_conn *c, int status, u32 err_msn);
/* The EVs of what is in flight are about to be replaced: resend it. */
void mrc_tx_paths_replaced(struct mrc_conn *c);
/* Current ACK timeout, back-off included. */
u64 mrc_tx_rto(const struct mrc_conn *c);
/* A packet of a READ/ATOMIC response arrived (progress), or a whole
 * response completed.
 */
void mrc_tx_resp_progress(struct mrc_conn *c, u64 now);
void mrc_tx_resp_done(struct mrc_conn *c);

/* Opcodes whose message the peer answers on its stream. */
static inline bool mrc_op_wants_resp(u8 op)
{
	return op == MRC_OP_READ_REQ || op == MRC_OP_ATOMIC_CS ||
	       op == MRC_OP_ATOMIC_FA;
}

static inline bool mrc_op_is_resp(u8 op)
{
	return op == MRC_OP_READ_RESP || op == MRC_OP_ATOMIC_RESP;
}

/* receiver.c */
void mrc_rx_init(struct mrc_conn *c);
int mrc_rx_data(struct mrc_conn *c, const struct mrc_pkt *pkt, u32 rx_flags,
		u64 now);
void mrc_rx_timer(struct mrc_conn *c, u64 now);
/* Could the peer have sent a control packet whose hdr.psn (its next
 * PSN) is @psn?  Ties PORT_STATUS and probes to the connection.
 */
bool mrc_rx_psn_plausible(const struct mrc_conn *c, u32 psn);

#endif /* _MRC_PROTO_CONN_H */
