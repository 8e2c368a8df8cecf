// SPDX-License-Identifier: GPL-2.0-only
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "common.hpp"
#include "event_queue.hpp"

using namespace mrcsim;

template <class Q> class Queue : public ::testing::Test {
};
using QueueTypes = ::testing::Types<EventHeap, EventQueue>;
TYPED_TEST_SUITE(Queue, QueueTypes);

TYPED_TEST(Queue, PopsInTimeOrder)
{
	TypeParam q;
	Rng rng(7);
	std::vector<Time> times;
	for (int i = 0; i < 10000; ++i) {
		// Near and far (beyond the calendar's ring) events.
		Time t = static_cast<Time>(rng.below(i % 7 ? 1000000 : 10 * kMs));
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

TYPED_TEST(Queue, TiesBrokenByInsertionOrder)
{
	TypeParam q;
	for (std::uint32_t i = 0; i < 100; ++i)
		q.push(i % 3 == 0 ? 5 : 9, EvKind::Arrive, i);
	std::vector<std::uint32_t> order;
	for (int i = 0; i < 100; ++i) {
		Event e = q.pop();
		EXPECT_EQ(e.kind(), EvKind::Arrive);
		order.push_back(e.a);
	}
	// Every t=5 event (i % 3 == 0) in insertion order, then every t=9 one.
	std::vector<std::uint32_t> want;
	for (std::uint32_t i = 0; i < 100; i += 3)
		want.push_back(i);
	for (std::uint32_t i = 0; i < 100; ++i)
		if (i % 3)
			want.push_back(i);
	EXPECT_EQ(order, want);
}

// The calendar queue must pop exactly what the heap pops, including
// events pushed for "now" while a bucket is being drained and events far
// beyond its ring.
TEST(EventQueue, SameOrderAsHeapUnderLoad)
{
	EventHeap h;
	EventQueue c;
	Rng rng(11);
	Time now = 0;
	h.push(0, EvKind::Sample);
	c.push(0, EvKind::Sample);
	for (int i = 0; i < 200000; ++i) {
		ASSERT_FALSE(c.empty());
		Event a = h.pop(), b = c.pop();
		ASSERT_EQ(a.time, b.time) << "pop " << i;
		ASSERT_EQ(a.seq_kind, b.seq_kind) << "pop " << i;
		now = a.time;
		int n = static_cast<int>(rng.below(3));
		for (int k = 0; k < n || c.empty(); ++k) {
			std::uint64_t r = rng.below(100);
			Time dt = r < 10 ? 0 :
				  r < 90 ? static_cast<Time>(rng.below(2 * kUs)) :
					   static_cast<Time>(rng.below(5 * kMs));
			auto id = static_cast<std::uint32_t>(i);
			h.push(now + dt, EvKind::Timer, id);
			c.push(now + dt, EvKind::Timer, id);
		}
		ASSERT_EQ(h.size(), c.size());
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
