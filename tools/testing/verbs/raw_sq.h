// SPDX-License-Identifier: GPL-2.0-only
//
// The send ring of a QP as the stock rxe provider shares it with the
// kernel (struct rxe_queue_buf of <rdma/rdma_user_rxe.h>), for tests that
// write WQEs the provider itself would refuse: the kernel must treat the
// ring as hostile, so only a raw write shows what it does with them.
//
// The provider keeps the ring's address to itself; the ring is found among
// the process's mappings of /dev/infiniband/uverbs* as the one whose last
// produced slot holds the WQE the caller has just posted (a wr_id nobody
// else uses).  WQEs written here are published like the provider does
// (store-release of producer_index); the kernel fetches them at the next
// doorbell, i.e. the next ibv_post_send() on the QP.
#pragma once

#include "verbs_common.h"

#include <rdma/rdma_user_rxe.h>

#include <atomic>
#include <cstddef>
#include <fstream>
#include <optional>
#include <sstream>

namespace verbs {

// Calls @fn(start, length) for each read-write mapping of
// /dev/infiniband/uverbs* in this process (where the provider keeps the
// rings it shares with the kernel) until @fn returns true; returns
// whether it did.
template <typename Fn> bool for_each_uverbs_mapping(Fn fn)
{
	std::ifstream maps("/proc/self/maps");
	std::string line;
	while (std::getline(maps, line)) {
		std::istringstream ls(line);
		std::string range, perms, off, dev, inode, path;
		ls >> range >> perms >> off >> dev >> inode >> path;
		if (path.find("/dev/infiniband/uverbs") == std::string::npos ||
		    perms.size() < 2 || perms[0] != 'r' || perms[1] != 'w')
			continue;
		auto dash = range.find('-');
		uintptr_t start = std::stoull(range.substr(0, dash), nullptr, 16);
		uintptr_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
		if (fn(start, end - start))
			return true;
	}
	return false;
}

class RawSq {
public:
	// The send ring whose newest WQE has wr_id id; nullopt if none.
	static std::optional<RawSq> find(uint64_t id)
	{
		std::optional<RawSq> found;
		for_each_uverbs_mapping([&](uintptr_t start, uintptr_t len) {
			RawSq sq(reinterpret_cast<rxe_queue_buf *>(start));
			if (sq.plausible(len) && sq.newest()->wr.wr_id == id)
				found = sq;
			return found.has_value();
		});
		return found;
	}

	// The WQE header as C lays it out (what the kernel and the provider
	// use).  The SGEs and inline data follow it; they are reached through
	// sges() and inline_data(), not through struct rxe_dma_info's flexible
	// arrays, which a C++ compiler places 8 bytes further (the header's
	// __DECLARE_FLEX_ARRAY wraps each in a struct with an empty member,
	// one byte in C++, none in C).
	static constexpr size_t kHdr = offsetof(rxe_send_wqe, dma) +
				       offsetof(rxe_dma_info, reserved) +
				       sizeof(__u32);
	static_assert(kHdr == 208, "struct rxe_send_wqe is 208 bytes in C");

	static rxe_sge *sges(rxe_send_wqe &w)
	{
		return reinterpret_cast<rxe_sge *>(
			reinterpret_cast<uint8_t *>(&w) + kHdr);
	}
	static uint8_t *inline_data(rxe_send_wqe &w)
	{
		return reinterpret_cast<uint8_t *>(&w) + kHdr;
	}

	uint32_t slot_bytes() const { return 1u << q_->log2_elem_size; }
	// Bytes of a slot after the WQE header: the room for SGEs or inline.
	uint32_t slot_room() const
	{
		return slot_bytes() - static_cast<uint32_t>(kHdr);
	}

	// The zeroed slot at the producer index, to fill and then publish().
	rxe_send_wqe *next()
	{
		auto *w = slot(producer().load(std::memory_order_relaxed));
		std::memset(static_cast<void *>(w), 0, slot_bytes());
		return w;
	}

	void publish()
	{
		uint32_t p = producer().load(std::memory_order_relaxed);
		producer().store((p + 1) & q_->index_mask,
				 std::memory_order_release);
	}

private:
	explicit RawSq(rxe_queue_buf *q) : q_(q) {}

	std::atomic_ref<uint32_t> producer() const
	{
		return std::atomic_ref<uint32_t>(q_->producer_index);
	}

	rxe_send_wqe *slot(uint32_t idx) const
	{
		return reinterpret_cast<rxe_send_wqe *>(
			q_->data + ((idx & q_->index_mask) << q_->log2_elem_size));
	}

	rxe_send_wqe *newest() const
	{
		return slot(producer().load(std::memory_order_acquire) - 1);
	}

	// A ring header that describes a ring of send WQEs fitting in len.
	bool plausible(size_t len) const
	{
		uint32_t lg = q_->log2_elem_size, mask = q_->index_mask;
		if (len < sizeof(rxe_queue_buf) || lg < 8 || lg > 16 ||
		    mask == 0 || (mask & (mask + 1)) || mask > (1u << 20))
			return false;
		if (offsetof(rxe_queue_buf, data) +
			    (static_cast<size_t>(mask) + 1) * (1u << lg) >
		    len)
			return false;
		return q_->producer_index <= mask;
	}

	rxe_queue_buf *q_;
};

} // namespace verbs
