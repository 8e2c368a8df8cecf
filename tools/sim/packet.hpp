// SPDX-License-Identifier: GPL-2.0-only
// Simulated packets live in one pool and travel as 32-bit indices, so
// events stay POD and the hot path never allocates.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"

namespace mrcsim {

enum class PktType : std::uint8_t { Data, Ack, Nack, Engine };

enum PktFlags : std::uint8_t {
	kEcnCe = 1 << 0,   // marked by a queue above its ECN threshold
	kTrimmed = 1 << 1, // payload cut by a full queue; header only
	kSrv6 = 1 << 2,	   // the EV is a source route (names the top switch)
	kRetrans = 1 << 3,
};

struct Packet {
	std::uint32_t flow = 0; // transport-defined owner (flow, subflow, connection)
	std::uint32_t src = 0, dst = 0; // hosts
	std::uint32_t psn = 0;
	std::uint32_t aux = 0;	    // transport-defined (cumulative ACK, ...)
	std::uint32_t ev = 0;	    // entropy value: hashed, or a source route
	std::uint32_t size = 0;	    // bytes on the wire
	std::uint32_t payload = 0;  // application bytes carried
	std::uint32_t blob = kNone; // engine wire bytes (MRC transport), if any
	Time sent = 0;
	PktType type = PktType::Data;
	std::uint8_t plane = 0;
	std::uint8_t flags = 0;
};

class PacketPool {
public:
	std::uint32_t alloc()
	{
		if (free_.empty()) {
			pkts_.emplace_back();
			return static_cast<std::uint32_t>(pkts_.size() - 1);
		}
		std::uint32_t i = free_.back();
		free_.pop_back();
		pkts_[i] = Packet{};
		return i;
	}
	void release(std::uint32_t i) { free_.push_back(i); }
	Packet &operator[](std::uint32_t i) { return pkts_[i]; }
	const Packet &operator[](std::uint32_t i) const { return pkts_[i]; }
	std::size_t live() const { return pkts_.size() - free_.size(); }
	std::size_t capacity() const { return pkts_.size(); }

private:
	std::vector<Packet> pkts_;
	std::vector<std::uint32_t> free_;
};

// FIFO of packet indices on a power-of-two ring that only ever grows:
// std::deque would allocate and free blocks as queues breathe.
class PktRing {
public:
	bool empty() const { return head_ == tail_; }
	std::size_t size() const { return tail_ - head_; }
	std::uint32_t front() const { return buf_[head_ & mask_]; }
	void push(std::uint32_t v)
	{
		if (size() == buf_.size())
			grow();
		buf_[tail_++ & mask_] = v;
	}
	std::uint32_t pop() { return buf_[head_++ & mask_]; }

private:
	void grow()
	{
		std::size_t n = buf_.empty() ? 8 : buf_.size() * 2;
		std::vector<std::uint32_t> nb(n);
		for (std::size_t i = 0; i < size(); ++i)
			nb[i] = buf_[(head_ + i) & mask_];
		tail_ = size();
		head_ = 0;
		buf_.swap(nb);
		mask_ = n - 1;
	}
	std::vector<std::uint32_t> buf_;
	std::size_t head_ = 0, tail_ = 0, mask_ = 0;
};

} // namespace mrcsim
