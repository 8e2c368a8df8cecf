// SPDX-License-Identifier: GPL-2.0-only
// Baseline 1: single-path RoCE-like go-back-N.
//
// Each flow is striped over `gbn.subflows` independent connections (one per
// plane by default, as collective libraries open one QP per NIC port);
// each connection is pinned to one plane and one EV (its UDP source port),
// so ECMP hashing fixes its path for its whole life.  Fixed window, no
// congestion control, cumulative ACKs, a NAK on the first out-of-order
// packet, go-back-N on NAK or on an ACK timeout, and the flow fails after
// `gbn.retries` consecutive timeouts: what soft-RoCE does.  Simple and
// honest; not a model of DCQCN.
#pragma once

#include <vector>

#include "transport.hpp"

namespace mrcsim {

class GbnTransport {
public:
	static constexpr const char *kName = "gbn";
	GbnTransport(SimContext &ctx);

	void start_flow(std::uint32_t f);
	void on_packet(std::uint32_t pkt);
	void on_timer(std::uint32_t sub, std::uint32_t gen);
	void on_nic_ready(std::uint32_t) {}
	void on_host_port(std::uint32_t, std::uint32_t, bool) {}

	// The plane and EV a flow's subflow is pinned to (tests use it to
	// fail exactly that path).
	static std::uint32_t pinned_ev(std::uint32_t flow, std::uint32_t sub);
	static std::uint8_t pinned_plane(std::uint32_t flow, std::uint32_t sub,
					 std::uint32_t planes);

private:
	struct Sub {
		std::uint32_t flow = 0;
		std::uint64_t bytes = 0;
		std::uint32_t npkts = 0;
		std::uint32_t snd_una = 0, snd_nxt = 0, high = 0;
		std::uint32_t rcv_nxt = 0; // receiver side, at the destination
		std::uint32_t retries = 0;
		std::uint32_t ev = 0;
		Time deadline = kNever;
		bool timer_pending = false;
		bool nak_sent = false;
		bool done = false;
		std::uint8_t plane = 0;
	};
	struct FlowState {
		std::uint32_t first_sub = 0, subs = 0, subs_done = 0;
	};

	void pump(std::uint32_t s);
	void arm(std::uint32_t s);
	void ctrl(const Sub &sub, PktType type, std::uint32_t cum,
		  const Packet &data);
	void sender_ack(std::uint32_t s, std::uint32_t cum, bool nak);

	SimContext &ctx_;
	std::uint32_t subflows_;
	std::uint32_t window_;
	Time rto_;
	std::uint32_t max_retries_;
	std::vector<Sub> subs_;
	std::vector<FlowState> flows_;
};

} // namespace mrcsim
