// SPDX-License-Identifier: GPL-2.0-only
#include "sim.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>

#include "gbn.hpp"
#include "spray.hpp"
#include "traffic.hpp"
#include "mrc_transport.hpp"

namespace mrcsim {

Simulation::Simulation(const Config &config) : cfg_(config)
{
	const Config &cfg = cfg_;
	transport_ = cfg.str("transport", "gbn");
	duration_ = cfg.time("duration", 100 * kMs);
	const TopoParams tp = TopoParams::from(cfg);
	topo_ = std::make_unique<Topology>(tp);
	fabric_ = std::make_unique<Fabric>(*topo_, FabricParams::from(cfg, tp),
					   core_);
	build_traffic(cfg, *topo_, flows_);
	failures_ = std::make_unique<Failures>(cfg, *fabric_, flows_);
	sampler_ = std::make_unique<Sampler>(cfg, *fabric_);
	ctx_ = std::make_unique<SimContext>(
		SimContext{core_, *fabric_, flows_, cfg});
	info_.scenario = cfg.str("name", "unnamed");
	info_.transport = transport_;
	info_.failures = failures_->failure_times();
}

Simulation::~Simulation() = default;

namespace {

class Progress {
public:
	explicit Progress(bool on)
		: on_(on), t0_(std::chrono::steady_clock::now())
	{
	}
	double elapsed() const
	{
		return std::chrono::duration<double>(
			       std::chrono::steady_clock::now() - t0_)
			.count();
	}
	void update(double frac, Time now, std::uint64_t events)
	{
		if (!on_)
			return;
		const double e = elapsed();
		if (e < 2.0 || e - last_ < 0.25)
			return;
		last_ = e;
		shown_ = true;
		const int w = 30, fill = static_cast<int>(frac * w);
		std::fprintf(stderr,
			     "\r[%.*s%*s] %3.0f%%  sim %.1f us  %.2f Mev/s ",
			     fill, "##############################", w - fill,
			     "", frac * 100, static_cast<double>(now) / kUs,
			     static_cast<double>(events) / e / 1e6);
	}
	~Progress()
	{
		if (shown_)
			std::fprintf(stderr, "\n");
	}

private:
	bool on_;
	bool shown_ = false;
	double last_ = 0;
	std::chrono::steady_clock::time_point t0_;
};

} // namespace

template <Transport T> void Simulation::loop(T &tr, const RunOptions &opt)
{
	EventQueue &q = core_.q;
	flows_.schedule(q);
	failures_->schedule(q);
	q.push(0, EvKind::Sample);
	Progress progress(opt.progress);
	const double cpu0 = cpu_seconds();
	std::uint64_t events = 0;
	const std::uint32_t nflows = flows_.size();
	while (!q.empty() && flows_.settled() < nflows) {
		const Event e = q.pop();
		if (e.time > duration_)
			break;
		core_.now = e.time;
		++events;
		switch (e.kind()) {
		case EvKind::TxDone: {
			const std::uint32_t host = fabric_->on_tx_done(e.a);
			if (host != kNone)
				tr.on_nic_ready(host);
			break;
		}
		case EvKind::Arrive:
			if (fabric_->on_arrive(e.a, e.b))
				tr.on_packet(e.a);
			break;
		case EvKind::FlowStart: tr.start_flow(e.a); break;
		case EvKind::Timer: tr.on_timer(e.a, e.b); break;
		case EvKind::Failure:
			failures_->on_event(e.a, e.b, core_);
			for (const auto &c : failures_->take_host_changes())
				tr.on_host_port(c.host, c.plane, c.up);
			break;
		case EvKind::Sample:
			sampler_->sample(core_.now);
			q.push(core_.now + sampler_->interval(), EvKind::Sample);
			break;
		}
		if ((events & 0xffff) == 0)
			progress.update(static_cast<double>(flows_.settled()) /
						nflows,
					core_.now, events);
	}
	sampler_->sample(core_.now);
	info_.events = events;
	info_.end = core_.now;
	info_.wall_s = progress.elapsed();
	info_.cpu_s = cpu_seconds() - cpu0;
}

const RunInfo &Simulation::run(const RunOptions &opt)
{
	sampler_->open(opt.out_dir);
	if (transport_ == "gbn") {
		GbnTransport t(*ctx_);
		loop(t, opt);
	} else if (transport_ == "spray") {
		SprayTransport t(*ctx_);
		loop(t, opt);
	} else if (transport_ == "mrc") {
		MrcTransport t(*ctx_);
		loop(t, opt);
		if (!opt.out_dir.empty())
			t.write_outputs(opt.out_dir);
	} else {
		throw ConfigError("transport: expected gbn, spray or mrc, got '" +
				  transport_ + "'");
	}
	info_.peak_rss_kb = peak_rss_kb();
	return info_;
}

std::string Simulation::summary() const
{
	return summary_json(info_, flows_, *fabric_, sampler_->peak_queue());
}

void Simulation::write_outputs(const std::string &dir) const
{
	write_flows_csv(dir + "/flows.csv", flows_, *fabric_);
	std::ofstream(dir + "/summary.json") << summary();
}

} // namespace mrcsim
