// SPDX-License-Identifier: GPL-2.0-only
// PSN ring bitmap and SACK extraction (receiver side) and the SACK
// bookkeeping of the sender as seen through ACKs.
#include <gtest/gtest.h>

#include <random>
#include <set>

extern "C" {
#include "sack.h"
}

namespace {

bool sack_bit(const uint64_t *s, uint32_t i)
{
	return s[i / 64] >> (i % 64) & 1;
}

} // namespace

TEST(Sack, RingSetTestClearAcrossTheWrap)
{
	uint64_t ring[MRC_RING_WORDS] = {};
	uint32_t psn = 0xfffffffeu;

	for (uint32_t i = 0; i < 4; i++)
		mrc_ring_set(ring, psn + i);
	for (uint32_t i = 0; i < 4; i++)
		EXPECT_TRUE(mrc_ring_test(ring, psn + i));
	EXPECT_FALSE(mrc_ring_test(ring, psn + 4));
	mrc_ring_clear(ring, 0);
	EXPECT_FALSE(mrc_ring_test(ring, 0));
	EXPECT_TRUE(mrc_ring_test(ring, 1));
}

TEST(Sack, ExtractMatchesBitByBitReference)
{
	std::mt19937_64 rng(7);

	for (int run = 0; run < 300; run++) {
		uint64_t ring[MRC_RING_WORDS] = {};
		std::set<uint32_t> have;
		uint32_t base = (uint32_t)rng();
		uint32_t valid = (uint32_t)(rng() % (MRC_SACK_BITS + 40));
		uint64_t sack[MRC_SACK_WORDS];

		for (int i = 0; i < 200; i++) {
			uint32_t p = base + (uint32_t)(rng() % MRC_SACK_BITS);

			mrc_ring_set(ring, p);
			have.insert(p);
		}
		mrc_sack_extract(ring, base, valid, sack);
		uint32_t n = 0;

		for (uint32_t i = 0; i < MRC_SACK_BITS; i++) {
			bool want = i < valid && have.count(base + i);

			ASSERT_EQ(sack_bit(sack, i), want)
				<< "run " << run << " bit " << i;
			n += want;
		}
		EXPECT_EQ(mrc_sack_count(sack), n);
	}
}

TEST(Sack, ZeroValidGivesEmptyBitmap)
{
	uint64_t ring[MRC_RING_WORDS];
	uint64_t sack[MRC_SACK_WORDS];

	memset(ring, 0xff, sizeof(ring));
	mrc_sack_extract(ring, 123, 0, sack);
	EXPECT_EQ(mrc_sack_count(sack), 0u);
	mrc_sack_extract(ring, 123, 5, sack);
	EXPECT_EQ(mrc_sack_count(sack), 5u);
}

TEST(Sack, NextZeroSkipsSetRunsAndStopsAtEnd)
{
	std::mt19937_64 rng(11);

	for (int run = 0; run < 200; run++) {
		uint64_t ring[MRC_RING_WORDS] = {};
		uint32_t start = (uint32_t)rng();
		uint32_t span = 1 + (uint32_t)(rng() % MRC_MAX_WINDOW);
		uint32_t end = start + span;

		for (uint32_t i = 0; i < span; i++)
			if (rng() % 8) // mostly set: long runs
				mrc_ring_set(ring, start + i);
		for (uint32_t p = start; p != end; p++) {
			uint32_t want = p;

			while (want != end && mrc_ring_test(ring, want))
				want++;
			ASSERT_EQ(mrc_ring_next_zero(ring, p, end), want)
				<< "run " << run;
		}
	}
}

TEST(Sack, RingWordAnyAlignmentWraps)
{
	uint64_t ring[MRC_RING_WORDS] = {};

	mrc_ring_set(ring, MRC_MAX_WINDOW - 1); // last bit of the ring
	mrc_ring_set(ring, 0);			// first bit, after the wrap
	EXPECT_EQ(mrc_ring_word(ring, MRC_MAX_WINDOW - 1), 0x3ull);
	EXPECT_EQ(mrc_ring_word(ring, MRC_MAX_WINDOW - 64), 1ull << 63);
}
