/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Generic netlink family "mrc": configuration and state of the software
 * MRC (Multipath Reliable Connection) RDMA transport.
 *
 * Documentation/netlink/specs/mrc.yaml describes the same family in YNL
 * form; keep the two in step.
 */
#ifndef _UAPI_LINUX_MRC_H
#define _UAPI_LINUX_MRC_H

#define MRC_GENL_NAME		"mrc"
#define MRC_GENL_VERSION	1
#define MRC_GENL_MCGRP_EVENTS	"events"

/* Planes are numbered 1..MRC_MAX_PLANES; plane 1 is the netdev given to
 * "rdma link add ... type mrc netdev X".
 */
#define MRC_MAX_PLANES		16

/* Default UDP destination port (RoCEv2's). */
#define MRC_UDP_PORT_DEFAULT	4791

enum mrc_cmd {
	MRC_CMD_UNSPEC,
	MRC_CMD_DEV_GET,	/* do: one instance; dump: all in the netns */
	MRC_CMD_PLANE_ADD,	/* needs CAP_NET_ADMIN */
	MRC_CMD_PLANE_DEL,	/* needs CAP_NET_ADMIN */
	MRC_CMD_PLANE_SET,	/* needs CAP_NET_ADMIN */
	MRC_CMD_PLANE_GET,	/* do: one plane; dump: all, or one instance's */
	MRC_CMD_EVENT,		/* multicast on "events"; see enum mrc_event */
	MRC_CMD_ROUTE_ADD,	/* needs CAP_NET_ADMIN; EEXIST if the peer has one */
	MRC_CMD_ROUTE_DEL,	/* needs CAP_NET_ADMIN */
	MRC_CMD_ROUTE_SET,	/* needs CAP_NET_ADMIN; replaces an existing route */
	MRC_CMD_ROUTE_GET,	/* do: one route by peer; dump: all, or one instance's */
	/* EV and CC profiles (Documentation/admin-guide/mrc.rst, "Profiles").
	 * The numbers are fixed: other commands are added after these.
	 */
	MRC_CMD_EV_PROFILE_ADD = 11,	/* needs CAP_NET_ADMIN; EEXIST if the id exists */
	MRC_CMD_EV_PROFILE_DEL = 12,	/* needs CAP_NET_ADMIN; EBUSY if a route uses it */
	MRC_CMD_EV_PROFILE_SET = 13,	/* state, min active, event mask; or one EV */
	MRC_CMD_EV_PROFILE_GET = 14,	/* do: one by id (0: the default); dump */
	MRC_CMD_CC_PROFILE_ADD = 15,	/* needs CAP_NET_ADMIN */
	MRC_CMD_CC_PROFILE_DEL = 16,	/* needs CAP_NET_ADMIN; EBUSY if a route uses it */
	MRC_CMD_CC_PROFILE_SET = 17,	/* needs CAP_NET_ADMIN; changes the given values */
	MRC_CMD_CC_PROFILE_GET = 18,	/* do: one by id (0: the default); dump */

	/* Live connections and probes (values fixed from 30 on). */
	MRC_CMD_CONN_GET = 30,	/* do: one QP by MRC_A_QPN; dump: all, or one
				 * instance's; MRC_A_STATS adds per-plane and
				 * per-EV detail (a QP with many EVs spans
				 * several messages, see MRC_A_CONN_EV_OFFSET)
				 */
	MRC_CMD_PROBE,		/* needs CAP_NET_ADMIN: probe the paths to a
				 * peer, reply with each path's RTT
				 */

	__MRC_CMD_MAX,
	MRC_CMD_MAX = __MRC_CMD_MAX - 1
};

/* Device capability bits (MRC_A_DEV_CAPS). */
enum mrc_dev_cap {
	MRC_CAP_TRIM_NACK	= 1 << 0, /* responder NACKs trimmed packets */
	MRC_CAP_DYNAMIC_MPR	= 1 << 1, /* reorder window set per QP */
	MRC_CAP_SVC_TIME	= 1 << 2, /* ACKs report responder service time */
	MRC_CAP_EV_UDP		= 1 << 3, /* EV format UDP */
	MRC_CAP_EV_STEV		= 1 << 4, /* EV format STEV */
	MRC_CAP_EV_SRV6		= 1 << 5, /* EV format SRV6 */
};

/* Event types (MRC_A_EVENT_TYPE in MRC_CMD_EVENT messages). */
enum mrc_event {
	MRC_EVENT_UNSPEC,
	MRC_EVENT_PLANE_ADD,
	MRC_EVENT_PLANE_DEL,
	MRC_EVENT_PLANE_UP,	/* admin and oper both up */
	MRC_EVENT_PLANE_DOWN,	/* admin or oper went down */
	MRC_EVENT_DEV_ADD,
	MRC_EVENT_DEV_DEL,
	MRC_EVENT_ROUTE_ADD,	/* route added, replaced or changed */
	MRC_EVENT_ROUTE_DEL,
	MRC_EVENT_EV_PROFILE = 9,	/* EV profile added or changed */
	MRC_EVENT_EV_PROFILE_DEL = 10,
	MRC_EVENT_CC_PROFILE = 11,	/* CC profile added or changed */
	MRC_EVENT_CC_PROFILE_DEL = 12,

	/* Connections (values fixed from 20 on). */
	MRC_EVENT_EV_STATE = 20, /* an EV of a QP changed state (MRC_A_CONN) */
	MRC_EVENT_QP_ERROR,	/* a QP failed (MRC_A_CONN with its status) */

	__MRC_EVENT_MAX,
	MRC_EVENT_MAX = __MRC_EVENT_MAX - 1
};

/* EV profiles: the values of the portable engine's enums
 * (net/mrc/proto/ev_profile.h, engine.h).
 */
enum mrc_ev_profile_mode {
	MRC_EV_PROFILE_MODE_AUTO = 1,	/* EVs derived from the QP number */
	MRC_EV_PROFILE_MODE_EXP = 2,	/* an explicit list */
	MRC_EV_PROFILE_MODE_GEN = 3,	/* generated from bit fields */
};

enum mrc_ev_profile_format {
	MRC_EV_PROFILE_FORMAT_UDP = 1,	/* 2 bytes: UDP source port */
	MRC_EV_PROFILE_FORMAT_STEV = 2,	/* 4 bytes: flow label + port bits */
	MRC_EV_PROFILE_FORMAT_SRV6 = 3,	/* 16 bytes (SID) or 32 (SID, segment) */
};

enum mrc_ev_profile_state {
	MRC_EV_PROFILE_STATE_INIT = 0,	/* just added */
	MRC_EV_PROFILE_STATE_OFFLINE = 1,
	MRC_EV_PROFILE_STATE_ONLINE = 2,	/* validated: routes may use it */
};

enum mrc_ev_profile_ev_state {
	MRC_EV_STATE_UNKNOWN = 0,
	MRC_EV_STATE_GOOD = 1,
	MRC_EV_STATE_ASSUMED_BAD = 2,
	MRC_EV_STATE_DENIED = 3,
};

/* MRC_A_EV_PROFILE_EVENT_MASK bits: which notifications a controller
 * wants about the profile's EVs and the profile itself.
 */
#define MRC_EV_EVENT_STATE(s)	(1U << (s))	/* an EV entered state s */
#define MRC_EV_EVENT_PROFILE	(1U << 8)	/* the profile changed state */

/* The CC algorithm every CC profile names today (MRC_A_CC_ALGO). */
#define MRC_CC_ALGO_NSCC	"uet-1.0-nscc"

/*
 * Attributes. Requests name the instance by MRC_A_DEV_NAME or
 * MRC_A_DEV_INDEX and the plane by MRC_A_PLANE_ID; the netdev of a new
 * plane by MRC_A_PLANE_IFNAME or MRC_A_PLANE_IFINDEX.
 */
enum mrc_attr {
	MRC_A_UNSPEC,
	MRC_A_DEV_INDEX,	/* u32: ib_device index */
	MRC_A_DEV_NAME,		/* string: ib_device name, e.g. "mrc0" */
	MRC_A_DEV_CAPS,		/* u32: enum mrc_dev_cap bits */
	MRC_A_DEV_MAX_PLANES,	/* u32 */
	MRC_A_DEV_UDP_PORT,	/* u16: UDP destination port */
	MRC_A_DEV_PLANES,	/* nest: MRC_A_PLANE entries */
	MRC_A_PLANE,		/* nest: MRC_A_PLANE_* attributes */
	MRC_A_PLANE_ID,		/* u32: 1..MRC_MAX_PLANES */
	MRC_A_PLANE_IFINDEX,	/* u32 */
	MRC_A_PLANE_IFNAME,	/* string */
	MRC_A_PLANE_ADMIN_UP,	/* u8: 0 down, 1 up */
	MRC_A_PLANE_OPER_UP,	/* u8: admin up and netdev carrier up */
	MRC_A_EVENT_TYPE,	/* u32: enum mrc_event */
	MRC_A_PAD,
	MRC_A_STATS,		/* flag, request: add counters to the reply */
	MRC_A_DEV_STATS,	/* nest: MRC_A_STAT_* of the instance */
	MRC_A_PLANE_STATS,	/* nest: MRC_A_STAT_{TX,RX}_{PKTS,BYTES} */
	/* Counters: u64 each, only inside MRC_A_DEV_STATS/MRC_A_PLANE_STATS.
	 * Documentation/admin-guide/mrc.rst says what increments each.
	 */
	MRC_A_STAT_TX_PKTS,	/* packets sent, control included */
	MRC_A_STAT_TX_BYTES,	/* UDP payload bytes sent */
	MRC_A_STAT_RX_PKTS,	/* packets from a QP's peer delivered to it */
	MRC_A_STAT_RX_BYTES,	/* UDP payload bytes of those */
	MRC_A_STAT_RETX_PKTS,	/* data packets retransmitted */
	MRC_A_STAT_RX_DUP,	/* duplicate data packets received */
	MRC_A_STAT_RX_OOW,	/* data packets beyond the reorder window */
	MRC_A_STAT_NACK_TX,	/* NACKs sent */
	MRC_A_STAT_NACK_RX,	/* NACKs received */
	MRC_A_STAT_RX_BAD_RKEY,	/* remote access refused by the responder */
	MRC_A_STAT_RX_SPOOFED,	/* wrong source address or source QPN */
	MRC_A_STAT_RX_BAD_STATE, /* QP not able to receive */
	MRC_A_STAT_TX_DROP,	/* not sent: no route or no memory */
	/* Drops before a packet names a QP: per network namespace, the
	 * same values in every instance of that namespace.
	 */
	MRC_A_STAT_RX_MALFORMED, /* truncated or bad MRC header */
	MRC_A_STAT_RX_BAD_ICRC,	/* ICRC mismatch */
	MRC_A_STAT_RX_NO_QP,	/* no QP with the destination QPN */
	MRC_A_STAT_RX_PROTO_ERR, /* peer broke the protocol (QP ended) */
	/* Routes: how a peer (the address a QP's address vector names, the
	 * peer's plane-1 address) is reached on each plane.  Requests carry
	 * ROUTE_PEER, ROUTE_HOPS, ROUTE_EV_PROFILE and ROUTE_CC_PROFILE at the
	 * top level; replies and events put them in one MRC_A_ROUTE nest.
	 * Addresses are binary in network byte order: 4 bytes for IPv4, 16
	 * for IPv6; the vias of a route have the family of its peer.
	 */
	MRC_A_ROUTE,		/* nest: MRC_A_ROUTE_* attributes */
	MRC_A_ROUTE_PEER,	/* binary: 4 or 16 bytes */
	MRC_A_ROUTE_HOPS,	/* nest: MRC_A_ROUTE_HOP entries */
	MRC_A_ROUTE_HOP,	/* nest: MRC_A_ROUTE_HOP_PLANE, _VIA */
	MRC_A_ROUTE_HOP_PLANE,	/* u32: 1..MRC_MAX_PLANES */
	MRC_A_ROUTE_HOP_VIA,	/* binary: the peer's address on that plane */
	MRC_A_ROUTE_EV_PROFILE,	/* u32: 0 (default)..65535 */
	MRC_A_ROUTE_CC_PROFILE,	/* u32: 0 (default)..65535 */
	/* EV profiles.  Requests carry the EV_PROFILE_* attributes at the
	 * top level; replies and events put them in one MRC_A_EV_PROFILE
	 * nest.  An EV value is binary, big endian: 2 bytes (UDP), 4 (STEV),
	 * 16 or 32 (SRV6: SID, or SID then one SRH segment).
	 */
	MRC_A_EV_PROFILE = 43,		/* nest: MRC_A_EV_PROFILE_* */
	MRC_A_EV_PROFILE_ID,		/* u32: 1..65535; 0 the built-in default */
	MRC_A_EV_PROFILE_MODE,		/* u8: enum mrc_ev_profile_mode */
	MRC_A_EV_PROFILE_FORMAT,	/* u8: enum mrc_ev_profile_format */
	MRC_A_EV_PROFILE_STATE,		/* u8: enum mrc_ev_profile_state */
	MRC_A_EV_PROFILE_MIN_ACTIVE,	/* u16: never fewer usable EVs */
	MRC_A_EV_PROFILE_EVENT_MASK,	/* u32: MRC_EV_EVENT_* bits */
	MRC_A_EV_PROFILE_COUNT,		/* u16: AUTO: EVs per connection */
	MRC_A_EV_PROFILE_PLANE_MASK,	/* u16: AUTO, GEN: bit p-1 = plane p */
	MRC_A_EV_PROFILE_EVS,		/* nest: MRC_A_EV entries (EXP, GEN) */
	MRC_A_EV,			/* nest: MRC_A_EV_* */
	MRC_A_EV_INDEX,			/* u16: position in the profile */
	MRC_A_EV_PLANE,			/* u8: 1..MRC_MAX_PLANES */
	MRC_A_EV_VALUE,			/* binary: see above */
	MRC_A_EV_STATE,			/* u8: enum mrc_ev_profile_ev_state */
	MRC_A_EV_PROFILE_GEN_FIELDS,	/* nest: MRC_A_EV_GEN_FIELD entries */
	MRC_A_EV_GEN_FIELD,		/* nest: MRC_A_EV_GEN_* */
	MRC_A_EV_GEN_WIDTH,		/* u8: 1..32 bits */
	MRC_A_EV_GEN_INIT,		/* u32 */
	MRC_A_EV_GEN_MIN,		/* u32 */
	MRC_A_EV_GEN_MAX,		/* u32 */
	MRC_A_EV_GEN_MASK,		/* u32: default: every bit of the width */
	MRC_A_EV_PROFILE_GEN_SHIFT,	/* u8: bit position of the number */
	MRC_A_EV_PROFILE_GEN_BASE,	/* binary: format length; default 0 */
	MRC_A_EV_DENY,			/* u8, EV_PROFILE_SET: 1 deny, 0 allow */
	/* CC profiles: requests carry the CC_* attributes at the top level,
	 * replies and events in one MRC_A_CC_PROFILE nest.  Times in ns.
	 */
	MRC_A_CC_PROFILE,		/* nest: MRC_A_CC_* */
	MRC_A_CC_PROFILE_ID,		/* u32: 1..65535; 0 the built-in default */
	MRC_A_CC_ALGO,			/* string: MRC_CC_ALGO_NSCC */
	MRC_A_CC_BASE_RTT,		/* u32 ns: unloaded RTT, >= 1 */
	MRC_A_CC_TARGET_DELAY,		/* u32 ns: queueing delay aimed at, >= 1 */
	MRC_A_CC_QA_THRESHOLD,		/* u32 ns: quick adapt above this delay */
	MRC_A_CC_ADJUST_BYTES,		/* u32: apply increases every N bytes, >= 1 */
	MRC_A_CC_ADJUST_PERIOD,		/* u32 ns: ... or at least this often */
	MRC_A_CC_ETA,			/* u32: proportional increase gain */
	MRC_A_CC_FI,			/* u32: fair increase, fi / fi_scale MTUs */
	MRC_A_CC_FI_SCALE,		/* u32: >= 1 */
	MRC_A_CC_GAMMA,			/* u32: decrease gain / 1024, 1..1024 */
	MRC_A_CC_MAX_MD_JUMP,		/* u32: largest decrease / 1024, 1..1024 */
	MRC_A_CC_MAX_CWND,		/* u32 bytes, >= 1 */
	MRC_A_CC_MIN_CWND,		/* u32 bytes, <= init_cwnd */
	MRC_A_CC_INIT_CWND,		/* u32 bytes, <= max_cwnd */
	MRC_A_CC_QA_GATE,		/* u8: 0..31 */
	MRC_A_CC_DISABLE_QA,		/* u8: 0 or 1 */

	/* Connections (MRC_CMD_CONN_GET, EV_STATE and QP_ERROR events);
	 * values fixed from 100 on.  Counters are u64, the rest u32 unless
	 * said otherwise.  The same counter attributes appear at the
	 * connection level and inside MRC_A_CONN_PLANE / MRC_A_CONN_EV.
	 */
	MRC_A_QPN = 100,	/* u32: the local QP number */
	MRC_A_CONN,		/* nest: MRC_A_QPN, MRC_A_CONN_* */
	MRC_A_CONN_DEST_QPN,
	MRC_A_CONN_PEER,	/* binary: the AV's address, 4 or 16 bytes */
	MRC_A_CONN_STATE,	/* IB QP state: 0 RESET .. 3 RTS, 6 ERR */
	MRC_A_CONN_STATUS,	/* enum mrc_conn_status: why it failed */
	MRC_A_CONN_SND_UNA,	/* oldest unacknowledged PSN */
	MRC_A_CONN_SND_NXT,	/* next new PSN */
	MRC_A_CONN_RCV_NXT,	/* next PSN expected from the peer */
	MRC_A_CONN_INFLIGHT,	/* bytes sent and not acknowledged */
	MRC_A_CONN_CWND,	/* bytes: congestion window */
	MRC_A_CONN_SRTT,	/* ns: smoothed RTT */
	MRC_A_CONN_RTO,		/* ns: ACK timeout incl. back-off */
	MRC_A_CONN_TX_PKTS,	/* u64: data packets sent, retx included */
	MRC_A_CONN_TX_BYTES,	/* u64: payload bytes of those */
	MRC_A_CONN_RX_PKTS,	/* u64: data packets accepted */
	MRC_A_CONN_RETX_PKTS,	/* u64: retransmissions */
	MRC_A_CONN_LOST_PKTS,	/* u64: packets declared lost */
	MRC_A_CONN_TIMEOUTS,	/* u64: ACK timeouts */
	MRC_A_CONN_ECN_MARKS,	/* u64: ACKs echoing ECN CE */
	MRC_A_CONN_EVS_TOTAL,
	MRC_A_CONN_EVS_USABLE,	/* GOOD on a plane up at both ends */
	MRC_A_CONN_EVS_BAD,	/* ASSUMED_BAD */
	MRC_A_CONN_EVS_DENIED,
	MRC_A_CONN_PLANES,	/* nest: MRC_A_CONN_PLANE entries */
	MRC_A_CONN_PLANE,	/* nest: MRC_A_PLANE_ID, _OPER_UP, counters */
	MRC_A_CONN_EVS,		/* nest: MRC_A_CONN_EV entries */
	MRC_A_CONN_EV,		/* nest: MRC_A_CONN_EV_*, counters */
	MRC_A_CONN_EV_INDEX,	/* the EV's index in the QP's EV set */
	MRC_A_CONN_EV_PLANE,
	MRC_A_CONN_EV_STATE,	/* enum mrc_conn_ev_state */
	MRC_A_CONN_EV_OLD_STATE, /* events: the state it left */
	MRC_A_CONN_EV_REASON,	/* enum mrc_conn_ev_reason */
	MRC_A_CONN_EV_RTT,	/* ns: the path's smoothed RTT (events: the
				 * probe's RTT when a probe brought it back)
				 */
	MRC_A_CONN_EV_SPORT,	/* u16: UDP source port the EV uses */
	MRC_A_CONN_EV_OFFSET,	/* index of the first EV in this message */
	MRC_A_CONN_EV_PROFILE,	/* the EV profile the EVs came from */
	MRC_A_PROBE_TO,		/* binary: peer address (as for routes) */
	MRC_A_PROBE_TIMEOUT,	/* ms to wait for answers (default 1000) */
	MRC_A_PROBE_RESULTS,	/* nest: MRC_A_PROBE_RESULT entries */
	MRC_A_PROBE_RESULT,	/* nest: _CONN_EV_INDEX, _CONN_EV_PLANE,
				 * _CONN_EV_SPORT, _PROBE_RTT (absent: no
				 * answer in time)
				 */
	MRC_A_PROBE_RTT,	/* u64: ns */
	MRC_A_PROBE_ADDR,	/* binary: the address probed on that plane */
	/* More counters (inside MRC_A_DEV_STATS, like those above). */
	MRC_A_STAT_RX_CTRL_INVALID, /* ACK/NACK/probe/port status of a QP's
				     * peer outside the connection's window
				     */
	MRC_A_STAT_PROBE_LIMITED, /* per namespace: probe answers not sent
				   * (rate limit)
				   */
	MRC_A_STAT_RX_PROBE_STRAY, /* per namespace: probe answers matching
				    * no outstanding probe
				    */
	MRC_A_STAT_RX_BAD_RESP,	/* READ/ATOMIC response matching no
				 * outstanding request: dropped
				 */

	__MRC_A_MAX,
	MRC_A_MAX = __MRC_A_MAX - 1
};

/* MRC_A_CONN_STATUS */
enum mrc_conn_status {
	MRC_CONN_OK		= 0,
	MRC_CONN_RETRY_EXCEEDED	= 1,	/* ACK timeout retries exhausted */
	MRC_CONN_RNR_EXCEEDED	= 2,
	MRC_CONN_REMOTE_ACCESS	= 3,	/* peer refused a remote access */
	MRC_CONN_INVALID_REQUEST = 4,
	MRC_CONN_FLUSHED	= 5,	/* the QP was moved to ERR or reset */
	MRC_CONN_NO_PATH	= 6,	/* no usable EV for too long */
};

/* MRC_A_CONN_EV_STATE, MRC_A_CONN_EV_OLD_STATE */
enum mrc_conn_ev_state {
	MRC_CONN_EV_UNKNOWN	= 0,
	MRC_CONN_EV_GOOD	= 1,	/* used for spraying */
	MRC_CONN_EV_ASSUMED_BAD	= 2,	/* lost a packet: probed, not used */
	MRC_CONN_EV_DENIED	= 3,	/* the controller forbids it */
};

/* MRC_A_CONN_EV_REASON */
enum mrc_conn_ev_reason {
	MRC_CONN_EVR_CONFIG	= 0,	/* EV set installed or replaced */
	MRC_CONN_EVR_LOSS	= 1,	/* a packet sent on it was lost */
	MRC_CONN_EVR_TIMEOUT	= 2,	/* an ACK timeout blamed it */
	MRC_CONN_EVR_PROBE_OK	= 3,	/* a probe on it came back */
	MRC_CONN_EVR_MIN_ACTIVE	= 4,	/* restored to keep ev_min_active */
	MRC_CONN_EVR_CONTROLLER	= 5,	/* denied or allowed by the controller */
};

#endif /* _UAPI_LINUX_MRC_H */
