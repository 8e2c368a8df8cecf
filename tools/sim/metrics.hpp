// SPDX-License-Identifier: GPL-2.0-only
// Outputs: the time series sampled during the run (per plane, and per
// chosen link), then per-flow CSV and the JSON summary at the end.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "common.hpp"
#include "fabric.hpp"
#include "flows.hpp"

namespace mrcsim {

class Config;

struct Percentiles {
	double mean = 0, p1 = 0, p50 = 0, p99 = 0, min = 0, max = 0;
};
// Nearest-rank percentiles of v (sorted in place).
Percentiles percentiles(std::vector<double> &v);
// Jain's fairness index of v: 1 = perfectly fair, 1/n = one takes all.
double jain_index(const std::vector<double> &v);

class Sampler {
public:
	Sampler(const Config &cfg, const Fabric &fabric);
	Time interval() const { return interval_; }
	// Opens series.csv (and links.csv) in dir; empty dir: keep in memory
	// only the peak queue statistics.
	void open(const std::string &dir);
	void sample(Time now);
	// Largest queue seen on any switch port, in bytes.
	std::uint64_t peak_queue() const { return peak_queue_; }

private:
	const Fabric &fabric_;
	Time interval_;
	Time last_ = 0;
	std::vector<std::uint64_t> last_tx_;
	std::vector<std::uint64_t> last_delivered_;
	std::vector<std::uint32_t> links_;
	std::vector<std::uint64_t> link_last_tx_;
	std::ofstream series_, links_csv_;
	std::uint64_t peak_queue_ = 0;
};

struct RunInfo {
	std::string scenario, transport;
	std::uint64_t events = 0;
	double wall_s = 0;
	double cpu_s = 0; // the machine may be shared: CPU time is the honest rate
	Time end = 0;
	long peak_rss_kb = 0;
	std::vector<Time> failures; // when each scheduled failure starts
};

// Goodput a host can reach: every plane's line rate times the payload share.
double line_rate_gbps(const Fabric &fabric);
double flow_throughput_fraction(const Flow &f, const Fabric &fabric);

void write_flows_csv(const std::string &path, const FlowTable &flows,
		     const Fabric &fabric);
std::string summary_json(const RunInfo &info, const FlowTable &flows,
			 const Fabric &fabric, std::uint64_t peak_queue);
long peak_rss_kb();
double cpu_seconds();

} // namespace mrcsim
