// SPDX-License-Identifier: GPL-2.0-only
// The flow table: what traffic asked for, and what the transports achieved
// (completion time, retransmissions, failure).  Flows may depend on other
// flows (ring all-reduce steps) and start when those complete.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"
#include "event_queue.hpp"

namespace mrcsim {

struct Flow {
	std::uint32_t src = 0, dst = 0;
	std::uint64_t bytes = 0;
	Time start = 0;		     // requested (or dependency-resolved) start
	Time finish = -1;	     // sender saw every byte acknowledged
	std::uint64_t retx = 0;	     // retransmitted data packets
	std::uint32_t deps_left = 0; // flows that must complete first
	std::vector<std::uint32_t> dependents;
	bool started = false;
	bool done = false;
	bool failed = false; // the transport gave up
};

class FlowTable {
public:
	std::uint32_t add(std::uint32_t src, std::uint32_t dst,
			  std::uint64_t bytes, Time start)
	{
		Flow f;
		f.src = src;
		f.dst = dst;
		f.bytes = bytes;
		f.start = start;
		flows_.push_back(std::move(f));
		return static_cast<std::uint32_t>(flows_.size() - 1);
	}
	void depend(std::uint32_t before, std::uint32_t after)
	{
		flows_[before].dependents.push_back(after);
		++flows_[after].deps_left;
	}
	// Puts a FlowStart event for every flow without dependencies.
	void schedule(EventQueue &q) const
	{
		for (std::uint32_t i = 0; i < flows_.size(); ++i)
			if (!flows_[i].deps_left)
				q.push(flows_[i].start, EvKind::FlowStart, i);
	}
	void complete(std::uint32_t id, Time now, EventQueue &q)
	{
		Flow &f = flows_[id];
		if (f.done || f.failed)
			return;
		f.done = true;
		f.finish = now;
		++finished_;
		for (std::uint32_t d : f.dependents)
			if (--flows_[d].deps_left == 0) {
				flows_[d].start = now;
				q.push(now, EvKind::FlowStart, d);
			}
	}
	void fail(std::uint32_t id)
	{
		Flow &f = flows_[id];
		if (f.done || f.failed)
			return;
		f.failed = true;
		++finished_;
	}
	Flow &operator[](std::uint32_t i) { return flows_[i]; }
	const Flow &operator[](std::uint32_t i) const { return flows_[i]; }
	std::uint32_t size() const
	{
		return static_cast<std::uint32_t>(flows_.size());
	}
	// Done or failed: the run can stop when this reaches size().
	std::uint32_t settled() const { return finished_; }

private:
	std::vector<Flow> flows_;
	std::uint32_t finished_ = 0;
};

} // namespace mrcsim
