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

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common.hpp"

namespace mrcsim {

enum class EvKind : std::uint8_t {
	TxDone,	   // a = port: the head packet finished serialising
	Arrive,	   // a = packet, b = node: the packet reached a node
	FlowStart, // a = flow
	Timer,	   // a = transport timer owner, b = generation
	Failure,   // a = failure index, b = phase
	Sample,	   // periodic metrics sample
};

struct Event {
	Time time;
	std::uint64_t seq_kind; // insertion sequence << 8 | kind
	std::uint32_t a;
	std::uint32_t b;

	EvKind kind() const { return static_cast<EvKind>(seq_kind & 0xff); }
};
static_assert(sizeof(Event) == 24);

class EventHeap {
public:
	bool empty() const { return heap_.empty(); }
	std::size_t size() const { return heap_.size(); }
	const Event &top() const { return heap_.front(); }

	void push(Time t, EvKind kind, std::uint32_t a = 0, std::uint32_t b = 0)
	{
		push(Event{t, (seq_++ << 8) | static_cast<std::uint64_t>(kind),
			   a, b});
	}
	void push(const Event &e)
	{
		heap_.push_back(e);
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

	static bool before(const Event &x, const Event &y)
	{
		return x.time < y.time ||
		       (x.time == y.time && x.seq_kind < y.seq_kind);
	}

private:

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

// The simulator's agenda: a calendar queue in front of the heap.
//
// Almost every event is due within a few microseconds (a serialisation,
// a hop), and at a thousand hosts ~10^5 of them are pending: a heap of
// that size misses the cache on every level.  Here time is cut into
// buckets of 2^kShift ps; a ring of kBuckets buckets covers the near
// future, pushing is an append, and a bucket is sorted once when the
// clock reaches it.  Events beyond the ring (timers, failures) wait in
// the heap and move into the ring as it advances.  The pop order is
// exactly the heap's: by time, then by insertion sequence.  The ring spans
// a few hop times, not a timer's reach, so that it stays small.
class EventQueue {
public:
	static constexpr int kShift = 10;		 // 1.024 ns buckets
	static constexpr std::size_t kBuckets = 1 << 13; // ~8.4 us ahead

	EventQueue() : ring_(kBuckets) {}

	bool empty() const { return size_ == 0; }
	std::size_t size() const { return size_; }

	void push(Time t, EvKind kind, std::uint32_t a = 0, std::uint32_t b = 0)
	{
		place(Event{t, (seq_++ << 8) | static_cast<std::uint64_t>(kind),
			    a, b});
		++size_;
	}

	Event pop()
	{
		for (;;) {
			std::vector<Event> &b = ring_[cur_ & kMask];
			if (!b.empty()) {
				if (!sorted_) {
					// Descending, so the earliest is at the back.
					std::sort(b.begin(), b.end(),
						  [](const Event &x,
						     const Event &y) {
							  return EventHeap::before(y,
										   x);
						  });
					sorted_ = true;
				}
				Event e = b.back();
				b.pop_back();
				--size_;
				return e;
			}
			advance();
		}
	}

private:
	static constexpr std::size_t kMask = kBuckets - 1;
	static constexpr std::size_t kKeep =
		256; // events a drained bucket may keep room for

	Time bucket_start(std::uint64_t bucket) const
	{
		return static_cast<Time>(bucket << kShift);
	}

	void place(const Event &e)
	{
		auto bucket = static_cast<std::uint64_t>(e.time) >> kShift;
		if (bucket < cur_)
			bucket = cur_; // in the past: due at once (never done on purpose)
		if (bucket >= cur_ + kBuckets) {
			far_.push(e);
			return;
		}
		std::vector<Event> &b = ring_[bucket & kMask];
		if (bucket == cur_ && sorted_) {
			// The bucket being drained stays sorted: insert in place.
			auto it =
				std::upper_bound(b.begin(), b.end(), e,
						 [](const Event &x,
						    const Event &y) {
							 return EventHeap::before(y,
										  x);
						 });
			b.insert(it, e);
			return;
		}
		b.push_back(e);
	}

	// The current bucket is empty: move to the next, and let far events
	// that now fall inside the ring into it.
	void advance()
	{
		// Links of equal rate and latency make events cluster on the
		// same instants; a bucket that held such a cluster gives its
		// memory back instead of every bucket keeping its high-water mark.
		std::vector<Event> &done = ring_[cur_ & kMask];
		if (done.capacity() > kKeep)
			std::vector<Event>().swap(done);
		++cur_;
		sorted_ = false;
		if (far_.empty())
			return;
		// Jump over an empty stretch straight to the next far event.
		if (size_ == far_.size()) {
			const auto next = static_cast<std::uint64_t>(
						  far_.top().time) >>
					  kShift;
			if (next > cur_)
				cur_ = next;
		}
		const Time end = bucket_start(cur_ + kBuckets);
		while (!far_.empty() && far_.top().time < end) {
			const Event e = far_.pop();
			ring_[(static_cast<std::uint64_t>(e.time) >> kShift) & kMask]
				.push_back(e);
		}
	}

	std::vector<std::vector<Event>> ring_;
	EventHeap far_;
	std::uint64_t cur_ = 0; // bucket the clock is in
	bool sorted_ = false;	// ring_[cur_] is sorted
	std::size_t size_ = 0;
	std::uint64_t seq_ = 0;
};

} // namespace mrcsim
