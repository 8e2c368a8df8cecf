// SPDX-License-Identifier: GPL-2.0-only
#include "failures.hpp"

#include <algorithm>
#include <utility>

#include "config.hpp"
#include "flows.hpp"
#include "gbn.hpp"

namespace mrcsim {

namespace {

// Event phases.
constexpr std::uint32_t kApply = 0, kRevert = 1, kRouteDead = 2, kFlapDown = 3,
			kFlapUp = 4;

} // namespace

Failures::Failures(const Config &cfg, Fabric &fabric, const FlowTable &flows)
	: fabric_(fabric), flows_(flows),
	  reconverge_(fabric.params().reconverge),
	  reconverge_delay_(fabric.params().reconverge_delay)
{
	auto seed = static_cast<std::uint64_t>(cfg.integer("seed", 1));
	for (const auto &spec : cfg.all("failure"))
		list_.push_back(parse(spec, seed + list_.size()));
}

// "p1:leaf3-spine5", or "flowF:H": hop H (0 = the host's own uplink) of
// the path flow F's first go-back-N subflow is pinned to.
std::uint32_t Failures::link(const std::string &spec) const
{
	if (spec.rfind("flow", 0) == 0) {
		auto colon = spec.find(':');
		if (colon == std::string::npos)
			throw ConfigError("link=flowF:HOP expected, got '" +
					  spec + "'");
		auto f = static_cast<std::uint32_t>(
			std::stoul(spec.substr(4, colon - 4)));
		auto hop = static_cast<std::uint32_t>(
			std::stoul(spec.substr(colon + 1)));
		if (f >= flows_.size())
			throw ConfigError("no flow in '" + spec + "'");
		const Flow &fl = flows_[f];
		auto p = fabric_.path(fl.src, fl.dst,
				      GbnTransport::pinned_plane(f, 0,
								 fabric_.topo()
									 .planes()),
				      GbnTransport::pinned_ev(f, 0), false);
		if (hop >= p.size())
			throw ConfigError("flow path has " +
					  std::to_string(p.size()) +
					  " hops: '" + spec + "'");
		return p[hop];
	}
	return fabric_.topo().find_link(spec);
}

Failure Failures::parse(const std::string &spec, std::uint64_t seed)
{
	std::string head;
	auto kv = parse_params(spec, &head);
	Failure f;
	f.text = spec;
	auto need = [&](const char *k) -> const std::string & {
		auto it = kv.find(k);
		if (it == kv.end())
			throw ConfigError("failure '" + spec + "': missing " +
					  k + "=");
		return it->second;
	};
	f.at = Config::parse_time(need("at"));
	if (kv.count("until"))
		f.until = Config::parse_time(kv["until"]);
	if (head == "link_down" || head == "degrade" || head == "blackhole" ||
	    head == "flap")
		f.ports.push_back(link(need("link")));
	if (head == "link_down") {
		f.kind = FailKind::LinkDown;
	} else if (head == "degrade") {
		f.kind = FailKind::Degrade;
		f.rate = std::stod(need("rate"));
		f.buffer = kv.count("buffer") ? std::stod(kv["buffer"]) : f.rate;
		if (f.rate <= 0 || f.rate > 1 || f.buffer <= 0 || f.buffer > 1)
			throw ConfigError(
				"degrade: rate and buffer are fractions in (0, 1]");
	} else if (head == "blackhole") {
		f.kind = FailKind::Blackhole;
		f.fraction = std::stod(need("fraction"));
	} else if (head == "flap") {
		f.kind = FailKind::Flap;
		f.period = Config::parse_time(need("period"));
		if (f.period <= 0)
			throw ConfigError("flap: period must be > 0");
	} else if (head == "plane_down") {
		f.kind = FailKind::PlaneDown;
		// Plane numbers start at 1, as in mrcctl and the engine.
		auto plane = static_cast<std::uint32_t>(std::stoul(need("plane")));
		if (plane < 1 || plane > fabric_.topo().planes())
			throw ConfigError(
				"plane_down: no plane " +
				std::to_string(plane) + " (planes are 1.." +
				std::to_string(fabric_.topo().planes()) + ")");
		--plane;
		const Topology &t = fabric_.topo();
		for (std::uint32_t h = 0; h < t.hosts(); ++h)
			f.ports.push_back(t.host_port(h, plane));
		for (std::uint32_t p : t.fabric_links())
			if (t.port(p).plane == plane)
				f.ports.push_back(p);
	} else if (head == "random_links") {
		f.kind = FailKind::RandomLinks;
		// A seeded sample of switch-to-switch links over all planes:
		// that share of them, or count= that many.
		std::vector<std::uint32_t> all = fabric_.topo().fabric_links();
		Rng rng(seed ^ 0x6661696cULL);
		std::size_t n;
		if (kv.count("count")) {
			if (kv.count("fraction"))
				throw ConfigError(
					"random_links: fraction= or count=, not both");
			n = std::stoul(kv["count"]);
			if (n < 1 || n > all.size())
				throw ConfigError(
					"random_links: count must be 1.." +
					std::to_string(all.size()));
		} else {
			f.fraction = std::stod(need("fraction"));
			n = static_cast<std::size_t>(
				f.fraction * static_cast<double>(all.size()) +
				0.5);
		}
		for (std::size_t i = 0; i < n && i < all.size(); ++i) {
			std::swap(all[i], all[i + rng.below(all.size() - i)]);
			f.ports.push_back(all[i]);
		}
	} else {
		throw ConfigError("failure: unknown kind '" + head + "'");
	}
	return f;
}

void Failures::schedule(EventQueue &q) const
{
	for (std::uint32_t i = 0; i < list_.size(); ++i) {
		q.push(list_[i].at, EvKind::Failure, i,
		       list_[i].kind == FailKind::Flap ? kFlapDown : kApply);
		if (list_[i].until != kNever && list_[i].kind != FailKind::Flap)
			q.push(list_[i].until, EvKind::Failure, i, kRevert);
	}
}

void Failures::set_down(const Failure &f, bool down, SimCore &core,
			std::uint32_t idx)
{
	const Topology &t = fabric_.topo();
	for (std::uint32_t p : f.ports) {
		fabric_.set_link_up(p, !down);
		if (!down)
			fabric_.set_route_dead(p, false);
		// A host sees its own NIC port lose carrier at once.
		const Port &pt = t.port(p);
		for (std::uint32_t n : {pt.owner, pt.peer})
			if (t.is_host(n))
				host_changes_.push_back(
					HostPortChange{n, pt.plane, !down});
	}
	if (down && reconverge_)
		core.q.push(core.now + reconverge_delay_, EvKind::Failure, idx,
			    kRouteDead);
}

void Failures::on_event(std::uint32_t idx, std::uint32_t phase, SimCore &core)
{
	const Failure &f = list_[idx];
	switch (phase) {
	case kApply:
	case kRevert: {
		const bool on = phase == kApply;
		switch (f.kind) {
		case FailKind::LinkDown:
		case FailKind::PlaneDown:
		case FailKind::RandomLinks: set_down(f, on, core, idx); break;
		case FailKind::Degrade:
			for (std::uint32_t p : f.ports)
				fabric_.degrade(p, on ? f.rate : 1.0,
						on ? f.buffer : 1.0);
			break;
		case FailKind::Blackhole:
			for (std::uint32_t p : f.ports)
				fabric_.blackhole(p, on ? f.fraction : 0.0);
			break;
		case FailKind::Flap: break;
		}
		break;
	}
	case kRouteDead:
		// Only if still down: the link may have come back meanwhile.
		for (std::uint32_t p : f.ports)
			if (!fabric_.port_state(p).up)
				fabric_.set_route_dead(p, true);
		break;
	case kFlapDown:
	case kFlapUp: {
		const bool down = phase == kFlapDown;
		const Time next = core.now + f.period / 2;
		if (f.until != kNever && core.now >= f.until) {
			set_down(f, false, core, idx);
			break;
		}
		set_down(f, down, core, idx);
		core.q.push(next, EvKind::Failure, idx,
			    down ? kFlapUp : kFlapDown);
		break;
	}
	default: break;
	}
}

std::vector<Time> Failures::failure_times() const
{
	std::vector<Time> t;
	for (const auto &f : list_)
		t.push_back(f.at);
	return t;
}

} // namespace mrcsim
