// SPDX-License-Identifier: GPL-2.0-only
// Transport 3: MRC, i.e. the protocol engine of net/mrc/proto itself.
//
// Each flow is one reliable connection: an engine instance (struct
// mrc_conn) at the source host that sends one WRITE message of the flow's
// size, and its peer instance at the destination that receives and ACKs.
// This adapter plays the part the kernel glue plays in mrc.ko: it pulls
// data packets from the engine when the host NIC has room (so the engine's
// timestamps see the fabric, not a host-side queue), carries every packet
// with the (plane, EV) the engine chose, feeds arrivals to the peer
// instance with the ECN/trim marks, drives the engine's timers from
// mrc_conn_next_deadline() and tells it when a host's plane port goes
// down.  Decoded packets (struct mrc_pkt) travel beside the fabric packet;
// the wire encoding is not re-done per packet (the unit tests cover it).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
#include "engine.h"
}

#include "transport.hpp"

namespace mrcsim {

class MrcTransport {
public:
	static constexpr const char *kName = "mrc";
	explicit MrcTransport(SimContext &ctx);
	~MrcTransport();
	MrcTransport(const MrcTransport &) = delete;
	MrcTransport &operator=(const MrcTransport &) = delete;

	void start_flow(std::uint32_t f);
	void on_packet(std::uint32_t pkt);
	void on_timer(std::uint32_t conn, std::uint32_t gen);
	void on_nic_ready(std::uint32_t host);
	void on_host_port(std::uint32_t host, std::uint32_t plane, bool up);
	// engine.csv: the engine's counters of each flow's sending side, as
	// they stood when the flow ended (or at the end of the run).
	void write_outputs(const std::string &dir);

	struct Conn;

private:
	friend struct Callbacks;
	Conn &new_conn(std::uint32_t flow, std::uint32_t host,
		       std::uint32_t peer, bool sender);
	void pull(std::uint32_t host);
	void arm(Conn &c);
	void settle(Conn &c);
	void emit_ctrl(Conn &c, const mrc_pkt &pkt);
	void send_complete(Conn &c, int status);
	void conn_failed(Conn &c);
	void release(Conn &c);
	std::uint32_t ev_value(const Conn &c, std::uint32_t ev_index) const;
	std::uint32_t fat_tree_core(std::uint32_t host, std::uint32_t i) const;
	std::uint32_t blob_alloc(const mrc_pkt &pkt);
	std::uint64_t now_ns() const
	{
		return static_cast<std::uint64_t>(ctx_.now() / kNs);
	}

	SimContext &ctx_;
	mrc_conn_config cfg_{};
	std::uint32_t evs_;
	bool srv6_;
	bool reuse_ = false;
	// mrc.reuse: pair_key(src, dst) -> its idle sending connection
	std::unordered_map<std::uint64_t, std::uint32_t> idle_;
	static std::uint64_t pair_key(std::uint32_t src, std::uint32_t dst)
	{
		return static_cast<std::uint64_t>(src) << 32 | dst;
	}
	std::uint64_t nic_limit_; // bytes queued on a host's NIC ports before we stop pulling
	std::vector<std::unique_ptr<Conn>> conns_;
	std::vector<std::vector<std::uint32_t>> host_conns_; // every conn at a host
	std::vector<std::vector<std::uint32_t>> host_senders_; // conns with data to send
	std::vector<std::uint32_t> host_rr_;
	std::vector<mrc_pkt> blobs_;
	std::vector<std::uint32_t> free_blobs_;
	std::vector<mrc_conn_stats> stats_; // per flow
};

} // namespace mrcsim
