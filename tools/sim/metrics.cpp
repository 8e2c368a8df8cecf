// SPDX-License-Identifier: GPL-2.0-only
#include "metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include "config.hpp"

namespace mrcsim {

Percentiles percentiles(std::vector<double> &v)
{
	Percentiles p;
	if (v.empty())
		return p;
	std::sort(v.begin(), v.end());
	auto rank = [&](double q) {
		auto i = static_cast<std::size_t>(
			std::ceil(q * static_cast<double>(v.size())));
		return v[std::min(v.size() - 1, i ? i - 1 : 0)];
	};
	double sum = 0;
	for (double x : v)
		sum += x;
	p.mean = sum / static_cast<double>(v.size());
	p.p1 = rank(0.01);
	p.p50 = rank(0.50);
	p.p99 = rank(0.99);
	p.min = v.front();
	p.max = v.back();
	return p;
}

double jain_index(const std::vector<double> &v)
{
	double s = 0, s2 = 0;
	for (double x : v) {
		s += x;
		s2 += x * x;
	}
	return s2 > 0 ? s * s / (static_cast<double>(v.size()) * s2) : 0;
}

Sampler::Sampler(const Config &cfg, const Fabric &fabric)
	: fabric_(fabric), interval_(cfg.time("sample_interval", 10 * kUs)),
	  last_tx_(fabric.topo().port_count(), 0),
	  last_delivered_(fabric.topo().planes(), 0)
{
	std::string spec = cfg.str("output.links", "");
	std::stringstream ss(spec);
	std::string one;
	while (std::getline(ss, one, ','))
		if (!one.empty())
			links_.push_back(fabric.topo().find_link(one));
	link_last_tx_.assign(links_.size(), 0);
	if (interval_ <= 0)
		throw ConfigError("sample_interval must be > 0");
}

void Sampler::open(const std::string &dir)
{
	if (dir.empty())
		return;
	series_.open(dir + "/series.csv");
	series_ << "time_us,plane,delivered_gbps,fabric_util,queue_mean_bytes,queue_max_bytes,drops\n";
	if (!links_.empty()) {
		links_csv_.open(dir + "/links.csv");
		links_csv_ << "time_us,link,util,queue_bytes,up\n";
	}
}

void Sampler::sample(Time now)
{
	const Topology &t = fabric_.topo();
	const Time dt = now - last_;
	const std::uint32_t planes = t.planes();
	std::vector<std::uint64_t> tx(planes, 0), qsum(planes, 0),
		qmax(planes, 0), drops(planes, 0), nports(planes, 0);
	for (std::uint32_t p = 0; p < t.port_count(); ++p) {
		const PortState &ps = fabric_.port_state(p);
		const std::uint32_t pl = t.port(p).plane;
		drops[pl] += ps.drops;
		if (t.is_host(t.port(p).owner)) {
			last_tx_[p] = ps.tx_bytes;
			continue;
		}
		tx[pl] += ps.tx_bytes - last_tx_[p];
		last_tx_[p] = ps.tx_bytes;
		qsum[pl] += ps.qbytes;
		qmax[pl] = std::max(qmax[pl], ps.qbytes);
		++nports[pl];
	}
	for (std::uint32_t pl = 0; pl < planes; ++pl)
		peak_queue_ = std::max(peak_queue_, qmax[pl]);
	if (dt > 0 && series_.is_open()) {
		const double rate_bps = fabric_.topo().params().rate_gbps * 1e9;
		const double secs = static_cast<double>(dt) * 1e-12;
		char buf[256];
		for (std::uint32_t pl = 0; pl < planes; ++pl) {
			const std::uint64_t d = fabric_.delivered_payload(pl) -
						last_delivered_[pl];
			const double gbps = static_cast<double>(d) * 8 / secs /
					    1e9;
			const double util =
				nports[pl] ?
					static_cast<double>(tx[pl]) * 8 /
						(rate_bps * secs *
						 static_cast<double>(nports[pl])) :
					0;
			std::snprintf(buf, sizeof(buf),
				      "%.3f,%u,%.3f,%.5f,%.1f,%llu,%llu\n",
				      static_cast<double>(now) / kUs, pl + 1,
				      gbps, util,
				      nports[pl] ? static_cast<double>(qsum[pl]) /
							   static_cast<double>(
								   nports[pl]) :
						   0.0,
				      static_cast<unsigned long long>(qmax[pl]),
				      static_cast<unsigned long long>(drops[pl]));
			series_ << buf;
		}
		for (std::size_t i = 0; i < links_.size(); ++i) {
			const PortState &ps = fabric_.port_state(links_[i]);
			const double util = static_cast<double>(ps.tx_bytes -
								link_last_tx_[i]) *
					    8 / (rate_bps * secs);
			std::snprintf(buf, sizeof(buf), "%.3f,%s,%.5f,%llu,%d\n",
				      static_cast<double>(now) / kUs,
				      t.link_name(links_[i]).c_str(), util,
				      static_cast<unsigned long long>(ps.qbytes),
				      ps.up ? 1 : 0);
			links_csv_ << buf;
		}
	}
	for (std::uint32_t pl = 0; pl < planes; ++pl)
		last_delivered_[pl] = fabric_.delivered_payload(pl);
	for (std::size_t i = 0; i < links_.size(); ++i)
		link_last_tx_[i] = fabric_.port_state(links_[i]).tx_bytes;
	last_ = now;
}

double line_rate_gbps(const Fabric &fabric)
{
	const auto &fp = fabric.params();
	return fabric.topo().planes() * fabric.topo().params().rate_gbps *
	       fp.mtu / static_cast<double>(fp.mtu + fp.header);
}

double flow_throughput_fraction(const Flow &f, const Fabric &fabric)
{
	if (!f.done || f.finish <= f.start)
		return 0;
	const double gbps = static_cast<double>(f.bytes) * 8 /
			    (static_cast<double>(f.finish - f.start) / kNs);
	return gbps / line_rate_gbps(fabric);
}

void write_flows_csv(const std::string &path, const FlowTable &flows,
		     const Fabric &fabric)
{
	std::ofstream out(path);
	out << "flow,src,dst,bytes,start_us,finish_us,fct_us,throughput_gbps,fraction_of_line_rate,retransmissions,status\n";
	char buf[256];
	for (std::uint32_t i = 0; i < flows.size(); ++i) {
		const Flow &f = flows[i];
		const double fct = f.done ? static_cast<double>(f.finish -
								f.start) /
						    kUs :
					    0;
		const double frac = flow_throughput_fraction(f, fabric);
		std::snprintf(buf, sizeof(buf),
			      "%u,%u,%u,%llu,%.3f,%.3f,%.3f,%.3f,%.5f,%llu,%s\n",
			      i, f.src, f.dst,
			      static_cast<unsigned long long>(f.bytes),
			      static_cast<double>(f.start) / kUs,
			      f.done ? static_cast<double>(f.finish) / kUs : -1.0,
			      fct, frac * line_rate_gbps(fabric), frac,
			      static_cast<unsigned long long>(f.retx),
			      f.done   ? "ok" :
			      f.failed ? "failed" :
					 "unfinished");
		out << buf;
	}
}

long peak_rss_kb()
{
	struct rusage ru {};
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

double cpu_seconds()
{
	struct rusage ru {};
	getrusage(RUSAGE_SELF, &ru);
	return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) *
		       1e-6;
}

namespace {

// Rounded to a fixed number of decimals, as the summary always printed
// them: the file stays readable and diffable between runs.
double fixed(double v, int decimals)
{
	const double scale = std::pow(10.0, decimals);
	return std::round(v * scale) / scale;
}

} // namespace

std::string summary_json(const RunInfo &info, const FlowTable &flows,
			 const Fabric &fabric, std::uint64_t peak_queue)
{
	std::vector<double> thr, fct;
	std::uint64_t retx = 0;
	std::uint32_t done = 0, failed = 0, unfinished = 0;
	Time last = 0; // the last flow's finish: a collective's completion
	for (std::uint32_t i = 0; i < flows.size(); ++i) {
		const Flow &f = flows[i];
		// Failed and unfinished flows count as throughput 0: they are the tail.
		thr.push_back(flow_throughput_fraction(f, fabric));
		retx += f.retx;
		if (f.done) {
			++done;
			last = std::max(last, f.finish);
			fct.push_back(static_cast<double>(f.finish - f.start) /
				      kUs);
		} else if (f.failed) {
			++failed;
		} else {
			++unfinished;
		}
	}
	std::vector<double> thr_copy = thr;
	const double jain = jain_index(thr_copy);
	Percentiles t = percentiles(thr);
	Percentiles c = percentiles(fct);
	const double sim_us = static_cast<double>(info.end) / kUs;
	auto per = [](double n, double d) { return d > 0 ? n / d : 0.0; };

	// A writer, not a format string: names from the scenario or --set
	// may hold quotes, backslashes and control characters.  Ordered:
	// the keys keep the order the summary always had.
	nlohmann::ordered_json failures = nlohmann::ordered_json::array();
	for (Time ft : info.failures)
		failures.push_back(fixed(static_cast<double>(ft) / kUs, 3));
	nlohmann::ordered_json j = {
		{"scenario", info.scenario},
		{"transport", info.transport},
		{"hosts", fabric.topo().hosts()},
		{"planes", fabric.topo().planes()},
		{"line_rate_gbps", fixed(line_rate_gbps(fabric), 3)},
		{"flows", flows.size()},
		{"completed", done},
		{"failed", failed},
		{"unfinished", unfinished},
		{"throughput",
		 {{"mean", fixed(t.mean, 5)},
		  {"p1", fixed(t.p1, 5)},
		  {"p50", fixed(t.p50, 5)},
		  {"p99", fixed(t.p99, 5)},
		  {"min", fixed(t.min, 5)},
		  {"jain", fixed(jain, 5)}}},
		{"fct_us",
		 {{"mean", fixed(c.mean, 3)},
		  {"p50", fixed(c.p50, 3)},
		  {"p99", fixed(c.p99, 3)},
		  {"max", fixed(c.max, 3)}}},
		// When every flow has finished, the last finish (the
		// completion of a collective: ring, all-to-all), else -1.
		{"completion_us",
		 done == flows.size() ? fixed(static_cast<double>(last) / kUs, 3) :
					fixed(-1, 3)},
		// Failure start times, for the timeline plots.
		{"failures_us", failures},
		{"retransmissions", retx},
		{"drops", fabric.drops()},
		{"peak_queue_bytes", peak_queue},
		{"sim_end_us", fixed(sim_us, 3)},
		{"events", info.events},
		{"perf",
		 {{"wall_s", fixed(info.wall_s, 3)},
		  {"cpu_s", fixed(info.cpu_s, 3)},
		  {"events_per_s",
		   std::llround(per(static_cast<double>(info.events), info.wall_s))},
		  {"events_per_cpu_s",
		   std::llround(per(static_cast<double>(info.events), info.cpu_s))},
		  {"sim_us_per_wall_s", fixed(per(sim_us, info.wall_s), 3)},
		  {"sim_us_per_cpu_s", fixed(per(sim_us, info.cpu_s), 3)},
		  {"peak_rss_mb",
		   fixed(static_cast<double>(info.peak_rss_kb) / 1024.0, 1)}}},
	};
	return j.dump(2) + "\n";
}

} // namespace mrcsim
