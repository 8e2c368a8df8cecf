/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MRC protocol engine: the public API.
 *
 * One struct mrc_conn is one reliable connection: our send stream (PSNs we
 * assign; it carries our requests and our READ/ATOMIC responses as data)
 * and the peer's stream that we receive and acknowledge.  The engine is a
 * set of state machines with explicit inputs and outputs:
 *
 *   inputs   mrc_conn_send()      queue a message (it is cut into packets)
 *            mrc_conn_rx()        a decoded packet arrived (wire.h view)
 *            mrc_conn_on_timer()  the deadline it reported has passed
 *            mrc_conn_plane_set(), mrc_conn_ev_deny()  control plane
 *   outputs  mrc_conn_tx_next()   pull the next data packet to transmit
 *            ops->emit_ctrl       ACK, NACK, probe request/response
 *            ops->place           put a received payload where it belongs
 *            ops->recv_complete   a received message is complete, in order
 *            ops->send_complete   a sent message is acknowledged or failed
 *            ops->event           EV state change, connection failure
 *            mrc_conn_next_deadline()  when to call mrc_conn_on_timer()
 *
 * Rules for the caller: all calls on one connection are serialised (the
 * kernel glue holds the QP's spinlock, softirq context is fine: nothing
 * sleeps, allocates or locks, and the work per call is bounded by the
 * compile-time maxima below).  Callbacks run inside the engine and must
 * not call back into the same connection.  Time is a u64 count of ns from
 * any monotonic clock, never going backwards.
 *
 * The connection is opaque: allocate mrc_conn_size() bytes (8-byte
 * aligned, e.g. kvzalloc() in the kernel) and call mrc_conn_init().
 *
 * Documentation/networking/mrc-engine.rst describes the state machines,
 * timers, spraying, path health and NSCC, with every default.
 */
#ifndef _MRC_PROTO_ENGINE_H
#define _MRC_PROTO_ENGINE_H

#include "os.h"
#include "wire.h"

/* Compile-time maxima: they size the arrays inside struct mrc_conn. */
#define MRC_MAX_EVS		256	/* EVs (paths) per connection */
#define MRC_MPR_UNIT		128	/* the reorder window's unit, in PSNs */
#define MRC_MAX_MPR		8	/* largest reorder window: 8 x 128 */
#define MRC_MAX_WINDOW		(MRC_MPR_UNIT * MRC_MAX_MPR)
#define MRC_MAX_MSGS		256	/* messages queued or in flight */

#define MRC_TIME_NEVER		(~(u64)0)
#define MRC_BACKOFF_INFINITE	25	/* backoff_cnt value: never give up */
#define MRC_RNR_INFINITE	7	/* rnr_retry value: never give up */

/* EV (path) states, as in the OCP controller API. */
enum mrc_ev_state {
	MRC_EV_UNKNOWN		= 0,	/* not configured */
	MRC_EV_GOOD		= 1,	/* used for spraying */
	MRC_EV_ASSUMED_BAD	= 2,	/* lost a packet: probed, not used */
	MRC_EV_DENIED		= 3,	/* controller forbids it: never used */
};

/* Why an EV changed state (struct mrc_conn_event.reason). */
enum mrc_ev_reason {
	MRC_EVR_CONFIG		= 0,	/* EV set installed or replaced */
	MRC_EVR_LOSS		= 1,	/* a packet sent on it was lost */
	MRC_EVR_TIMEOUT		= 2,	/* an ACK timeout blamed it */
	MRC_EVR_PROBE_OK	= 3,	/* a probe on it came back */
	MRC_EVR_MIN_ACTIVE	= 4,	/* restored to keep ev_min_active */
	MRC_EVR_CONTROLLER	= 5,	/* denied or allowed by the controller */
};

/* Completion / failure status (send_complete, MRC_EVT_CONN_FAILED). */
enum mrc_status {
	MRC_ST_OK		= 0,
	MRC_ST_RETRY_EXCEEDED	= 1,	/* ACK timeout retries exhausted */
	MRC_ST_RNR_EXCEEDED	= 2,	/* RNR retries exhausted */
	MRC_ST_REMOTE_ACCESS	= 3,	/* peer NACKed REMOTE_ACCESS_ERROR */
	MRC_ST_INVALID_REQUEST	= 4,	/* peer NACKed INVALID_REQUEST */
	MRC_ST_FLUSHED		= 5,	/* connection failed before this one */
	MRC_ST_NO_PATH		= 6,	/* no usable EV for too long */
};

/* Parameters of UET 1.0 NSCC; see mrc-engine.rst for units/defaults. */
struct mrc_nscc_params {
	u32 base_rtt;		/* ns: unloaded RTT of the fabric */
	u32 target_delay;	/* ns: queueing delay NSCC steers to */
	u32 qa_threshold;	/* ns: delay above which quick adapt runs */
	u32 adjust_bytes;	/* apply pending increase every N acked bytes */
	u32 adjust_period;	/* ns: ... or at least this often */
	u32 eta;		/* proportional increase gain (MTUs/RTT at 0 delay) */
	u32 fi;			/* fair increase: fi / fi_scale MTUs per RTT */
	u32 fi_scale;
	u32 gamma;		/* multiplicative decrease gain, / 1024 */
	u32 max_md_jump;	/* largest single decrease, / 1024 of cwnd */
	u32 max_cwnd;		/* bytes */
	u32 min_cwnd;		/* bytes (at least one MTU is always allowed) */
	u32 init_cwnd;		/* bytes */
	u8 qa_gate;		/* quick adapt only if acked < cwnd >> qa_gate */
	u8 disable_qa;
	u8 no_cc;		/* 1: no congestion control (the "none"
				 * algorithm, the OCP API's NULL one): the
				 * window is max_cwnd and nothing moves it
				 */
};

struct mrc_conn_config {
	u32 mtu;		/* payload bytes per data packet */
	u32 init_psn;		/* first PSN of our send stream */
	u32 peer_init_psn;	/* first PSN of the peer's stream */
	u8 mpr;			/* our reorder window, x 128 PSNs (1..8) */
	u8 peer_mpr;		/* the peer's: bounds what we keep in flight */
	u8 ack_timeout_exp;	/* t: ACK timeout = 1.024 us x 2^t (t <= 24) */
	u8 retry_cnt;		/* linear retries at the base timeout (<= 7) */
	u8 backoff_cnt;		/* doubling retries after those (<= 25) */
	u8 rnr_retry;		/* RNR retries (<= 7, 7 = infinite) */
	u8 probe_backoff_max;	/* probe interval doubles up to << this */
	u8 spray;		/* enum mrc_spray: how data packets pick EVs */
	u8 tail_resend;		/* 1: the tail's losses are judged by the
				 * connection's RTT, not each path's
				 * (fabrics whose paths have one delay)
				 */
	u8 peer_no_svc_time;	/* 1: the peer does not report its service
				 * time (OCP SVC_TIME_DEST_UNSUPPORTED):
				 * RTT samples ignore the ACKs' svc_time
				 */
	u32 rnr_timeout;	/* ns to wait after an RNR NACK (default) */
	u32 ack_every;		/* ACK at least every N data packets */
	u32 ack_delay;		/* ns: ... or this long after the first unACKed */
	u32 reo_min;		/* ns: minimum reordering allowance */
	u32 probe_interval;	/* ns: first probe after ASSUMED_BAD */
	u16 ev_min_active;	/* never fewer usable EVs than this */
	u32 probe_seed;		/* the first probe id is seed + 1: the glue
				 * draws it at random so that an off-path
				 * host cannot guess an answer's id
				 */
	struct mrc_nscc_params cc;
};

/* Path choice for data packets (mrc_conn_config.spray). */
enum mrc_spray {
	/* Round robin over the usable EVs, skipping ECN-marked ones: an
	 * equal share per EV.  Suits EVs that name disjoint paths evenly
	 * (source routes).
	 */
	MRC_SPRAY_ROUND_ROBIN = 0,
	/* Reuse the EVs whose packets were just delivered without an ECN
	 * mark, one reuse per such packet, and explore (round robin) only
	 * when none is left: load follows what the fabric delivers.  Suits
	 * hashed EVs (UDP source ports), whose paths overlap unevenly.
	 */
	MRC_SPRAY_RECYCLE = 1,
};

/* A message to send.  The engine never touches payload bytes. */
struct mrc_msg {
	u64 cookie;		/* the caller's; returned with every packet */
	u32 len;		/* bytes (0: one packet with no payload) */
	u8 opcode;		/* enum mrc_opcode, copied into each packet */
	u8 ack_req;		/* set MRC_F_ACK_REQ on the last packet */
};

/* A data packet to transmit (mrc_conn_tx_next): the glue builds the wire
 * packet (hdr.psn/ev/plane/ts/flags, msg ext {msn, offset, msg_len} and the
 * opcode's placement fields) and attaches payload [offset, offset + len) of
 * the message identified by cookie.
 */
struct mrc_tx_desc {
	u64 cookie;
	u32 psn;
	u32 msn;		/* message sequence number */
	u32 offset;		/* of this payload in the message */
	u32 len;		/* payload bytes */
	u32 msg_len;
	u32 ts;			/* hdr.ts: low 32 bits of now */
	u16 flags;		/* MRC_F_FIRST/LAST/ACK_REQ/RETX */
	u16 ev;			/* EV index in our EV set */
	u8 plane;		/* 1..MRC_MAX_PLANES */
	u8 opcode;
};

/* Fill @pkt's header and message placement (msn, offset, msg_len) from
 * @d; the opcode's own fields (va, rkey, imm, ...) and the payload pointer
 * are the caller's.
 */
void mrc_tx_desc_to_pkt(const struct mrc_tx_desc *d, struct mrc_pkt *pkt);

/* mrc_conn_rx() flags: what the glue saw outside the MRC headers. */
#define MRC_RX_ECN_CE		0x1	/* IP header carried ECN CE */
#define MRC_RX_TRIMMED		0x2	/* payload was trimmed by a switch */

/* mrc_conn_rx() results for data packets (>= 0), or a negative errno. */
enum mrc_rx_result {
	MRC_RX_ACCEPTED		= 0,	/* new: placed (ops->place said so) */
	MRC_RX_DUPLICATE	= 1,	/* seen before: re-ACKed, not placed */
	MRC_RX_OUT_OF_WINDOW	= 2,	/* beyond the reorder window: NACKed */
	MRC_RX_NACKED		= 3,	/* refused by place() or trimmed */
	MRC_RX_CONTROL		= 4,	/* ACK/NACK/probe/port status consumed */
	MRC_RX_IGNORED		= 5,	/* stale or inconsistent: dropped */
	MRC_RX_INVALID		= 6,	/* control packet outside the
					 * connection's window: forged or
					 * misrouted, dropped and counted
					 * (ctrl_invalid)
					 */
};

enum mrc_event_type {
	MRC_EVT_EV_STATE	= 1,	/* ev, plane, old/new_state, reason */
	MRC_EVT_CONN_FAILED	= 2,	/* status */
};

struct mrc_conn_event {
	u64 time;
	u32 rtt;		/* EV_STATE after a probe: probe RTT (ns) */
	u16 ev;
	u8 plane;
	u8 type;		/* enum mrc_event_type */
	u8 old_state;		/* enum mrc_ev_state */
	u8 new_state;
	u8 reason;		/* enum mrc_ev_reason */
	u8 status;		/* enum mrc_status (CONN_FAILED) */
};

struct mrc_conn_ops {
	/* Transmit a control packet (ACK, NACK, PROBE_REQ/RESP).  pkt->hdr.ev
	 * and hdr.plane name the path; QPNs are left 0 for the glue to fill.
	 */
	void (*emit_ctrl)(void *priv, struct mrc_pkt *pkt);
	/* A new data packet of the peer's stream arrived in the window:
	 * place its payload.  Return 0, or an MRC_NACK_* reason to refuse it
	 * (it is then NACKed and not counted as received).  May be NULL.
	 */
	int (*place)(void *priv, const struct mrc_pkt *pkt);
	/* Peer's message @msn is complete (all packets, all earlier ones);
	 * @last_psn is the PSN of its last packet, which place() saw (the
	 * glue keys what it learnt from that packet by PSN).
	 */
	void (*recv_complete)(void *priv, u32 msn, u32 last_psn);
	/* Our message @msn is acknowledged (status 0) or failed. */
	void (*send_complete)(void *priv, u32 msn, u64 cookie, int status);
	void (*event)(void *priv, const struct mrc_conn_event *ev);
};

/* One EV of the connection's set; the EV's value bytes are the glue's. */
struct mrc_ev_cfg {
	u8 plane;		/* 1..MRC_MAX_PLANES */
	u8 denied;		/* install as DENIED */
};

/* Counters; every one a user would look at. */
struct mrc_conn_stats {
	u64 tx_pkts;		/* data packets sent, retransmissions included */
	u64 tx_bytes;
	u64 retx_pkts;		/* retransmissions */
	u64 lost_pkts;		/* packets declared lost (SACK/RACK) */
	u64 timeouts;		/* ACK timeout expirations */
	u64 rx_pkts;		/* data packets accepted */
	u64 rx_dup;
	u64 rx_oow;
	u64 acks_tx;
	u64 acks_rx;
	u64 nacks_tx;
	u64 nacks_rx;
	u64 probes_tx;
	u64 probes_ok;
	u64 ecn_acks;		/* ACKs echoing ECN CE */
	u64 msgs_sent;		/* our messages acknowledged */
	u64 msgs_rcvd;		/* peer messages completed */
	u64 ctrl_invalid;	/* ACK/NACK/probe/port status refused: its
				 * PSNs lie outside the window (forged)
				 */
	u32 cwnd;		/* bytes */
	u32 inflight;		/* bytes */
	u32 srtt;		/* ns */
	u32 rto;		/* ns, current ACK timeout incl. back-off */
	u32 snd_una;
	u32 snd_nxt;
	u32 rcv_nxt;
	u16 evs_total;
	u16 evs_usable;
	u16 evs_bad;
	u16 evs_denied;
	u8 status;		/* enum mrc_status; != 0 once failed */
};

/* One EV of a connection (mrc_conn_get_ev_info()).  The counters start at
 * zero when the EV set is installed (mrc_conn_set_evs*()) and survive
 * state changes; mrc-engine.rst says what each one counts.
 */
struct mrc_ev_info {
	u64 tx_pkts;		/* data packets sent on it, resends included */
	u64 tx_bytes;		/* their payload bytes */
	u64 retx_pkts;		/* resends sent on it */
	u64 lost_pkts;		/* sent on it, then declared lost */
	u64 ecn_marks;		/* ACKs echoing it with ECN CE */
	u64 acks;		/* ACKs echoing it */
	u64 probes_tx;		/* probe requests sent on it */
	u64 probes_ok;		/* ... answered: the EV went back to GOOD */
	u64 state_since;	/* time (engine clock) of the latest change */
	u32 srtt, rttvar;	/* ns; srtt 0: no sample yet */
	u16 loss_score;		/* +1 per loss, halved per good probe */
	u8 plane;
	u8 state;		/* enum mrc_ev_state */
};

struct mrc_conn;

/* Fill @cfg with the documented defaults. */
void mrc_conn_config_default(struct mrc_conn_config *cfg);
/* Bytes to allocate for one connection. */
u32 mrc_conn_size(void);
/* Initialise @c (mrc_conn_size() bytes) for @cfg; 0 or -EINVAL.  The
 * connection starts with one EV (index 0, plane 1) until mrc_conn_set_evs().
 */
int mrc_conn_init(struct mrc_conn *c, const struct mrc_conn_config *cfg,
		  const struct mrc_conn_ops *ops, void *priv, u64 now);

/* Set the ACK timeout exponent, retry and RNR retry counts (a QP learns
 * them when it moves to RTS, after it already receives, and may send READ
 * responses, in RTR).  Applies from the next timer on.  0 or -EINVAL for
 * out-of-range values.
 */
/* The peer reports its service time in ACKs (1, the default) or not (0:
 * RTT samples keep the whole round trip).  Before traffic (RTR).
 */
void mrc_conn_set_peer_svc_time(struct mrc_conn *c, bool reported);
int mrc_conn_set_retry(struct mrc_conn *c, u8 ack_timeout_exp, u8 retry_cnt,
		       u8 rnr_retry);
/* The doubling retries after the linear ones (MRC_BACKOFF_INFINITE: for
 * ever), from the next expiry on.  0 or -EINVAL above the maximum.
 */
int mrc_conn_set_backoff(struct mrc_conn *c, u8 backoff_cnt);
/* The peer's reorder window (1..MRC_MAX_MPR x 128 PSNs), which bounds the
 * PSNs we keep in flight, from the next packet on.  0 or -EINVAL.
 */
int mrc_conn_set_peer_mpr(struct mrc_conn *c, u8 peer_mpr);

/* Our send stream starts at @psn instead of cfg.init_psn (the verbs'
 * sq_psn, known at RTS only): 0, or -EBUSY once a packet of it was cut
 * (a responder that answered READs in RTR keeps its start).
 */
int mrc_conn_set_init_psn(struct mrc_conn *c, u32 psn);
/* The peer's stream may start at @psn instead of cfg.peer_init_psn (a
 * peer that had to answer before it learnt its sq_psn starts at the
 * value both ends derive from our sq_psn).  The first packet of the
 * peer's stream inside the window from @psn, while none arrived yet,
 * moves the stream there.
 */
void mrc_conn_set_peer_alt_psn(struct mrc_conn *c, u32 psn);

/* Install @n EVs (1..MRC_MAX_EVS); all GOOD unless denied.  0 or -EINVAL. */
int mrc_conn_set_evs(struct mrc_conn *c, const struct mrc_ev_cfg *evs, u32 n,
		     u64 now);
/* A live connection moves to @n new EVs (a route or EV profile changed):
 * as mrc_conn_set_evs(), and every packet in flight that is not yet
 * acknowledged is presumed lost and resent on the new set at once,
 * blaming no path and leaving the congestion window alone; PSNs, SACK
 * and reorder state are kept.  @min_active becomes the connection's
 * ev_min_active.  Each EV whose state or plane changes is reported
 * (MRC_EVR_CONFIG), those beyond @n as UNKNOWN.  0 or -EINVAL (nothing
 * changed).
 */
int mrc_conn_replace_evs(struct mrc_conn *c, const struct mrc_ev_cfg *evs,
			 u32 n, u16 min_active, u64 now);
/* A live connection takes new NSCC parameters (its CC profile changed):
 * the window keeps its size within the new limits (min_cwnd, max_cwnd),
 * base_rtt and the gains apply from the next ACK.  0 or -EINVAL.
 */
int mrc_conn_set_cc(struct mrc_conn *c, const struct mrc_nscc_params *cc,
		    u64 now);
/* A live connection's ev_min_active changes (its EV profile's did): if
 * fewer EVs are usable, the least bad are restored at once
 * (MRC_EVR_MIN_ACTIVE).  0 or -EINVAL (0 is not a minimum).
 */
int mrc_conn_set_ev_min_active(struct mrc_conn *c, u16 min_active, u64 now);
/* AUTO mode: @n EV indices, all on plane 1. */
int mrc_conn_set_evs_auto(struct mrc_conn *c, u32 n, u64 now);
/* Controller: deny (never used nor probed) or allow (back to GOOD) an EV. */
int mrc_conn_ev_deny(struct mrc_conn *c, u32 ev, bool deny, u64 now);
/* Local plane (1-based) up or down: EVs of a down plane are skipped. */
int mrc_conn_plane_set(struct mrc_conn *c, u8 plane, bool up, u64 now);
/* Tell the peer which of our planes are up (bit p - 1: plane p), on a
 * usable path; @seq orders updates (newer: larger, wrapping).  The peer
 * stops using EVs of our down planes until a later status says up.
 */
void mrc_conn_send_port_status(struct mrc_conn *c, u32 seq, u16 up_planes,
			       u64 now);
enum mrc_ev_state mrc_conn_ev_state(const struct mrc_conn *c, u32 ev);

/* Queue a message; *msn receives its message sequence number.  0, -ENOSPC
 * (MRC_MAX_MSGS outstanding), -EPIPE (connection failed) or -EINVAL.
 */
int mrc_conn_send(struct mrc_conn *c, const struct mrc_msg *m, u32 *msn,
		  u64 now);
/* The next data packet to transmit now, if the window, cwnd and paths
 * allow: retransmissions first, then new data.  Returns true and fills
 * @out, or false (nothing to send now; ask again after any input).
 */
bool mrc_conn_tx_next(struct mrc_conn *c, u64 now, struct mrc_tx_desc *out);
/* A decoded packet (mrc_pkt_decode() succeeded) arrived at @now;
 * @rx_flags is MRC_RX_*.  Returns enum mrc_rx_result or -errno.
 */
int mrc_conn_rx(struct mrc_conn *c, const struct mrc_pkt *pkt, u32 rx_flags,
		u64 now);
/* The owner gives up (QP moved to the error state or destroyed): every
 * message queued or in flight completes MRC_ST_FLUSHED, then the
 * connection is failed (MRC_EVT_CONN_FAILED).  No-op once failed.
 */
void mrc_conn_abort(struct mrc_conn *c, u64 now);
/* Run every timer due at @now. */
void mrc_conn_on_timer(struct mrc_conn *c, u64 now);
/* Earliest time mrc_conn_on_timer() has work, or MRC_TIME_NEVER. */
u64 mrc_conn_next_deadline(const struct mrc_conn *c);

/* ACK timeout in ns for @exp: 1.024 us x 2^exp. */
static inline u64 mrc_ack_timeout_ns(u8 exp)
{
	return (u64)1024 << exp;
}

/* True when no message is queued or unacknowledged. */
bool mrc_conn_idle(const struct mrc_conn *c);
int mrc_conn_status(const struct mrc_conn *c);
void mrc_conn_get_stats(const struct mrc_conn *c, struct mrc_conn_stats *s);
/* Number of EVs in the set: valid indices for mrc_conn_get_ev_info(). */
u32 mrc_conn_nr_evs(const struct mrc_conn *c);
/* Counters and state of EV @ev; 0, or -EINVAL if @ev is not in the set. */
int mrc_conn_get_ev_info(const struct mrc_conn *c, u32 ev,
			 struct mrc_ev_info *out);
const char *mrc_status_name(int status);
const char *mrc_ev_state_name(int state);

#endif /* _MRC_PROTO_ENGINE_H */
