// SPDX-License-Identifier: GPL-2.0-only
#include "traffic.hpp"

#include <fstream>
#include <numeric>
#include <sstream>

#include "config.hpp"
#include "topology.hpp"

namespace mrcsim {

namespace {

// A random derangement (nobody sends to itself), from the scenario's seed.
std::vector<std::uint32_t> derangement(std::uint32_t n, Rng &rng)
{
	std::vector<std::uint32_t> p(n);
	std::iota(p.begin(), p.end(), 0u);
	for (;;) {
		for (std::uint32_t i = n - 1; i > 0; --i)
			std::swap(p[i], p[rng.below(i + 1)]);
		bool ok = true;
		for (std::uint32_t i = 0; i < n && ok; ++i)
			ok = p[i] != i;
		if (ok)
			return p;
	}
}

void load_flow_file(const std::string &path, const Topology &topo,
		    FlowTable &flows)
{
	std::ifstream f(path);
	if (!f)
		throw ConfigError("flow_file: cannot open '" + path + "'");
	std::string line;
	int lineno = 0;
	while (std::getline(f, line)) {
		++lineno;
		if (line.empty() || line[0] == '#' || line.rfind("start", 0) == 0)
			continue;
		std::istringstream in(line);
		std::string a, b, c, d;
		if (!std::getline(in, a, ',') || !std::getline(in, b, ',') ||
		    !std::getline(in, c, ',') || !std::getline(in, d))
			throw ConfigError(path + ":" + std::to_string(lineno) +
					  ": expected start_ns,src,dst,bytes");
		try {
			Time start = std::stoll(a) * kNs;
			auto src = static_cast<std::uint32_t>(std::stoul(b));
			auto dst = static_cast<std::uint32_t>(std::stoul(c));
			std::uint64_t bytes = std::stoull(d);
			if (src >= topo.hosts() || dst >= topo.hosts() ||
			    src == dst || !bytes)
				throw ConfigError("");
			flows.add(src, dst, bytes, start);
		} catch (const std::exception &) {
			throw ConfigError(path + ":" + std::to_string(lineno) +
					  ": bad flow '" + line + "'");
		}
	}
}

} // namespace

void build_traffic(const Config &cfg, const Topology &topo, FlowTable &flows)
{
	const std::string kind = cfg.str("traffic", "permutation");
	// flow_bytes = 2MB, or a list (2MB,16MB) each flow draws from.
	std::vector<std::uint64_t> sizes;
	{
		std::stringstream ss(cfg.str("flow_bytes", "2MB"));
		std::string one;
		while (std::getline(ss, one, ','))
			sizes.push_back(Config::parse_bytes(one));
	}
	if (sizes.empty())
		throw ConfigError("flow_bytes is empty");
	const std::uint64_t bytes = sizes[0];
	const Time start = cfg.time("start", 0);
	const std::uint32_t n = topo.hosts();
	Rng rng(static_cast<std::uint64_t>(cfg.integer("seed", 1)) ^
		0x7472616666696331ULL);
	for (auto b : sizes)
		if (b == 0)
			throw ConfigError("flow_bytes must be > 0");
	Rng size_rng(static_cast<std::uint64_t>(cfg.integer("seed", 1)) ^
		     0x73697a6573ULL);
	auto size = [&] {
		return sizes.size() == 1 ? bytes :
					   sizes[size_rng.below(sizes.size())];
	};

	if (kind == "single") {
		auto src = static_cast<std::uint32_t>(cfg.integer("src", 0));
		auto dst = static_cast<std::uint32_t>(cfg.integer("dst", n - 1));
		if (src >= n || dst >= n || src == dst)
			throw ConfigError(
				"single: src and dst must be distinct hosts");
		flows.add(src, dst, bytes, start);
	} else if (kind == "permutation") {
		auto p = derangement(n, rng);
		for (std::uint32_t i = 0; i < n; ++i)
			flows.add(i, p[i], size(), start);
	} else if (kind == "all_to_all") {
		// Every ordered pair, or with all_to_all_peers = K a slice:
		// host i sends to i + j x stride (mod n), j = 1..K, stride =
		// n / (K + 1), so each host sends K flows and receives K, spread
		// over the fabric (1024 hosts, K = 31: one peer on every other
		// leaf of 32 hosts).
		auto peers = static_cast<std::uint32_t>(
			cfg.integer("all_to_all_peers", n - 1));
		if (peers < 1 || peers > n - 1)
			throw ConfigError(
				"all_to_all_peers: 1 <= peers <= hosts - 1");
		if (static_cast<std::uint64_t>(n) * peers > 4'000'000)
			throw ConfigError(
				"all_to_all: too many flows (hosts x peers)");
		const std::uint32_t stride = n / (peers + 1);
		for (std::uint32_t i = 0; i < n; ++i) {
			if (peers == n - 1) { // every pair, in host order
				for (std::uint32_t j = 0; j < n; ++j)
					if (i != j)
						flows.add(i, j, size(), start);
				continue;
			}
			for (std::uint32_t j = 1; j <= peers; ++j)
				flows.add(i, (i + j * stride) % n, size(), start);
		}
	} else if (kind == "incast") {
		auto dst = static_cast<std::uint32_t>(
			cfg.integer("incast_dst", 0));
		auto senders = static_cast<std::uint32_t>(
			cfg.integer("incast_senders", 8));
		if (dst >= n || senders < 1 || senders >= n)
			throw ConfigError(
				"incast: incast_dst must be a host and 1 <= incast_senders < hosts");
		// Senders from other leaves first so the bottleneck is the
		// receiver's downlink, not a shared leaf uplink.
		std::vector<std::uint32_t> order;
		for (std::uint32_t i = 0; i < n; ++i)
			if (i != dst && topo.leaf_of(i) != topo.leaf_of(dst))
				order.push_back(i);
		for (std::uint32_t i = 0; i < n; ++i)
			if (i != dst && topo.leaf_of(i) == topo.leaf_of(dst))
				order.push_back(i);
		for (std::uint32_t i = 0; i < senders; ++i)
			flows.add(order[i], dst, size(), start);
	} else if (kind == "ring") {
		// Ring all-reduce: 2(n-1) steps; in each, host i sends a chunk to
		// i+1, and may start step s+1 once its own step-s chunk is acked
		// and it has received its neighbour's step-s chunk.
		auto steps = static_cast<std::uint32_t>(
			cfg.integer("ring_steps", 2 * (n - 1)));
		auto ring_hosts = static_cast<std::uint32_t>(
			cfg.integer("ring_hosts", n));
		if (ring_hosts < 2 || ring_hosts > n || steps < 1)
			throw ConfigError(
				"ring: 2 <= ring_hosts <= hosts, ring_steps >= 1");
		// ring_order = linear: host i's neighbour is i + 1 (a job
		// placed leaf by leaf: one ring edge per leaf crosses the
		// spines); random: a seeded order of the ring's hosts (a job
		// scattered over the fabric: nearly every edge crosses them).
		const std::string order = cfg.str("ring_order", "linear");
		std::vector<std::uint32_t> host(ring_hosts);
		std::iota(host.begin(), host.end(), 0u);
		if (order == "random") {
			for (std::uint32_t i = ring_hosts - 1; i > 0; --i)
				std::swap(host[i], host[rng.below(i + 1)]);
		} else if (order != "linear") {
			throw ConfigError(
				"ring_order: expected linear or random, got '" +
				order + "'");
		}
		std::vector<std::uint32_t> prev(ring_hosts);
		for (std::uint32_t s = 0; s < steps; ++s) {
			std::vector<std::uint32_t> cur(ring_hosts);
			for (std::uint32_t i = 0; i < ring_hosts; ++i)
				cur[i] = flows.add(host[i],
						   host[(i + 1) % ring_hosts],
						   bytes, start);
			if (s > 0)
				for (std::uint32_t i = 0; i < ring_hosts; ++i) {
					flows.depend(prev[i], cur[i]);
					flows.depend(prev[(i + ring_hosts - 1) %
							  ring_hosts],
						     cur[i]);
				}
			prev = cur;
		}
	} else if (kind == "file") {
		load_flow_file(cfg.str("flow_file", ""), topo, flows);
	} else {
		throw ConfigError(
			"traffic: expected single, permutation, all_to_all, incast, ring or file; got '" +
			kind + "'");
	}
	if (!flows.size())
		throw ConfigError("traffic produced no flows");
}

} // namespace mrcsim
