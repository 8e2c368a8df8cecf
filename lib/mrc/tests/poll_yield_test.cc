// SPDX-License-Identifier: GPL-2.0-only
// mrc_poll_cq()'s empty-poll yield (poll_yield.hpp): when it yields, what
// ends a run, how MRC_POLL_YIELD is read.
#include "poll_yield.hpp"

#include <gtest/gtest.h>

using mrc::lib::poll_yield_parse;
using mrc::lib::PollYield;

TEST(PollYield, YieldsOnlyAfterTheRun)
{
	PollYield y;
	for (int i = 0; i < 4; i++)
		EXPECT_FALSE(y.note(0, 4)) << "empty poll " << i;
	EXPECT_TRUE(y.note(0, 4));
	EXPECT_TRUE(y.note(0, 4)) << "every further empty poll yields";
}

TEST(PollYield, ACompletionOrAnErrorEndsTheRun)
{
	for (int got : {1, 16, -1}) {
		PollYield y;
		for (int i = 0; i < 3; i++)
			y.note(0, 3);
		EXPECT_TRUE(y.note(0, 3));
		EXPECT_FALSE(y.note(got, 3));
		for (int i = 0; i < 3; i++)
			EXPECT_FALSE(y.note(0, 3)) << "after " << got;
		EXPECT_TRUE(y.note(0, 3));
	}
}

TEST(PollYield, ZeroNeverYields)
{
	PollYield y;
	for (int i = 0; i < 1000; i++)
		ASSERT_FALSE(y.note(0, 0));
}

TEST(PollYield, Environment)
{
	EXPECT_EQ(poll_yield_parse(nullptr), 64u);
	EXPECT_EQ(poll_yield_parse(""), 64u);
	EXPECT_EQ(poll_yield_parse("0"), 0u);
	EXPECT_EQ(poll_yield_parse("1000"), 1000u);
	EXPECT_EQ(poll_yield_parse("4294967295"), 4294967295u);
	for (const char *bad : {"x", "12x", "-1", "4294967296", " 5"})
		EXPECT_EQ(poll_yield_parse(bad), 64u) << bad;
}
