// SPDX-License-Identifier: GPL-2.0-only
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "common.hpp"
#include "event_queue.hpp"

using namespace mrcsim;

TEST(EventQueue, PopsInTimeOrder)
{
	EventQueue q;
	Rng rng(7);
	std::vector<Time> times;
	for (int i = 0; i < 10000; ++i) {
		Time t = static_cast<Time>(rng.below(1000000));
		times.push_back(t);
		q.push(t, EvKind::Timer, static_cast<std::uint32_t>(i));
	}
	std::sort(times.begin(), times.end());
	for (Time t : times) {
		ASSERT_FALSE(q.empty());
		EXPECT_EQ(q.pop().time, t);
	}
	EXPECT_TRUE(q.empty());
}

TEST(EventQueue, TiesBrokenByInsertionOrder)
{
	EventQueue q;
	for (std::uint32_t i = 0; i < 100; ++i)
		q.push(i % 3 == 0 ? 5 : 9, EvKind::Arrive, i);
	std::uint32_t last5 = 0, last9 = 0;
	bool first5 = true, first9 = true;
	for (int i = 0; i < 100; ++i) {
		Event e = q.pop();
		if (e.time == 5) {
			EXPECT_TRUE(first5 || e.a > last5);
			first5 = false;
			last5 = e.a;
		} else {
			EXPECT_FALSE(first5 && i < 34) << "a t=9 event before all t=5 ones";
			EXPECT_TRUE(first9 || e.a > last9);
			first9 = false;
			last9 = e.a;
		}
	}
}

TEST(EventQueue, InterleavedPushPopKeepsOrder)
{
	EventQueue q;
	Rng rng(3);
	Time now = 0;
	q.push(0, EvKind::Sample);
	for (int i = 0; i < 50000; ++i) {
		Event e = q.pop();
		ASSERT_GE(e.time, now);
		now = e.time;
		int n = static_cast<int>(rng.below(3));
		for (int k = 0; k < n || q.empty(); ++k)
			q.push(now + static_cast<Time>(rng.below(1000)), EvKind::Timer);
	}
}

TEST(Rng, DeterministicAndInRange)
{
	Rng a(42), b(42), c(43);
	bool differs = false;
	for (int i = 0; i < 1000; ++i) {
		std::uint64_t x = a.next();
		EXPECT_EQ(x, b.next());
		differs |= x != c.next();
		EXPECT_LT(a.below(17), 17u);
		b.below(17);
		c.below(17);
	}
	EXPECT_TRUE(differs);
}
