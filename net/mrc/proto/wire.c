// SPDX-License-Identifier: GPL-2.0-only
/*
 * MRC wire encode/decode.  Byte layout: Documentation/networking/mrc.rst.
 *
 * Each extension header has one writer and one reader below, side by side,
 * at fixed offsets, so that a layout change shows up in both at once.  The
 * decoder checks the length before touching a byte, the ICRC before
 * trusting a field, and hands the result to mrc_pkt_check() (the same rules
 * the encoder enforces), so a decoded packet is always one that
 * mrc_pkt_encode() would have produced.
 */
#include "wire.h"
#include "icrc.h"

/* Common header offsets. */
#define OFF_VERSION	0
#define OFF_OPCODE	1
#define OFF_FLAGS	2
#define OFF_DQPN	4
#define OFF_SQPN	8
#define OFF_PSN		12
#define OFF_EV		16
#define OFF_PLANE	18
#define OFF_RSVD1	19
#define OFF_TS		20
#define OFF_PAYLEN	24
#define OFF_RSVD2	26

/* Extension header lengths. */
#define EXT_SEND	12
#define EXT_SEND_IMM	16
#define EXT_WRITE	24
#define EXT_WRITE_IMM	28
#define EXT_READ_REQ	20
#define EXT_ATOMIC	32
#define EXT_ATOMIC_RESP	12
#define EXT_ACK		56
#define EXT_NACK	20
#define EXT_PROBE	16
#define EXT_PORT_STATUS	8
#define EXT_UD		8

int mrc_ext_hdr_len(u8 opcode)
{
	switch (opcode) {
	case MRC_OP_SEND:
	case MRC_OP_READ_RESP:
		return EXT_SEND;
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
		return EXT_SEND_IMM;
	case MRC_OP_WRITE:
		return EXT_WRITE;
	case MRC_OP_WRITE_IMM:
		return EXT_WRITE_IMM;
	case MRC_OP_READ_REQ:
		return EXT_READ_REQ;
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		return EXT_ATOMIC;
	case MRC_OP_ATOMIC_RESP:
		return EXT_ATOMIC_RESP;
	case MRC_OP_ACK:
		return EXT_ACK;
	case MRC_OP_NACK:
		return EXT_NACK;
	case MRC_OP_PROBE_REQ:
	case MRC_OP_PROBE_RESP:
		return EXT_PROBE;
	case MRC_OP_PORT_STATUS:
		return EXT_PORT_STATUS;
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		return EXT_UD;
	default:
		return -MRC_WIRE_EOPCODE;
	}
}

int mrc_hdr_len(u8 opcode)
{
	int ext = mrc_ext_hdr_len(opcode);

	return ext < 0 ? ext : MRC_COMMON_HDR_LEN + ext;
}

int mrc_pkt_len(u8 opcode, u32 payload_len)
{
	int hl = mrc_hdr_len(opcode);

	if (hl < 0)
		return hl;
	if (payload_len > MRC_MAX_PAYLOAD)
		return -MRC_WIRE_EPAYLOAD_LEN;
	return hl + (int)payload_len + MRC_ICRC_LEN;
}

bool mrc_opcode_has_payload(u8 opcode)
{
	switch (opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
	case MRC_OP_READ_RESP:
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		return true;
	default:
		return false;
	}
}

bool mrc_opcode_is_ud(u8 opcode)
{
	return opcode == MRC_OP_UD_SEND || opcode == MRC_OP_UD_SEND_IMM;
}

/* Message placement: msn, offset, msg_len. */
static void put_msg(u8 *p, const struct mrc_msg_ext *m)
{
	mrc_put_be32(p, m->msn);
	mrc_put_be32(p + 4, m->offset);
	mrc_put_be32(p + 8, m->msg_len);
}

static void get_msg(const u8 *p, struct mrc_msg_ext *m)
{
	m->msn = mrc_get_be32(p);
	m->offset = mrc_get_be32(p + 4);
	m->msg_len = mrc_get_be32(p + 8);
}

static void put_ext(const struct mrc_pkt *pkt, u8 *p)
{
	const u8 op = pkt->hdr.opcode;
	int i;

	switch (op) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_READ_RESP:
		put_msg(p, &pkt->u.send.msg);
		if (op == MRC_OP_SEND_IMM || op == MRC_OP_SEND_INV)
			mrc_put_be32(p + 12, pkt->u.send.imm);
		break;
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
		mrc_put_be64(p, pkt->u.write.va);
		mrc_put_be32(p + 8, pkt->u.write.rkey);
		put_msg(p + 12, &pkt->u.write.msg);
		if (op == MRC_OP_WRITE_IMM)
			mrc_put_be32(p + 24, pkt->u.write.imm);
		break;
	case MRC_OP_READ_REQ:
		mrc_put_be64(p, pkt->u.read_req.va);
		mrc_put_be32(p + 8, pkt->u.read_req.rkey);
		mrc_put_be32(p + 12, pkt->u.read_req.len);
		mrc_put_be32(p + 16, pkt->u.read_req.msn);
		break;
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		mrc_put_be64(p, pkt->u.atomic.va);
		mrc_put_be32(p + 8, pkt->u.atomic.rkey);
		mrc_put_be32(p + 12, pkt->u.atomic.msn);
		mrc_put_be64(p + 16, pkt->u.atomic.swap_add);
		mrc_put_be64(p + 24, pkt->u.atomic.compare);
		break;
	case MRC_OP_ATOMIC_RESP:
		mrc_put_be32(p, pkt->u.atomic_resp.msn);
		mrc_put_be64(p + 4, pkt->u.atomic_resp.orig);
		break;
	case MRC_OP_ACK:
		mrc_put_be32(p, pkt->u.ack.cum_psn);
		mrc_put_be32(p + 4, pkt->u.ack.sack_base);
		for (i = 0; i < MRC_SACK_WORDS; i++)
			mrc_put_be64(p + 8 + 8 * i, pkt->u.ack.sack[i]);
		mrc_put_be16(p + 40, pkt->u.ack.echo_ev);
		p[42] = pkt->u.ack.echo_plane;
		p[43] = pkt->u.ack.ecn;
		mrc_put_be32(p + 44, pkt->u.ack.ts_echo);
		mrc_put_be32(p + 48, pkt->u.ack.svc_time);
		mrc_put_be32(p + 52, pkt->u.ack.msn);
		break;
	case MRC_OP_NACK:
		mrc_put_be32(p, pkt->u.nack.psn);
		mrc_put_be32(p + 4, pkt->u.nack.cum_psn);
		mrc_put_be16(p + 8, pkt->u.nack.echo_ev);
		p[10] = pkt->u.nack.echo_plane;
		p[11] = pkt->u.nack.reason;
		mrc_put_be32(p + 12, pkt->u.nack.ts_echo);
		mrc_put_be32(p + 16, pkt->u.nack.rnr_timer_us);
		break;
	case MRC_OP_PROBE_REQ:
	case MRC_OP_PROBE_RESP:
		mrc_put_be32(p, pkt->u.probe.probe_id);
		mrc_put_be16(p + 4, pkt->u.probe.ev);
		p[6] = pkt->u.probe.plane;
		p[7] = 0;
		mrc_put_be32(p + 8, pkt->u.probe.ts_echo);
		mrc_put_be32(p + 12, pkt->u.probe.svc_time);
		break;
	case MRC_OP_PORT_STATUS:
		mrc_put_be32(p, pkt->u.port_status.seq);
		mrc_put_be16(p + 4, pkt->u.port_status.up_planes);
		mrc_put_be16(p + 6, 0);
		break;
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		mrc_put_be32(p, pkt->u.ud.qkey);
		mrc_put_be32(p + 4, op == MRC_OP_UD_SEND_IMM ?
				    pkt->u.ud.imm : 0);
		break;
	}
}

/* Returns 0 or -MRC_WIRE_ERESERVED for a non-zero reserved byte. */
static int get_ext(const u8 *p, struct mrc_pkt *pkt)
{
	const u8 op = pkt->hdr.opcode;
	int i;

	switch (op) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_READ_RESP:
		get_msg(p, &pkt->u.send.msg);
		if (op == MRC_OP_SEND_IMM || op == MRC_OP_SEND_INV)
			pkt->u.send.imm = mrc_get_be32(p + 12);
		break;
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
		pkt->u.write.va = mrc_get_be64(p);
		pkt->u.write.rkey = mrc_get_be32(p + 8);
		get_msg(p + 12, &pkt->u.write.msg);
		if (op == MRC_OP_WRITE_IMM)
			pkt->u.write.imm = mrc_get_be32(p + 24);
		break;
	case MRC_OP_READ_REQ:
		pkt->u.read_req.va = mrc_get_be64(p);
		pkt->u.read_req.rkey = mrc_get_be32(p + 8);
		pkt->u.read_req.len = mrc_get_be32(p + 12);
		pkt->u.read_req.msn = mrc_get_be32(p + 16);
		break;
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		pkt->u.atomic.va = mrc_get_be64(p);
		pkt->u.atomic.rkey = mrc_get_be32(p + 8);
		pkt->u.atomic.msn = mrc_get_be32(p + 12);
		pkt->u.atomic.swap_add = mrc_get_be64(p + 16);
		pkt->u.atomic.compare = mrc_get_be64(p + 24);
		break;
	case MRC_OP_ATOMIC_RESP:
		pkt->u.atomic_resp.msn = mrc_get_be32(p);
		pkt->u.atomic_resp.orig = mrc_get_be64(p + 4);
		break;
	case MRC_OP_ACK:
		pkt->u.ack.cum_psn = mrc_get_be32(p);
		pkt->u.ack.sack_base = mrc_get_be32(p + 4);
		for (i = 0; i < MRC_SACK_WORDS; i++)
			pkt->u.ack.sack[i] = mrc_get_be64(p + 8 + 8 * i);
		pkt->u.ack.echo_ev = mrc_get_be16(p + 40);
		pkt->u.ack.echo_plane = p[42];
		pkt->u.ack.ecn = p[43];
		pkt->u.ack.ts_echo = mrc_get_be32(p + 44);
		pkt->u.ack.svc_time = mrc_get_be32(p + 48);
		pkt->u.ack.msn = mrc_get_be32(p + 52);
		break;
	case MRC_OP_NACK:
		pkt->u.nack.psn = mrc_get_be32(p);
		pkt->u.nack.cum_psn = mrc_get_be32(p + 4);
		pkt->u.nack.echo_ev = mrc_get_be16(p + 8);
		pkt->u.nack.echo_plane = p[10];
		pkt->u.nack.reason = p[11];
		pkt->u.nack.ts_echo = mrc_get_be32(p + 12);
		pkt->u.nack.rnr_timer_us = mrc_get_be32(p + 16);
		break;
	case MRC_OP_PROBE_REQ:
	case MRC_OP_PROBE_RESP:
		pkt->u.probe.probe_id = mrc_get_be32(p);
		pkt->u.probe.ev = mrc_get_be16(p + 4);
		pkt->u.probe.plane = p[6];
		pkt->u.probe.ts_echo = mrc_get_be32(p + 8);
		pkt->u.probe.svc_time = mrc_get_be32(p + 12);
		if (p[7])
			return -MRC_WIRE_ERESERVED;
		break;
	case MRC_OP_PORT_STATUS:
		pkt->u.port_status.seq = mrc_get_be32(p);
		pkt->u.port_status.up_planes = mrc_get_be16(p + 4);
		if (mrc_get_be16(p + 6))
			return -MRC_WIRE_ERESERVED;
		break;
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		pkt->u.ud.qkey = mrc_get_be32(p);
		pkt->u.ud.imm = mrc_get_be32(p + 4);
		break;
	}
	return 0;
}

int mrc_pkt_encode_hdr(const struct mrc_pkt *pkt, u8 *buf, u32 buflen)
{
	const struct mrc_hdr *h = &pkt->hdr;
	int err = mrc_pkt_check(pkt);
	int hl;

	if (err)
		return err;
	hl = mrc_hdr_len(h->opcode);
	if (buflen < (u32)hl)
		return -MRC_WIRE_ENOSPC;

	buf[OFF_VERSION] = h->version;
	buf[OFF_OPCODE] = h->opcode;
	mrc_put_be16(buf + OFF_FLAGS, h->flags);
	mrc_put_be32(buf + OFF_DQPN, h->dqpn);
	mrc_put_be32(buf + OFF_SQPN, h->sqpn);
	mrc_put_be32(buf + OFF_PSN, h->psn);
	mrc_put_be16(buf + OFF_EV, h->ev);
	buf[OFF_PLANE] = h->plane;
	buf[OFF_RSVD1] = 0;
	mrc_put_be32(buf + OFF_TS, h->ts);
	mrc_put_be16(buf + OFF_PAYLEN, (u16)pkt->payload_len);
	mrc_put_be16(buf + OFF_RSVD2, 0);
	put_ext(pkt, buf + MRC_COMMON_HDR_LEN);
	return hl;
}

int mrc_pkt_encode(const struct mrc_pkt *pkt, u8 *buf, u32 buflen)
{
	int hl, total;
	u32 icrc;

	if (pkt->payload_len && !pkt->payload)
		return -MRC_WIRE_EPAYLOAD;
	total = mrc_pkt_len(pkt->hdr.opcode, pkt->payload_len);
	if (total < 0)
		return total;
	if (buflen < (u32)total) {
		/* Report a semantic error first: it is the caller's bug. */
		int err = mrc_pkt_check(pkt);

		return err ? err : -MRC_WIRE_ENOSPC;
	}
	hl = mrc_pkt_encode_hdr(pkt, buf, buflen);
	if (hl < 0)
		return hl;
	if (pkt->payload_len)
		mrc_memcpy(buf + hl, pkt->payload, pkt->payload_len);
	icrc = mrc_icrc(buf, (u32)hl + pkt->payload_len);
	mrc_put_be32(buf + hl + pkt->payload_len, icrc);
	return total;
}

/* Internal decode option: the payload and ICRC are not in the buffer. */
#define MRC_DECODE_HDR_ONLY	0x80000000u

/* Decode a packet of @len bytes whose first @avail bytes are in @buf (all
 * of them unless MRC_DECODE_HDR_ONLY, which implies no ICRC check).
 */
static int mrc_decode(const u8 *buf, u32 avail, u32 len, struct mrc_pkt *out,
		      u32 opts)
{
	struct mrc_hdr *h = &out->hdr;
	u32 body;
	int hl, err;

	if (avail < MRC_COMMON_HDR_LEN ||
	    len < MRC_COMMON_HDR_LEN + MRC_ICRC_LEN)
		return -MRC_WIRE_ETRUNC;
	if (buf[OFF_VERSION] != MRC_WIRE_VERSION)
		return -MRC_WIRE_EVERSION;
	hl = mrc_hdr_len(buf[OFF_OPCODE]);
	if (hl < 0)
		return hl;
	body = (u32)hl + mrc_get_be16(buf + OFF_PAYLEN);
	if (len < body + MRC_ICRC_LEN || avail < (u32)hl)
		return -MRC_WIRE_ETRUNC;
	if (len > body + MRC_ICRC_LEN)
		return -MRC_WIRE_EPAYLOAD_LEN;
	/* Everything the checks below read is inside the buffer. */
	if (!(opts & (MRC_DECODE_NO_ICRC | MRC_DECODE_HDR_ONLY)) &&
	    mrc_icrc(buf, body) != mrc_get_be32(buf + body))
		return -MRC_WIRE_EICRC;
	if (buf[OFF_RSVD1] || mrc_get_be16(buf + OFF_RSVD2))
		return -MRC_WIRE_ERESERVED;

	mrc_memset(out, 0, sizeof(*out));
	h->version = buf[OFF_VERSION];
	h->opcode = buf[OFF_OPCODE];
	h->flags = mrc_get_be16(buf + OFF_FLAGS);
	h->dqpn = mrc_get_be32(buf + OFF_DQPN);
	h->sqpn = mrc_get_be32(buf + OFF_SQPN);
	h->psn = mrc_get_be32(buf + OFF_PSN);
	h->ev = mrc_get_be16(buf + OFF_EV);
	h->plane = buf[OFF_PLANE];
	h->ts = mrc_get_be32(buf + OFF_TS);
	out->payload_len = body - (u32)hl;
	if (out->payload_len && !(opts & MRC_DECODE_HDR_ONLY))
		out->payload = buf + hl;
	err = get_ext(buf + MRC_COMMON_HDR_LEN, out);
	if (err)
		return err;
	return mrc_pkt_check(out);
}

int mrc_pkt_decode_opts(const u8 *buf, u32 len, struct mrc_pkt *out,
			u32 opts)
{
	return mrc_decode(buf, len, len, out, opts & MRC_DECODE_NO_ICRC);
}

int mrc_pkt_decode(const u8 *buf, u32 len, struct mrc_pkt *out)
{
	return mrc_decode(buf, len, len, out, 0);
}

int mrc_pkt_decode_hdr(const u8 *buf, u32 avail, u32 pkt_len,
		       struct mrc_pkt *out)
{
	return mrc_decode(buf, avail < pkt_len ? avail : pkt_len, pkt_len,
			  out, MRC_DECODE_HDR_ONLY);
}

int mrc_pkt_decode_trimmed(const u8 *buf, u32 avail, u32 len,
			   struct mrc_pkt *out)
{
	u32 payload_len, full;
	int hl;

	if (avail > len)
		avail = len;
	if (avail < MRC_COMMON_HDR_LEN)
		return -MRC_WIRE_ETRUNC;
	if (buf[OFF_VERSION] != MRC_WIRE_VERSION)
		return -MRC_WIRE_EVERSION;
	hl = mrc_hdr_len(buf[OFF_OPCODE]);
	if (hl < 0)
		return hl;
	if (avail < (u32)hl)
		return -MRC_WIRE_ETRUNC;
	payload_len = mrc_get_be16(buf + OFF_PAYLEN);
	if (!mrc_opcode_has_payload(buf[OFF_OPCODE]) || !payload_len)
		return -MRC_WIRE_EPAYLOAD;
	full = (u32)hl + payload_len + MRC_ICRC_LEN;
	if (len >= full)
		return -MRC_WIRE_EPAYLOAD_LEN;
	/* The headers as in the packet the sender built, @full bytes. */
	return mrc_decode(buf, (u32)hl, full, out, MRC_DECODE_HDR_ONLY);
}
