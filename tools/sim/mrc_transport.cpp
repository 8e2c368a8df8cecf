// SPDX-License-Identifier: GPL-2.0-only
#include "mrc_transport.hpp"

#include <algorithm>
#include <fstream>

#include "config.hpp"

namespace mrcsim {

struct MrcTransport::Conn {
	MrcTransport *self = nullptr;
	std::unique_ptr<std::uint64_t[]> mem; // 8-byte aligned engine state
	mrc_conn *c = nullptr;
	std::uint32_t id = 0, flow = 0, host = 0, peer_host = 0, peer = 0;
	Time armed = kNever;
	std::uint32_t gen = 0;
	bool sender = false;
	bool finished = false;
	bool idle = false; // mrc.reuse: message done, kept for the pair's next
};

// The engine's C callbacks; priv is the Conn.
struct Callbacks {
	static void emit_ctrl(void *priv, mrc_pkt *pkt)
	{
		auto *c = static_cast<MrcTransport::Conn *>(priv);
		c->self->emit_ctrl(*c, *pkt);
	}
	static int place(void *, const mrc_pkt *) { return 0; }
	static void recv_complete(void *, u32, u32) {}
	static void send_complete(void *priv, u32, u64, int status)
	{
		auto *c = static_cast<MrcTransport::Conn *>(priv);
		c->self->send_complete(*c, status);
	}
	static void event(void *priv, const mrc_conn_event *ev)
	{
		auto *c = static_cast<MrcTransport::Conn *>(priv);
		if (ev->type == MRC_EVT_CONN_FAILED)
			c->self->conn_failed(*c);
	}
};

namespace {

const mrc_conn_ops kOps = {
	.emit_ctrl = Callbacks::emit_ctrl,
	.place = Callbacks::place,
	.recv_complete = Callbacks::recv_complete,
	.send_complete = Callbacks::send_complete,
	.event = Callbacks::event,
};

// Payload bytes are never looked at; data packets point here.
const u8 kZeroPayload[MRC_MAX_PAYLOAD + 1] = {};

} // namespace

MrcTransport::MrcTransport(SimContext &ctx)
	: ctx_(ctx), host_conns_(ctx.fabric.topo().hosts()),
	  host_senders_(ctx.fabric.topo().hosts()),
	  host_rr_(ctx.fabric.topo().hosts(), 0), stats_(ctx.flows.size())
{
	const Config &c = ctx.cfg;
	const auto planes = ctx.fabric.topo().planes();
	const std::uint64_t bdp =
		FabricParams::bdp_bytes(ctx.fabric.topo().params(),
					ctx.fabric.params().mtu,
					ctx.fabric.params().header);
	const double rate = ctx.fabric.topo().params().rate_gbps;
	mrc_conn_config_default(&cfg_);
	cfg_.mtu = ctx.fabric.params().mtu;
	// The engine's defaults describe a small software fabric; scale the
	// CC to this one: base RTT from the topology, windows from the BDP of
	// all planes together.
	cfg_.cc.base_rtt = static_cast<u32>(
		c.time("mrc.base_rtt", static_cast<Time>(bdp * 8000.0 / rate)) /
		kNs);
	// The delay target grows with the tiers a round trip crosses: a fully
	// loaded sprayed fabric queues a little at every hop on its own, and
	// a 3-tier round trip crosses 10 switch queues where a 2-tier one
	// crosses 6.  With the engine's 5 us on the k=8 fat tree, flows whose
	// queueing sat just above the target were cut and, with the increase
	// about zero there, never regrew (SRv6 min 0.853 -> 0.894 with 10 us).
	const bool three_tiers = ctx.fabric.topo().params().kind ==
				 TopoKind::FatTree;
	const Time tiers_above_leaf = three_tiers ? 2 : 1;
	cfg_.cc.target_delay = static_cast<u32>(
		c.time("mrc.target_delay", static_cast<Time>(cfg_.cc.target_delay) *
						   kNs * tiers_above_leaf) /
		kNs);
	cfg_.cc.max_cwnd = static_cast<u32>(
		c.bytes("mrc.max_cwnd", 2 * bdp * planes));
	// The first window is sized to the *loaded* round trip, not the
	// unloaded one: a fully loaded sprayed fabric queues about a target
	// delay on its own (srtt 17-19 us against 14 us unloaded on the k=8
	// fat tree), where NSCC's increase is close to zero (proportional
	// increase scales with (target - delay) / target), so a flow that
	// starts with one unloaded BDP never gets the window that would fill
	// its share: throughput = window / loaded RTT.  1.25 BDP: fat tree
	// 2 MB SRv6 0.78 -> 0.85 mean.  1.5 BDP gives more (0.89) but made
	// the 16:1 incast test's Jain index fall below 0.95 (sim.rst).
	cfg_.cc.init_cwnd = static_cast<u32>(
		c.bytes("mrc.init_cwnd", bdp * planes * 5 / 4));
	// NSCC's increase is sized relative to the BDP: the engine's eta (4
	// MTUs per RTT) suits its default 512 KiB window; at this fabric's
	// BDP a window cut by a decrease must regrow in a few RTTs, so grow
	// by a quarter of the all-plane BDP per RTT at zero delay.
	const std::uint64_t bdp_mtus = bdp * planes / cfg_.mtu;
	cfg_.cc.eta = static_cast<u32>(
		c.integer("mrc.eta",
			  std::max<std::uint64_t>(cfg_.cc.eta, bdp_mtus / 4)));
	cfg_.cc.fi = static_cast<u32>(c.integer("mrc.fi", cfg_.cc.fi));
	cfg_.ack_every = static_cast<u32>(
		c.integer("mrc.ack_every", cfg_.ack_every));
	// The engine's 4.19 ms ACK timeout is sized for software stacks with
	// millisecond scheduling outliers; a controller would size it to the
	// fabric, so take the smallest 1.024 us x 2^t above 8 base RTTs.
	std::int64_t exp = 0;
	while (exp < 24 && (1024LL << exp) < 8LL * cfg_.cc.base_rtt)
		++exp;
	cfg_.ack_timeout_exp = static_cast<u8>(
		c.integer("mrc.ack_timeout_exp", exp));
	cfg_.mpr = cfg_.peer_mpr = static_cast<u8>(c.integer("mrc.mpr", cfg_.mpr));
	cfg_.probe_interval = static_cast<u32>(
		c.time("mrc.probe_interval",
		       static_cast<Time>(cfg_.probe_interval) * kNs) /
		kNs);
	cfg_.ev_min_active = static_cast<u16>(
		c.integer("mrc.ev_min_active", cfg_.ev_min_active));
	// A tail loss is judged by the connection's RTT (mrc-engine.rst, loss
	// detection).  Off in the engine by default (paths of very different
	// delays would have their tails resent needlessly); on here, as a
	// controller would set it for a fabric whose paths between two hosts
	// all cross the same number of hops.  With slow links the packets
	// they drop are mostly on EVs never sampled yet, which otherwise wait
	// the ACK timeout (fat tree, 4 core links at 25 %, seeds 1-10: SRv6
	// min 0.508 -> 0.760, UDP 0.480 -> 0.649); without losses nothing
	// changes.
	cfg_.tail_resend = static_cast<u8>(c.integer("mrc.tail_resend", 1) != 0);
	// Hashed EVs: 64 per plane, at least 128 and at most what the engine
	// takes (MRC_MAX_EVS, 256); 128-256 per QP is what MRC's deployments
	// are reported to use.  Hashed EVs spread a flow evenly over a
	// plane's spines only by number: with 32 per plane over 16 spines
	// some spines got twice the mean share (128 hosts, 4 planes, 16 MB
	// permutation, seed 1: 0.821 -> 0.860 with 64 per plane, plane-down
	// 0.680 -> 0.715).  On one plane 128 stay: a 2 MB flow sends about
	// 4 packets per EV, and with 256 the per-EV history that steers it
	// away from slow paths thins out (fat tree with degraded links,
	// seeds 1-3: SRv6 min 0.76 -> 0.74, UDP 0.67 -> 0.47).  Source
	// routes name every spine equally often at 128 already, and 256
	// cost them (1024 hosts, 4 planes, 16 MB: p1 0.931 -> 0.869).
	srv6_ = c.str("ev_mode", "udp") == "srv6";
	const std::int64_t def_evs =
		srv6_ ? 128 :
			std::clamp<std::int64_t>(64 * planes, 128, MRC_MAX_EVS);
	evs_ = static_cast<std::uint32_t>(c.integer("mrc.evs", def_evs));
	if (evs_ < 1 || evs_ > MRC_MAX_EVS)
		throw ConfigError("mrc.evs: 1.." + std::to_string(MRC_MAX_EVS));
	const std::string spray = c.str("mrc.spray", "round_robin");
	if (spray == "recycle")
		cfg_.spray = MRC_SPRAY_RECYCLE;
	else if (spray == "round_robin")
		cfg_.spray = MRC_SPRAY_ROUND_ROBIN;
	else
		throw ConfigError("mrc.spray: round_robin or recycle");
	// Two packets per plane keep every NIC port busy without building a
	// host queue the engine's RTT samples would mistake for the fabric's.
	nic_limit_ = static_cast<std::uint64_t>(
			     c.integer("mrc.nic_packets", 2 * planes)) *
		     ctx.packet_bytes();
	// mrc.reuse = 1: a flow from a host to a peer it has already sent to
	// is the next WRITE on that connection, once its previous message is
	// acknowledged, as a collective library keeps one QP per neighbour
	// for the whole collective: the steps of a ring all-reduce share one
	// connection and what the engine learnt of the paths (EVs found bad,
	// RTT, window).  Off: every flow is a new connection.
	reuse_ = c.integer("mrc.reuse", 0) != 0;
}

MrcTransport::~MrcTransport() = default;

// The core that a host's i-th SRv6 EV (of its plane) names in a fat tree.
// Core c hangs below aggregation switch c / h of every pod (h = k / 2), so
// rotating the list by the host's index, as for leaf-spine, would give the
// h hosts of an edge switch consecutive cores, mostly below the same
// aggregation switch: at any moment their flows would share one
// edge-to-aggregation uplink.  Instead consecutive EVs alternate
// aggregation switches, the host's place under its edge switch offsets the
// aggregation switch (the hosts of an edge take different uplinks at the
// same step) and the edge's place in its pod offsets the core below it
// (the edges of a pod take different aggregation-to-core uplinks).
std::uint32_t MrcTransport::fat_tree_core(std::uint32_t host, std::uint32_t i) const
{
	const std::uint32_t h = ctx_.fabric.topo().half_k();
	const std::uint32_t agg = (i + host) % h;
	const std::uint32_t below = (i / h + host / h) % h;
	return agg * h + below;
}

std::uint32_t MrcTransport::ev_value(const Conn &c, std::uint32_t ev_index) const
{
	const std::uint32_t planes = ctx_.fabric.topo().planes();
	// Top switch k of the EV's plane, the list rotated by the host's
	// index (as a controller hands out EV lists): with one order for all,
	// the flows of a leaf, started together, would sweep the spines in
	// lock-step and all hit spine k at once.
	if (srv6_ && ctx_.fabric.topo().params().kind == TopoKind::FatTree)
		return fat_tree_core(c.host, ev_index / planes);
	if (srv6_)
		return ev_index / planes + c.host;
	// A UDP source port per (connection, EV), as the glue derives them.
	return 49152 +
	       static_cast<std::uint32_t>(hash_combine(c.id, ev_index) % 16384);
}

std::uint32_t MrcTransport::blob_alloc(const mrc_pkt &pkt)
{
	if (free_blobs_.empty()) {
		blobs_.push_back(pkt);
		return static_cast<std::uint32_t>(blobs_.size() - 1);
	}
	std::uint32_t i = free_blobs_.back();
	free_blobs_.pop_back();
	blobs_[i] = pkt;
	return i;
}

MrcTransport::Conn &MrcTransport::new_conn(std::uint32_t flow, std::uint32_t host,
					   std::uint32_t peer, bool sender)
{
	auto c = std::make_unique<Conn>();
	c->self = this;
	c->id = static_cast<std::uint32_t>(conns_.size());
	c->flow = flow;
	c->host = host;
	c->peer_host = peer;
	c->sender = sender;
	c->mem = std::make_unique<std::uint64_t[]>((mrc_conn_size() + 7) / 8);
	c->c = reinterpret_cast<mrc_conn *>(c->mem.get());
	if (mrc_conn_init(c->c, &cfg_, &kOps, c.get(), now_ns()))
		throw ConfigError(
			"mrc: engine refused the connection configuration");
	const std::uint32_t planes = ctx_.fabric.topo().planes();
	std::vector<mrc_ev_cfg> evs(evs_);
	for (std::uint32_t i = 0; i < evs_; ++i)
		evs[i] = mrc_ev_cfg{static_cast<u8>(i % planes + 1), 0};
	if (mrc_conn_set_evs(c->c, evs.data(), evs_, now_ns()))
		throw ConfigError("mrc: engine refused the EV set");
	host_conns_[host].push_back(c->id);
	conns_.push_back(std::move(c));
	return *conns_.back();
}

void MrcTransport::start_flow(std::uint32_t f)
{
	Flow &fl = ctx_.flows[f];
	fl.started = true;
	if (fl.bytes > 0xffffffffULL)
		throw ConfigError("mrc: flows are one message, at most 4 GiB");
	Conn *sp = nullptr;
	if (reuse_) {
		auto it = idle_.find(pair_key(fl.src, fl.dst));
		if (it != idle_.end()) {
			Conn &old = *conns_[it->second];
			idle_.erase(it);
			if (old.c && old.idle) {
				sp = &old;
				old.idle = false;
				old.flow = f;
				conns_[old.peer]->flow = f;
			}
		}
	}
	if (!sp) {
		Conn &s = new_conn(f, fl.src, fl.dst, true);
		Conn &r = new_conn(f, fl.dst, fl.src, false);
		s.peer = r.id;
		r.peer = s.id;
		sp = &s;
	}
	Conn &s = *sp;
	Conn &r = *conns_[s.peer];
	mrc_msg m{};
	m.cookie = f;
	m.len = static_cast<u32>(fl.bytes);
	m.opcode = MRC_OP_WRITE;
	// The last WQE of a burst asks for an immediate ACK, as the kernel
	// glue does (req.c): without it the flow's final ACK waited for the
	// receiver's coalescing (ack_every / ack_delay) and every flow's
	// completion time with it.
	m.ack_req = 1;
	u32 msn;
	if (mrc_conn_send(s.c, &m, &msn, now_ns())) {
		ctx_.flows.fail(f);
		return;
	}
	host_senders_[fl.src].push_back(s.id);
	pull(fl.src);
	arm(s);
	arm(r);
}

// The NIC has room: take data packets from the host's connections in
// round-robin order until it is full or nobody has anything to send.
void MrcTransport::pull(std::uint32_t host)
{
	auto &senders = host_senders_[host];
	const std::uint32_t planes = ctx_.fabric.topo().planes();
	auto backlog = [&] {
		std::uint64_t b = 0;
		for (std::uint32_t p = 0; p < planes; ++p)
			b += ctx_.fabric.host_backlog(host, p);
		return b;
	};
	std::uint32_t idle = 0;
	while (!senders.empty() && idle < senders.size() &&
	       backlog() < nic_limit_) {
		std::uint32_t &rr = host_rr_[host];
		if (rr >= senders.size())
			rr = 0;
		Conn &c = *conns_[senders[rr]];
		mrc_tx_desc d;
		if (c.finished || !mrc_conn_tx_next(c.c, now_ns(), &d)) {
			++idle;
			++rr;
			continue;
		}
		idle = 0;
		++rr;
		mrc_pkt pk;
		mrc_pkt_init(&pk, d.opcode);
		pk.hdr.flags = d.flags;
		pk.hdr.psn = d.psn;
		pk.hdr.ev = d.ev;
		pk.hdr.plane = d.plane;
		pk.hdr.ts = d.ts;
		pk.u.write.va = d.offset;
		pk.u.write.msg.msn = d.msn;
		pk.u.write.msg.offset = d.offset;
		pk.u.write.msg.msg_len = d.msg_len;
		pk.payload = kZeroPayload;
		pk.payload_len = d.len;
		const Flow &fl = ctx_.flows[c.flow];
		std::uint32_t i = ctx_.make(PktType::Engine, c.peer, fl.src,
					    fl.dst,
					    static_cast<std::uint8_t>(d.plane - 1),
					    ev_value(c, d.ev), d.len);
		Packet &p = ctx_.fabric.pkt(i);
		p.psn = d.psn;
		p.blob = blob_alloc(pk);
		if (srv6_)
			p.flags |= kSrv6;
		if (d.flags & MRC_F_RETX) {
			p.flags |= kRetrans;
			++ctx_.flows[c.flow].retx;
		}
		ctx_.fabric.send(i);
	}
	// Sending moved the engine's timers (ACK timeout, RACK).
	for (std::uint32_t id : senders)
		arm(*conns_[id]);
}

void MrcTransport::emit_ctrl(Conn &c, const mrc_pkt &pkt)
{
	std::uint32_t i = ctx_.make(PktType::Engine, c.peer, c.host, c.peer_host,
				    static_cast<std::uint8_t>(pkt.hdr.plane - 1),
				    ev_value(c, pkt.hdr.ev), 0);
	Packet &p = ctx_.fabric.pkt(i);
	p.blob = blob_alloc(pkt);
	if (srv6_)
		p.flags |= kSrv6;
	ctx_.fabric.send(i);
}

void MrcTransport::send_complete(Conn &c, int status)
{
	if (status != MRC_ST_OK) {
		ctx_.flows.fail(c.flow);
		c.finished = true;
		return;
	}
	if (reuse_) {
		// Kept open for the pair's next flow (made findable before
		// the completion, which may start it); the flow's counters
		// are the connection's so far.
		mrc_conn_get_stats(c.c, &stats_[c.flow]);
		c.idle = true;
		idle_[pair_key(c.host, c.peer_host)] = c.id;
	}
	ctx_.flows.complete(c.flow, ctx_.now(), ctx_.core.q);
	c.finished = !reuse_;
}

void MrcTransport::conn_failed(Conn &c)
{
	ctx_.flows.fail(c.flow);
	c.finished = true;
}

void MrcTransport::arm(Conn &c)
{
	if (!c.c)
		return;
	const u64 d = mrc_conn_next_deadline(c.c);
	if (d == MRC_TIME_NEVER)
		return;
	Time t = std::max(static_cast<Time>(d) * kNs, ctx_.now());
	if (t >= c.armed && c.armed >= ctx_.now())
		return; // an earlier Timer is already pending; it re-arms
	c.armed = t;
	ctx_.core.q.push(t, EvKind::Timer, c.id, ++c.gen);
}

void MrcTransport::on_timer(std::uint32_t id, std::uint32_t gen)
{
	Conn &c = *conns_[id];
	if (gen != c.gen || !c.c)
		return;
	c.armed = kNever;
	mrc_conn_on_timer(c.c, now_ns());
	settle(c);
}

void MrcTransport::on_packet(std::uint32_t pkt)
{
	const Packet p = ctx_.fabric.pkt(pkt);
	ctx_.fabric.pool().release(pkt);
	const mrc_pkt mp = blobs_[p.blob];
	free_blobs_.push_back(p.blob);
	Conn &c = *conns_[p.flow];
	if (!c.c)
		return; // a straggler for a finished connection
	u32 flags = 0;
	if (p.flags & kEcnCe)
		flags |= MRC_RX_ECN_CE;
	if (p.flags & kTrimmed)
		flags |= MRC_RX_TRIMMED;
	mrc_conn_rx(c.c, &mp, flags, now_ns());
	settle(c);
}

// After an engine call on @c: a finished flow is released; otherwise its
// host's sender may send more and @c's timer is re-armed.
void MrcTransport::settle(Conn &c)
{
	if (c.finished) {
		release(c);
		return;
	}
	if (c.sender && c.idle) {
		auto &s = host_senders_[c.host];
		s.erase(std::remove(s.begin(), s.end(), c.id), s.end());
	}
	if (c.sender)
		pull(c.host);
	arm(c);
}

// The flow is over (acknowledged or failed): free both engine instances,
// from outside any engine call.  Stragglers still in the fabric are
// dropped on arrival; the sender has nothing left that needs them.
void MrcTransport::release(Conn &c)
{
	for (Conn *x : {&c, conns_[c.peer].get()}) {
		if (x->sender && x->c)
			mrc_conn_get_stats(x->c, &stats_[x->flow]);
		x->finished = true;
		x->c = nullptr;
		x->mem.reset();
		auto &s = host_senders_[x->host];
		s.erase(std::remove(s.begin(), s.end(), x->id), s.end());
	}
}

void MrcTransport::write_outputs(const std::string &dir)
{
	// Connections still open at the end (failed or unfinished flows).
	for (const auto &c : conns_)
		if (c->sender && c->c && !c->idle)
			mrc_conn_get_stats(c->c, &stats_[c->flow]);
	std::ofstream out(dir + "/engine.csv");
	out << "flow,tx_pkts,retx_pkts,lost_pkts,timeouts,acks_rx,nacks_rx,ecn_acks,probes_tx,probes_ok,"
	       "cwnd,srtt_ns,rto_ns,evs_usable,evs_bad,status\n";
	for (std::uint32_t f = 0; f < stats_.size(); ++f) {
		const mrc_conn_stats &s = stats_[f];
		out << f << ',' << s.tx_pkts << ',' << s.retx_pkts << ','
		    << s.lost_pkts << ',' << s.timeouts << ',' << s.acks_rx << ','
		    << s.nacks_rx << ',' << s.ecn_acks << ',' << s.probes_tx
		    << ',' << s.probes_ok << ',' << s.cwnd << ',' << s.srtt
		    << ',' << s.rto << ',' << s.evs_usable << ',' << s.evs_bad
		    << ',' << static_cast<unsigned>(s.status) << '\n';
	}
}

void MrcTransport::on_nic_ready(std::uint32_t host)
{
	if (!host_senders_[host].empty())
		pull(host);
}

void MrcTransport::on_host_port(std::uint32_t host, std::uint32_t plane, bool up)
{
	for (std::uint32_t id : host_conns_[host]) {
		Conn &c = *conns_[id];
		if (!c.c)
			continue;
		mrc_conn_plane_set(c.c, static_cast<u8>(plane + 1), up, now_ns());
		arm(c);
	}
	pull(host);
}

} // namespace mrcsim
