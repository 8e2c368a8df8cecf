// SPDX-License-Identifier: GPL-2.0-only
// Static shape of the simulated cluster: hosts, switches and directed ports
// of a multi-plane 2-tier leaf-spine or 3-tier k-ary fat tree.  Every plane
// is an independent copy of the fabric; each host NIC has one port per
// plane.  Only structure lives here; queues and link state are in fabric.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"

namespace mrcsim {

class Config;

enum class TopoKind : std::uint8_t { LeafSpine, FatTree };

struct TopoParams {
	TopoKind kind = TopoKind::LeafSpine;
	std::uint32_t hosts = 16;
	std::uint32_t hosts_per_leaf = 4; // leaf-spine
	std::uint32_t spines = 4;	  // leaf-spine, per plane
	std::uint32_t k = 4;		  // fat tree
	std::uint32_t planes = 1;
	double rate_gbps = 100;
	Time latency = kUs; // per hop (propagation + switching)

	static TopoParams from(const Config &cfg);
};

// Layers: 0 host, 1 leaf/edge, 2 spine/aggregation, 3 core.
struct Node {
	std::uint32_t index = 0; // within its layer and plane
	std::uint32_t pod = 0;	 // fat tree only
	std::uint32_t first_port = 0;
	std::uint16_t n_down = 0; // ports towards hosts come first,
	std::uint16_t n_up = 0;	  // then ports towards the core
	std::uint8_t layer = 0;
	std::uint8_t plane = 0;
};

struct Port {
	std::uint32_t owner = 0;   // transmitting node
	std::uint32_t peer = 0;	   // receiving node
	std::uint32_t reverse = 0; // the opposite direction of the link
	std::uint8_t plane = 0;
};

class Topology {
public:
	explicit Topology(const TopoParams &p);

	const TopoParams &params() const { return p_; }
	std::uint32_t hosts() const { return p_.hosts; }
	std::uint32_t planes() const { return p_.planes; }
	std::size_t node_count() const { return nodes_.size(); }
	std::size_t port_count() const { return ports_.size(); }
	const Node &node(std::uint32_t n) const { return nodes_[n]; }
	const Port &port(std::uint32_t p) const { return ports_[p]; }
	bool is_host(std::uint32_t n) const { return n < p_.hosts; }
	std::uint32_t host_port(std::uint32_t host, std::uint32_t plane) const
	{
		return host * p_.planes + plane;
	}

	// Edge switch (leaf) index of a host, its pod (fat tree), and the
	// number of distinct paths an up-going packet can take (spines or
	// cores): SRV6 EVs name one of these.
	std::uint32_t leaf_of(std::uint32_t host) const
	{
		return host / down_per_leaf_;
	}
	std::uint32_t pod_of(std::uint32_t host) const
	{
		return host / hosts_per_pod_;
	}
	std::uint32_t top_count() const { return top_count_; }
	std::uint32_t half_k() const { return p_.k / 2; }
	std::uint32_t hops_between(std::uint32_t a, std::uint32_t b) const;

	// Physical links between two switches, identified by their up-going
	// port (the reverse direction is port(p).reverse).
	const std::vector<std::uint32_t> &fabric_links() const
	{
		return fabric_links_;
	}

	std::string node_name(std::uint32_t n) const;
	std::string link_name(std::uint32_t port) const;
	// "p1:leaf3-spine5" or "p2:h4-leaf1" (planes from 1) -> the port from the first to the
	// second node; throws ConfigError.
	std::uint32_t find_link(const std::string &spec) const;
	std::uint32_t find_node(std::uint32_t plane,
				const std::string &name) const;

private:
	std::uint32_t add_node(std::uint8_t layer, std::uint8_t plane,
			       std::uint32_t index, std::uint32_t pod,
			       std::uint16_t n_down, std::uint16_t n_up);
	void connect(std::uint32_t upper_port, std::uint32_t lower_port);
	void build_leaf_spine();
	void build_fat_tree();

	TopoParams p_;
	std::vector<Node> nodes_;
	std::vector<Port> ports_;
	std::vector<std::uint32_t> fabric_links_;
	// layer_base_[plane][layer]: node id of index 0 of that layer.
	std::vector<std::vector<std::uint32_t>> layer_base_;
	std::uint32_t down_per_leaf_ = 1;
	std::uint32_t hosts_per_pod_ = 1;
	std::uint32_t top_count_ = 1;
};

} // namespace mrcsim
