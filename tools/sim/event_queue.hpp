// SPDX-License-Identifier: GPL-2.0-only
// The discrete-event core: a binary min-heap of small POD events.
//
// Events carry two 32-bit operands (a port, a packet, a flow, a timer
// generation...) instead of pointers or closures, so pushing an event never
// allocates (the heap vector grows once to its high-water mark) and the
// main loop dispatches with a switch on the kind, not a virtual call.
// Ties in time are broken by insertion order, which makes runs
// deterministic.  The heap is 4-ary over 24-byte events: with ~10^5
// packets in flight it is larger than the caches, and a wider, shallower
// heap touches fewer cache lines per pop than a binary one.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"

namespace mrcsim {

enum class EvKind : std::uint8_t {
	TxDone,		// a = port: the head packet finished serialising
	Arrive,		// a = packet, b = node: the packet reached a node
	FlowStart,	// a = flow
	Timer,		// a = transport timer owner, b = generation
	Failure,	// a = failure index, b = phase
	Sample,		// periodic metrics sample
};

struct Event {
	Time time;
	std::uint64_t seq_kind;	// insertion sequence << 8 | kind
	std::uint32_t a;
	std::uint32_t b;

	EvKind kind() const { return static_cast<EvKind>(seq_kind & 0xff); }
};
static_assert(sizeof(Event) == 24);

class EventQueue {
public:
	void reserve(std::size_t n) { heap_.reserve(n); }
	bool empty() const { return heap_.empty(); }
	std::size_t size() const { return heap_.size(); }
	const Event &top() const { return heap_.front(); }
	std::uint64_t pushed() const { return seq_; }

	void push(Time t, EvKind kind, std::uint32_t a = 0, std::uint32_t b = 0)
	{
		heap_.push_back(Event{t, (seq_++ << 8) | static_cast<std::uint64_t>(kind), a, b});
		sift_up(heap_.size() - 1);
	}

	Event pop()
	{
		Event e = heap_.front();
		heap_.front() = heap_.back();
		heap_.pop_back();
		if (!heap_.empty())
			sift_down(0);
		return e;
	}

private:
	static bool before(const Event &x, const Event &y)
	{
		return x.time < y.time || (x.time == y.time && x.seq_kind < y.seq_kind);
	}

	void sift_up(std::size_t i)
	{
		Event e = heap_[i];
		while (i > 0) {
			std::size_t p = (i - 1) / 4;
			if (!before(e, heap_[p]))
				break;
			heap_[i] = heap_[p];
			i = p;
		}
		heap_[i] = e;
	}

	void sift_down(std::size_t i)
	{
		const std::size_t n = heap_.size();
		Event e = heap_[i];
		for (;;) {
			const std::size_t first = 4 * i + 1;
			if (first >= n)
				break;
			std::size_t c = first;
			const std::size_t last = first + 4 < n ? first + 4 : n;
			for (std::size_t k = first + 1; k < last; ++k)
				if (before(heap_[k], heap_[c]))
					c = k;
			if (!before(heap_[c], e))
				break;
			heap_[i] = heap_[c];
			i = c;
		}
		heap_[i] = e;
	}

	std::vector<Event> heap_;
	std::uint64_t seq_ = 0;
};

} // namespace mrcsim
