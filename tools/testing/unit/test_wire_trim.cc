// SPDX-License-Identifier: GPL-2.0-only
// Trimmed packets (Documentation/networking/mrc.rst, "Trimmed packets"):
// what mrc_pkt_decode_trimmed() accepts (the headers of a data packet
// whose payload a switch cut) and what it refuses.
#include <gtest/gtest.h>

#include "test_wire_util.h"

using namespace mrc_test;

namespace {

std::vector<u8> payload_of(size_t n) { return pattern_payload(n, 13, 1); }

class WireTrim : public ::testing::TestWithParam<u8> {};

// Every cut between the end of the headers and the last byte of the
// ICRC gives back the headers of the full packet, payload_len included.
TEST_P(WireTrim, EveryCutAfterTheHeadersDecodesAsTrimmed)
{
	const u8 op = GetParam();
	const auto pl = payload_of(40);
	const mrc_pkt p = sample_pkt(op, pl);
	int err;
	auto full = encode(p, &err);
	ASSERT_EQ(err, 0) << mrc_wire_strerror(err);
	const u32 hl = (u32)mrc_hdr_len(op);

	for (u32 len = hl; len < full.size(); len++) {
		std::vector<u8> cut(full.begin(), full.begin() + len);
		mrc_pkt q;
		ASSERT_EQ(mrc_pkt_decode_trimmed(cut.data(), len, len, &q), 0)
			<< "cut to " << len;
		EXPECT_EQ(q.payload, nullptr);
		EXPECT_EQ(q.payload_len, pl.size());
		// The same headers (pkt_diff compares payload bytes: none).
		mrc_pkt want = p, got = q;
		want.payload = got.payload = nullptr;
		want.payload_len = got.payload_len = 0;
		EXPECT_EQ(pkt_diff(want, got), "") << "cut to " << len;
		// Only the headers need to be at hand (a paged skb).
		ASSERT_EQ(mrc_pkt_decode_trimmed(cut.data(), hl, len, &q), 0);
		// The full decoder refuses the same bytes as truncated.
		EXPECT_EQ(mrc_pkt_decode(cut.data(), len, &q), -MRC_WIRE_ETRUNC);
	}
}

TEST_P(WireTrim, WholePacketIsNotTrimmed)
{
	const u8 op = GetParam();
	const auto pl = payload_of(40);
	auto full = encode(sample_pkt(op, pl));
	mrc_pkt q;

	EXPECT_EQ(mrc_pkt_decode_trimmed(full.data(), (u32)full.size(),
					 (u32)full.size(), &q),
		  -MRC_WIRE_EPAYLOAD_LEN);
	full.push_back(0);
	EXPECT_EQ(mrc_pkt_decode_trimmed(full.data(), (u32)full.size(),
					 (u32)full.size(), &q),
		  -MRC_WIRE_EPAYLOAD_LEN);
}

TEST_P(WireTrim, ShorterThanTheHeadersIsTruncated)
{
	const u8 op = GetParam();
	auto full = encode(sample_pkt(op, payload_of(40)));
	const u32 hl = (u32)mrc_hdr_len(op);
	mrc_pkt q;

	for (u32 len = 0; len < hl; len++)
		EXPECT_EQ(mrc_pkt_decode_trimmed(full.data(), len, len, &q),
			  -MRC_WIRE_ETRUNC)
			<< "cut to " << len;
	// The headers announced but not all at hand.
	EXPECT_EQ(mrc_pkt_decode_trimmed(full.data(), hl - 1, hl, &q),
		  -MRC_WIRE_ETRUNC);
}

// The header checks of a full packet apply: a bad field in the headers
// of a trimmed packet is refused with the same code.
TEST_P(WireTrim, HeaderChecksApply)
{
	const u8 op = GetParam();
	auto full = encode(sample_pkt(op, payload_of(40)));
	const u32 hl = (u32)mrc_hdr_len(op);
	std::vector<u8> cut(full.begin(), full.begin() + hl);
	mrc_pkt q;

	auto bad = cut;
	bad[0] = 2; // version
	EXPECT_EQ(mrc_pkt_decode_trimmed(bad.data(), hl, hl, &q),
		  -MRC_WIRE_EVERSION);
	bad = cut;
	bad[2] = 0x80; // unknown flag
	EXPECT_EQ(mrc_pkt_decode_trimmed(bad.data(), hl, hl, &q),
		  -MRC_WIRE_EFLAGS);
	bad = cut;
	bad[4] = 1; // dqpn beyond 24 bits
	EXPECT_EQ(mrc_pkt_decode_trimmed(bad.data(), hl, hl, &q), -MRC_WIRE_EQPN);
	bad = cut;
	bad[18] = 0; // plane 0
	EXPECT_EQ(mrc_pkt_decode_trimmed(bad.data(), hl, hl, &q),
		  -MRC_WIRE_EPLANE);
	bad = cut;
	bad[19] = 1; // reserved
	EXPECT_EQ(mrc_pkt_decode_trimmed(bad.data(), hl, hl, &q),
		  -MRC_WIRE_ERESERVED);
	// payload_len 20 000: the message (msg_len 4096 + 140) is too short
	// for the payload the header claims.
	bad = cut;
	bad[24] = 0x4e;
	bad[25] = 0x20;
	EXPECT_EQ(mrc_pkt_decode_trimmed(bad.data(), hl, hl, &q),
		  -MRC_WIRE_ERANGE);
}

INSTANTIATE_TEST_SUITE_P(DataOpcodes, WireTrim,
			 ::testing::Values(MRC_OP_SEND, MRC_OP_SEND_IMM,
					   MRC_OP_SEND_INV, MRC_OP_WRITE,
					   MRC_OP_WRITE_IMM, MRC_OP_READ_RESP));

// Only data with payload can be trimmed: a control packet, a request
// without payload or an empty message's packet cut short is malformed.
TEST(WireTrimOnly, OpcodesWithoutPayloadAreRefused)
{
	for (u8 op : all_opcodes()) {
		if (mrc_opcode_has_payload(op))
			continue;
		auto full = encode(sample_pkt(op, {}));
		mrc_pkt q;
		for (u32 len = MRC_COMMON_HDR_LEN; len < full.size(); len++)
			EXPECT_NE(mrc_pkt_decode_trimmed(full.data(), len, len,
							 &q),
				  0)
				<< mrc_opcode_name(op) << " cut to " << len;
		u32 hl = (u32)mrc_hdr_len(op);
		EXPECT_EQ(mrc_pkt_decode_trimmed(full.data(), hl, hl, &q),
			  -MRC_WIRE_EPAYLOAD)
			<< mrc_opcode_name(op);
	}
}

TEST(WireTrimOnly, EmptyMessageIsRefused)
{
	mrc_pkt p = sample_pkt(MRC_OP_WRITE, {});
	p.hdr.flags |= MRC_F_FIRST | MRC_F_LAST;
	p.u.write.msg.offset = 0;
	p.u.write.msg.msg_len = 0;
	int err;
	auto full = encode(p, &err);
	ASSERT_EQ(err, 0) << mrc_wire_strerror(err);
	const u32 hl = (u32)mrc_hdr_len(MRC_OP_WRITE);
	mrc_pkt q;

	EXPECT_EQ(mrc_pkt_decode_trimmed(full.data(), hl, hl, &q),
		  -MRC_WIRE_EPAYLOAD);
}

TEST(WireTrimOnly, UnknownOpcodeAndVersion)
{
	std::vector<u8> b(64, 0);
	mrc_pkt q;

	b[0] = MRC_WIRE_VERSION;
	b[1] = 0x7f;
	EXPECT_EQ(mrc_pkt_decode_trimmed(b.data(), 64, 64, &q),
		  -MRC_WIRE_EOPCODE);
	b[0] = 0;
	EXPECT_EQ(mrc_pkt_decode_trimmed(b.data(), 64, 64, &q),
		  -MRC_WIRE_EVERSION);
}

} // namespace
