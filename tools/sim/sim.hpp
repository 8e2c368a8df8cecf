// SPDX-License-Identifier: GPL-2.0-only
// One simulation run: builds topology, fabric, traffic and failures from a
// Config, runs the event loop with the chosen transport and writes the
// outputs.  The loop is a template over the transport, instantiated once
// per transport type.
#pragma once

#include <memory>
#include <string>

#include "config.hpp"
#include "failures.hpp"
#include "fabric.hpp"
#include "flows.hpp"
#include "metrics.hpp"
#include "topology.hpp"
#include "transport.hpp"

namespace mrcsim {

struct RunOptions {
	std::string out_dir; // empty: no files
	bool progress = false;
};

class Simulation {
public:
	explicit Simulation(const Config &cfg);
	~Simulation();
	Simulation(const Simulation &) = delete;
	Simulation &operator=(const Simulation &) = delete;

	// Runs to completion (every flow done or failed) or `duration`.
	const RunInfo &run(const RunOptions &opt);
	void write_outputs(const std::string &dir) const;
	std::string summary() const;

	const Config &config() const { return cfg_; }
	const FlowTable &flows() const { return flows_; }
	const Fabric &fabric() const { return *fabric_; }
	const Topology &topo() const { return *topo_; }
	const Sampler &sampler() const { return *sampler_; }
	const std::string &transport() const { return transport_; }

private:
	template <Transport T> void loop(T &tr, const RunOptions &opt);

	Config cfg_; // a copy: the caller's may be a temporary
	std::string transport_;
	Time duration_;
	SimCore core_;
	std::unique_ptr<Topology> topo_;
	std::unique_ptr<Fabric> fabric_;
	FlowTable flows_;
	std::unique_ptr<Failures> failures_;
	std::unique_ptr<Sampler> sampler_;
	std::unique_ptr<SimContext> ctx_;
	RunInfo info_;
};

} // namespace mrcsim
