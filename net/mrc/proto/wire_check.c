// SPDX-License-Identifier: GPL-2.0-only
/*
 * Semantic validation of MRC packets.  The encoder runs it so that we never
 * emit what a peer would drop; the decoder runs it so that the engine and
 * the placement code can trust every field they are given.
 */
#include "wire.h"

/* Largest message (and READ length) a packet may describe: 2 GiB. */
#define MRC_MAX_MSG_LEN		0x80000000u

/* Flags allowed on single-packet requests and responses. */
#define MRC_F_SINGLE		(MRC_F_FIRST | MRC_F_LAST | MRC_F_ACK_REQ | \
				 MRC_F_RETX)

void mrc_pkt_init(struct mrc_pkt *pkt, u8 opcode)
{
	mrc_memset(pkt, 0, sizeof(*pkt));
	pkt->hdr.version = MRC_WIRE_VERSION;
	pkt->hdr.opcode = opcode;
}

static bool mrc_plane_ok(u8 plane)
{
	return plane >= 1 && plane <= MRC_MAX_PLANES;
}

static bool mrc_va_range_ok(u64 va, u64 len)
{
	return va + len >= va;	/* no wrap past 2^64 */
}

/* A payload-carrying packet of a message: where it sits in the message
 * must agree with FIRST/LAST, so that the responder can tell when every
 * byte of a message has been placed.
 */
static int mrc_check_msg(const struct mrc_hdr *h, const struct mrc_msg_ext *m,
			 u32 payload_len, bool solicited_ok)
{
	u64 end = (u64)m->offset + payload_len;
	bool first = !m->offset, last = end == m->msg_len;

	if ((h->flags & MRC_F_SOLICITED) &&
	    (!solicited_ok || !(h->flags & MRC_F_LAST)))
		return -MRC_WIRE_EFLAGS;
	if (m->msg_len > MRC_MAX_MSG_LEN || end > m->msg_len)
		return -MRC_WIRE_ERANGE;
	if (!!(h->flags & MRC_F_FIRST) != first)
		return -MRC_WIRE_ERANGE;
	if (!!(h->flags & MRC_F_LAST) != last)
		return -MRC_WIRE_ERANGE;
	/* Only a zero-length message may have a packet without payload. */
	if (payload_len == 0 && m->msg_len != 0)
		return -MRC_WIRE_EPAYLOAD;
	return 0;
}

/* READ_REQ, atomics and their responses are exactly one packet. */
static int mrc_check_single(const struct mrc_pkt *pkt)
{
	const u16 fl = pkt->hdr.flags;

	if ((fl & ~MRC_F_SINGLE) ||
	    (fl & (MRC_F_FIRST | MRC_F_LAST)) != (MRC_F_FIRST | MRC_F_LAST))
		return -MRC_WIRE_EFLAGS;
	if (pkt->payload_len)
		return -MRC_WIRE_EPAYLOAD;
	return 0;
}

/* ACK, NACK, probes and port status: no flags, no payload. */
static int mrc_check_control(const struct mrc_pkt *pkt)
{
	if (pkt->hdr.flags)
		return -MRC_WIRE_EFLAGS;
	if (pkt->payload_len)
		return -MRC_WIRE_EPAYLOAD;
	return 0;
}

/* A datagram is one whole message: FIRST and LAST, SOLICITED allowed,
 * never ACK_REQ or RETX (nothing acknowledges or resends it).  UD_SEND
 * has no immediate: its slot is reserved.
 */
static int mrc_check_ud(const struct mrc_pkt *pkt)
{
	const u16 fl = pkt->hdr.flags;
	const u16 both = MRC_F_FIRST | MRC_F_LAST;

	if ((fl & ~(both | MRC_F_SOLICITED)) || (fl & both) != both)
		return -MRC_WIRE_EFLAGS;
	if (pkt->hdr.opcode == MRC_OP_UD_SEND && pkt->u.ud.imm)
		return -MRC_WIRE_ERESERVED;
	return 0;
}

static int mrc_check_ext(const struct mrc_pkt *pkt)
{
	const struct mrc_hdr *h = &pkt->hdr;
	int err;

	switch (h->opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_READ_RESP:
		return mrc_check_msg(h, &pkt->u.send.msg, pkt->payload_len,
				     h->opcode != MRC_OP_READ_RESP);
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
		if (!mrc_va_range_ok(pkt->u.write.va, pkt->payload_len))
			return -MRC_WIRE_ERANGE;
		return mrc_check_msg(h, &pkt->u.write.msg, pkt->payload_len,
				     h->opcode == MRC_OP_WRITE_IMM);
	case MRC_OP_READ_REQ:
		err = mrc_check_single(pkt);
		if (err)
			return err;
		if (pkt->u.read_req.len > MRC_MAX_MSG_LEN ||
		    !mrc_va_range_ok(pkt->u.read_req.va, pkt->u.read_req.len))
			return -MRC_WIRE_ERANGE;
		return 0;
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		err = mrc_check_single(pkt);
		if (err)
			return err;
		if (pkt->u.atomic.va & 7)
			return -MRC_WIRE_ERANGE;
		/* FA has no compare operand: its slot is reserved. */
		if (h->opcode == MRC_OP_ATOMIC_FA && pkt->u.atomic.compare)
			return -MRC_WIRE_ERESERVED;
		return 0;
	case MRC_OP_ATOMIC_RESP:
		return mrc_check_single(pkt);
	case MRC_OP_ACK:
		err = mrc_check_control(pkt);
		if (err)
			return err;
		if (!mrc_plane_ok(pkt->u.ack.echo_plane))
			return -MRC_WIRE_EPLANE;
		if (pkt->u.ack.ecn & ~MRC_ACK_ECN_ALL)
			return -MRC_WIRE_ERESERVED;
		return 0;
	case MRC_OP_NACK:
		err = mrc_check_control(pkt);
		if (err)
			return err;
		if (!mrc_plane_ok(pkt->u.nack.echo_plane))
			return -MRC_WIRE_EPLANE;
		if (pkt->u.nack.reason < MRC_NACK_OUT_OF_WINDOW ||
		    pkt->u.nack.reason > MRC_NACK_RNR)
			return -MRC_WIRE_EREASON;
		if (pkt->u.nack.reason != MRC_NACK_RNR &&
		    pkt->u.nack.rnr_timer_us)
			return -MRC_WIRE_ERESERVED;
		return 0;
	case MRC_OP_PROBE_REQ:
	case MRC_OP_PROBE_RESP:
		err = mrc_check_control(pkt);
		if (err)
			return err;
		if (!mrc_plane_ok(pkt->u.probe.plane))
			return -MRC_WIRE_EPLANE;
		/* A request has nothing to echo yet. */
		if (h->opcode == MRC_OP_PROBE_REQ &&
		    (pkt->u.probe.ts_echo || pkt->u.probe.svc_time))
			return -MRC_WIRE_ERESERVED;
		return 0;
	case MRC_OP_PORT_STATUS:
		return mrc_check_control(pkt);
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		return mrc_check_ud(pkt);
	default:
		return -MRC_WIRE_EOPCODE;
	}
}

int mrc_pkt_check(const struct mrc_pkt *pkt)
{
	const struct mrc_hdr *h = &pkt->hdr;

	if (h->version != MRC_WIRE_VERSION)
		return -MRC_WIRE_EVERSION;
	if (mrc_ext_hdr_len(h->opcode) < 0)
		return -MRC_WIRE_EOPCODE;
	if (h->flags & ~MRC_F_ALL)
		return -MRC_WIRE_EFLAGS;
	if ((h->dqpn | h->sqpn) & ~MRC_QPN_MASK)
		return -MRC_WIRE_EQPN;
	if (!mrc_plane_ok(h->plane))
		return -MRC_WIRE_EPLANE;
	if (pkt->payload_len > MRC_MAX_PAYLOAD)
		return -MRC_WIRE_EPAYLOAD_LEN;
	return mrc_check_ext(pkt);
}
