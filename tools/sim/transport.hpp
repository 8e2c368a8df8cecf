// SPDX-License-Identifier: GPL-2.0-only
// What every transport sees of the simulation, and what the main loop
// expects of a transport.  The loop is a template over the transport type
// (see sim.hpp), so these calls are resolved at compile time: no virtual
// dispatch per packet.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>

#include "fabric.hpp"
#include "flows.hpp"

namespace mrcsim {

class Config;

struct SimContext {
	SimCore &core;
	Fabric &fabric;
	FlowTable &flows;
	const Config &cfg;

	Time now() const { return core.now; }
	std::uint32_t packet_bytes() const
	{
		return fabric.params().mtu + fabric.params().header;
	}
	// Payload of packet psn of a transfer of total bytes.
	std::uint32_t payload_of(std::uint64_t bytes, std::uint32_t psn) const
	{
		const std::uint64_t mtu = fabric.params().mtu;
		const std::uint64_t off = std::uint64_t{psn} * mtu;
		return static_cast<std::uint32_t>(
			bytes - off < mtu ? bytes - off : mtu);
	}
	std::uint32_t packets_of(std::uint64_t bytes) const
	{
		const std::uint64_t mtu = fabric.params().mtu;
		return static_cast<std::uint32_t>((bytes + mtu - 1) / mtu);
	}
	std::uint32_t bdp_packets() const
	{
		auto b = FabricParams::bdp_bytes(fabric.topo().params(),
						 fabric.params().mtu,
						 fabric.params().header);
		return static_cast<std::uint32_t>((b + packet_bytes() - 1) /
						  packet_bytes());
	}
	// A fresh packet with the common header fields filled in.
	std::uint32_t make(PktType type, std::uint32_t owner, std::uint32_t src,
			   std::uint32_t dst, std::uint8_t plane,
			   std::uint32_t ev, std::uint32_t payload)
	{
		std::uint32_t i = fabric.pool().alloc();
		Packet &p = fabric.pkt(i);
		p.type = type;
		p.flow = owner;
		p.src = src;
		p.dst = dst;
		p.plane = plane;
		p.ev = ev;
		p.payload = payload;
		p.size = payload + fabric.params().header;
		return i;
	}
};

template <class T>
concept Transport = requires(T t, std::uint32_t u, bool b)
{
	t.start_flow(u);   // FlowStart event
	t.on_packet(u);	   // a packet reached its destination host; frees it
	t.on_timer(u, u);  // a Timer event the transport scheduled
	t.on_nic_ready(u); // a host NIC port finished sending
	t.on_host_port(u, u, b); // a host's port on a plane went down/up
	{
		T::kName
		} -> std::convertible_to<const char *>;
};

} // namespace mrcsim
