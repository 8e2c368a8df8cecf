// SPDX-License-Identifier: GPL-2.0-only
// Wire format: semantic rules on fields (flags combinations, message
// offsets, ranges, NACK reasons, reserved values), checked on both the
// encode side (struct) and the decode side (bytes with a valid ICRC).
#include <gtest/gtest.h>

#include <set>

#include "test_wire_util.h"

using namespace mrc_test;

namespace {

const std::vector<u8> kPayload(64, 0xab);

// The encoder must refuse @p with @want; the same bytes, produced by
// encoding a valid neighbour and patching, must be refused by the decoder
// with the same reason (mrc_pkt_check is shared, but the decoder also has
// to get there).
void expect_rejected(const mrc_pkt &p, int want)
{
	int err;
	auto b = encode(p, &err);
	EXPECT_EQ(err, want) << mrc_wire_strerror(err);
	EXPECT_TRUE(b.empty());
	EXPECT_EQ(mrc_pkt_check(&p), want);
}

// Patch byte @off of a valid encoded packet, fix the ICRC, and expect the
// decoder to refuse it with @want.
void expect_decode_rejected(std::vector<u8> b, size_t off, u8 val, int want)
{
	b[off] = val;
	fix_icrc(b);
	mrc_pkt q;
	EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q), want)
		<< "offset " << off << " value " << (int)val;
}

mrc_pkt send_pkt(u16 flags, u32 off, u32 len, u32 msg_len)
{
	mrc_pkt p = sample_pkt(MRC_OP_SEND, kPayload);
	p.hdr.flags = flags;
	p.payload_len = len;
	p.u.send.msg.offset = off;
	p.u.send.msg.msg_len = msg_len;
	return p;
}

TEST(WireFields, SendFirstLastOffsetRules)
{
	mrc_pkt ok = send_pkt(MRC_F_FIRST | MRC_F_LAST, 0, 64, 64);
	EXPECT_EQ(mrc_pkt_check(&ok), 0);
	ok = send_pkt(MRC_F_FIRST, 0, 64, 1000);
	EXPECT_EQ(mrc_pkt_check(&ok), 0);
	ok = send_pkt(MRC_F_LAST, 936, 64, 1000);
	EXPECT_EQ(mrc_pkt_check(&ok), 0);
	// FIRST must be at offset 0, and only FIRST may be.
	expect_rejected(send_pkt(MRC_F_FIRST, 64, 64, 1000), -MRC_WIRE_ERANGE);
	expect_rejected(send_pkt(0, 0, 64, 1000), -MRC_WIRE_ERANGE);
	// LAST must end the message, and only LAST may.
	expect_rejected(send_pkt(MRC_F_LAST, 100, 64, 1000), -MRC_WIRE_ERANGE);
	expect_rejected(send_pkt(0, 936, 64, 1000), -MRC_WIRE_ERANGE);
	// Never beyond the message.
	expect_rejected(send_pkt(0, 960, 64, 1000), -MRC_WIRE_ERANGE);
	expect_rejected(send_pkt(MRC_F_LAST, 0xffffffc0, 64, 0),
			-MRC_WIRE_ERANGE);
	// Messages are at most 2 GiB.
	expect_rejected(send_pkt(MRC_F_FIRST, 0, 64, 0x80000001u),
			-MRC_WIRE_ERANGE);
}

TEST(WireFields, EmptyPayloadOnlyForZeroLengthMessage)
{
	mrc_pkt z = send_pkt(MRC_F_FIRST | MRC_F_LAST, 0, 0, 0);
	z.payload = nullptr;
	int err;
	auto b = encode(z, &err);
	ASSERT_EQ(err, 0);
	mrc_pkt q;
	ASSERT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q), 0);
	EXPECT_EQ(q.payload_len, 0u);
	expect_rejected(send_pkt(0, 100, 0, 1000), -MRC_WIRE_EPAYLOAD);
}

TEST(WireFields, PayloadLengthWithoutPayloadPointerRejected)
{
	mrc_pkt p = send_pkt(MRC_F_FIRST | MRC_F_LAST, 0, 10, 10);
	p.payload = nullptr;
	std::vector<u8> buf(200);
	EXPECT_EQ(mrc_pkt_encode(&p, buf.data(), (u32)buf.size()),
		  -MRC_WIRE_EPAYLOAD);
}

TEST(WireFields, PayloadBeyond16BitsRejected)
{
	std::vector<u8> big(MRC_MAX_PAYLOAD + 1);
	mrc_pkt p = sample_pkt(MRC_OP_WRITE, big);
	std::vector<u8> buf(big.size() + 200);
	EXPECT_EQ(mrc_pkt_encode(&p, buf.data(), (u32)buf.size()),
		  -MRC_WIRE_EPAYLOAD_LEN);
	EXPECT_EQ(mrc_pkt_check(&p), -MRC_WIRE_EPAYLOAD_LEN);
}

TEST(WireFields, SolicitedOnlyWithLastOnSendOrWriteImm)
{
	for (u8 op : {MRC_OP_SEND, MRC_OP_SEND_IMM, MRC_OP_WRITE_IMM}) {
		mrc_pkt p = sample_pkt(op, kPayload);
		mrc_msg_ext &m = op == MRC_OP_WRITE_IMM ? p.u.write.msg :
							  p.u.send.msg;
		m.msg_len = m.offset + 64;
		p.hdr.flags = MRC_F_LAST | MRC_F_SOLICITED;
		EXPECT_EQ(mrc_pkt_check(&p), 0) << mrc_opcode_name(op);
		p.hdr.flags = MRC_F_SOLICITED;
		m.msg_len = m.offset + 100;
		expect_rejected(p, -MRC_WIRE_EFLAGS);
	}
	for (u8 op : {MRC_OP_WRITE, MRC_OP_READ_RESP}) {
		mrc_pkt p = sample_pkt(op, kPayload);
		mrc_msg_ext &m = op == MRC_OP_WRITE ? p.u.write.msg :
						      p.u.send.msg;
		m.msg_len = m.offset + 64;
		p.hdr.flags = MRC_F_LAST | MRC_F_SOLICITED;
		expect_rejected(p, -MRC_WIRE_EFLAGS);
	}
}

TEST(WireFields, SinglePacketOpsNeedFirstAndLast)
{
	for (u8 op : {MRC_OP_READ_REQ, MRC_OP_ATOMIC_CS, MRC_OP_ATOMIC_FA,
		      MRC_OP_ATOMIC_RESP}) {
		for (u16 fl : {0, (int)MRC_F_FIRST, (int)MRC_F_LAST,
			       MRC_F_FIRST | MRC_F_LAST | MRC_F_SOLICITED}) {
			mrc_pkt p = sample_pkt(op, {});
			p.hdr.flags = fl;
			expect_rejected(p, -MRC_WIRE_EFLAGS);
		}
	}
}

TEST(WireFields, ControlPacketsCarryNoFlags)
{
	for (u8 op : {MRC_OP_ACK, MRC_OP_NACK, MRC_OP_PROBE_REQ,
		      MRC_OP_PROBE_RESP, MRC_OP_PORT_STATUS}) {
		for (u16 fl : {MRC_F_FIRST, MRC_F_LAST, MRC_F_ACK_REQ,
			       MRC_F_RETX, MRC_F_SOLICITED}) {
			mrc_pkt p = sample_pkt(op, {});
			p.hdr.flags = fl;
			expect_rejected(p, -MRC_WIRE_EFLAGS);
			auto b = encode(sample_pkt(op, {}));
			expect_decode_rejected(b, 3, (u8)fl, -MRC_WIRE_EFLAGS);
		}
	}
}

TEST(WireFields, NoPayloadOnRequestsOrControl)
{
	for (u8 op :
	     {MRC_OP_READ_REQ, MRC_OP_ATOMIC_CS, MRC_OP_ATOMIC_RESP, MRC_OP_ACK,
	      MRC_OP_NACK, MRC_OP_PROBE_REQ, MRC_OP_PORT_STATUS}) {
		mrc_pkt p = sample_pkt(op, {});
		p.payload = kPayload.data();
		p.payload_len = 8;
		expect_rejected(p, -MRC_WIRE_EPAYLOAD);
		// Bytes: append 8 bytes and bump payload_len.
		auto b = encode(sample_pkt(op, {}));
		b.insert(b.end() - MRC_ICRC_LEN, 8, 0);
		b[25] = 8;
		fix_icrc(b);
		mrc_pkt q;
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
			  -MRC_WIRE_EPAYLOAD)
			<< mrc_opcode_name(op);
	}
}

TEST(WireFields, WriteAddressMustNotWrap)
{
	mrc_pkt p = sample_pkt(MRC_OP_WRITE, kPayload);
	p.u.write.va = ~0ull - 10;
	expect_rejected(p, -MRC_WIRE_ERANGE);
	p.u.write.va = ~0ull - 64;
	EXPECT_EQ(mrc_pkt_check(&p), 0);
}

TEST(WireFields, ReadRequestLengthAndAddress)
{
	mrc_pkt p = sample_pkt(MRC_OP_READ_REQ, {});
	p.u.read_req.len = 0x80000000u;
	EXPECT_EQ(mrc_pkt_check(&p), 0);
	p.u.read_req.len = 0x80000001u;
	expect_rejected(p, -MRC_WIRE_ERANGE);
	p.u.read_req.len = 4096;
	p.u.read_req.va = ~0ull - 100;
	expect_rejected(p, -MRC_WIRE_ERANGE);
}

TEST(WireFields, AtomicAlignmentAndFetchAddCompareReserved)
{
	mrc_pkt p = sample_pkt(MRC_OP_ATOMIC_CS, {});
	for (u64 low = 1; low < 8; low++) {
		p.u.atomic.va = 0x1000 + low;
		expect_rejected(p, -MRC_WIRE_ERANGE);
	}
	p = sample_pkt(MRC_OP_ATOMIC_FA, {});
	p.u.atomic.compare = 1;
	expect_rejected(p, -MRC_WIRE_ERESERVED);
	auto b = encode(sample_pkt(MRC_OP_ATOMIC_FA, {}));
	expect_decode_rejected(b, 28 + 24, 0x01, -MRC_WIRE_ERESERVED);
	expect_decode_rejected(b, 28 + 7, 0x04, -MRC_WIRE_ERANGE);
}

TEST(WireFields, AckEchoPlaneAndEcnBits)
{
	mrc_pkt p = sample_pkt(MRC_OP_ACK, {});
	p.u.ack.echo_plane = 0;
	expect_rejected(p, -MRC_WIRE_EPLANE);
	p.u.ack.echo_plane = MRC_MAX_PLANES + 1;
	expect_rejected(p, -MRC_WIRE_EPLANE);
	p = sample_pkt(MRC_OP_ACK, {});
	auto b = encode(p);
	expect_decode_rejected(b, 28 + 42, 0, -MRC_WIRE_EPLANE);
	for (int bit = 1; bit < 8; bit++)
		expect_decode_rejected(b, 28 + 43, (u8)(1u << bit),
				       -MRC_WIRE_ERESERVED);
	p.u.ack.ecn = 0;
	EXPECT_EQ(mrc_pkt_check(&p), 0);
}

TEST(WireFields, NackReasons)
{
	auto b = encode(sample_pkt(MRC_OP_NACK, {}));
	for (int r : {0, 6, 7, 0x80, 0xff})
		expect_decode_rejected(b, 28 + 11, (u8)r, -MRC_WIRE_EREASON);
	for (u8 r = MRC_NACK_OUT_OF_WINDOW; r <= MRC_NACK_RNR; r++) {
		mrc_pkt p = sample_pkt(MRC_OP_NACK, {});
		p.u.nack.reason = r;
		if (r != MRC_NACK_RNR) {
			// The RNR timer only means something with RNR.
			expect_rejected(p, -MRC_WIRE_ERESERVED);
			p.u.nack.rnr_timer_us = 0;
		}
		int err;
		auto e = encode(p, &err);
		ASSERT_EQ(err, 0) << mrc_nack_reason_name(r);
		mrc_pkt q;
		ASSERT_EQ(mrc_pkt_decode(e.data(), (u32)e.size(), &q), 0);
		EXPECT_EQ(q.u.nack.reason, r);
	}
	mrc_pkt p = sample_pkt(MRC_OP_NACK, {});
	p.u.nack.echo_plane = 0;
	expect_rejected(p, -MRC_WIRE_EPLANE);
}

TEST(WireFields, ProbeRules)
{
	mrc_pkt p = sample_pkt(MRC_OP_PROBE_REQ, {});
	p.u.probe.ts_echo = 1;
	expect_rejected(p, -MRC_WIRE_ERESERVED);
	p = sample_pkt(MRC_OP_PROBE_REQ, {});
	p.u.probe.svc_time = 1;
	expect_rejected(p, -MRC_WIRE_ERESERVED);
	p = sample_pkt(MRC_OP_PROBE_RESP, {});
	p.u.probe.plane = 0;
	expect_rejected(p, -MRC_WIRE_EPLANE);
	auto b = encode(sample_pkt(MRC_OP_PROBE_RESP, {}));
	expect_decode_rejected(b, 28 + 7, 1, -MRC_WIRE_ERESERVED);
	expect_decode_rejected(b, 28 + 6, 17, -MRC_WIRE_EPLANE);
}

TEST(WireFields, PortStatusReserved)
{
	auto b = encode(sample_pkt(MRC_OP_PORT_STATUS, {}));
	expect_decode_rejected(b, 28 + 6, 1, -MRC_WIRE_ERESERVED);
	expect_decode_rejected(b, 28 + 7, 1, -MRC_WIRE_ERESERVED);
	mrc_pkt p = sample_pkt(MRC_OP_PORT_STATUS, {});
	p.u.port_status.up_planes = 0xffff;
	EXPECT_EQ(mrc_pkt_check(&p), 0);
}

TEST(WireFields, QpnLimitOnEncode)
{
	mrc_pkt p = sample_pkt(MRC_OP_SEND, kPayload);
	p.hdr.dqpn = 0x01000000;
	expect_rejected(p, -MRC_WIRE_EQPN);
	p = sample_pkt(MRC_OP_SEND, kPayload);
	p.hdr.sqpn = 0x80000000;
	expect_rejected(p, -MRC_WIRE_EQPN);
	p.hdr.sqpn = MRC_QPN_MASK;
	EXPECT_EQ(mrc_pkt_check(&p), 0);
}

TEST(WireFields, ErrorTextsDistinct)
{
	std::set<std::string> seen;
	for (int e = 0; e < MRC_WIRE_NR_ERR; e++) {
		const char *s = mrc_wire_strerror(-e);
		ASSERT_NE(s, nullptr);
		EXPECT_TRUE(seen.insert(s).second) << s;
		EXPECT_STREQ(s, mrc_wire_strerror(e));
	}
	EXPECT_STREQ(mrc_wire_strerror(-MRC_WIRE_NR_ERR), "unknown error");
	for (u8 op : all_opcodes())
		EXPECT_TRUE(seen.insert(mrc_opcode_name(op)).second);
	EXPECT_STREQ(mrc_opcode_name(0), "UNKNOWN");
	EXPECT_STREQ(mrc_opcode_name(0xff), "UNKNOWN");
	EXPECT_STREQ(mrc_nack_reason_name(MRC_NACK_TRIMMED), "TRIMMED");
	EXPECT_STREQ(mrc_nack_reason_name(9), "UNKNOWN");
}

} // namespace
