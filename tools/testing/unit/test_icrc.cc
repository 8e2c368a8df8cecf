// SPDX-License-Identifier: GPL-2.0-only
// ICRC: the standard CRC-32 check values, and incremental == one-shot.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "icrc.h"
}

namespace {

u32 crc_of(const std::string &s)
{
	return mrc_icrc(reinterpret_cast<const u8 *>(s.data()), (u32)s.size());
}

TEST(Icrc, CheckValue123456789) { EXPECT_EQ(crc_of("123456789"), 0xCBF43926u); }

TEST(Icrc, QuickBrownFox)
{
	EXPECT_EQ(crc_of("The quick brown fox jumps over the lazy dog"),
		  0x414FA339u);
}

TEST(Icrc, SingleByteAndEmpty)
{
	EXPECT_EQ(crc_of("a"), 0xE8B7BE43u);
	EXPECT_EQ(mrc_icrc(nullptr, 0), 0u);
}

TEST(Icrc, ThirtyTwoZeroBytes)
{
	std::vector<u8> z(32, 0);
	EXPECT_EQ(mrc_icrc(z.data(), (u32)z.size()), 0x190A55ADu);
}

TEST(Icrc, IncrementalEqualsOneShotAtEverySplit)
{
	std::vector<u8> buf(300);
	for (size_t i = 0; i < buf.size(); i++)
		buf[i] = (u8)(i * 37 + 11);
	const u32 whole = mrc_icrc(buf.data(), (u32)buf.size());
	for (u32 cut = 0; cut <= buf.size(); cut++) {
		u32 s = mrc_icrc_init();
		s = mrc_icrc_update(s, buf.data(), cut);
		s = mrc_icrc_update(s, buf.data() + cut, (u32)buf.size() - cut);
		ASSERT_EQ(mrc_icrc_final(s), whole) << "split at " << cut;
	}
}

TEST(Icrc, EverySingleBitFlipChangesTheCrc)
{
	std::vector<u8> buf(64);
	for (size_t i = 0; i < buf.size(); i++)
		buf[i] = (u8)(i ^ 0x5a);
	const u32 ref = mrc_icrc(buf.data(), (u32)buf.size());
	for (size_t bit = 0; bit < buf.size() * 8; bit++) {
		buf[bit / 8] ^= (u8)(1u << (bit % 8));
		EXPECT_NE(mrc_icrc(buf.data(), (u32)buf.size()), ref) << bit;
		buf[bit / 8] ^= (u8)(1u << (bit % 8));
	}
}

} // namespace
