// SPDX-License-Identifier: GPL-2.0-only
#include "fabric.hpp"

#include <cmath>
#include <string>

#include "config.hpp"

namespace mrcsim {

std::uint64_t FabricParams::bdp_bytes(const TopoParams &tp, std::uint32_t mtu,
				      std::uint32_t header)
{
	const std::uint32_t hops = tp.kind == TopoKind::LeafSpine ? 4 : 6;
	const double ser_ps = (mtu + header) * 8000.0 / tp.rate_gbps;
	// Data out (store-and-forward at each hop) and a small ACK back.
	const double rtt_ps = hops * (static_cast<double>(tp.latency) + ser_ps) +
			      hops * static_cast<double>(tp.latency);
	return static_cast<std::uint64_t>(rtt_ps * tp.rate_gbps / 8000.0);
}

namespace {

// "1.5bdp", "64pkts", "512KB".
std::uint64_t parse_buffer(const std::string &v, std::uint64_t bdp,
			   std::uint32_t pkt_bytes)
{
	auto ends = [&](const char *suf) {
		std::string s(suf);
		return v.size() > s.size() &&
		       v.compare(v.size() - s.size(), s.size(), s) == 0;
	};
	if (ends("bdp"))
		return static_cast<std::uint64_t>(
			std::stod(v.substr(0, v.size() - 3)) *
			static_cast<double>(bdp));
	if (ends("pkts"))
		return static_cast<std::uint64_t>(
			std::stod(v.substr(0, v.size() - 4)) * pkt_bytes);
	if (ends("pkt"))
		return static_cast<std::uint64_t>(
			std::stod(v.substr(0, v.size() - 3)) * pkt_bytes);
	return Config::parse_bytes(v);
}

} // namespace

FabricParams FabricParams::from(const Config &cfg, const TopoParams &tp)
{
	FabricParams f;
	f.mtu = static_cast<std::uint32_t>(cfg.bytes("mtu", 4096));
	f.header = static_cast<std::uint32_t>(cfg.bytes("header", 64));
	if (f.mtu < 256 || f.mtu > 65536 || f.header < 16 || f.header > 1024)
		throw ConfigError("mtu must be 256..65536 and header 16..1024");
	const std::uint64_t bdp = bdp_bytes(tp, f.mtu, f.header);
	const std::uint32_t pkt = f.mtu + f.header;
	try {
		f.buffer = parse_buffer(cfg.str("buffer", "1bdp"), bdp, pkt);
		f.ecn = parse_buffer(cfg.str("ecn_threshold", "0.25bdp"), bdp,
				     pkt);
	} catch (const std::exception &e) {
		throw ConfigError(std::string("buffer/ecn_threshold: ") +
				  e.what());
	}
	if (f.buffer < pkt)
		throw ConfigError("buffer must hold at least one packet");
	f.trimming = cfg.boolean("trimming", false);
	f.reconverge = cfg.boolean("reconverge", false);
	f.reconverge_delay = cfg.time("reconverge_delay", kMs);
	f.seed = static_cast<std::uint64_t>(cfg.integer("seed", 1));
	return f;
}

Fabric::Fabric(const Topology &topo, const FabricParams &fp, SimCore &core)
	: topo_(topo), fp_(fp), core_(core), ports_(topo.port_count()),
	  delivered_(topo.planes(), 0)
{
	for (std::uint32_t p = 0; p < ports_.size(); ++p)
		update_rate(p);
}

void Fabric::update_rate(std::uint32_t port)
{
	PortState &ps = ports_[port];
	ps.ps_per_byte = 8000.0 / (topo_.params().rate_gbps * ps.rate_factor);
}

Time Fabric::serialisation(std::uint32_t port, std::uint32_t bytes) const
{
	return static_cast<Time>(std::llround(bytes * ports_[port].ps_per_byte));
}

void Fabric::send(std::uint32_t pkt)
{
	Packet &p = pool_[pkt];
	p.sent = core_.now;
	enqueue(topo_.host_port(p.src, p.plane), pkt);
}

void Fabric::drop(std::uint32_t port, std::uint32_t pkt)
{
	++ports_[port].drops;
	++drops_;
	pool_.release(pkt);
}

void Fabric::enqueue(std::uint32_t port, std::uint32_t pkt)
{
	PortState &ps = ports_[port];
	Packet &p = pool_[pkt];
	if (!ps.up)
		return drop(port, pkt);
	if (ps.blackhole_ppm) {
		std::uint64_t h = hash_combine(hash_combine(p.src, p.dst), p.ev);
		if (h % 1000000 < ps.blackhole_ppm)
			return drop(port, pkt);
	}
	// Host NIC queues are the sender's own memory: never dropped, the
	// transports' windows bound them.
	const bool host = topo_.is_host(topo_.port(port).owner);
	const auto limit = static_cast<std::uint64_t>(
		static_cast<double>(fp_.buffer) * ps.buf_factor);
	if (!host && ps.qbytes + p.size > limit) {
		if (!fp_.trimming || p.type == PktType::Ack ||
		    (p.flags & kTrimmed) || p.payload == 0)
			return drop(port, pkt);
		// Cut the payload, keep the header, forward it ahead of the data
		// so the receiver can NACK quickly.
		p.flags |= kTrimmed;
		p.size = fp_.header;
		++ps.trims;
		if (ps.prio.size() * fp_.header > limit)
			return drop(port, pkt);
		ps.prio.push(pkt);
	} else {
		if (fp_.ecn && ps.qbytes > fp_.ecn && !host) {
			p.flags |= kEcnCe;
			++ps.marks;
		}
		ps.q.push(pkt);
	}
	ps.qbytes += p.size;
	if (!ps.busy)
		start_tx(port);
}

void Fabric::start_tx(std::uint32_t port)
{
	PortState &ps = ports_[port];
	ps.cur = !ps.prio.empty() ? ps.prio.pop() : ps.q.pop();
	ps.busy = true;
	core_.q.push(core_.now + serialisation(port, pool_[ps.cur].size),
		     EvKind::TxDone, port);
}

std::uint32_t Fabric::on_tx_done(std::uint32_t port)
{
	PortState &ps = ports_[port];
	const std::uint32_t pkt = ps.cur;
	ps.cur = kNone;
	ps.busy = false;
	const Packet &p = pool_[pkt];
	ps.qbytes -= p.size;
	ps.tx_bytes += p.size;
	if (ps.up)
		core_.q.push(core_.now + topo_.params().latency, EvKind::Arrive,
			     pkt, topo_.port(port).peer);
	else
		drop(port, pkt);
	if (!ps.prio.empty() || !ps.q.empty())
		start_tx(port);
	const std::uint32_t owner = topo_.port(port).owner;
	return topo_.is_host(owner) ? owner : kNone;
}

bool Fabric::on_arrive(std::uint32_t pkt, std::uint32_t node)
{
	const Packet &p = pool_[pkt];
	if (topo_.is_host(node)) {
		if (p.type != PktType::Ack && !(p.flags & kTrimmed))
			delivered_[p.plane] += p.payload;
		return true;
	}
	enqueue(route(node, p), pkt);
	return false;
}

bool Fabric::viable_up(const Node &n, std::uint32_t up, const Packet &p) const
{
	if (ports_[up].route_dead)
		return false;
	// Leaf-spine: the spine must still reach the destination's leaf.
	if (topo_.params().kind == TopoKind::LeafSpine && n.layer == 1) {
		const Node &spine = topo_.node(topo_.port(up).peer);
		return !ports_[spine.first_port + topo_.leaf_of(p.dst)].route_dead;
	}
	return true;
}

std::uint32_t Fabric::up_port(const Node &n, const Packet &p,
			      std::uint32_t srv6_choice) const
{
	const std::uint32_t first = n.first_port + n.n_down;
	if (p.flags & kSrv6)
		return first + srv6_choice % n.n_up;
	const std::uint64_t nid = static_cast<std::uint64_t>(&n - &topo_.node(0));
	std::uint64_t h =
		hash_combine(hash_combine(hash_combine(fp_.seed,
						       (std::uint64_t{p.src} << 32) |
							       p.dst),
					  p.ev),
			     nid);
	if (!route_dead_count_)
		return first + static_cast<std::uint32_t>(h % n.n_up);
	// Reconverged routing: hash over the next hops that still work.
	std::uint32_t live = 0;
	for (std::uint32_t i = 0; i < n.n_up; ++i)
		live += viable_up(n, first + i, p);
	if (!live)
		return first + static_cast<std::uint32_t>(h % n.n_up);
	std::uint32_t pick = static_cast<std::uint32_t>(h % live);
	for (std::uint32_t i = 0; i < n.n_up; ++i)
		if (viable_up(n, first + i, p) && pick-- == 0)
			return first + i;
	return first;
}

std::uint32_t Fabric::route(std::uint32_t node, const Packet &p) const
{
	const Node &n = topo_.node(node);
	const std::uint32_t dst = p.dst;
	const std::uint32_t h = topo_.half_k();
	if (topo_.params().kind == TopoKind::LeafSpine) {
		if (n.layer == 1) {
			if (topo_.leaf_of(dst) == n.index)
				return n.first_port + dst % n.n_down;
			return up_port(n, p, p.ev % topo_.top_count());
		}
		return n.first_port + topo_.leaf_of(dst);
	}
	// A SRV6 EV names a core switch c; edge goes to aggregation c / h,
	// aggregation goes to its core c % h.
	const std::uint32_t core = p.ev % topo_.top_count();
	switch (n.layer) {
	case 1:
		if (topo_.leaf_of(dst) == n.index)
			return n.first_port + dst % h;
		return up_port(n, p, core / h);
	case 2:
		if (topo_.pod_of(dst) == n.pod)
			return n.first_port + topo_.leaf_of(dst) % h;
		return up_port(n, p, core % h);
	default: return n.first_port + topo_.pod_of(dst);
	}
}

std::vector<std::uint32_t> Fabric::path(std::uint32_t src, std::uint32_t dst,
					std::uint8_t plane, std::uint32_t ev,
					bool srv6)
{
	Packet p;
	p.src = src;
	p.dst = dst;
	p.plane = plane;
	p.ev = ev;
	p.flags = srv6 ? kSrv6 : 0;
	std::vector<std::uint32_t> out;
	std::uint32_t port = topo_.host_port(src, plane);
	for (int hop = 0; hop < 8; ++hop) {
		out.push_back(port);
		std::uint32_t next = topo_.port(port).peer;
		if (topo_.is_host(next))
			break;
		port = route(next, p);
	}
	return out;
}

void Fabric::set_link_up(std::uint32_t port, bool up)
{
	for (std::uint32_t pt : {port, topo_.port(port).reverse}) {
		PortState &ps = ports_[pt];
		ps.up = up;
		if (up)
			continue;
		// Everything buffered behind a dead link is lost.  The packet
		// being serialised is dropped at its TxDone.
		while (!ps.prio.empty())
			drop(pt, ps.prio.pop());
		while (!ps.q.empty())
			drop(pt, ps.q.pop());
		ps.qbytes = ps.cur == kNone ? 0 : pool_[ps.cur].size;
	}
}

void Fabric::set_route_dead(std::uint32_t port, bool dead)
{
	for (std::uint32_t pt : {port, topo_.port(port).reverse}) {
		if (ports_[pt].route_dead == dead)
			continue;
		ports_[pt].route_dead = dead;
		if (dead)
			++route_dead_count_;
		else
			--route_dead_count_;
	}
}

void Fabric::degrade(std::uint32_t port, double rate_factor, double buf_factor)
{
	for (std::uint32_t pt : {port, topo_.port(port).reverse}) {
		ports_[pt].rate_factor = rate_factor;
		ports_[pt].buf_factor = buf_factor;
		update_rate(pt);
	}
}

void Fabric::blackhole(std::uint32_t port, double fraction)
{
	ports_[port].blackhole_ppm = static_cast<std::uint32_t>(fraction *
								1000000);
}

} // namespace mrcsim
