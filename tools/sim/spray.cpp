// SPDX-License-Identifier: GPL-2.0-only
#include "spray.hpp"

#include "config.hpp"

namespace mrcsim {

SprayTransport::SprayTransport(SimContext &ctx)
	: ctx_(ctx), rng_(static_cast<std::uint64_t>(ctx.cfg.integer("seed", 1)) ^
			  0x5350524159ULL),
	  st_(ctx.flows.size())
{
	const Config &c = ctx.cfg;
	const auto planes = ctx.fabric.topo().planes();
	evs_ = static_cast<std::uint32_t>(c.integer("spray.evs", 256));
	random_ = c.str("spray.order", "round_robin") == "random";
	srv6_ = c.str("ev_mode", "udp") == "srv6";
	window_ = static_cast<std::uint32_t>(
		c.integer("spray.window", planes * (ctx.bdp_packets() + 2)));
	rto_ = c.time("spray.rto", 100 * kUs);
	max_tries_ = static_cast<std::uint32_t>(c.integer("spray.retries", 30));
	if (evs_ < 1 || window_ < 1)
		throw ConfigError("spray.evs and spray.window must be >= 1");
}

void SprayTransport::start_flow(std::uint32_t f)
{
	Flow &fl = ctx_.flows[f];
	fl.started = true;
	State &s = st_[f];
	s.npkts = ctx_.packets_of(fl.bytes);
	s.is_acked.assign(s.npkts, 0);
	s.tries.assign(s.npkts, 0);
	s.last_sent.assign(s.npkts, 0);
	s.got.assign(s.npkts, 0);
	s.ev_next = static_cast<std::uint32_t>(mix64(f) % evs_);
	pump(f);
}

void SprayTransport::transmit(std::uint32_t f, std::uint32_t psn, bool retx)
{
	State &s = st_[f];
	const Flow &fl = ctx_.flows[f];
	std::uint32_t k = random_ ? static_cast<std::uint32_t>(rng_.below(evs_)) :
				    s.ev_next++ % evs_;
	const std::uint32_t planes = ctx_.fabric.topo().planes();
	auto plane = static_cast<std::uint8_t>(k % planes);
	// UDP mode: EV k is a source port (hashed by switches); SRV6 mode: it
	// names top switch k / planes of its plane.
	std::uint32_t ev = srv6_ ? k / planes :
				   49152 + static_cast<std::uint32_t>(
						   hash_combine(f, k) % 16384);
	std::uint32_t i = ctx_.make(PktType::Data, f, fl.src, fl.dst, plane, ev,
				    ctx_.payload_of(fl.bytes, psn));
	Packet &p = ctx_.fabric.pkt(i);
	p.psn = psn;
	if (srv6_)
		p.flags |= kSrv6;
	if (retx) {
		p.flags |= kRetrans;
		++ctx_.flows[f].retx;
	}
	s.last_sent[psn] = ctx_.now();
	s.log.push_back(Sent{ctx_.now(), psn});
	ctx_.fabric.send(i);
	if (!s.timer_pending)
		arm(f);
}

void SprayTransport::arm(std::uint32_t f)
{
	State &s = st_[f];
	if (s.log.empty())
		return;
	s.timer_pending = true;
	ctx_.core.q.push(s.log.front().at + rto_, EvKind::Timer, f, 0);
}

void SprayTransport::pump(std::uint32_t f)
{
	State &s = st_[f];
	if (ctx_.flows[f].failed || ctx_.flows[f].done)
		return;
	// Retransmissions fill holes that already count against the window.
	while (!s.rtx.empty()) {
		std::uint32_t psn = s.rtx.back();
		s.rtx.pop_back();
		if (!s.is_acked[psn])
			transmit(f, psn, true);
	}
	while (s.inflight < window_ && s.snd_nxt < s.npkts) {
		++s.inflight;
		transmit(f, s.snd_nxt++, false);
	}
}

void SprayTransport::release(std::uint32_t f)
{
	State &s = st_[f];
	s = State{};
}

void SprayTransport::on_packet(std::uint32_t pkt)
{
	const Packet p = ctx_.fabric.pkt(pkt);
	ctx_.fabric.pool().release(pkt);
	const std::uint32_t f = p.flow;
	State &s = st_[f];
	if (s.npkts == 0)
		return; // flow already finished and released
	if (p.type == PktType::Data) {
		const bool trimmed = p.flags & kTrimmed;
		if (!trimmed && !s.got[p.psn]) {
			s.got[p.psn] = 1;
			++s.rcvd;
		}
		std::uint32_t i = ctx_.make(trimmed ? PktType::Nack : PktType::Ack,
					    f, p.dst, p.src, p.plane, p.ev, 0);
		Packet &a = ctx_.fabric.pkt(i);
		a.psn = p.psn;
		a.flags = p.flags & kSrv6;
		ctx_.fabric.send(i);
		return;
	}
	if (p.type == PktType::Nack) {
		if (!s.is_acked[p.psn])
			s.rtx.push_back(p.psn);
	} else if (p.type == PktType::Ack && !s.is_acked[p.psn]) {
		s.is_acked[p.psn] = 1;
		--s.inflight;
		if (++s.acked == s.npkts) {
			ctx_.flows.complete(f, ctx_.now(), ctx_.core.q);
			release(f);
			return;
		}
	}
	pump(f);
}

void SprayTransport::on_timer(std::uint32_t f, std::uint32_t)
{
	State &s = st_[f];
	s.timer_pending = false;
	if (s.npkts == 0 || ctx_.flows[f].failed)
		return;
	const Time now = ctx_.now();
	while (!s.log.empty()) {
		const Sent e = s.log.front();
		if (s.is_acked[e.psn] || s.last_sent[e.psn] != e.at) {
			s.log.pop_front(); // acknowledged, or sent again since
			continue;
		}
		if (e.at + rto_ > now)
			break;
		s.log.pop_front();
		if (++s.tries[e.psn] > max_tries_) {
			ctx_.flows.fail(f);
			release(f);
			return;
		}
		s.rtx.push_back(e.psn);
	}
	pump(f);
	if (!s.timer_pending)
		arm(f);
}

} // namespace mrcsim
