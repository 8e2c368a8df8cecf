// SPDX-License-Identifier: GPL-2.0-only
// The fabric: per-port output queues with finite buffers, ECN marking,
// optional trimming, serialisation at the (possibly degraded) link rate,
// per-hop latency, ECMP hashing of UDP/STEV EVs and exact source routes for
// SRV6 EVs.  Routes are static: a dead link keeps attracting its share of
// hashed traffic unless the scenario enables reconvergence.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"
#include "event_queue.hpp"
#include "packet.hpp"
#include "topology.hpp"

namespace mrcsim {

class Config;

struct FabricParams {
	std::uint32_t mtu = 4096; // payload bytes per data packet
	std::uint32_t header = 64; // bytes of headers per packet (and trimmed size)
	std::uint64_t buffer = 0; // per output port, bytes
	std::uint64_t ecn = 0; // mark CE when the queue exceeds this; 0 = off
	bool trimming = false;
	bool reconverge = false;     // ECMP re-hashes around dead links...
	Time reconverge_delay = kMs; // ...this long after the failure
	std::uint64_t seed = 1;	     // per-switch ECMP hash salt

	// Bandwidth-delay product of the longest host-to-host path, the unit
	// of "buffer = 1bdp" and of the transports' default windows.
	static std::uint64_t bdp_bytes(const TopoParams &tp, std::uint32_t mtu,
				       std::uint32_t header);
	static FabricParams from(const Config &cfg, const TopoParams &tp);
};

// The simulation clock and agenda shared by fabric, transports and metrics.
struct SimCore {
	EventQueue q;
	Time now = 0;
};

struct PortState {
	PktRing q;    // FIFO of packets waiting
	PktRing prio; // trimmed headers jump the queue
	std::uint64_t qbytes = 0;
	std::uint64_t tx_bytes = 0; // cumulative, for utilisation
	std::uint64_t drops = 0;
	std::uint64_t marks = 0;
	std::uint64_t trims = 0;
	double ps_per_byte = 0;
	double rate_factor = 1.0; // degraded links
	double buf_factor = 1.0;
	std::uint32_t cur = kNone;	 // packet being serialised
	std::uint32_t blackhole_ppm = 0; // silently drops this share of (src,dst,EV)s
	bool busy = false;
	bool up = true;
	bool route_dead = false; // routing knows (only with reconvergence)
};

class Fabric {
public:
	Fabric(const Topology &topo, const FabricParams &fp, SimCore &core);

	const Topology &topo() const { return topo_; }
	const FabricParams &params() const { return fp_; }
	PacketPool &pool() { return pool_; }
	Packet &pkt(std::uint32_t i) { return pool_[i]; }
	const PortState &port_state(std::uint32_t p) const { return ports_[p]; }
	// Bytes queued on a host's NIC port of this plane.
	std::uint64_t host_backlog(std::uint32_t host, std::uint32_t plane) const
	{
		return ports_[topo_.host_port(host, plane)].qbytes;
	}

	// Hands a packet to the sending host's NIC port of pkt.plane.
	void send(std::uint32_t pkt);
	// Returns the host whose NIC port just finished a packet (so the
	// transport can hand it more), or kNone for a switch port.
	std::uint32_t on_tx_done(std::uint32_t port);
	// True when the packet reached its destination host: the caller hands
	// it to the transport, which frees it.
	bool on_arrive(std::uint32_t pkt, std::uint32_t node);

	void set_link_up(std::uint32_t port, bool up); // both directions
	void set_route_dead(std::uint32_t port, bool dead);
	void degrade(std::uint32_t port, double rate_factor, double buf_factor);
	void blackhole(std::uint32_t port, double fraction);

	// The ports a packet with this header would traverse (for failure
	// specs like "the link flow 0 is pinned to").
	std::vector<std::uint32_t> path(std::uint32_t src, std::uint32_t dst,
					std::uint8_t plane, std::uint32_t ev,
					bool srv6);

	std::uint64_t drops() const { return drops_; }
	std::uint64_t delivered_payload(std::uint32_t plane) const
	{
		return delivered_[plane];
	}
	Time serialisation(std::uint32_t port, std::uint32_t bytes) const;

private:
	void enqueue(std::uint32_t port, std::uint32_t pkt);
	void start_tx(std::uint32_t port);
	void drop(std::uint32_t port, std::uint32_t pkt);
	std::uint32_t route(std::uint32_t node, const Packet &p) const;
	std::uint32_t up_port(const Node &n, const Packet &p,
			      std::uint32_t srv6_choice) const;
	bool viable_up(const Node &n, std::uint32_t up_port,
		       const Packet &p) const;
	void update_rate(std::uint32_t port);

	const Topology &topo_;
	FabricParams fp_;
	SimCore &core_;
	PacketPool pool_;
	std::vector<PortState> ports_;
	std::vector<std::uint64_t> delivered_;
	std::uint64_t drops_ = 0;
	std::uint32_t route_dead_count_ = 0;
};

} // namespace mrcsim
