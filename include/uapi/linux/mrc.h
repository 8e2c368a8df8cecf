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

	__MRC_EVENT_MAX,
	MRC_EVENT_MAX = __MRC_EVENT_MAX - 1
};

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

	__MRC_A_MAX,
	MRC_A_MAX = __MRC_A_MAX - 1
};

#endif /* _UAPI_LINUX_MRC_H */
