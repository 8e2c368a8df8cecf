// SPDX-License-Identifier: GPL-2.0-only
// Baseline 2: oblivious per-packet spraying.
//
// Every packet (retransmissions included) takes the next of `spray.evs`
// EVs in round-robin or random order, spread evenly over the planes; the
// receiver ACKs every packet selectively and NACKs trimmed ones; the
// sender retransmits what a NACK names and whatever has not been ACKed
// `spray.rto` after it was sent.  Fixed window, no congestion control, and
// no memory of which paths lose packets: it keeps spraying onto a dead
// link.  This is the "oblivious spraying" point of comparison, not UET.
#pragma once

#include <deque>
#include <vector>

#include "transport.hpp"

namespace mrcsim {

class SprayTransport {
public:
	static constexpr const char *kName = "spray";
	SprayTransport(SimContext &ctx);

	void start_flow(std::uint32_t f);
	void on_packet(std::uint32_t pkt);
	void on_timer(std::uint32_t f, std::uint32_t gen);
	void on_nic_ready(std::uint32_t) {}
	void on_host_port(std::uint32_t, std::uint32_t, bool) {}

private:
	struct Sent {
		Time at;
		std::uint32_t psn;
	};
	struct State {
		std::uint32_t npkts = 0;
		std::uint32_t snd_nxt = 0; // next new PSN
		std::uint32_t acked = 0;
		std::uint32_t inflight = 0; // sent, not yet acknowledged PSNs
		std::uint32_t rcvd = 0;
		std::uint32_t ev_next = 0;
		std::vector<std::uint8_t> is_acked;
		std::vector<std::uint8_t> tries;
		std::vector<Time> last_sent;
		std::vector<std::uint8_t> got;	// receiver side
		std::deque<Sent> log;		// send order, for the timeout
		std::vector<std::uint32_t> rtx; // NACKed or timed out, to resend
		bool timer_pending = false;
	};

	void pump(std::uint32_t f);
	void transmit(std::uint32_t f, std::uint32_t psn, bool retx);
	void arm(std::uint32_t f);
	void release(std::uint32_t f);

	SimContext &ctx_;
	std::uint32_t evs_;
	bool random_;
	bool srv6_;
	std::uint32_t window_;
	Time rto_;
	std::uint32_t max_tries_;
	Rng rng_;
	std::vector<State> st_;
};

} // namespace mrcsim
