// SPDX-License-Identifier: GPL-2.0-only
// Wire format: round trips of every packet type, every truncation, every
// corrupted byte, and the exact byte layout of Documentation/networking/mrc.rst.
#include <gtest/gtest.h>

#include <set>

#include "test_wire_util.h"

using namespace mrc_test;

namespace {

std::vector<u8> some_payload(size_t n) { return pattern_payload(n, 7, 3); }

class WireOp : public ::testing::TestWithParam<u8> {};

TEST_P(WireOp, RoundTrip)
{
	const auto pl = some_payload(100);
	const mrc_pkt p = sample_pkt(GetParam(), pl);
	int err;
	auto buf = encode(p, &err);
	ASSERT_EQ(err, 0) << mrc_wire_strerror(err);
	EXPECT_EQ((int)buf.size(), mrc_pkt_len(GetParam(), p.payload_len));

	mrc_pkt q;
	ASSERT_EQ(mrc_pkt_decode(buf.data(), (u32)buf.size(), &q), 0);
	EXPECT_EQ(pkt_diff(p, q), "");
	if (q.payload_len) {
		// Zero copy: the payload is a view into the input buffer.
		EXPECT_EQ(q.payload, buf.data() + mrc_hdr_len(GetParam()));
	} else {
		EXPECT_EQ(q.payload, nullptr);
	}
}

TEST_P(WireOp, EveryTruncationRejected)
{
	const auto pl = some_payload(33);
	auto buf = encode(sample_pkt(GetParam(), pl));
	ASSERT_FALSE(buf.empty());
	mrc_pkt q;
	for (u32 len = 0; len < buf.size(); len++) {
		// A shorter copy, so ASan would catch a read past the end.
		std::vector<u8> t(buf.begin(), buf.begin() + len);
		EXPECT_EQ(mrc_pkt_decode(t.data(), len, &q), -MRC_WIRE_ETRUNC)
			<< "len " << len;
	}
}

TEST_P(WireOp, TrailingByteIsPayloadLengthMismatch)
{
	const auto pl = some_payload(8);
	auto buf = encode(sample_pkt(GetParam(), pl));
	buf.push_back(0);
	fix_icrc(buf);
	mrc_pkt q;
	EXPECT_EQ(mrc_pkt_decode(buf.data(), (u32)buf.size(), &q),
		  -MRC_WIRE_EPAYLOAD_LEN);
}

TEST_P(WireOp, EveryBitFlipRejected)
{
	const auto pl = some_payload(5);
	auto buf = encode(sample_pkt(GetParam(), pl));
	mrc_pkt q;
	for (size_t bit = 0; bit < buf.size() * 8; bit++) {
		buf[bit / 8] ^= (u8)(1u << (bit % 8));
		EXPECT_LT(mrc_pkt_decode(buf.data(), (u32)buf.size(), &q), 0)
			<< "bit " << bit;
		buf[bit / 8] ^= (u8)(1u << (bit % 8));
	}
}

TEST_P(WireOp, CorruptIcrcIsIcrcError)
{
	const auto pl = some_payload(12);
	auto buf = encode(sample_pkt(GetParam(), pl));
	mrc_pkt q;
	for (size_t i = buf.size() - MRC_ICRC_LEN; i < buf.size(); i++) {
		buf[i] ^= 0x40;
		EXPECT_EQ(mrc_pkt_decode(buf.data(), (u32)buf.size(), &q),
			  -MRC_WIRE_EICRC);
		// The caller may have checked the ICRC itself.
		EXPECT_EQ(mrc_pkt_decode_opts(buf.data(), (u32)buf.size(), &q,
					      MRC_DECODE_NO_ICRC),
			  0);
		buf[i] ^= 0x40;
	}
}

TEST_P(WireOp, EncodeIntoEveryTooSmallBufferFails)
{
	const auto pl = some_payload(16);
	const mrc_pkt p = sample_pkt(GetParam(), pl);
	const int need = mrc_pkt_len(GetParam(), p.payload_len);
	std::vector<u8> buf((size_t)need);
	for (int len = 0; len < need; len++) {
		std::vector<u8> small((size_t)len);
		EXPECT_EQ(mrc_pkt_encode(&p, small.data(), (u32)len),
			  -MRC_WIRE_ENOSPC)
			<< len;
	}
	EXPECT_EQ(mrc_pkt_encode(&p, buf.data(), (u32)need), need);
}

TEST_P(WireOp, HeaderThenPayloadWithIncrementalIcrcMatchesEncode)
{
	const auto pl = some_payload(40);
	const mrc_pkt p = sample_pkt(GetParam(), pl);
	auto whole = encode(p);
	std::vector<u8> hdr(128);
	int hl = mrc_pkt_encode_hdr(&p, hdr.data(), (u32)hdr.size());
	ASSERT_EQ(hl, mrc_hdr_len(GetParam()));
	u32 s = mrc_icrc_init();
	s = mrc_icrc_update(s, hdr.data(), (u32)hl);
	s = mrc_icrc_update(s, p.payload, p.payload_len);
	std::vector<u8> built(hdr.begin(), hdr.begin() + hl);
	built.insert(built.end(), p.payload, p.payload + p.payload_len);
	u32 c = mrc_icrc_final(s);
	for (int i = 3; i >= 0; i--)
		built.push_back((u8)(c >> (8 * i)));
	EXPECT_EQ(built, whole);
}

TEST_P(WireOp, WrongVersionRejected)
{
	auto buf = encode(sample_pkt(GetParam(), some_payload(4)));
	mrc_pkt q;
	for (int v : {0, 2, 0x11, 0xff}) {
		auto b = buf;
		b[0] = (u8)v;
		fix_icrc(b);
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
			  -MRC_WIRE_EVERSION);
	}
	mrc_pkt p = sample_pkt(GetParam(), some_payload(4));
	p.hdr.version = 2;
	int err;
	encode(p, &err);
	EXPECT_EQ(err, -MRC_WIRE_EVERSION);
}

TEST_P(WireOp, UnknownFlagBitsRejected)
{
	auto buf = encode(sample_pkt(GetParam(), some_payload(4)));
	mrc_pkt q;
	for (int bit = 5; bit < 16; bit++) {
		auto b = buf;
		b[2] |= (u8)((1u << bit) >> 8);
		b[3] |= (u8)(1u << bit);
		fix_icrc(b);
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
			  -MRC_WIRE_EFLAGS)
			<< bit;
	}
}

TEST_P(WireOp, QpnBeyond24BitsRejected)
{
	auto buf = encode(sample_pkt(GetParam(), some_payload(4)));
	mrc_pkt q;
	for (int off : {4, 8}) {
		auto b = buf;
		b[off] = 0x01;
		fix_icrc(b);
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
			  -MRC_WIRE_EQPN);
	}
}

TEST_P(WireOp, PlaneOutOfRangeRejected)
{
	auto buf = encode(sample_pkt(GetParam(), some_payload(4)));
	mrc_pkt q;
	for (int plane : {0, 17, 255}) {
		auto b = buf;
		b[18] = (u8)plane;
		fix_icrc(b);
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
			  -MRC_WIRE_EPLANE)
			<< plane;
	}
	for (int plane = 1; plane <= MRC_MAX_PLANES; plane++) {
		auto b = buf;
		b[18] = (u8)plane;
		fix_icrc(b);
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q), 0);
		EXPECT_EQ(q.hdr.plane, plane);
	}
}

TEST_P(WireOp, ReservedHeaderBytesRejected)
{
	auto buf = encode(sample_pkt(GetParam(), some_payload(4)));
	mrc_pkt q;
	for (int off : {19, 26, 27}) {
		auto b = buf;
		b[off] = 0x80;
		fix_icrc(b);
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
			  -MRC_WIRE_ERESERVED)
			<< off;
	}
}

TEST_P(WireOp, HeaderOnlyDecodeForPagedPayload)
{
	const auto pl = some_payload(200);
	const mrc_pkt p = sample_pkt(GetParam(), pl);
	auto full = encode(p);
	const u32 hl = (u32)mrc_hdr_len(GetParam());
	const u32 len = (u32)full.size();
	mrc_pkt q;
	for (u32 avail = 0; avail <= len; avail++) {
		// Only the first @avail bytes exist, as in an skb's linear part.
		std::vector<u8> part(full.begin(), full.begin() + avail);
		int r = mrc_pkt_decode_hdr(part.data(), avail, len, &q);
		if (avail < hl) {
			EXPECT_EQ(r, -MRC_WIRE_ETRUNC) << avail;
			continue;
		}
		ASSERT_EQ(r, 0) << avail;
		EXPECT_EQ(q.payload, nullptr);
		q.payload = p.payload; // the caller knows where it is
		EXPECT_EQ(pkt_diff(p, q), "");
	}
	EXPECT_EQ(mrc_pkt_decode_hdr(full.data(), len, len - 1, &q),
		  -MRC_WIRE_ETRUNC);
	EXPECT_EQ(mrc_pkt_decode_hdr(full.data(), len, len + 1, &q),
		  -MRC_WIRE_EPAYLOAD_LEN);
	// The ICRC is the caller's job here.
	full[len - 1] ^= 1;
	EXPECT_EQ(mrc_pkt_decode_hdr(full.data(), hl, len, &q), 0);
	EXPECT_EQ(mrc_pkt_decode(full.data(), len, &q), -MRC_WIRE_EICRC);
}

INSTANTIATE_TEST_SUITE_P(AllOpcodes, WireOp, ::testing::ValuesIn(all_opcodes()),
			 [](const ::testing::TestParamInfo<u8> &i) {
				 return std::string(mrc_opcode_name(i.param));
			 });

TEST(Wire, UnknownOpcodesRejected)
{
	const std::set<u8> known(all_opcodes().begin(), all_opcodes().end());
	auto buf = encode(sample_pkt(MRC_OP_ACK, {}));
	mrc_pkt q;
	int rejected = 0;
	for (int op = 0; op < 256; op++) {
		if (known.count((u8)op))
			continue;
		auto b = buf;
		b[1] = (u8)op;
		fix_icrc(b);
		EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
			  -MRC_WIRE_EOPCODE)
			<< op;
		EXPECT_LT(mrc_hdr_len((u8)op), 0);
		rejected++;
	}
	EXPECT_EQ(rejected, 256 - (int)known.size());
}

TEST(Wire, CommonHeaderLayout)
{
	const auto pl = some_payload(3);
	const mrc_pkt p = sample_pkt(MRC_OP_WRITE, pl);
	auto b = encode(p);
	ASSERT_EQ(b.size(), (size_t)(28 + 24 + 3 + 4));
	EXPECT_EQ(b[0], MRC_WIRE_VERSION);
	EXPECT_EQ(b[1], MRC_OP_WRITE);
	EXPECT_EQ(mrc_get_be16(&b[2]), p.hdr.flags);
	EXPECT_EQ(mrc_get_be32(&b[4]), p.hdr.dqpn);
	EXPECT_EQ(mrc_get_be32(&b[8]), p.hdr.sqpn);
	EXPECT_EQ(mrc_get_be32(&b[12]), p.hdr.psn);
	EXPECT_EQ(mrc_get_be16(&b[16]), p.hdr.ev);
	EXPECT_EQ(b[18], p.hdr.plane);
	EXPECT_EQ(b[19], 0);
	EXPECT_EQ(mrc_get_be32(&b[20]), p.hdr.ts);
	EXPECT_EQ(mrc_get_be16(&b[24]), 3);
	EXPECT_EQ(mrc_get_be16(&b[26]), 0);
	// WRITE extension: va, rkey, msn, offset, msg_len.
	EXPECT_EQ(mrc_get_be64(&b[28]), p.u.write.va);
	EXPECT_EQ(mrc_get_be32(&b[36]), p.u.write.rkey);
	EXPECT_EQ(mrc_get_be32(&b[40]), p.u.write.msg.msn);
	EXPECT_EQ(mrc_get_be32(&b[44]), p.u.write.msg.offset);
	EXPECT_EQ(mrc_get_be32(&b[48]), p.u.write.msg.msg_len);
	EXPECT_EQ(0, std::memcmp(&b[52], pl.data(), 3));
	EXPECT_EQ(mrc_get_be32(&b[55]), mrc_icrc(b.data(), 55));
}

TEST(Wire, AckLayout)
{
	const mrc_pkt p = sample_pkt(MRC_OP_ACK, {});
	auto b = encode(p);
	ASSERT_EQ(b.size(), (size_t)(28 + 56 + 4));
	const u8 *e = &b[28];
	EXPECT_EQ(mrc_get_be32(e + 0), p.u.ack.cum_psn);
	EXPECT_EQ(mrc_get_be32(e + 4), p.u.ack.sack_base);
	for (int w = 0; w < MRC_SACK_WORDS; w++)
		EXPECT_EQ(mrc_get_be64(e + 8 + 8 * w), p.u.ack.sack[w]);
	EXPECT_EQ(mrc_get_be16(e + 40), p.u.ack.echo_ev);
	EXPECT_EQ(e[42], p.u.ack.echo_plane);
	EXPECT_EQ(e[43], p.u.ack.ecn);
	EXPECT_EQ(mrc_get_be32(e + 44), p.u.ack.ts_echo);
	EXPECT_EQ(mrc_get_be32(e + 48), p.u.ack.svc_time);
	EXPECT_EQ(mrc_get_be32(e + 52), p.u.ack.msn);
}

TEST(Wire, NackAndProbeAndPortStatusLayout)
{
	auto n = sample_pkt(MRC_OP_NACK, {});
	auto b = encode(n);
	ASSERT_EQ(b.size(), (size_t)(28 + 20 + 4));
	EXPECT_EQ(mrc_get_be32(&b[28]), n.u.nack.psn);
	EXPECT_EQ(mrc_get_be32(&b[32]), n.u.nack.cum_psn);
	EXPECT_EQ(mrc_get_be16(&b[36]), n.u.nack.echo_ev);
	EXPECT_EQ(b[38], n.u.nack.echo_plane);
	EXPECT_EQ(b[39], n.u.nack.reason);
	EXPECT_EQ(mrc_get_be32(&b[40]), n.u.nack.ts_echo);
	EXPECT_EQ(mrc_get_be32(&b[44]), n.u.nack.rnr_timer_us);

	auto pr = sample_pkt(MRC_OP_PROBE_RESP, {});
	b = encode(pr);
	ASSERT_EQ(b.size(), (size_t)(28 + 16 + 4));
	EXPECT_EQ(mrc_get_be32(&b[28]), pr.u.probe.probe_id);
	EXPECT_EQ(mrc_get_be16(&b[32]), pr.u.probe.ev);
	EXPECT_EQ(b[34], pr.u.probe.plane);
	EXPECT_EQ(b[35], 0);
	EXPECT_EQ(mrc_get_be32(&b[36]), pr.u.probe.ts_echo);
	EXPECT_EQ(mrc_get_be32(&b[40]), pr.u.probe.svc_time);

	auto ps = sample_pkt(MRC_OP_PORT_STATUS, {});
	b = encode(ps);
	ASSERT_EQ(b.size(), (size_t)(28 + 8 + 4));
	EXPECT_EQ(mrc_get_be32(&b[28]), ps.u.port_status.seq);
	EXPECT_EQ(mrc_get_be16(&b[32]), ps.u.port_status.up_planes);
	EXPECT_EQ(mrc_get_be16(&b[34]), 0);
}

// The worked example of Documentation/networking/mrc.rst.  The expected
// bytes (ICRC included) were produced by an independent implementation
// (Python struct + zlib.crc32), not by this encoder.
TEST(Wire, GoldenWriteImm)
{
	const std::vector<u8> want = {
		0x01, 0x04, 0x00, 0x13, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00,
		0x00, 0x22, 0x00, 0x00, 0x01, 0x00, 0x00, 0x05, 0x02, 0x00,
		0x01, 0x02, 0x03, 0x04, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0xaa, 0xbb, 0xcc, 0xdd,
		0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x04, 0xca, 0xfe, 0xba, 0xbe, 0x4d, 0x52, 0x43, 0x21,
		0x4f, 0xa8, 0xbd, 0x76,
	};
	const std::vector<u8> pl = {'M', 'R', 'C', '!'};
	mrc_pkt p;
	mrc_pkt_init(&p, MRC_OP_WRITE_IMM);
	p.hdr.flags = MRC_F_FIRST | MRC_F_LAST | MRC_F_SOLICITED;
	p.hdr.dqpn = 0x11;
	p.hdr.sqpn = 0x22;
	p.hdr.psn = 0x100;
	p.hdr.ev = 5;
	p.hdr.plane = 2;
	p.hdr.ts = 0x01020304;
	p.u.write.va = 0x1000;
	p.u.write.rkey = 0xaabbccdd;
	p.u.write.msg = {1, 0, 4};
	p.u.write.imm = 0xcafebabe;
	p.payload = pl.data();
	p.payload_len = 4;
	EXPECT_EQ(encode(p), want);
	mrc_pkt q;
	ASSERT_EQ(mrc_pkt_decode(want.data(), (u32)want.size(), &q), 0);
	EXPECT_EQ(pkt_diff(p, q), "");
}

TEST(Wire, HeaderLengths)
{
	EXPECT_EQ(mrc_hdr_len(MRC_OP_SEND), 28 + 12);
	EXPECT_EQ(mrc_hdr_len(MRC_OP_SEND_IMM), 28 + 16);
	EXPECT_EQ(mrc_hdr_len(MRC_OP_WRITE), 28 + 24);
	EXPECT_EQ(mrc_hdr_len(MRC_OP_WRITE_IMM), 28 + 28);
	EXPECT_EQ(mrc_hdr_len(MRC_OP_READ_REQ), 28 + 20);
	EXPECT_EQ(mrc_hdr_len(MRC_OP_READ_RESP), 28 + 12);
	EXPECT_EQ(mrc_hdr_len(MRC_OP_ATOMIC_CS), 28 + 32);
	EXPECT_EQ(mrc_hdr_len(MRC_OP_ATOMIC_RESP), 28 + 12);
	EXPECT_EQ(mrc_pkt_len(MRC_OP_SEND, 1000), 28 + 12 + 1000 + 4);
	EXPECT_EQ(mrc_pkt_len(MRC_OP_SEND, MRC_MAX_PAYLOAD + 1),
		  -MRC_WIRE_EPAYLOAD_LEN);
}

} // namespace

TEST(Wire, UdLayout)
{
	const auto pl = some_payload(5);
	const mrc_pkt p = sample_pkt(MRC_OP_UD_SEND_IMM, pl);
	auto b = encode(p);
	ASSERT_EQ(b.size(), (size_t)(28 + 8 + 5 + 4));
	EXPECT_EQ(b[1], MRC_OP_UD_SEND_IMM);
	EXPECT_EQ(mrc_get_be32(&b[28]), p.u.ud.qkey);
	EXPECT_EQ(mrc_get_be32(&b[32]), p.u.ud.imm);
	EXPECT_EQ(0, std::memcmp(&b[36], pl.data(), 5));
	EXPECT_EQ(mrc_get_be32(&b[41]), mrc_icrc(b.data(), 41));
}

TEST(Wire, UdRules)
{
	const auto pl = some_payload(5);
	mrc_pkt p = sample_pkt(MRC_OP_UD_SEND, pl);
	mrc_pkt q;

	EXPECT_EQ(mrc_pkt_check(&p), 0);
	// A datagram is one whole message, never acknowledged or resent.
	for (u16 bad : {(u16)MRC_F_FIRST, (u16)MRC_F_LAST, (u16)0,
			(u16)(MRC_F_FIRST | MRC_F_LAST | MRC_F_ACK_REQ),
			(u16)(MRC_F_FIRST | MRC_F_LAST | MRC_F_RETX)}) {
		p.hdr.flags = bad;
		EXPECT_EQ(mrc_pkt_check(&p), -MRC_WIRE_EFLAGS) << bad;
	}
	p.hdr.flags = MRC_F_FIRST | MRC_F_LAST;
	EXPECT_EQ(mrc_pkt_check(&p), 0);
	// A zero-length datagram exists.
	p.payload = nullptr;
	p.payload_len = 0;
	EXPECT_EQ(mrc_pkt_check(&p), 0);
	// UD_SEND's immediate slot is reserved: set on the wire, dropped.
	auto b = encode(p);
	ASSERT_FALSE(b.empty());
	b[35] = 1;
	fix_icrc(b);
	EXPECT_EQ(mrc_pkt_decode(b.data(), (u32)b.size(), &q),
		  -MRC_WIRE_ERESERVED);
	EXPECT_TRUE(mrc_opcode_is_ud(MRC_OP_UD_SEND));
	EXPECT_TRUE(mrc_opcode_is_ud(MRC_OP_UD_SEND_IMM));
	EXPECT_FALSE(mrc_opcode_is_ud(MRC_OP_SEND));
}
