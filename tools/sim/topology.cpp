// SPDX-License-Identifier: GPL-2.0-only
#include "topology.hpp"

#include <cctype>

#include "config.hpp"

namespace mrcsim {

TopoParams TopoParams::from(const Config &cfg)
{
	TopoParams p;
	std::string kind = cfg.str("topology", "leaf_spine");
	if (kind == "leaf_spine")
		p.kind = TopoKind::LeafSpine;
	else if (kind == "fat_tree")
		p.kind = TopoKind::FatTree;
	else
		throw ConfigError(
			"topology: expected leaf_spine or fat_tree, got '" +
			kind + "'");
	p.planes = static_cast<std::uint32_t>(cfg.integer("planes", 1));
	if (p.planes < 1 || p.planes > 8)
		throw ConfigError("planes: 1..8");
	p.rate_gbps = cfg.rate("link_rate", 100);
	if (p.rate_gbps <= 0)
		throw ConfigError("link_rate must be > 0");
	p.latency = cfg.time("latency", kUs);
	if (p.kind == TopoKind::LeafSpine) {
		p.hosts = static_cast<std::uint32_t>(cfg.integer("hosts", 16));
		p.hosts_per_leaf = static_cast<std::uint32_t>(
			cfg.integer("hosts_per_leaf", 32));
		if (p.hosts_per_leaf > p.hosts)
			p.hosts_per_leaf = p.hosts;
		double over = cfg.real("oversubscription", 1.0);
		if (over < 1.0)
			throw ConfigError("oversubscription must be >= 1");
		auto def_spines = static_cast<std::int64_t>(p.hosts_per_leaf /
							    over);
		p.spines = static_cast<std::uint32_t>(
			cfg.integer("spines", def_spines < 1 ? 1 : def_spines));
		if (p.hosts == 0 || p.hosts_per_leaf == 0 ||
		    p.hosts % p.hosts_per_leaf)
			throw ConfigError(
				"hosts must be a non-zero multiple of hosts_per_leaf");
		if (p.spines < 1 || p.spines > 4096)
			throw ConfigError("spines: 1..4096");
	} else {
		std::int64_t hosts = cfg.integer("hosts", 0);
		std::int64_t k = cfg.integer("fat_tree_k", 0);
		if (!k) {
			// The smallest k whose k^3/4 hosts cover the request.
			for (k = 2; k * k * k / 4 < hosts; k += 2)
				;
		}
		if (k < 2 || k % 2 || k > 128)
			throw ConfigError("fat_tree_k must be even, 2..128");
		p.k = static_cast<std::uint32_t>(k);
		p.hosts = static_cast<std::uint32_t>(k * k * k / 4);
		if (hosts && hosts != p.hosts)
			throw ConfigError(
				"fat tree with k=" + std::to_string(k) +
				" has " + std::to_string(p.hosts) +
				" hosts; set hosts to that or leave it out");
	}
	return p;
}

Topology::Topology(const TopoParams &p) : p_(p)
{
	// Hosts first so that host id == node id; each has one port per plane.
	for (std::uint32_t h = 0; h < p_.hosts; ++h)
		add_node(0, 0, h, 0, 0, static_cast<std::uint16_t>(p_.planes));
	for (std::uint32_t h = 0; h < p_.hosts; ++h)
		for (std::uint32_t pl = 0; pl < p_.planes; ++pl)
			ports_[host_port(h, pl)].plane = static_cast<std::uint8_t>(
				pl);
	layer_base_.assign(p_.planes, std::vector<std::uint32_t>(4, 0));
	if (p_.kind == TopoKind::LeafSpine)
		build_leaf_spine();
	else
		build_fat_tree();
}

std::uint32_t Topology::add_node(std::uint8_t layer, std::uint8_t plane,
				 std::uint32_t index, std::uint32_t pod,
				 std::uint16_t n_down, std::uint16_t n_up)
{
	Node n;
	n.layer = layer;
	n.plane = plane;
	n.index = index;
	n.pod = pod;
	n.n_down = n_down;
	n.n_up = n_up;
	n.first_port = static_cast<std::uint32_t>(ports_.size());
	auto id = static_cast<std::uint32_t>(nodes_.size());
	nodes_.push_back(n);
	for (unsigned i = 0; i < static_cast<unsigned>(n_down) + n_up; ++i) {
		Port pt;
		pt.owner = id;
		pt.plane = plane;
		ports_.push_back(pt);
	}
	return id;
}

// Both ports already exist; record who they lead to.
void Topology::connect(std::uint32_t upper_port, std::uint32_t lower_port)
{
	ports_[upper_port].peer = ports_[lower_port].owner;
	ports_[lower_port].peer = ports_[upper_port].owner;
	ports_[upper_port].reverse = lower_port;
	ports_[lower_port].reverse = upper_port;
	if (!is_host(ports_[lower_port].owner))
		fabric_links_.push_back(lower_port);
}

void Topology::build_leaf_spine()
{
	const std::uint32_t hpl = p_.hosts_per_leaf;
	const std::uint32_t leaves = p_.hosts / hpl;
	down_per_leaf_ = hpl;
	hosts_per_pod_ = p_.hosts;
	top_count_ = p_.spines;
	for (std::uint32_t pl = 0; pl < p_.planes; ++pl) {
		auto plane = static_cast<std::uint8_t>(pl);
		layer_base_[pl][1] = static_cast<std::uint32_t>(nodes_.size());
		for (std::uint32_t l = 0; l < leaves; ++l)
			add_node(1, plane, l, 0, static_cast<std::uint16_t>(hpl),
				 static_cast<std::uint16_t>(p_.spines));
		layer_base_[pl][2] = static_cast<std::uint32_t>(nodes_.size());
		for (std::uint32_t s = 0; s < p_.spines; ++s)
			add_node(2, plane, s, 0,
				 static_cast<std::uint16_t>(leaves), 0);
		for (std::uint32_t h = 0; h < p_.hosts; ++h) {
			const Node &leaf = nodes_[layer_base_[pl][1] + h / hpl];
			connect(leaf.first_port + h % hpl, host_port(h, pl));
		}
		for (std::uint32_t l = 0; l < leaves; ++l) {
			const Node &leaf = nodes_[layer_base_[pl][1] + l];
			for (std::uint32_t s = 0; s < p_.spines; ++s) {
				const Node &spine = nodes_[layer_base_[pl][2] + s];
				connect(spine.first_port + l,
					leaf.first_port + leaf.n_down + s);
			}
		}
	}
}

void Topology::build_fat_tree()
{
	const std::uint32_t k = p_.k, h = k / 2;
	down_per_leaf_ = h;
	hosts_per_pod_ = h * h;
	top_count_ = h * h;
	for (std::uint32_t pl = 0; pl < p_.planes; ++pl) {
		auto plane = static_cast<std::uint8_t>(pl);
		auto hk = static_cast<std::uint16_t>(h);
		layer_base_[pl][1] = static_cast<std::uint32_t>(nodes_.size());
		for (std::uint32_t e = 0; e < k * h; ++e)
			add_node(1, plane, e, e / h, hk, hk);
		layer_base_[pl][2] = static_cast<std::uint32_t>(nodes_.size());
		for (std::uint32_t a = 0; a < k * h; ++a)
			add_node(2, plane, a, a / h, hk, hk);
		layer_base_[pl][3] = static_cast<std::uint32_t>(nodes_.size());
		for (std::uint32_t c = 0; c < h * h; ++c)
			add_node(3, plane, c, 0, static_cast<std::uint16_t>(k),
				 0);
		for (std::uint32_t x = 0; x < p_.hosts; ++x) {
			const Node &edge = nodes_[layer_base_[pl][1] + x / h];
			connect(edge.first_port + x % h, host_port(x, pl));
		}
		for (std::uint32_t e = 0; e < k * h; ++e) {
			const Node &edge = nodes_[layer_base_[pl][1] + e];
			for (std::uint32_t j = 0; j < h; ++j) {
				const Node &agg = nodes_[layer_base_[pl][2] +
							 edge.pod * h + j];
				connect(agg.first_port + e % h,
					edge.first_port + h + j);
			}
		}
		// Aggregation switch j of every pod reaches cores j*h .. j*h+h-1.
		for (std::uint32_t a = 0; a < k * h; ++a) {
			const Node &agg = nodes_[layer_base_[pl][2] + a];
			for (std::uint32_t m = 0; m < h; ++m) {
				const Node &core = nodes_[layer_base_[pl][3] +
							  (a % h) * h + m];
				connect(core.first_port + agg.pod,
					agg.first_port + h + m);
			}
		}
	}
}

std::uint32_t Topology::hops_between(std::uint32_t a, std::uint32_t b) const
{
	if (leaf_of(a) == leaf_of(b))
		return 2;
	if (p_.kind == TopoKind::LeafSpine || pod_of(a) == pod_of(b))
		return 4;
	return 6;
}

std::string Topology::node_name(std::uint32_t n) const
{
	const Node &nd = nodes_[n];
	if (nd.layer == 0)
		return "h" + std::to_string(nd.index);
	static const char *ls[] = {"h", "leaf", "spine", "core"};
	static const char *ft[] = {"h", "edge", "agg", "core"};
	return std::string(p_.kind == TopoKind::LeafSpine ? ls[nd.layer] :
							    ft[nd.layer]) +
	       std::to_string(nd.index);
}

std::string Topology::link_name(std::uint32_t port) const
{
	const Port &p = ports_[port];
	// Planes are numbered from 1 for people, as in mrcctl and the engine.
	return "p" + std::to_string(p.plane + 1) + ":" + node_name(p.owner) +
	       "-" + node_name(p.peer);
}

std::uint32_t Topology::find_node(std::uint32_t plane, const std::string &name) const
{
	std::size_t d = 0;
	while (d < name.size() &&
	       !std::isdigit(static_cast<unsigned char>(name[d])))
		++d;
	std::string prefix = name.substr(0, d);
	std::uint32_t idx;
	try {
		idx = static_cast<std::uint32_t>(std::stoul(name.substr(d)));
	} catch (const std::exception &) {
		throw ConfigError("bad node name '" + name + "'");
	}
	int layer = -1;
	if (prefix == "h")
		layer = 0;
	else if (prefix == "leaf" || prefix == "edge")
		layer = 1;
	else if (prefix == "spine" || prefix == "agg")
		layer = 2;
	else if (prefix == "core")
		layer = 3;
	if (layer < 0)
		throw ConfigError("bad node name '" + name + "'");
	if (layer == 0) {
		if (idx >= p_.hosts)
			throw ConfigError("no host " + name);
		return idx;
	}
	std::uint32_t n = layer_base_[plane][static_cast<std::size_t>(layer)] +
			  idx;
	if (n >= nodes_.size() || nodes_[n].layer != layer ||
	    nodes_[n].plane != plane || nodes_[n].index != idx)
		throw ConfigError("no node " + name + " in plane " +
				  std::to_string(plane + 1));
	return n;
}

std::uint32_t Topology::find_link(const std::string &spec) const
{
	auto colon = spec.find(':');
	auto dash = spec.find('-');
	if (spec.size() < 2 || spec[0] != 'p' || colon == std::string::npos ||
	    dash == std::string::npos || dash < colon)
		throw ConfigError(
			"link spec must look like p1:leaf3-spine5, got '" +
			spec + "'");
	// Plane numbers in link specs start at 1, like mrcctl's plane ids.
	std::uint32_t plane = static_cast<std::uint32_t>(
		std::stoul(spec.substr(1, colon - 1)));
	if (plane < 1 || plane > p_.planes)
		throw ConfigError("no plane in '" + spec + "' (planes are 1.." +
				  std::to_string(p_.planes) + ")");
	--plane;
	std::uint32_t a = find_node(plane,
				    spec.substr(colon + 1, dash - colon - 1));
	std::uint32_t b = find_node(plane, spec.substr(dash + 1));
	const Node &na = nodes_[a];
	for (std::uint32_t i = 0;
	     i < static_cast<std::uint32_t>(na.n_down) + na.n_up; ++i) {
		std::uint32_t pt = na.first_port + i;
		if (ports_[pt].peer == b && ports_[pt].plane == plane)
			return pt;
	}
	throw ConfigError("no link '" + spec + "'");
}

} // namespace mrcsim
