// SPDX-License-Identifier: GPL-2.0-only
//
// libFuzzer target for the engine's receive entry point, mrc_conn_rx(),
// interleaved with sends, transmissions, timers and control-plane calls.
// The input is a little program: each step takes one opcode byte and its
// operands.  Packets come either from the real decoder (raw bytes) or are
// built from fields placed near the connection's live PSN windows, so that
// the fuzzer reaches SACK, loss, NACK and reassembly logic rather than
// bouncing off the window checks.  After every step the invariants below
// are checked; a violation aborts (a finding).
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <vector>

extern "C" {
#include "engine.h"
#include "wire.h"
}

namespace {

struct Input {
	const uint8_t *p;
	size_t n;

	bool empty() const { return n == 0; }
	uint8_t u8()
	{
		if (!n)
			return 0;
		n--;
		return *p++;
	}
	uint16_t u16() { return (uint16_t)(u8() | u8() << 8); }
	uint32_t u32() { return (uint32_t)u16() | (uint32_t)u16() << 16; }
	uint64_t u64() { return (uint64_t)u32() | (uint64_t)u32() << 32; }
};

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			std::fprintf(stderr, "invariant: %s (%s:%d)\n", #cond, \
				     __FILE__, __LINE__);                      \
			std::abort();                                          \
		}                                                              \
	} while (0)

struct State {
	std::vector<uint64_t> mem;
	struct mrc_conn *c = nullptr;
	struct mrc_conn_ops ops {};
	struct mrc_conn_config cfg;
	uint64_t now = 1000;
	uint32_t next_recv = 0;	   // next expected receive completion
	uint32_t next_send = 0;	   // next expected send completion
	uint32_t queued = 0;	   // messages queued
	std::set<uint32_t> placed; // PSNs placed (each at most once)
	uint32_t n_evs = 1;
	int place_ret = 0;
};

State *g;

void on_ctrl(void *, struct mrc_pkt *pkt)
{
	// Everything the engine emits must be a valid wire packet.
	CHECK(mrc_pkt_check(pkt) == 0);
	CHECK(pkt->hdr.ev < g->n_evs);
}

int on_place(void *, const struct mrc_pkt *pkt)
{
	if (g->place_ret)
		return g->place_ret;
	CHECK(g->placed.insert(pkt->hdr.psn).second);
	return 0;
}

void on_recv(void *, uint32_t msn, uint32_t)
{
	CHECK(msn == g->next_recv);
	g->next_recv++;
}

void on_send(void *, uint32_t msn, uint64_t cookie, int status)
{
	CHECK(msn == g->next_send);
	CHECK(cookie == msn);
	CHECK(status >= MRC_ST_OK && status <= MRC_ST_NO_PATH);
	g->next_send++;
	CHECK(g->next_send <= g->queued);
}

void on_event(void *, const struct mrc_conn_event *e)
{
	CHECK(e->type == MRC_EVT_EV_STATE || e->type == MRC_EVT_CONN_FAILED);
	if (e->type == MRC_EVT_EV_STATE) {
		CHECK(e->ev < MRC_MAX_EVS);
		CHECK(e->old_state != e->new_state);
		CHECK(e->new_state <= MRC_EV_DENIED);
	}
}

// The EV set is installed once, before any traffic: the per-EV counters
// add up to the connection's (ACKs may echo an EV outside the set, which
// only the connection counts).
void check_ev_counters(State &s, const struct mrc_conn_stats &st)
{
	uint64_t tx = 0, bytes = 0, retx = 0, lost = 0, acks = 0, ecn = 0;
	uint64_t ptx = 0, pok = 0;
	struct mrc_ev_info i;

	CHECK(mrc_conn_nr_evs(s.c) == s.n_evs);
	CHECK(mrc_conn_get_ev_info(s.c, s.n_evs, &i) == -EINVAL);
	for (uint32_t ev = 0; ev < s.n_evs; ev++) {
		CHECK(mrc_conn_get_ev_info(s.c, ev, &i) == 0);
		CHECK(i.retx_pkts <= i.tx_pkts);
		CHECK(i.ecn_marks <= i.acks);
		CHECK(i.probes_ok <= i.probes_tx);
		CHECK(i.state_since <= s.now);
		CHECK(i.state == mrc_conn_ev_state(s.c, ev));
		tx += i.tx_pkts;
		bytes += i.tx_bytes;
		retx += i.retx_pkts;
		lost += i.lost_pkts;
		acks += i.acks;
		ecn += i.ecn_marks;
		ptx += i.probes_tx;
		pok += i.probes_ok;
	}
	CHECK(tx == st.tx_pkts && bytes == st.tx_bytes);
	CHECK(retx == st.retx_pkts && lost == st.lost_pkts);
	CHECK(ptx == st.probes_tx && pok == st.probes_ok);
	CHECK(acks <= st.acks_rx && ecn <= st.ecn_acks);
}

void check_invariants(State &s)
{
	struct mrc_conn_stats st;

	mrc_conn_get_stats(s.c, &st);
	uint32_t flight = st.snd_nxt - st.snd_una;

	CHECK(flight <= (uint32_t)s.cfg.peer_mpr * MRC_MPR_UNIT);
	CHECK(st.inflight <= (uint64_t)flight * s.cfg.mtu);
	CHECK(st.evs_usable <= st.evs_total);
	CHECK(st.evs_bad + st.evs_denied <= st.evs_total);
	CHECK(st.cwnd >= s.cfg.mtu || st.cwnd >= s.cfg.cc.min_cwnd);
	CHECK(st.cwnd <=
	      (s.cfg.cc.max_cwnd > s.cfg.mtu ? s.cfg.cc.max_cwnd : s.cfg.mtu));
	CHECK(st.msgs_rcvd == s.next_recv);
	if (st.status)
		CHECK(mrc_conn_next_deadline(s.c) == MRC_TIME_NEVER);
	CHECK(st.retx_pkts <= st.tx_pkts);
	check_ev_counters(s, st);
}

// A packet built from fields, with PSNs near the live windows.
void structured(State &s, Input &in, struct mrc_pkt *p)
{
	struct mrc_conn_stats st;
	uint8_t kind = in.u8() % 5;
	static const uint8_t data_ops[] = {
		MRC_OP_SEND,
		MRC_OP_WRITE,
		MRC_OP_READ_RESP,
		MRC_OP_WRITE_IMM,
	};

	mrc_conn_get_stats(s.c, &st);
	switch (kind) {
	case 0:
	case 1: {
		uint32_t len = in.u16() % 4096;
		uint32_t off = (uint32_t)(in.u8() % 4) * 1024;

		mrc_pkt_init(p, data_ops[in.u8() % 4]);
		p->hdr.psn = st.rcv_nxt + (uint32_t)(int16_t)in.u16();
		p->hdr.flags = (uint16_t)(in.u8() & MRC_F_ALL);
		p->u.send.msg.msn = in.u8();
		p->u.send.msg.offset = off;
		p->u.send.msg.msg_len = off + len;
		p->payload_len = len;
		break;
	}
	case 2:
		mrc_pkt_init(p, MRC_OP_ACK);
		p->u.ack.cum_psn = st.snd_una + (uint32_t)(int8_t)in.u8();
		p->u.ack.sack_base = st.snd_una + (uint32_t)(int8_t)in.u8();
		for (auto &w : p->u.ack.sack)
			w = in.u64();
		p->u.ack.echo_ev = in.u16() % (s.n_evs + 2);
		p->u.ack.echo_plane = 1 + in.u8() % MRC_MAX_PLANES;
		p->u.ack.ecn = in.u8() & MRC_ACK_ECN_CE;
		p->u.ack.ts_echo = (uint32_t)s.now - in.u16();
		p->u.ack.svc_time = in.u16();
		break;
	case 3:
		mrc_pkt_init(p, MRC_OP_NACK);
		p->u.nack.psn = st.snd_una + in.u8() % 64;
		p->u.nack.cum_psn = st.snd_una + (uint32_t)(int8_t)in.u8();
		p->u.nack.reason = 1 + in.u8() % 5;
		p->u.nack.echo_plane = 1;
		if (p->u.nack.reason == MRC_NACK_RNR)
			p->u.nack.rnr_timer_us = in.u16();
		break;
	default:
		mrc_pkt_init(p, in.u8() & 1 ? MRC_OP_PROBE_REQ :
					      MRC_OP_PROBE_RESP);
		p->u.probe.probe_id = in.u8();
		p->u.probe.ev = in.u16() % (s.n_evs + 2);
		p->u.probe.plane = 1 + in.u8() % MRC_MAX_PLANES;
		if (p->hdr.opcode == MRC_OP_PROBE_RESP)
			p->u.probe.ts_echo = (uint32_t)s.now - in.u16();
		break;
	}
	p->hdr.ev = in.u16() % (s.n_evs + 2);
	p->hdr.plane = 1 + in.u8() % MRC_MAX_PLANES;
	p->hdr.ts = (uint32_t)s.now - in.u16();
}

void step(State &s, Input &in)
{
	struct mrc_tx_desc d;
	struct mrc_pkt pkt;

	switch (in.u8() % 9) {
	case 0: {
		struct mrc_msg m {};
		uint32_t msn;

		m.len = in.u16() * (uint32_t)(1 + in.u8() % 4);
		m.opcode = MRC_OP_WRITE;
		m.cookie = s.queued;
		m.ack_req = in.u8() & 1;
		if (mrc_conn_send(s.c, &m, &msn, s.now) == 0) {
			CHECK(msn == s.queued);
			s.queued++;
		}
		break;
	}
	case 1: {
		int n = 1 + in.u8() % 64;

		while (n-- && mrc_conn_tx_next(s.c, s.now, &d)) {
			CHECK(d.plane >= 1 && d.plane <= MRC_MAX_PLANES);
			CHECK(d.ev < s.n_evs);
			CHECK(d.len <= s.cfg.mtu);
			CHECK(d.offset + d.len <= d.msg_len);
			CHECK(d.cookie == d.msn);
		}
		break;
	}
	case 2: {
		uint64_t dl;

		s.now += in.u32() % 100000000;
		// Bounded: each call must make progress on its deadlines.
		for (int i = 0; i < 4; i++) {
			dl = mrc_conn_next_deadline(s.c);
			if (dl > s.now)
				break;
			mrc_conn_on_timer(s.c, s.now);
		}
		break;
	}
	case 3: {
		uint32_t len = in.u8() + in.u8();
		uint8_t buf[512];
		size_t take = len < in.n ? len : in.n;

		std::memcpy(buf, in.p, take);
		in.p += take;
		in.n -= take;
		if (mrc_pkt_decode_opts(buf, (uint32_t)take, &pkt,
					MRC_DECODE_NO_ICRC) == 0)
			mrc_conn_rx(s.c, &pkt, in.u8() & 3, s.now);
		break;
	}
	case 4:
	case 5:
		structured(s, in, &pkt);
		if (mrc_pkt_check(&pkt) == 0)
			mrc_conn_rx(s.c, &pkt, in.u8() & 3, s.now);
		break;
	case 6:
		mrc_conn_plane_set(s.c, (uint8_t)(in.u8() % 18), in.u8() & 1,
				   s.now);
		break;
	case 7:
		mrc_conn_ev_deny(s.c, in.u16() % (s.n_evs + 2), in.u8() & 1,
				 s.now);
		break;
	default: s.place_ret = in.u8() % 8 == 0 ? 1 + in.u8() % 5 : 0; break;
	}
	check_invariants(s);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	State s;
	Input in{data, size};

	g = &s;
	mrc_conn_config_default(&s.cfg);
	s.cfg.mtu = 256 + in.u16() % 4096;
	s.cfg.mpr = (uint8_t)(1 + in.u8() % MRC_MAX_MPR);
	s.cfg.peer_mpr = (uint8_t)(1 + in.u8() % MRC_MAX_MPR);
	s.cfg.ack_timeout_exp = in.u8() % 25;
	s.cfg.retry_cnt = in.u8() % 8;
	s.cfg.backoff_cnt = in.u8() % 26;
	s.cfg.ack_every = 1 + in.u8() % 8;
	s.cfg.ev_min_active = in.u8() % 8;
	s.cfg.init_psn = in.u32();
	s.cfg.peer_init_psn = in.u32();
	s.cfg.cc.disable_qa = in.u8() & 1;
	s.ops.emit_ctrl = on_ctrl;
	s.ops.place = on_place;
	s.ops.recv_complete = on_recv;
	s.ops.send_complete = on_send;
	s.ops.event = on_event;
	s.mem.assign(mrc_conn_size() / 8 + 1, 0);
	s.c = reinterpret_cast<struct mrc_conn *>(s.mem.data());
	CHECK(mrc_conn_init(s.c, &s.cfg, &s.ops, &s, s.now) == 0);
	s.n_evs = 1 + in.u8();
	{
		std::vector<struct mrc_ev_cfg> evs(s.n_evs);

		for (auto &e : evs) {
			e.plane = (uint8_t)(1 + in.u8() % 4);
			e.denied = in.u8() % 16 == 0;
		}
		CHECK(mrc_conn_set_evs(s.c, evs.data(), s.n_evs, s.now) == 0);
	}
	for (int i = 0; i < 2000 && !in.empty(); i++)
		step(s, in);
	return 0;
}
