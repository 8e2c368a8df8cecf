/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MRC wire format: decoded views and bounds-checked encode/decode.
 *
 * Documentation/networking/mrc.rst describes every byte; keep the two in
 * step.  On the wire an MRC packet is, inside UDP (destination port 4791 by
 * default):
 *
 *   common header (28 bytes) | opcode extension header | payload | ICRC (4)
 *
 * All multi-byte fields are big endian.  The decoder never reads past the
 * buffer it is given and the payload it returns points into that buffer
 * (zero copy).  PSN arithmetic (wrap-safe comparisons) lives in psn.h.
 */
#ifndef _MRC_PROTO_WIRE_H
#define _MRC_PROTO_WIRE_H

#include "os.h"

#define MRC_UDP_PORT		4791
#define MRC_WIRE_VERSION	1

#define MRC_COMMON_HDR_LEN	28
#define MRC_ICRC_LEN		4
/* Largest extension header of an opcode that carries payload (WRITE_IMM):
 * with the common header and the ICRC it bounds a data packet's overhead.
 */
#define MRC_MAX_DATA_EXT_LEN	28
#define MRC_QPN_MASK		0x00ffffffu	/* QPNs are 24 bits */
#define MRC_MAX_PLANES		16		/* planes are 1..16 */
#define MRC_MAX_PAYLOAD		0xffffu		/* payload_len is 16 bits */

/* SACK bitmap carried by every ACK: bit i acknowledges PSN sack_base + i. */
#define MRC_SACK_BITS		256
#define MRC_SACK_WORDS		(MRC_SACK_BITS / 64)

enum mrc_opcode {
	MRC_OP_SEND		= 0x01,
	MRC_OP_SEND_IMM		= 0x02,
	MRC_OP_WRITE		= 0x03,
	MRC_OP_WRITE_IMM	= 0x04,
	MRC_OP_READ_REQ		= 0x05,
	MRC_OP_READ_RESP	= 0x06,
	MRC_OP_ATOMIC_CS	= 0x07,	/* compare and swap */
	MRC_OP_ATOMIC_FA	= 0x08,	/* fetch and add */
	MRC_OP_ATOMIC_RESP	= 0x09,
	MRC_OP_SEND_INV		= 0x0a,	/* SEND with invalidate (imm: rkey) */
	MRC_OP_UD_SEND		= 0x40,	/* datagram (UD QPs), one packet */
	MRC_OP_UD_SEND_IMM	= 0x41,	/* datagram with immediate data */
	MRC_OP_ACK		= 0x10,
	MRC_OP_NACK		= 0x11,
	MRC_OP_PROBE_REQ	= 0x20,
	MRC_OP_PROBE_RESP	= 0x21,
	MRC_OP_PORT_STATUS	= 0x30,
};

/* Common header flags (16 bits); any other bit set is rejected. */
#define MRC_F_FIRST		0x0001	/* first packet of a message */
#define MRC_F_LAST		0x0002	/* last packet of a message */
#define MRC_F_ACK_REQ		0x0004	/* responder should ACK at once */
#define MRC_F_RETX		0x0008	/* this is a retransmission */
#define MRC_F_SOLICITED		0x0010	/* solicited event (with LAST) */
#define MRC_F_ALL		0x001f

/* ACK "ecn" byte. */
#define MRC_ACK_ECN_CE		0x01	/* triggering packet was CE marked */
#define MRC_ACK_ECN_ALL		0x01

enum mrc_nack_reason {
	MRC_NACK_OUT_OF_WINDOW		= 1,	/* beyond the reorder window */
	MRC_NACK_TRIMMED		= 2,	/* payload cut by a switch */
	MRC_NACK_REMOTE_ACCESS_ERROR	= 3,	/* rkey/bounds/access check */
	MRC_NACK_INVALID_REQUEST	= 4,	/* malformed or unsupported */
	MRC_NACK_RNR			= 5,	/* retry after rnr_timer_us */
};

/* Decode/encode failures.  Functions return the negative value; every
 * reason is distinct so that the kernel can count drops per reason.
 */
enum mrc_wire_err {
	MRC_WIRE_OK = 0,
	MRC_WIRE_ETRUNC,	/* buffer shorter than the headers say */
	MRC_WIRE_EVERSION,	/* unsupported version */
	MRC_WIRE_EOPCODE,	/* unknown opcode */
	MRC_WIRE_EFLAGS,	/* unknown flag or forbidden combination */
	MRC_WIRE_EQPN,		/* QPN does not fit 24 bits */
	MRC_WIRE_EPLANE,	/* plane 0 or > MRC_MAX_PLANES */
	MRC_WIRE_ERESERVED,	/* reserved field not zero */
	MRC_WIRE_EPAYLOAD_LEN,	/* payload_len disagrees with the packet size */
	MRC_WIRE_EPAYLOAD,	/* payload where none allowed (or missing) */
	MRC_WIRE_ERANGE,	/* offset/length fields inconsistent */
	MRC_WIRE_EREASON,	/* unknown NACK reason */
	MRC_WIRE_EICRC,		/* ICRC mismatch */
	MRC_WIRE_ENOSPC,	/* encode: output buffer too small */
	MRC_WIRE_NR_ERR
};

/* Common header, decoded. */
struct mrc_hdr {
	u8 version;
	u8 opcode;		/* enum mrc_opcode */
	u16 flags;		/* MRC_F_* */
	u32 dqpn;		/* destination QPN (24 bits) */
	u32 sqpn;		/* source QPN (24 bits) */
	u32 psn;
	u16 ev;			/* sender's EV index this packet travels on */
	u8 plane;		/* 1..MRC_MAX_PLANES, the plane it travels on */
	u32 ts;			/* sender time (ns, wraps), echoed for RTT */
};

/* Message placement shared by SEND/SEND_IMM, WRITE*, READ_RESP. */
struct mrc_msg_ext {
	u32 msn;		/* message sequence number */
	u32 offset;		/* byte offset of this payload in the message */
	u32 msg_len;		/* total message length in bytes */
};

/* SEND, SEND_IMM, READ_RESP. */
struct mrc_send_ext {
	struct mrc_msg_ext msg;
	u32 imm;		/* SEND_IMM: immediate (network order value);
				 * SEND_INV: the rkey to invalidate
				 */
};

/* WRITE, WRITE_IMM: va is where THIS packet's payload goes. */
struct mrc_write_ext {
	u64 va;
	u32 rkey;
	struct mrc_msg_ext msg;
	u32 imm;		/* WRITE_IMM only */
};

/* UD_SEND, UD_SEND_IMM (the DETH of RoCE; the source QPN is hdr.sqpn). */
struct mrc_ud_ext {
	u32 qkey;		/* must match the receiving QP's Q_Key */
	u32 imm;		/* UD_SEND_IMM: immediate; UD_SEND: reserved */
};

struct mrc_read_req_ext {
	u64 va;			/* responder's address to read from */
	u32 rkey;
	u32 len;		/* bytes to read */
	u32 msn;		/* requester's read message sequence */
};

/* ATOMIC_CS (swap_add = swap value, compare used) and ATOMIC_FA (add). */
struct mrc_atomic_ext {
	u64 va;			/* 8-byte aligned */
	u32 rkey;
	u32 msn;
	u64 swap_add;
	u64 compare;		/* ATOMIC_CS only; must be 0 for ATOMIC_FA */
};

struct mrc_atomic_resp_ext {
	u32 msn;
	u64 orig;		/* value before the atomic operation */
};

struct mrc_ack_ext {
	u32 cum_psn;		/* every PSN before cum_psn was received */
	u32 sack_base;		/* PSN of bit 0 of sack[] */
	u64 sack[MRC_SACK_WORDS]; /* word w bit b (LSB 0): PSN base + 64w + b */
	u16 echo_ev;		/* EV index of the packet that triggered it */
	u8 echo_plane;		/* and its plane (1..MRC_MAX_PLANES) */
	u8 ecn;			/* MRC_ACK_ECN_* of that packet */
	u32 ts_echo;		/* its hdr.ts */
	u32 svc_time;		/* responder service time (ns) */
	u32 msn;		/* completed message sequence number */
};

struct mrc_nack_ext {
	u32 psn;		/* the PSN being NACKed */
	u32 cum_psn;		/* as in ACK */
	u16 echo_ev;
	u8 echo_plane;
	u8 reason;		/* enum mrc_nack_reason */
	u32 ts_echo;
	u32 rnr_timer_us;	/* RNR only: retry after this long; else 0 */
};

/* PROBE_REQ / PROBE_RESP.  Probes are connectionless: hdr.dqpn/sqpn may be
 * 0.  The request's hdr.ts is the send time; the response echoes it in
 * ts_echo and names the probed (ev, plane) so that the prober can match it.
 */
struct mrc_probe_ext {
	u32 probe_id;
	u16 ev;			/* probed EV index (the request's hdr.ev) */
	u8 plane;		/* probed plane (1..MRC_MAX_PLANES) */
	u32 ts_echo;		/* RESP: request's hdr.ts; REQ: 0 */
	u32 svc_time;		/* RESP: responder turnaround (ns); REQ: 0 */
};

struct mrc_port_status_ext {
	u32 seq;		/* newer status has a larger (wrapping) seq */
	u16 up_planes;		/* bit p-1 set: plane p is up */
};

/* One decoded packet.  payload points into the decoded buffer. */
struct mrc_pkt {
	struct mrc_hdr hdr;
	union {
		struct mrc_send_ext send;	/* SEND, SEND_IMM, READ_RESP */
		struct mrc_write_ext write;	/* WRITE, WRITE_IMM */
		struct mrc_read_req_ext read_req;
		struct mrc_atomic_ext atomic;	/* ATOMIC_CS, ATOMIC_FA */
		struct mrc_atomic_resp_ext atomic_resp;
		struct mrc_ack_ext ack;
		struct mrc_nack_ext nack;
		struct mrc_probe_ext probe;	/* PROBE_REQ, PROBE_RESP */
		struct mrc_port_status_ext port_status;
		struct mrc_ud_ext ud;		/* UD_SEND, UD_SEND_IMM */
	} u;
	const u8 *payload;
	u32 payload_len;
};

/* Decode options. */
#define MRC_DECODE_NO_ICRC	0x1	/* caller verified the ICRC itself */

/* Zero @pkt and set the current version and @opcode. */
void mrc_pkt_init(struct mrc_pkt *pkt, u8 opcode);

/* Semantic validation of a decoded view, shared by encoder and decoder:
 * version, opcode, flags, QPNs, planes, reasons, offsets and lengths.
 * Returns 0 or a negative MRC_WIRE_E*.
 */
int mrc_pkt_check(const struct mrc_pkt *pkt);

/* Extension header length of @opcode, or negative if unknown. */
int mrc_ext_hdr_len(u8 opcode);
/* Common + extension header length, or negative if unknown. */
int mrc_hdr_len(u8 opcode);
/* Whole packet length for @opcode with @payload_len bytes, or negative. */
int mrc_pkt_len(u8 opcode, u32 payload_len);
/* True if @opcode may carry a payload. */
bool mrc_opcode_has_payload(u8 opcode);
/* True for the datagram opcodes of UD QPs (no engine connection). */
bool mrc_opcode_is_ud(u8 opcode);
const char *mrc_opcode_name(u8 opcode);
const char *mrc_nack_reason_name(u8 reason);
/* Short text of MRC_WIRE_E* (positive or negative). */
const char *mrc_wire_strerror(int err);

/* Validate @pkt (as the decoder would) and write its headers only, payload
 * and ICRC excluded.  For building skbs: headers, then payload pages, then
 * the ICRC computed with the mrc_icrc_* API.  Returns the header length or
 * a negative MRC_WIRE_E*.
 */
int mrc_pkt_encode_hdr(const struct mrc_pkt *pkt, u8 *buf, u32 buflen);

/* Encode a whole packet: headers, pkt->payload (pkt->payload_len bytes)
 * and ICRC.  Returns bytes written or a negative MRC_WIRE_E*.
 */
int mrc_pkt_encode(const struct mrc_pkt *pkt, u8 *buf, u32 buflen);

/* Decode and validate @len bytes (the UDP payload).  Returns 0 or a
 * negative MRC_WIRE_E*; @out is meaningful only on success.
 */
int mrc_pkt_decode(const u8 *buf, u32 len, struct mrc_pkt *out);
int mrc_pkt_decode_opts(const u8 *buf, u32 len, struct mrc_pkt *out,
			u32 opts);

/* For packets whose payload is not contiguous with the headers (paged
 * skbs): decode and validate the headers in @buf (@avail >= the header
 * length) of a packet of @pkt_len bytes in all (ICRC included).  The ICRC
 * is NOT checked (the caller runs mrc_icrc_* over the pieces and compares
 * with the last 4 bytes); out->payload is NULL and the payload starts at
 * mrc_hdr_len(opcode).  Returns 0 or a negative MRC_WIRE_E*.
 */
int mrc_pkt_decode_hdr(const u8 *buf, u32 avail, u32 pkt_len,
		       struct mrc_pkt *out);

/* A packet a switch trimmed (Documentation/networking/mrc.rst, "Trimmed
 * packets"): a data opcode whose header says payload_len >= 1, of which
 * @len bytes arrived (the UDP payload), at least the headers and fewer
 * than the whole packet; @avail >= the header length of them are in @buf.
 * The headers get every check of mrc_pkt_decode_hdr() against the full
 * packet they describe; the bytes after them are not looked at (no ICRC
 * to check).  On success out->payload is NULL and out->payload_len is the
 * length the sender sent.  Returns 0 or a negative MRC_WIRE_E*:
 * EPAYLOAD for an opcode without payload or a packet with none,
 * EPAYLOAD_LEN if the whole packet arrived (it is not trimmed).
 */
int mrc_pkt_decode_trimmed(const u8 *buf, u32 avail, u32 len,
			   struct mrc_pkt *out);

#endif /* _MRC_PROTO_WIRE_H */
