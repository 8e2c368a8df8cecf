// SPDX-License-Identifier: GPL-2.0-only
// Failures at given times, from repeated `failure = KIND key=value...`
// lines: link_down, degrade, blackhole, flap, plane_down, random_links.
// Routing does not react (static routes) unless `reconverge = 1`, in
// which case ECMP stops using a dead link `reconverge_delay` later.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "fabric.hpp"

namespace mrcsim {

class Config;
class FlowTable;

enum class FailKind : std::uint8_t {
	LinkDown,
	Degrade,
	Blackhole,
	Flap,
	PlaneDown,
	RandomLinks
};

struct Failure {
	FailKind kind = FailKind::LinkDown;
	Time at = 0;
	Time until = kNever;		  // restored then (kNever: permanent)
	Time period = 0;		  // flap
	double rate = 1.0, buffer = 1.0;  // degrade
	double fraction = 0;		  // blackhole share, random_links share
	std::vector<std::uint32_t> ports; // one direction of each link
	std::string text;
};

struct HostPortChange {
	std::uint32_t host, plane;
	bool up;
};

class Failures {
public:
	Failures(const Config &cfg, Fabric &fabric, const FlowTable &flows);
	void schedule(EventQueue &q) const;
	void on_event(std::uint32_t idx, std::uint32_t phase, SimCore &core);
	const std::vector<Failure> &list() const { return list_; }
	// Host NIC ports whose state changed; the loop tells the transport.
	std::vector<HostPortChange> take_host_changes()
	{
		return std::exchange(host_changes_, {});
	}
	// Times at which something failed (for plots).
	std::vector<Time> failure_times() const;

private:
	Failure parse(const std::string &spec, std::uint64_t seed);
	std::uint32_t link(const std::string &spec) const;
	void set_down(const Failure &f, bool down, SimCore &core,
		      std::uint32_t idx);

	Fabric &fabric_;
	const FlowTable &flows_;
	bool reconverge_;
	Time reconverge_delay_;
	std::vector<Failure> list_;
	std::vector<HostPortChange> host_changes_;
};

} // namespace mrcsim
