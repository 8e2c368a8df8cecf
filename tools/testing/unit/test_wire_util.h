/* SPDX-License-Identifier: GPL-2.0-only */
// Helpers shared by the wire unit tests and the decode fuzzer: a valid
// sample packet of every opcode and a field-by-field comparison.
#ifndef MRC_TEST_WIRE_UTIL_H
#define MRC_TEST_WIRE_UTIL_H

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "icrc.h"
#include "wire.h"
}

namespace mrc_test {

inline const std::vector<u8> &all_opcodes()
{
	static const std::vector<u8> ops = {
		MRC_OP_SEND,	  MRC_OP_SEND_IMM,    MRC_OP_WRITE,
		MRC_OP_WRITE_IMM, MRC_OP_READ_REQ,    MRC_OP_READ_RESP,
		MRC_OP_ATOMIC_CS, MRC_OP_ATOMIC_FA,   MRC_OP_ATOMIC_RESP,
		MRC_OP_SEND_INV,  MRC_OP_ACK,	      MRC_OP_NACK,
		MRC_OP_PROBE_REQ, MRC_OP_PROBE_RESP,  MRC_OP_PORT_STATUS,
		MRC_OP_UD_SEND,	  MRC_OP_UD_SEND_IMM,
	};
	return ops;
}

// @n payload bytes, byte i being i * @mul + @add (mod 256).
inline std::vector<u8> pattern_payload(size_t n, u8 mul, u8 add)
{
	std::vector<u8> v(n);
	for (size_t i = 0; i < n; i++)
		v[i] = (u8)(i * mul + add);
	return v;
}

// A valid packet of @op with every field non-trivial.  Payload-carrying
// opcodes get a middle-of-message payload of @payload bytes.
inline mrc_pkt sample_pkt(u8 op, const std::vector<u8> &payload)
{
	mrc_pkt p;
	mrc_pkt_init(&p, op);
	p.hdr.dqpn = 0x00abcdef;
	p.hdr.sqpn = 0x00123456;
	p.hdr.psn = 0xfffffff0;
	p.hdr.ev = 0x1234;
	p.hdr.plane = 3;
	p.hdr.ts = 0xdeadbeef;
	if (mrc_opcode_has_payload(op)) {
		p.payload = payload.empty() ? nullptr : payload.data();
		p.payload_len = (u32)payload.size();
	}
	mrc_msg_ext msg = {77, 4096, (u32)(4096 + payload.size() + 100)};
	switch (op) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_READ_RESP:
		p.hdr.flags = MRC_F_ACK_REQ | MRC_F_RETX;
		p.u.send.msg = msg;
		if (op == MRC_OP_SEND_IMM || op == MRC_OP_SEND_INV)
			p.u.send.imm = 0xcafef00d;
		break;
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
		p.hdr.flags = MRC_F_ACK_REQ;
		p.u.write.va = 0x00007f0012345000ull;
		p.u.write.rkey = 0x11223344;
		p.u.write.msg = msg;
		if (op == MRC_OP_WRITE_IMM)
			p.u.write.imm = 0x01020304;
		break;
	case MRC_OP_READ_REQ:
		p.hdr.flags = MRC_F_FIRST | MRC_F_LAST;
		p.u.read_req.va = 0x1000200030004000ull;
		p.u.read_req.rkey = 0x55667788;
		p.u.read_req.len = 65536;
		p.u.read_req.msn = 9;
		break;
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		p.hdr.flags = MRC_F_FIRST | MRC_F_LAST | MRC_F_RETX;
		p.u.atomic.va = 0x0000555500001238ull;
		p.u.atomic.rkey = 0x99aabbcc;
		p.u.atomic.msn = 10;
		p.u.atomic.swap_add = 0x0102030405060708ull;
		p.u.atomic.compare = op == MRC_OP_ATOMIC_CS ?
					     0x1112131415161718ull :
					     0;
		break;
	case MRC_OP_ATOMIC_RESP:
		p.hdr.flags = MRC_F_FIRST | MRC_F_LAST;
		p.u.atomic_resp.msn = 10;
		p.u.atomic_resp.orig = 0xfedcba9876543210ull;
		break;
	case MRC_OP_ACK:
		p.u.ack.cum_psn = 0xfffffff8;
		p.u.ack.sack_base = 0xfffffff8;
		p.u.ack.sack[0] = 0x8000000000000005ull;
		p.u.ack.sack[1] = 0x0123456789abcdefull;
		p.u.ack.sack[2] = 0;
		p.u.ack.sack[3] = 0xf000000000000001ull;
		p.u.ack.echo_ev = 0xbeef;
		p.u.ack.echo_plane = 16;
		p.u.ack.ecn = MRC_ACK_ECN_CE;
		p.u.ack.ts_echo = 0x01010101;
		p.u.ack.svc_time = 1500;
		p.u.ack.msn = 76;
		break;
	case MRC_OP_NACK:
		p.u.nack.psn = 0x10;
		p.u.nack.cum_psn = 0x0f;
		p.u.nack.echo_ev = 0x0102;
		p.u.nack.echo_plane = 1;
		p.u.nack.reason = MRC_NACK_RNR;
		p.u.nack.ts_echo = 0x02020202;
		p.u.nack.rnr_timer_us = 640;
		break;
	case MRC_OP_PROBE_REQ:
	case MRC_OP_PROBE_RESP:
		p.hdr.dqpn = 0;
		p.u.probe.probe_id = 0xa5a5a5a5;
		p.u.probe.ev = 0x1234;
		p.u.probe.plane = 3;
		if (op == MRC_OP_PROBE_RESP) {
			p.u.probe.ts_echo = 0x03030303;
			p.u.probe.svc_time = 250;
		}
		break;
	case MRC_OP_PORT_STATUS:
		p.u.port_status.seq = 0x80000001;
		p.u.port_status.up_planes = 0x00f5;
		break;
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		p.hdr.flags = MRC_F_FIRST | MRC_F_LAST | MRC_F_SOLICITED;
		p.u.ud.qkey = 0x80010002;
		if (op == MRC_OP_UD_SEND_IMM)
			p.u.ud.imm = 0x0a0b0c0d;
		break;
	}
	return p;
}

#define MRC_EQ_FIELD(f)                                      \
	do {                                                 \
		if (a.f != b.f)                              \
			return std::string(#f) + " differs"; \
	} while (0)

// "" if @a and @b describe the same packet, else the first difference.
inline std::string pkt_diff(const mrc_pkt &a, const mrc_pkt &b)
{
	MRC_EQ_FIELD(hdr.version);
	MRC_EQ_FIELD(hdr.opcode);
	MRC_EQ_FIELD(hdr.flags);
	MRC_EQ_FIELD(hdr.dqpn);
	MRC_EQ_FIELD(hdr.sqpn);
	MRC_EQ_FIELD(hdr.psn);
	MRC_EQ_FIELD(hdr.ev);
	MRC_EQ_FIELD(hdr.plane);
	MRC_EQ_FIELD(hdr.ts);
	MRC_EQ_FIELD(payload_len);
	if (a.payload_len && std::memcmp(a.payload, b.payload, a.payload_len) != 0)
		return "payload bytes differ";
	switch (a.hdr.opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_READ_RESP:
		MRC_EQ_FIELD(u.send.msg.msn);
		MRC_EQ_FIELD(u.send.msg.offset);
		MRC_EQ_FIELD(u.send.msg.msg_len);
		MRC_EQ_FIELD(u.send.imm);
		break;
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
		MRC_EQ_FIELD(u.write.va);
		MRC_EQ_FIELD(u.write.rkey);
		MRC_EQ_FIELD(u.write.msg.msn);
		MRC_EQ_FIELD(u.write.msg.offset);
		MRC_EQ_FIELD(u.write.msg.msg_len);
		MRC_EQ_FIELD(u.write.imm);
		break;
	case MRC_OP_READ_REQ:
		MRC_EQ_FIELD(u.read_req.va);
		MRC_EQ_FIELD(u.read_req.rkey);
		MRC_EQ_FIELD(u.read_req.len);
		MRC_EQ_FIELD(u.read_req.msn);
		break;
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		MRC_EQ_FIELD(u.atomic.va);
		MRC_EQ_FIELD(u.atomic.rkey);
		MRC_EQ_FIELD(u.atomic.msn);
		MRC_EQ_FIELD(u.atomic.swap_add);
		MRC_EQ_FIELD(u.atomic.compare);
		break;
	case MRC_OP_ATOMIC_RESP:
		MRC_EQ_FIELD(u.atomic_resp.msn);
		MRC_EQ_FIELD(u.atomic_resp.orig);
		break;
	case MRC_OP_ACK:
		MRC_EQ_FIELD(u.ack.cum_psn);
		MRC_EQ_FIELD(u.ack.sack_base);
		for (int i = 0; i < MRC_SACK_WORDS; i++)
			MRC_EQ_FIELD(u.ack.sack[i]);
		MRC_EQ_FIELD(u.ack.echo_ev);
		MRC_EQ_FIELD(u.ack.echo_plane);
		MRC_EQ_FIELD(u.ack.ecn);
		MRC_EQ_FIELD(u.ack.ts_echo);
		MRC_EQ_FIELD(u.ack.svc_time);
		MRC_EQ_FIELD(u.ack.msn);
		break;
	case MRC_OP_NACK:
		MRC_EQ_FIELD(u.nack.psn);
		MRC_EQ_FIELD(u.nack.cum_psn);
		MRC_EQ_FIELD(u.nack.echo_ev);
		MRC_EQ_FIELD(u.nack.echo_plane);
		MRC_EQ_FIELD(u.nack.reason);
		MRC_EQ_FIELD(u.nack.ts_echo);
		MRC_EQ_FIELD(u.nack.rnr_timer_us);
		break;
	case MRC_OP_PROBE_REQ:
	case MRC_OP_PROBE_RESP:
		MRC_EQ_FIELD(u.probe.probe_id);
		MRC_EQ_FIELD(u.probe.ev);
		MRC_EQ_FIELD(u.probe.plane);
		MRC_EQ_FIELD(u.probe.ts_echo);
		MRC_EQ_FIELD(u.probe.svc_time);
		break;
	case MRC_OP_PORT_STATUS:
		MRC_EQ_FIELD(u.port_status.seq);
		MRC_EQ_FIELD(u.port_status.up_planes);
		break;
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		MRC_EQ_FIELD(u.ud.qkey);
		MRC_EQ_FIELD(u.ud.imm);
		break;
	default: return "unknown opcode";
	}
	return "";
}

#undef MRC_EQ_FIELD

// Encode @p into a fresh vector (empty on failure, error in *err).
inline std::vector<u8> encode(const mrc_pkt &p, int *err = nullptr)
{
	std::vector<u8> buf(MRC_COMMON_HDR_LEN + 64 + MRC_MAX_PAYLOAD +
			    MRC_ICRC_LEN);
	int n = mrc_pkt_encode(&p, buf.data(), (u32)buf.size());
	if (err)
		*err = n < 0 ? n : 0;
	buf.resize(n < 0 ? 0 : (size_t)n);
	return buf;
}

// Recompute the ICRC trailer of a raw packet after editing its bytes.
inline void fix_icrc(std::vector<u8> &b)
{
	if (b.size() < MRC_ICRC_LEN)
		return;
	u32 body = (u32)b.size() - MRC_ICRC_LEN;
	u32 c = mrc_icrc(b.data(), body);
	b[body] = (u8)(c >> 24);
	b[body + 1] = (u8)(c >> 16);
	b[body + 2] = (u8)(c >> 8);
	b[body + 3] = (u8)c;
}

} // namespace mrc_test

#endif
