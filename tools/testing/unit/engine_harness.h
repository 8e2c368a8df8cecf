// SPDX-License-Identifier: GPL-2.0-only
//
// Test harness for the MRC engine: two connections joined by a simulated
// multi-path link (per-path delay, jitter, loss, duplication, ECN marking,
// blackhole), driven by a virtual clock and a seeded PRNG so that every
// run is reproducible from its seed.  Every packet goes through the real
// wire encoder and decoder on its way.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <queue>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include "engine.h"
#include "wire.h"
}

namespace mrc_test {

// One path of the simulated fabric, used for one EV index.
struct PathModel {
	uint64_t delay = 10000; // ns one way
	uint64_t jitter = 0;	// ns, uniform [0, jitter)
	double loss = 0;	// probability per data packet
	double ctrl_loss = 0;	// probability per control packet
	double dup = 0;		// probability of a second copy
	double ecn = 0;		// probability of CE marking
	double trim = 0;	// probability a data packet is trimmed
	bool blackhole = false; // drops everything, control included
	// One direction cut (a failed link seen by one ECMP direction):
	// everything endpoint i sends on this path, data or control, is lost
	// while the other direction still works.
	bool cut_from[2] = {false, false};
};

struct Frame {
	uint64_t t;
	uint64_t seq;
	int dst;
	std::vector<uint8_t> bytes;
	uint32_t rx_flags;
	bool operator>(const Frame &o) const
	{
		return t != o.t ? t > o.t : seq > o.seq;
	}
};

class Harness;

// One side: an engine connection plus everything its callbacks reported.
struct Endpoint {
	Harness *h = nullptr;
	int id = 0;
	std::vector<uint64_t> mem;
	struct mrc_conn *c = nullptr;
	struct mrc_conn_ops ops {};
	// Receive side records.
	std::map<std::pair<uint32_t, uint32_t>, int> placed; // (msn,off) -> n
	std::map<uint32_t, uint32_t> placed_bytes; // msn -> bytes placed
	std::map<uint32_t, uint32_t> msg_len;	   // msn -> message length
	std::vector<uint32_t> recv_done;
	// Send side records.
	std::vector<std::pair<uint32_t, int>> send_done;
	std::vector<struct mrc_conn_event> events;
	int place_nack = 0;	// if set, place() refuses with this
	uint64_t data_sent = 0; // data packets handed to the link
	std::map<uint32_t, uint64_t> last_data_on_ev; // EV -> last send

	struct mrc_conn_stats stats() const
	{
		struct mrc_conn_stats s;

		mrc_conn_get_stats(c, &s);
		return s;
	}
};

class Harness {
public:
	uint64_t now = 1000000;
	std::vector<PathModel> paths; // indexed by EV index
	Endpoint ep[2];
	std::mt19937_64 rng;
	std::priority_queue<Frame, std::vector<Frame>, std::greater<Frame>> q;
	uint64_t seq = 0;
	uint64_t data_dropped = 0; // data packets the link lost
	uint64_t ctrl_dropped = 0;
	uint64_t trimmed = 0; // data packets delivered trimmed
	std::map<uint32_t, uint64_t> first_drop; // EV -> time of first loss
	bool silent[2] = {false, false};	 // drop all an endpoint sends
	// An endpoint's host stalls (descheduled, softirq held off): what
	// arrives before this time waits for it, in arrival order.
	uint64_t rx_stall_until[2] = {0, 0};
	uint64_t silenced = 0; // packets dropped that way
	std::string failure;   // first invariant violation

	explicit Harness(uint64_t seed, const struct mrc_conn_config *cfg,
			 std::vector<PathModel> p)
		: paths(std::move(p)), rng(seed)
	{
		for (int i = 0; i < 2; i++)
			setup(i, cfg);
	}

	double uniform()
	{
		return (double)(rng() >> 11) * (1.0 / 9007199254740992.0);
	}

	void setup(int i, const struct mrc_conn_config *cfg)
	{
		Endpoint &e = ep[i];
		std::vector<struct mrc_ev_cfg> evs(paths.size());

		e.h = this;
		e.id = i;
		e.mem.assign(mrc_conn_size() / 8 + 1, 0);
		e.c = reinterpret_cast<struct mrc_conn *>(e.mem.data());
		e.ops.emit_ctrl = [](void *priv, struct mrc_pkt *pkt) {
			auto *ep = static_cast<Endpoint *>(priv);

			ep->h->transmit(ep->id, pkt, false);
		};
		e.ops.place = [](void *priv, const struct mrc_pkt *pkt) {
			return static_cast<Endpoint *>(priv)
				->h->on_place(*static_cast<Endpoint *>(priv),
					      pkt);
		};
		e.ops.recv_complete = [](void *priv, uint32_t msn, uint32_t) {
			auto *ep = static_cast<Endpoint *>(priv);

			ep->h->on_recv_complete(*ep, msn);
		};
		e.ops.send_complete = [](void *priv, uint32_t msn, uint64_t,
					 int status) {
			static_cast<Endpoint *>(priv)->send_done.push_back(
				{msn, status});
		};
		e.ops.event = [](void *priv, const struct mrc_conn_event *ev) {
			static_cast<Endpoint *>(priv)->events.push_back(*ev);
		};
		if (mrc_conn_init(e.c, cfg, &e.ops, &e, now))
			fail("mrc_conn_init failed");
		for (size_t k = 0; k < paths.size(); k++)
			evs[k].plane = (uint8_t)(1 + k % 8);
		if (mrc_conn_set_evs(e.c, evs.data(), (uint32_t)evs.size(), now))
			fail("mrc_conn_set_evs failed");
		e.events.clear();
	}

	// Put EV i of both connections on plane 1 + i % planes (EVs of the
	// planes interleaved, as the kernel's AUTO set is) and forget the
	// events that reports.
	void set_planes(uint32_t planes)
	{
		std::vector<struct mrc_ev_cfg> evs(paths.size());

		for (size_t i = 0; i < evs.size(); i++)
			evs[i].plane = (uint8_t)(1 + i % planes);
		for (auto &e : ep) {
			if (mrc_conn_set_evs(e.c, evs.data(),
					     (uint32_t)evs.size(), now))
				fail("mrc_conn_set_evs failed");
			e.events.clear();
		}
	}

	void fail(const std::string &s)
	{
		if (failure.empty())
			failure = s;
	}

	int on_place(Endpoint &e, const struct mrc_pkt *pkt)
	{
		const struct mrc_msg_ext &m = pkt->u.send.msg;

		if (e.place_nack)
			return e.place_nack;
		if (++e.placed[{m.msn, m.offset}] != 1)
			fail("packet placed twice");
		e.placed_bytes[m.msn] += pkt->payload_len;
		e.msg_len[m.msn] = m.msg_len;
		return 0;
	}

	void on_recv_complete(Endpoint &e, uint32_t msn)
	{
		uint32_t expect = (uint32_t)e.recv_done.size();

		if (msn != expect)
			fail("receive completion out of order");
		if (e.placed_bytes[msn] != e.msg_len[msn])
			fail("message completed before all bytes placed");
		e.recv_done.push_back(msn);
	}

	// Encode, push through the path model, schedule the copies.
	void transmit(int from, struct mrc_pkt *pkt, bool data)
	{
		static const uint8_t zeros[MRC_MAX_PAYLOAD] = {};
		std::vector<uint8_t> buf(MRC_COMMON_HDR_LEN + 128 +
					 pkt->payload_len);
		uint32_t ev = pkt->hdr.ev;
		int n;

		pkt->payload = zeros;
		n = mrc_pkt_encode(pkt, buf.data(), (uint32_t)buf.size());
		if (n < 0) {
			fail(std::string("encode failed: ") +
			     mrc_wire_strerror(n) + " op " +
			     mrc_opcode_name(pkt->hdr.opcode));
			return;
		}
		buf.resize((size_t)n);
		if (ev >= paths.size()) {
			fail("packet on an EV outside the set");
			return;
		}
		// A peer gone (or its egress cut): nothing of it arrives.
		if (silent[from]) {
			silenced++;
			return;
		}
		const PathModel &pm = paths[ev];
		double loss = data ? pm.loss : pm.ctrl_loss;

		if (pm.blackhole || pm.cut_from[from] ||
		    (loss > 0 && uniform() < loss)) {
			if (data) {
				data_dropped++;
				if (!first_drop.count(ev))
					first_drop[ev] = now;
			} else {
				ctrl_dropped++;
			}
			return;
		}
		int copies = pm.dup > 0 && uniform() < pm.dup ? 2 : 1;

		for (int i = 0; i < copies; i++) {
			uint64_t j = pm.jitter ? rng() % pm.jitter : 0;
			uint32_t fl = pm.ecn > 0 && uniform() < pm.ecn ?
					      MRC_RX_ECN_CE :
					      0;

			// A trimming switch cuts the packet after its headers
			// (mrc.rst, "Trimmed packets"); the receiver's glue
			// decodes what is left and reports MRC_RX_TRIMMED.
			std::vector<uint8_t> bytes = buf;
			if (data && pm.trim > 0 && uniform() < pm.trim &&
			    pkt->payload_len) {
				fl |= MRC_RX_TRIMMED;
				trimmed++;
				bytes.resize((size_t)mrc_hdr_len(pkt->hdr.opcode));
			}

			q.push(Frame{now + pm.delay + j, seq++, 1 - from,
				     std::move(bytes), fl});
		}
	}

	void send_data(int from, const struct mrc_tx_desc &d)
	{
		struct mrc_pkt pkt;

		mrc_tx_desc_to_pkt(&d, &pkt);
		ep[from].data_sent++;
		ep[from].last_data_on_ev[d.ev] = now;
		transmit(from, &pkt, true);
	}

	void pump(int i)
	{
		struct mrc_tx_desc d;

		while (mrc_conn_tx_next(ep[i].c, now, &d))
			send_data(i, d);
	}

	void deliver(const Frame &f)
	{
		struct mrc_pkt pkt;
		const auto n = (uint32_t)f.bytes.size();
		int err = f.rx_flags & MRC_RX_TRIMMED ?
				  mrc_pkt_decode_trimmed(f.bytes.data(), n, n,
							 &pkt) :
				  mrc_pkt_decode(f.bytes.data(), n, &pkt);

		if (err) {
			fail(std::string("decode failed: ") +
			     mrc_wire_strerror(err));
			return;
		}
		err = mrc_conn_rx(ep[f.dst].c, &pkt, f.rx_flags, now);
		if (err < 0 && err != -EPIPE)
			fail("mrc_conn_rx error");
		pump(f.dst);
	}

	uint64_t next_event() const
	{
		uint64_t t = MRC_TIME_NEVER;

		if (!q.empty())
			t = q.top().t;
		for (const auto &e : ep)
			t = std::min(t, mrc_conn_next_deadline(e.c));
		return t;
	}

	// Advance by one event; false when nothing is left before @limit.
	bool step(uint64_t limit)
	{
		uint64_t t = next_event();

		if (t == MRC_TIME_NEVER || t > limit)
			return false;
		if (t > now)
			now = t;
		if (!q.empty() && q.top().t <= now) {
			Frame f = q.top();

			q.pop();
			if (f.t < rx_stall_until[f.dst]) {
				f.t = rx_stall_until[f.dst];
				q.push(f);
				return true;
			}
			deliver(f);
			return true;
		}
		for (int i = 0; i < 2; i++) {
			if (mrc_conn_next_deadline(ep[i].c) <= now) {
				mrc_conn_on_timer(ep[i].c, now);
				pump(i);
			}
		}
		return true;
	}

	uint32_t send(int from, uint32_t len, uint8_t op = MRC_OP_SEND)
	{
		struct mrc_msg m {};
		uint32_t msn = 0;

		m.len = len;
		m.opcode = op;
		m.cookie = 0x1000 + len;
		if (mrc_conn_send(ep[from].c, &m, &msn, now))
			fail("mrc_conn_send failed");
		pump(from);
		return msn;
	}

	// Run until every queued message is acknowledged (or @limit).
	bool run_until_idle(uint64_t limit)
	{
		while (!failure.empty() ? false : true) {
			if (mrc_conn_idle(ep[0].c) && mrc_conn_idle(ep[1].c))
				return true;
			if (!step(limit))
				return false;
		}
		return false;
	}

	void run_for(uint64_t dt)
	{
		uint64_t end = now + dt;

		while (failure.empty() && step(end))
			;
		now = std::max(now, end);
	}
};

// A config for tests: small MTU so that messages have many packets.
inline struct mrc_conn_config test_config()
{
	struct mrc_conn_config cfg;

	mrc_conn_config_default(&cfg);
	cfg.mtu = 1024;
	cfg.ack_timeout_exp = 10; // ~1 ms against path RTTs of < 100 us
	cfg.ev_min_active = 1;
	return cfg;
}

// A connection the test drives packet by packet: 1000-byte MTU (easy
// arithmetic) and NSCC's quick adapt off (NSCC has its own tests; the
// window stays steady).
inline struct mrc_conn_config solo_config()
{
	struct mrc_conn_config cfg;

	mrc_conn_config_default(&cfg);
	cfg.mtu = 1000;
	cfg.cc.disable_qa = 1;
	return cfg;
}

// A solo_config() whose window (16 Mi) never holds the sender back (the
// path and EV tests count packets, not the window).
inline struct mrc_conn_config wide_config()
{
	struct mrc_conn_config cfg = solo_config();

	cfg.cc.init_cwnd = cfg.cc.max_cwnd = 1u << 24;
	return cfg;
}

// A solo_config() whose timer fails the connection after @retry_cnt
// linear and @backoff_cnt doubling ACK timeouts (the timer tests).
inline struct mrc_conn_config retry_config(u8 retry_cnt, u8 backoff_cnt)
{
	struct mrc_conn_config cfg = solo_config();

	cfg.retry_cnt = retry_cnt;
	cfg.backoff_cnt = backoff_cnt;
	return cfg;
}

// The kernel's settings (qp.c) for IB timeout 14 (exp 16, 67 ms) and
// retry_cnt 7, with the 1024-byte MTU of the tests.
inline struct mrc_conn_config kernel_config()
{
	struct mrc_conn_config cfg;

	mrc_conn_config_default(&cfg);
	cfg.mtu = 1024;
	cfg.ack_timeout_exp = 16;
	cfg.retry_cnt = 7;
	cfg.backoff_cnt = 7;
	cfg.reo_min = 500000;
	return cfg;
}

// NSCC for a millisecond-RTT fabric with its window held to @pkts packets
// of 1024 bytes: a connection whose sending the test controls.
inline void hold_cwnd(struct mrc_conn_config *cfg, uint32_t pkts)
{
	constexpr uint64_t ms = 1000000ull;

	cfg->cc.base_rtt = 2 * ms;
	cfg->cc.target_delay = 1 * ms;
	cfg->cc.qa_threshold = 8 * ms;
	cfg->cc.adjust_period = 2 * ms;
	cfg->cc.init_cwnd = pkts * 1024;
	cfg->cc.max_cwnd = pkts * 1024;
}

// One connection alone: the test plays the peer by hand.
struct Solo {
	std::vector<uint64_t> mem;
	struct mrc_conn *c;
	struct mrc_conn_ops ops {};
	std::vector<struct mrc_pkt> ctrl; // emitted ACK/NACK/probes
	std::vector<struct mrc_conn_event> events;
	std::vector<std::pair<uint32_t, int>> send_done;
	std::vector<uint32_t> recv_done;
	std::vector<uint32_t> recv_last; // last PSN of each completed
	std::vector<uint32_t> placed;	 // PSNs placed
	int place_ret = 0;
	uint64_t now = 1000000;

	explicit Solo(const struct mrc_conn_config &cfg, uint32_t n_evs = 0)
		: mem(mrc_conn_size() / 8 + 1, 0),
		  c(reinterpret_cast<struct mrc_conn *>(mem.data()))
	{
		ops.emit_ctrl = [](void *p, struct mrc_pkt *pkt) {
			static_cast<Solo *>(p)->ctrl.push_back(*pkt);
		};
		ops.place = [](void *p, const struct mrc_pkt *pkt) {
			auto *s = static_cast<Solo *>(p);

			if (!s->place_ret)
				s->placed.push_back(pkt->hdr.psn);
			return s->place_ret;
		};
		ops.recv_complete = [](void *p, uint32_t msn, uint32_t last) {
			static_cast<Solo *>(p)->recv_done.push_back(msn);
			static_cast<Solo *>(p)->recv_last.push_back(last);
		};
		ops.send_complete = [](void *p, uint32_t msn, uint64_t, int st) {
			static_cast<Solo *>(p)->send_done.push_back({msn, st});
		};
		ops.event = [](void *p, const struct mrc_conn_event *e) {
			static_cast<Solo *>(p)->events.push_back(*e);
		};
		if (mrc_conn_init(c, &cfg, &ops, this, now))
			throw std::runtime_error("mrc_conn_init");
		if (n_evs && mrc_conn_set_evs_auto(c, n_evs, now))
			throw std::runtime_error("set_evs_auto");
	}

	uint32_t send(uint32_t len, uint8_t ack_req = 0)
	{
		struct mrc_msg m {};
		uint32_t msn = ~0u;

		m.len = len;
		m.opcode = MRC_OP_WRITE;
		m.cookie = len;
		m.ack_req = ack_req;
		if (mrc_conn_send(c, &m, &msn, now))
			throw std::runtime_error("mrc_conn_send");
		return msn;
	}

	std::vector<struct mrc_tx_desc> drain(size_t max = ~(size_t)0)
	{
		std::vector<struct mrc_tx_desc> v;
		struct mrc_tx_desc d;

		while (v.size() < max && mrc_conn_tx_next(c, now, &d))
			v.push_back(d);
		return v;
	}

	// An ACK as the peer would send it, echoing @echo.
	struct mrc_pkt ack(uint32_t cum, const std::vector<uint32_t> &sacked,
			   const struct mrc_tx_desc *echo = nullptr,
			   bool ecn = false, uint32_t svc = 0)
	{
		struct mrc_pkt p;

		mrc_pkt_init(&p, MRC_OP_ACK);
		p.hdr.plane = 1;
		p.u.ack.cum_psn = cum;
		p.u.ack.sack_base = cum;
		for (uint32_t s : sacked) {
			uint32_t i = s - cum;

			if (i < MRC_SACK_BITS)
				p.u.ack.sack[i / 64] |= 1ull << (i % 64);
		}
		p.u.ack.echo_plane = 1;
		if (echo) {
			p.u.ack.echo_ev = echo->ev;
			p.u.ack.echo_plane = echo->plane;
			p.u.ack.ts_echo = echo->ts;
		}
		p.u.ack.ecn = ecn ? MRC_ACK_ECN_CE : 0;
		p.u.ack.svc_time = svc;
		return p;
	}

	struct mrc_pkt nack(uint32_t psn, uint32_t cum, uint8_t reason,
			    uint32_t rnr_us = 0)
	{
		struct mrc_pkt p;

		mrc_pkt_init(&p, MRC_OP_NACK);
		p.hdr.plane = 1;
		p.u.nack.psn = psn;
		p.u.nack.cum_psn = cum;
		p.u.nack.echo_plane = 1;
		p.u.nack.reason = reason;
		p.u.nack.rnr_timer_us = rnr_us;
		return p;
	}

	// A data packet of the peer's stream.
	static struct mrc_pkt data(uint32_t psn, uint32_t msn, uint32_t off,
				   uint32_t len, uint32_t msg_len,
				   uint16_t ev = 0)
	{
		struct mrc_pkt p;

		mrc_pkt_init(&p, MRC_OP_SEND);
		p.hdr.psn = psn;
		p.hdr.ev = ev;
		p.hdr.plane = 1;
		p.hdr.flags = (uint16_t)((off == 0 ? MRC_F_FIRST : 0) |
					 (off + len == msg_len ? MRC_F_LAST : 0));
		p.u.send.msg.msn = msn;
		p.u.send.msg.offset = off;
		p.u.send.msg.msg_len = msg_len;
		p.payload_len = len;
		return p;
	}

	int rx(const struct mrc_pkt &p, uint32_t flags = 0)
	{
		return mrc_conn_rx(c, &p, flags, now);
	}

	void timer_to(uint64_t t)
	{
		now = t;
		mrc_conn_on_timer(c, now);
	}

	// Fire every timer up to @t in order.
	void run_timers_until(uint64_t t)
	{
		for (;;) {
			uint64_t d = mrc_conn_next_deadline(c);

			if (d > t)
				break;
			timer_to(std::max(d, now));
		}
		now = t;
	}

	size_t count_ctrl(uint8_t op) const
	{
		size_t n = 0;

		for (const auto &p : ctrl)
			n += p.hdr.opcode == op;
		return n;
	}

	struct mrc_conn_stats stats() const
	{
		struct mrc_conn_stats s;

		mrc_conn_get_stats(c, &s);
		return s;
	}
};

} // namespace mrc_test
