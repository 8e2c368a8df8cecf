// SPDX-License-Identifier: GPL-2.0-only
// Wrap-around-safe PSN comparisons.
#include <gtest/gtest.h>

extern "C" {
#include "psn.h"
}

TEST(Psn, OrdersNeighboursAcrossTheWrap)
{
	const uint32_t bases[] = {0,	       1,	    0x7fffffffu,
				  0x80000000u, 0xfffffff0u, 0xffffffffu};

	for (uint32_t b : bases) {
		for (uint32_t d = 1; d < 2048; d += 97) {
			uint32_t a = b + d; // wraps for the high bases

			EXPECT_TRUE(mrc_psn_after(a, b)) << b << "+" << d;
			EXPECT_TRUE(mrc_psn_before(b, a)) << b << "+" << d;
			EXPECT_FALSE(mrc_psn_before(a, b));
			EXPECT_EQ(mrc_psn_diff(a, b), (int32_t)d);
			EXPECT_EQ(mrc_psn_diff(b, a), -(int32_t)d);
		}
		EXPECT_FALSE(mrc_psn_after(b, b));
		EXPECT_FALSE(mrc_psn_before(b, b));
	}
}

TEST(Psn, RangeMembershipAcrossTheWrap)
{
	uint32_t lo = 0xfffffc00u, hi = lo + 2048; // hi wrapped to 0x400

	EXPECT_TRUE(mrc_psn_in(lo, lo, hi));
	EXPECT_TRUE(mrc_psn_in(0xffffffffu, lo, hi));
	EXPECT_TRUE(mrc_psn_in(0, lo, hi));
	EXPECT_TRUE(mrc_psn_in(hi - 1, lo, hi));
	EXPECT_FALSE(mrc_psn_in(hi, lo, hi));
	EXPECT_FALSE(mrc_psn_in(lo - 1, lo, hi));
	EXPECT_FALSE(mrc_psn_in(lo, lo, lo)); // empty range
}

TEST(Psn, HalfSpaceIsTheLimit)
{
	// 2^31 - 1 ahead is still "after"; 2^31 is ambiguous by design and
	// reads as "before": windows are far smaller than that.
	EXPECT_TRUE(mrc_psn_after(0x7fffffffu, 0));
	EXPECT_TRUE(mrc_psn_before(0x80000000u, 0));
}
