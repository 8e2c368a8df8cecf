// SPDX-License-Identifier: GPL-2.0-only
//
// Engine cost per packet, 256 EVs: the sender's decision (next packet and
// its EV), ACK processing (in order, and with a hole so that SACK and the
// loss scan work), and the receiver's per-packet path.
//   build/bin/mrc_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "engine.h"
#include "wire.h"
}

namespace {

struct Conn {
	std::vector<uint64_t> mem;
	struct mrc_conn *c;
	struct mrc_conn_ops ops {};
	uint64_t now = 1000000;

	Conn()
		: mem(mrc_conn_size() / 8 + 1, 0),
		  c(reinterpret_cast<struct mrc_conn *>(mem.data()))
	{
		struct mrc_conn_config cfg;

		mrc_conn_config_default(&cfg);
		cfg.mtu = 4096;
		cfg.cc.init_cwnd = cfg.cc.max_cwnd = 1u << 30;
		cfg.cc.disable_qa = 1;
		ops.emit_ctrl = [](void *, struct mrc_pkt *) {};
		mrc_conn_init(c, &cfg, &ops, nullptr, now);
		mrc_conn_set_evs_auto(c, MRC_MAX_EVS, now);
	}

	void queue(uint32_t bytes)
	{
		struct mrc_msg m {};
		uint32_t msn;

		m.len = bytes;
		m.opcode = MRC_OP_WRITE;
		mrc_conn_send(c, &m, &msn, now);
	}

	// A 4 MiB message queued and sent as far as it goes: its packets in
	// @sent (emptied first).
	void send_burst(std::vector<struct mrc_tx_desc> &sent)
	{
		struct mrc_tx_desc d;

		sent.clear();
		queue(1024 * 4096);
		while (mrc_conn_tx_next(c, now, &d))
			sent.push_back(d);
	}

	struct mrc_pkt ack(uint32_t cum, const struct mrc_tx_desc &echo)
	{
		struct mrc_pkt p;

		mrc_pkt_init(&p, MRC_OP_ACK);
		p.hdr.plane = 1;
		p.u.ack.cum_psn = cum;
		p.u.ack.sack_base = cum;
		p.u.ack.echo_ev = echo.ev;
		p.u.ack.echo_plane = 1;
		p.u.ack.ts_echo = (uint32_t)(now - 10000);
		return p;
	}
};

// Sender: mrc_conn_tx_next() per packet; one cumulative ACK per window.
void BM_TxNextPacket(benchmark::State &state)
{
	Conn k;
	struct mrc_tx_desc d {};
	uint64_t pkts = 0;

	for (auto _ : state) {
		if (!mrc_conn_tx_next(k.c, k.now, &d)) {
			struct mrc_conn_stats st;

			mrc_conn_get_stats(k.c, &st);
			auto a = k.ack(st.snd_nxt, d);

			mrc_conn_rx(k.c, &a, 0, k.now);
			if (mrc_conn_idle(k.c))
				k.queue(256u << 20);
			continue;
		}
		benchmark::DoNotOptimize(d);
		pkts++;
		k.now += 40;
	}
	state.SetItemsProcessed((int64_t)pkts);
}
BENCHMARK(BM_TxNextPacket);

// ACKs in order, each covering 4 packets (ack_every), with RTT sample.
void BM_AckInOrder(benchmark::State &state)
{
	Conn k;
	std::vector<struct mrc_tx_desc> sent;
	size_t i = 0;
	uint64_t pkts = 0;

	for (auto _ : state) {
		if (i >= sent.size()) {
			state.PauseTiming();
			k.send_burst(sent);
			i = 0;
			state.ResumeTiming();
		}
		i += 4;
		k.now += 160;
		auto a = k.ack(sent[i - 1].psn + 1, sent[i - 1]);

		mrc_conn_rx(k.c, &a, 0, k.now);
		pkts += 4;
	}
	state.SetItemsProcessed((int64_t)pkts);
}
BENCHMARK(BM_AckInOrder);

// A hole at the head (its path is slow): every ACK SACKs 4 more packets
// beyond it, so the SACK walk and the loss scan run on every ACK.
void BM_AckWithHole(benchmark::State &state)
{
	Conn k;
	std::vector<struct mrc_tx_desc> sent;
	uint64_t sack[MRC_SACK_WORDS] = {};
	size_t i = 0;
	uint64_t pkts = 0;

	for (auto _ : state) {
		if (i + 4 >= sent.size() || i + 4 >= MRC_SACK_BITS) {
			state.PauseTiming();
			if (!sent.empty()) {
				auto a = k.ack(sent.back().psn + 1, sent[0]);

				mrc_conn_rx(k.c, &a, 0, k.now);
			}
			k.send_burst(sent);
			i = 0;
			for (auto &w : sack)
				w = 0;
			state.ResumeTiming();
		}
		auto a = k.ack(sent[0].psn, sent[i + 1]);

		// Bits for PSNs base+1 .. base+i+4 (the hole is base).
		for (size_t b = i + 1; b <= i + 4; b++)
			sack[b / 64] |= 1ull << (b % 64);
		for (int w = 0; w < MRC_SACK_WORDS; w++)
			a.u.ack.sack[w] = sack[w];
		k.now += 160;
		mrc_conn_rx(k.c, &a, 0, k.now);
		i += 4;
		pkts += 4;
	}
	state.SetItemsProcessed((int64_t)pkts);
}
BENCHMARK(BM_AckWithHole);

// Receiver: one in-order data packet (placement callback, coalesced ACK).
void BM_RxData(benchmark::State &state)
{
	Conn k;
	struct mrc_pkt p;
	uint32_t psn = 0;

	mrc_pkt_init(&p, MRC_OP_WRITE);
	p.hdr.plane = 1;
	p.hdr.flags = MRC_F_FIRST | MRC_F_LAST;
	p.payload_len = 4096;
	for (auto _ : state) {
		p.hdr.psn = psn++;
		p.hdr.ev = (uint16_t)(psn & 255);
		k.now += 40;
		benchmark::DoNotOptimize(mrc_conn_rx(k.c, &p, 0, k.now));
	}
	state.SetItemsProcessed((int64_t)psn);
}
BENCHMARK(BM_RxData);

} // namespace
