// SPDX-License-Identifier: GPL-2.0-only
#include "gbn.hpp"

#include <algorithm>

#include "config.hpp"

namespace mrcsim {

GbnTransport::GbnTransport(SimContext &ctx)
	: ctx_(ctx), flows_(ctx.flows.size())
{
	const Config &c = ctx.cfg;
	const auto planes = ctx.fabric.topo().planes();
	subflows_ = static_cast<std::uint32_t>(c.integer("gbn.subflows", planes));
	window_ = static_cast<std::uint32_t>(
		c.integer("gbn.window", ctx.bdp_packets() + 2));
	rto_ = c.time("gbn.rto", kMs);
	max_retries_ = static_cast<std::uint32_t>(c.integer("gbn.retries", 7));
	if (subflows_ < 1 || window_ < 1)
		throw ConfigError("gbn.subflows and gbn.window must be >= 1");
}

std::uint32_t GbnTransport::pinned_ev(std::uint32_t flow, std::uint32_t sub)
{
	// A UDP source port in the dynamic range, fixed per QP.
	return 49152 +
	       static_cast<std::uint32_t>(hash_combine(flow, sub) % 16384);
}

std::uint8_t GbnTransport::pinned_plane(std::uint32_t flow, std::uint32_t sub,
					std::uint32_t planes)
{
	return static_cast<std::uint8_t>((flow + sub) % planes);
}

void GbnTransport::start_flow(std::uint32_t f)
{
	Flow &fl = ctx_.flows[f];
	fl.started = true;
	const std::uint32_t total = ctx_.packets_of(fl.bytes);
	const std::uint32_t n = std::min(subflows_, total);
	FlowState &fs = flows_[f];
	fs.first_sub = static_cast<std::uint32_t>(subs_.size());
	fs.subs = n;
	// Whole packets, spread as evenly as possible.
	const std::uint64_t mtu = ctx_.fabric.params().mtu;
	std::uint64_t left = fl.bytes;
	for (std::uint32_t j = 0; j < n; ++j) {
		Sub s;
		s.flow = f;
		std::uint32_t pk = total / n + (j < total % n ? 1 : 0);
		s.bytes = std::min<std::uint64_t>(left, pk * mtu);
		left -= s.bytes;
		s.npkts = ctx_.packets_of(s.bytes);
		s.ev = pinned_ev(f, j);
		s.plane = pinned_plane(f, j, ctx_.fabric.topo().planes());
		subs_.push_back(s);
	}
	for (std::uint32_t j = 0; j < n; ++j)
		pump(fs.first_sub + j);
}

void GbnTransport::arm(std::uint32_t s)
{
	Sub &sub = subs_[s];
	sub.deadline = ctx_.now() + rto_;
	if (!sub.timer_pending) {
		sub.timer_pending = true;
		ctx_.core.q.push(sub.deadline, EvKind::Timer, s, 0);
	}
}

void GbnTransport::pump(std::uint32_t s)
{
	Sub &sub = subs_[s];
	const Flow &fl = ctx_.flows[sub.flow];
	if (sub.done || fl.failed)
		return;
	bool sent = false;
	while (sub.snd_nxt < sub.npkts && sub.snd_nxt - sub.snd_una < window_) {
		std::uint32_t psn = sub.snd_nxt++;
		std::uint32_t i = ctx_.make(PktType::Data, s, fl.src, fl.dst,
					    sub.plane, sub.ev,
					    ctx_.payload_of(sub.bytes, psn));
		Packet &p = ctx_.fabric.pkt(i);
		p.psn = psn;
		if (psn < sub.high) {
			p.flags |= kRetrans;
			++ctx_.flows[sub.flow].retx;
		}
		sub.high = std::max(sub.high, sub.snd_nxt);
		ctx_.fabric.send(i);
		sent = true;
	}
	if (sent && !sub.timer_pending)
		arm(s);
}

void GbnTransport::ctrl(const Sub &sub, PktType type, std::uint32_t cum,
			const Packet &data)
{
	std::uint32_t i = ctx_.make(type, data.flow, data.dst, data.src,
				    sub.plane, sub.ev, 0);
	ctx_.fabric.pkt(i).aux = cum;
	ctx_.fabric.send(i);
}

void GbnTransport::sender_ack(std::uint32_t s, std::uint32_t cum, bool nak)
{
	Sub &sub = subs_[s];
	if (sub.done)
		return;
	if (cum > sub.snd_una) {
		sub.snd_una = cum;
		sub.retries = 0;
		sub.deadline = ctx_.now() + rto_;
		if (sub.snd_nxt < sub.snd_una)
			sub.snd_nxt = sub.snd_una;
	}
	if (nak && cum < sub.snd_nxt)
		sub.snd_nxt = cum; // go back N
	if (sub.snd_una >= sub.npkts) {
		sub.done = true;
		FlowState &fs = flows_[sub.flow];
		if (++fs.subs_done == fs.subs)
			ctx_.flows.complete(sub.flow, ctx_.now(), ctx_.core.q);
		return;
	}
	pump(s);
}

void GbnTransport::on_packet(std::uint32_t pkt)
{
	const Packet p = ctx_.fabric.pkt(pkt);
	ctx_.fabric.pool().release(pkt);
	Sub &sub = subs_[p.flow];
	switch (p.type) {
	case PktType::Data:
		// Receiver: accept only the next PSN; NAK the first gap once.
		if (!(p.flags & kTrimmed) && p.psn == sub.rcv_nxt) {
			++sub.rcv_nxt;
			sub.nak_sent = false;
		} else if ((p.flags & kTrimmed) || p.psn > sub.rcv_nxt) {
			if (sub.nak_sent)
				return;
			sub.nak_sent = true;
			ctrl(sub, PktType::Nack, sub.rcv_nxt, p);
			return;
		}
		ctrl(sub, PktType::Ack, sub.rcv_nxt, p);
		return;
	case PktType::Ack: sender_ack(p.flow, p.aux, false); return;
	case PktType::Nack: sender_ack(p.flow, p.aux, true); return;
	default: return;
	}
}

void GbnTransport::on_timer(std::uint32_t s, std::uint32_t)
{
	Sub &sub = subs_[s];
	sub.timer_pending = false;
	if (sub.done || ctx_.flows[sub.flow].failed)
		return;
	if (sub.snd_una >= sub.snd_nxt && sub.snd_nxt >= sub.npkts)
		return;
	if (ctx_.now() < sub.deadline) {
		sub.timer_pending = true;
		ctx_.core.q.push(sub.deadline, EvKind::Timer, s, 0);
		return;
	}
	if (++sub.retries > max_retries_) {
		ctx_.flows.fail(sub.flow);
		return;
	}
	sub.snd_nxt = sub.snd_una;
	arm(s);
	pump(s);
}

} // namespace mrcsim
