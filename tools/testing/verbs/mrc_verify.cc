// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_verify: move seeded random data over an RC QP with every operation
// (SEND, SEND_WITH_IMM, RDMA WRITE, WRITE_WITH_IMM, RDMA READ, atomic
// compare-and-swap and fetch-and-add) and verify every byte and every
// completion at both ends.
//
//   server: mrc_verify -d mrc0 -g 1 [-p PORT]
//   client: mrc_verify -d mrc0 -g 1 [-p PORT] [options] SERVER_ADDR
//
// The client is the requester of every operation, the server the
// responder.  Both derive the same plan (operation, size, offsets, data,
// immediate, atomic operands of every message) from the seed; the client's
// options are sent to the server, so the server needs none.  The plan is
// run in batches of at most --depth messages whose buffer slots do not
// overlap:
//
//   server: prepares the batch (poisons the target slots, fills the READ
//           sources, posts the receives) and sends READY
//   client: posts every work request of the batch, checks each completion
//           (status, wr_id order, opcode, byte_len) and the READ data and
//           atomic return values, then sends DONE
//   server: checks each receive completion as it arrives (SEND data,
//           WRITE_WITH_IMM regions), after DONE the plain WRITE regions and
//           the atomic counters, then prepares the next batch
//
// While the client waits for the server over TCP, it probes the QP with
// an 8-byte RDMA READ every second, so a peer that went away shows as a
// failed completion within the retry budget instead of a TCP wait until
// the deadline.
//
// With --until-stopped the client runs the plan again and again (the
// server resets its atomic counters at the start of each round) until it
// gets SIGINT or SIGTERM: it then finishes the batch in flight, tells the
// server that batch was the last, and both ends end as after a complete
// run.  Tests that must keep a transfer going for as long as a fault
// lasts use it, instead of a --count they hope is large enough.
//
// Each end prints, as its last line,
//   mrc_verify: N messages, B bytes, C corrupted bytes, F failed completions
// and exits 0 only if every message completed and C == F == 0.
#include "verbs_common.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <condition_variable>
#include <getopt.h>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>

using namespace verbs;

namespace {

enum Op : uint8_t { SEND, SEND_IMM, WRITE, WRITE_IMM, READ, CAS, FAA, NUM_OPS };
constexpr const char *kOpName[NUM_OPS] = {"send",      "send_imm", "write",
					  "write_imm", "read",	   "cas",
					  "faa"};

constexpr uint64_t kSlotPad = 320; // SGE gaps (3 x 64) + guard (64), rounded
constexpr uint64_t kGap = 64;	   // between the pieces of a scattered message
constexpr uint64_t kGuard = 64;	   // poisoned bytes after a target region
constexpr int kCounters = 8;	   // atomic counters in the responder's buffer
constexpr uint8_t kPoison = 0xa5;

struct Options : ConnOptions {
	Options() : ConnOptions(18520, 14, 7) {}
	unsigned ops = (1u << NUM_OPS) - 1;
	uint64_t min_size = 1;
	uint64_t max_size = 8u << 20;
	uint64_t count = 128;
	uint64_t seed = 0;
	bool seed_set = false;
	uint32_t depth = 16;
	int mtu = 0;	     // 0: the port's active MTU
	bool inject = false; // corrupt one message on purpose (tests the tester)
	bool until_stopped = false; // repeat the plan until SIGINT/SIGTERM
};

// Set by SIGINT/SIGTERM with --until-stopped: end after the current batch.
std::atomic<bool> g_stop{false};

void on_stop_signal(int) { g_stop.store(true); }

// Run statistics, read by the watchdog thread too.
struct Stats {
	std::atomic<uint64_t> messages{0}, bytes{0}, corrupted{0}, failed{0};
};
Stats g_stats;

void print_summary()
{
	std::printf("mrc_verify: %" PRIu64 " messages, %" PRIu64 " bytes, %" PRIu64
		    " corrupted bytes, %" PRIu64 " failed completions\n",
		    g_stats.messages.load(), g_stats.bytes.load(),
		    g_stats.corrupted.load(), g_stats.failed.load());
	std::fflush(stdout);
}

// At most this many mismatch reports per run: enough to see a pattern.
int g_reports_left = 20;

void report(const std::string &what)
{
	if (g_reports_left > 0) {
		std::printf("mrc_verify: %s\n", what.c_str());
		std::fflush(stdout);
	}
	if (--g_reports_left == 0)
		std::printf("mrc_verify: (further reports suppressed)\n");
}

uint64_t mix64(uint64_t x)
{
	// splitmix64's finaliser: a cheap bijective scrambler.
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

// Deterministic generator for the plan; the same on both ends.
class Rng {
public:
	explicit Rng(uint64_t seed) : s_(seed) {}
	uint64_t next() { return mix64(s_++ * 0x2545f4914f6cdd1dull); }
	uint64_t below(uint64_t n) { return next() % n; }
	double unit()
	{
		return static_cast<double>(next() >> 11) / 9007199254740992.0;
	}

private:
	uint64_t s_;
};

// Byte i of message key: random access, so pieces of a scattered message
// are generated and checked independently.
void fill_pattern(uint8_t *dst, uint64_t key, uint64_t off, uint64_t len)
{
	uint64_t i = off;
	while (len) {
		uint64_t w = mix64(key ^ ((i >> 3) * 0xd6e8feb86659fd93ull));
		unsigned b = i & 7;
		unsigned n = static_cast<unsigned>(std::min<uint64_t>(8 - b, len));
		for (unsigned k = 0; k < n; k++)
			dst[k] = static_cast<uint8_t>(w >> ((b + k) * 8));
		dst += n;
		i += n;
		len -= n;
	}
}

// Count the bytes of [p, p+len) that differ from message key's bytes
// [off, off+len).
uint64_t check_pattern(const uint8_t *p, uint64_t key, uint64_t off, uint64_t len)
{
	static thread_local std::vector<uint8_t> want(1 << 16);
	uint64_t bad = 0;
	for (uint64_t done = 0; done < len;) {
		uint64_t n = std::min<uint64_t>(len - done, want.size());
		fill_pattern(want.data(), key, off + done, n);
		if (std::memcmp(want.data(), p + done, n)) {
			for (uint64_t k = 0; k < n; k++)
				bad += want[k] != p[done + k];
		}
		done += n;
	}
	return bad;
}

uint64_t check_poison(const uint8_t *p, uint64_t len)
{
	uint64_t bad = 0;
	for (uint64_t k = 0; k < len; k++)
		bad += p[k] != kPoison;
	return bad;
}

uint64_t round64(uint64_t x) { return (x + 63) & ~uint64_t{63}; }

struct Msg {
	Op op;
	uint64_t size;
	uint64_t off; // slot offset, the same in both buffers
	uint64_t key; // data pattern
	uint32_t imm;
	bool inline_hint;	     // use IBV_SEND_INLINE if the size allows
	std::array<uint64_t, 3> cut; // piece boundaries (inner), for 2-3 SGEs
	unsigned sge_hint;	     // 1..3 pieces on the requester
	unsigned rsge_hint;	     // 1..2 pieces of a receive buffer
	int counter;		     // atomics
	uint64_t compare_add, swap;
	uint64_t expect_orig; // value the atomic returns
};

struct Batch {
	size_t first, end; // message indices
};

struct Plan {
	std::vector<Msg> msgs;
	std::vector<Batch> batches;
	std::array<uint64_t, kCounters> counter_init{};
	// Counter values after each batch (for the responder's checks).
	std::vector<std::array<uint64_t, kCounters>> counter_after;
	uint64_t region = 0; // data slots; the counters follow
	uint64_t buf_size = 0;
};

uint64_t pick_size(Rng &r, uint64_t lo, uint64_t hi)
{
	double l = std::log(static_cast<double>(lo)),
	       h = std::log(static_cast<double>(hi));
	auto s = static_cast<uint64_t>(
		std::llround(std::exp(l + (h - l) * r.unit())));
	return std::clamp(s, lo, hi);
}

Msg make_msg(Rng &r, const Options &o, size_t idx,
	     std::array<uint64_t, kCounters> &model, std::vector<Op> const &ops,
	     int &forced)
{
	Msg m{};
	m.op = ops[r.below(ops.size())];
	m.key = mix64(o.seed ^ mix64(idx + 1));
	m.imm = static_cast<uint32_t>(r.next());
	m.inline_hint = r.below(2);
	m.sge_hint = 1 + static_cast<unsigned>(r.below(3));
	m.rsge_hint = 1 + static_cast<unsigned>(r.below(2));
	if (m.op == CAS || m.op == FAA) {
		m.size = 8;
		m.counter = static_cast<int>(r.below(kCounters));
		uint64_t &v = model[m.counter];
		m.expect_orig = v;
		if (m.op == FAA) {
			m.compare_add = r.next();
			v += m.compare_add;
		} else {
			// A quarter of the swaps compare unequal and must not
			// change the counter.
			bool hit = r.below(4) != 0;
			m.compare_add = hit ? v : v ^ (r.next() | 1);
			m.swap = r.next();
			if (hit)
				v = m.swap;
		}
		return m;
	}
	// The smallest and largest sizes appear at least once: the first two
	// data messages get them.
	if (forced == 0)
		m.size = o.min_size;
	else if (forced == 1)
		m.size = o.max_size;
	else
		m.size = pick_size(r, o.min_size, o.max_size);
	forced++;
	for (auto &c : m.cut)
		c = m.size > 1 ? 1 + r.below(m.size - 1) : 0;
	std::sort(m.cut.begin(), m.cut.end());
	return m;
}

std::vector<Op> enabled_ops(unsigned mask)
{
	std::vector<Op> v;
	for (int i = 0; i < NUM_OPS; i++)
		if (mask & (1u << i))
			v.push_back(static_cast<Op>(i));
	return v;
}

// The counter values after each batch, replayed from the atomics' plan.
void replay_counters(Plan &p)
{
	auto v = p.counter_init;
	for (const Batch &b : p.batches) {
		for (size_t i = b.first; i < b.end; i++) {
			const Msg &m = p.msgs[i];
			if (m.op == FAA)
				v[m.counter] += m.compare_add;
			else if (m.op == CAS && v[m.counter] == m.compare_add)
				v[m.counter] = m.swap;
		}
		p.counter_after.push_back(v);
	}
}

Plan make_plan(const Options &o)
{
	Plan p;
	Rng r(o.seed);
	uint64_t slot_max = round64(o.max_size) + kSlotPad;
	p.region = 2 * slot_max + o.depth * (kSlotPad + 64);
	p.buf_size = p.region + kCounters * 8;
	for (int c = 0; c < kCounters; c++)
		p.counter_init[c] = mix64(o.seed + 1000 + c);
	auto model = p.counter_init;
	auto ops = enabled_ops(o.ops);
	int forced = 0;
	Batch b{0, 0};
	uint64_t used = 0;
	for (size_t i = 0; i < o.count; i++) {
		Msg m = make_msg(r, o, i, model, ops, forced);
		uint64_t slot = round64(m.size) + kSlotPad;
		// A batch holds at most depth messages in disjoint slots.
		if (i - b.first == o.depth || used + slot > p.region) {
			p.batches.push_back(b);
			b = Batch{i, i};
			used = 0;
		}
		m.off = used;
		used += slot;
		p.msgs.push_back(m);
		b.end = i + 1;
	}
	if (b.end > b.first)
		p.batches.push_back(b);
	replay_counters(p);
	return p;
}

// Control messages on the TCP side channel.
enum CtlType : uint32_t { READY = 1, DONE, FINAL, ABORT };
struct Ctl {
	uint32_t type;
	uint32_t batch;
	uint64_t a, b;
};

// The RDMA resources of one end; members in construction order, so they
// are destroyed in the reverse (QP before CQs before channel, MR before
// its buffer, everything before the PD and the context).
struct Endpoint {
	Context ctx;
	Pd pd;
	Buffer buf;
	Mr mr;
	std::optional<CqWaiter> waiter;
	Cq scq, rcq;
	Qp qp;
	ibv_qp_cap cap{};
	PathParams pp;
	ibv_gid gid{};
	uint32_t psn = 0;
	int rd_atom = 1;
	int mtu_bytes = 0;
};

int mtu_bytes(ibv_mtu m) { return 128 << m; }

Endpoint open_endpoint(const Options &o, uint64_t buf_size)
{
	Endpoint e;
	e.ctx = open_device(o.dev);
	ibv_device_attr da{};
	if (int rc = ibv_query_device(e.ctx.get(), &da))
		fail_errno("ibv_query_device", rc);
	auto pa = query_port(e.ctx.get(), 1);
	if (pa.state != IBV_PORT_ACTIVE)
		fail(o.dev + " port 1 is not active");
	e.mtu_bytes = o.mtu ? o.mtu : mtu_bytes(pa.active_mtu);
	e.gid = query_gid(e.ctx.get(), 1, o.gid);
	e.rd_atom = std::min({da.max_qp_rd_atom, da.max_qp_init_rd_atom, 16});
	e.pd.reset(ibv_alloc_pd(e.ctx.get()));
	if (!e.pd)
		fail_errno("ibv_alloc_pd");
	e.buf = alloc_buffer(buf_size);
	e.mr = reg_mr(e.pd.get(), e.buf.get(), buf_size, kAllAccess);
	e.waiter.emplace(e.ctx.get());
	int cqe = static_cast<int>(2 * o.depth + 8);
	e.scq.reset(ibv_create_cq(e.ctx.get(), cqe, nullptr,
				  e.waiter->channel(), 0));
	e.rcq.reset(ibv_create_cq(e.ctx.get(), cqe, nullptr,
				  e.waiter->channel(), 0));
	if (!e.scq || !e.rcq)
		fail_errno("ibv_create_cq");
	uint32_t sge = static_cast<uint32_t>(std::min(3, da.max_sge));
	// Ask for inline data; a device without it gets a second try.
	try {
		e.qp = create_rc_qp(e.pd.get(), e.scq.get(), e.rcq.get(),
				    {o.depth, sge, 64}, &e.cap);
	} catch (const std::runtime_error &) {
		e.qp = create_rc_qp(e.pd.get(), e.scq.get(), e.rcq.get(),
				    {o.depth, sge, 0}, &e.cap);
	}
	qp_to_init(e.qp.get(), 1, kAllAccess);
	e.psn = static_cast<uint32_t>(
		mix64(static_cast<uint64_t>(getpid()) ^
		      static_cast<uint64_t>(
			      Clock::now().time_since_epoch().count())) &
		0xffffff);
	return e;
}

ConnInfo local_info(const Endpoint &e, const Options &o, uint64_t buf_size)
{
	ConnInfo ci = conn_info(e.qp.get(), e.psn, e.gid, e.buf.get(), buf_size,
				e.mr->rkey);
	ci.seed = o.seed;
	ci.param[0] = o.count;
	ci.param[1] = o.min_size;
	ci.param[2] = o.max_size;
	ci.param[3] = o.ops | (uint64_t{o.depth} << 32) |
		      (uint64_t{o.until_stopped} << 63);
	ci.param[4] = static_cast<uint64_t>(e.mtu_bytes);
	ci.param[5] = static_cast<uint64_t>(e.rd_atom);
	return ci;
}

// RTR and RTS with the parameters both ends agree on (the smaller MTU
// and RDMA READ/atomic depth of the two).
void connect_qp(Endpoint &e, const Options &o, const ConnInfo &remote)
{
	e.pp.gid_index = o.gid;
	e.pp.mtu = mtu_from_bytes(
		std::min<int>(e.mtu_bytes, static_cast<int>(remote.param[4])));
	int atom = std::max(1, std::min<int>(e.rd_atom,
					     static_cast<int>(remote.param[5])));
	e.pp.max_rd_atomic = e.pp.max_dest_rd_atomic = static_cast<uint8_t>(atom);
	e.pp.timeout = static_cast<uint8_t>(o.qp_timeout);
	e.pp.retry = static_cast<uint8_t>(o.retry);
	qp_to_rtr(e.qp.get(), e.pp, remote);
	qp_to_rts(e.qp.get(), e.pp, e.psn);
}

// Piece boundaries of a message split into n pieces: piece j covers
// message bytes [b[j], b[j+1]) and sits j gaps further in the slot.
std::vector<uint64_t> pieces(const Msg &m, unsigned n)
{
	if (n >= 3 && m.cut[0] < m.cut[2] && m.cut[0] > 0)
		return {0, m.cut[0], m.cut[2], m.size};
	if (n >= 2 && m.cut[1] > 0 && m.cut[1] < m.size)
		return {0, m.cut[1], m.size};
	return {0, m.size};
}

bool has_imm(Op op) { return op == SEND_IMM || op == WRITE_IMM; }
bool is_atomic(Op op) { return op == CAS || op == FAA; }
bool uses_recv(Op op)
{
	return op == SEND || op == SEND_IMM || op == WRITE_IMM;
}

std::string msg_name(size_t i, const Msg &m)
{
	return "message " + std::to_string(i) + " (" + kOpName[m.op] + ", " +
	       std::to_string(m.size) + " bytes)";
}

// Count and report bad bytes of one check.
void add_corrupted(uint64_t bad, const std::string &what)
{
	if (!bad)
		return;
	g_stats.corrupted += bad;
	report(what + ": " + std::to_string(bad) + " corrupted bytes");
}

// What is wrong in the completion @wc of WR @idx: its status, order,
// opcode (@want) or byte_len (@len, if there is one to check); "" if
// nothing.
std::string wc_wrong(const ibv_wc &wc, size_t idx, ibv_wc_opcode want,
		     std::optional<uint64_t> len)
{
	if (wc.status != IBV_WC_SUCCESS)
		return std::string("status ") + ibv_wc_status_str(wc.status);
	if (wc.wr_id != idx)
		return "wr_id " + std::to_string(wc.wr_id) + " out of order";
	if (wc.opcode != want)
		return "opcode " + std::to_string(wc.opcode);
	if (len && wc.byte_len != *len)
		return "byte_len " + std::to_string(wc.byte_len);
	return {};
}

// True if @what is ""; else counts and reports the @kind completion
// of message @idx as bad.
bool wc_ok(size_t idx, const Msg &m, const char *kind, const std::string &what)
{
	if (what.empty())
		return true;
	g_stats.failed++;
	report(msg_name(idx, m) + ": bad " + kind + " completion: " + what);
	return false;
}

// ----------------------------------------------------------------------
// Client: the requester.

class Client {
public:
	Client(const Options &o, const Plan &p, Endpoint &e, Tcp &tcp,
	       const ConnInfo &remote, Clock::time_point deadline)
		: o_(o), p_(p), e_(e), tcp_(tcp), remote_(remote),
		  deadline_(deadline)
	{
	}

	// Returns true if every message completed and checked out.
	// Batch k of the run is batch k % batches of the plan; the DONE of
	// the last one says so (Ctl::b), so the server needs no count.
	bool run()
	{
		const size_t nb = p_.batches.size();
		for (uint64_t k = 0;; k++) {
			auto c = wait_ctl();
			if (!c)
				return false;
			if (c->type == ABORT) {
				report("the server aborted before batch " +
				       std::to_string(k));
				return false;
			}
			if (c->type != READY ||
			    c->batch != static_cast<uint32_t>(k))
				fail("protocol: expected READY " +
				     std::to_string(k));
			bool ok = run_batch(p_.batches[k % nb]);
			bool last = o_.until_stopped ? g_stop.load() :
						       k + 1 == nb;
			tcp_.send(Ctl{DONE, static_cast<uint32_t>(k), ok, last});
			if (!ok)
				return false;
			if (last)
				break;
		}
		auto c = wait_ctl();
		if (!c)
			return false;
		if (c->type != FINAL)
			fail("protocol: expected FINAL");
		if (c->a || c->b) {
			report("the server found " + std::to_string(c->a) +
			       " corrupted bytes and " + std::to_string(c->b) +
			       " failed completions");
			return false;
		}
		return true;
	}

private:
	static constexpr uint64_t kProbeId = ~uint64_t{0};

	// The next control message.  While waiting, a peer that went away
	// would leave us blocked on TCP until the deadline; an 8-byte RDMA
	// READ of a responder counter every second makes the QP notice (the
	// READ changes nothing; its failure counts as a failed completion).
	std::optional<Ctl> wait_ctl()
	{
		for (;;) {
			if (tcp_.readable(
				    std::min(deadline_,
					     Clock::now() +
						     std::chrono::seconds(1))))
				return tcp_.recv<Ctl>(deadline_);
			if (Clock::now() >= deadline_)
				fail("timeout waiting for the server on TCP");
			if (!probe())
				return std::nullopt;
		}
	}

	bool probe()
	{
		ibv_sge sg{reinterpret_cast<uintptr_t>(e_.buf.get() + p_.region),
			   8, e_.mr->lkey};
		ibv_send_wr wr = signaled_wr(kProbeId, IBV_WR_RDMA_READ, sg),
			    *bad = nullptr;
		wr.wr.rdma.remote_addr = remote_.addr + p_.region;
		wr.wr.rdma.rkey = remote_.rkey;
		if (int rc = ibv_post_send(e_.qp.get(), &wr, &bad))
			fail_errno("ibv_post_send of a liveness probe", rc);
		ibv_wc wc{};
		if (e_.waiter->poll(e_.scq.get(), &wc, 1, deadline_) == 0)
			fail("liveness probe: no completion before the deadline");
		if (wc.status == IBV_WC_SUCCESS && wc.wr_id == kProbeId &&
		    wc.opcode == IBV_WC_RDMA_READ)
			return true;
		g_stats.failed++;
		report(std::string(
			       "liveness probe (RDMA READ) while waiting for the server: status ") +
		       ibv_wc_status_str(wc.status));
		return false;
	}

	uint8_t *slot(const Msg &m) { return e_.buf.get() + m.off; }

	// Source data (SEND, WRITE) in the pieces, poison around them; READ
	// targets and atomic results poisoned so a missing write shows.
	void prepare(const Msg &m, const std::vector<uint64_t> &b)
	{
		uint8_t *s = slot(m);
		std::memset(s, kPoison,
			    is_atomic(m.op) ? 8 : round64(m.size) + kSlotPad);
		if (m.op == READ || is_atomic(m.op))
			return;
		for (size_t j = 0; j + 1 < b.size(); j++)
			fill_pattern(s + b[j] + j * kGap, m.key, b[j],
				     b[j + 1] - b[j]);
		if (o_.inject && !injected_) {
			// --inject-corruption: the responder must find this byte.
			s[0] ^= 0x01;
			injected_ = true;
			report(std::string("injected a corrupted byte into ") +
			       kOpName[m.op] + " data");
		}
	}

	void post(size_t idx, const Msg &m, const std::vector<uint64_t> &b)
	{
		std::array<ibv_sge, 3> sg{};
		ibv_send_wr wr{}, *bad = nullptr;
		uint8_t *s = slot(m);
		for (size_t j = 0; j + 1 < b.size(); j++)
			sg[j] = {reinterpret_cast<uintptr_t>(s + b[j] + j * kGap),
				 static_cast<uint32_t>(b[j + 1] - b[j]),
				 e_.mr->lkey};
		wr.wr_id = idx;
		wr.sg_list = sg.data();
		wr.num_sge = static_cast<int>(b.size() - 1);
		wr.send_flags = IBV_SEND_SIGNALED;
		uint64_t raddr = remote_.addr + m.off;
		switch (m.op) {
		case SEND: wr.opcode = IBV_WR_SEND; break;
		case SEND_IMM: wr.opcode = IBV_WR_SEND_WITH_IMM; break;
		case WRITE: wr.opcode = IBV_WR_RDMA_WRITE; break;
		case WRITE_IMM: wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM; break;
		case READ: wr.opcode = IBV_WR_RDMA_READ; break;
		case CAS: wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP; break;
		case FAA: wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD; break;
		default: fail("bad op");
		}
		if (has_imm(m.op))
			wr.imm_data = htobe32(m.imm);
		if (is_atomic(m.op)) {
			sg[0] = {reinterpret_cast<uintptr_t>(s), 8, e_.mr->lkey};
			wr.num_sge = 1;
			wr.wr.atomic.remote_addr = remote_.addr + p_.region +
						   m.counter * 8;
			wr.wr.atomic.rkey = remote_.rkey;
			wr.wr.atomic.compare_add = m.compare_add;
			wr.wr.atomic.swap = m.swap;
		} else {
			wr.wr.rdma.remote_addr = raddr;
			wr.wr.rdma.rkey = remote_.rkey;
		}
		if (m.op != READ && !is_atomic(m.op) && m.inline_hint &&
		    m.size <= e_.cap.max_inline_data)
			wr.send_flags |= IBV_SEND_INLINE;
		if (int rc = ibv_post_send(e_.qp.get(), &wr, &bad))
			fail_errno("ibv_post_send of " + msg_name(idx, m), rc);
	}

	static ibv_wc_opcode expected_opcode(Op op)
	{
		switch (op) {
		case SEND:
		case SEND_IMM: return IBV_WC_SEND;
		case WRITE:
		case WRITE_IMM: return IBV_WC_RDMA_WRITE;
		case READ: return IBV_WC_RDMA_READ;
		case CAS: return IBV_WC_COMP_SWAP;
		default: return IBV_WC_FETCH_ADD;
		}
	}

	// Status, order, opcode, byte_len of one send completion.
	bool completion_ok(const ibv_wc &wc, size_t idx, const Msg &m)
	{
		std::optional<uint64_t> len;
		if (m.op == READ)
			len = m.size;
		else if (is_atomic(m.op))
			len = 8;
		return wc_ok(idx, m, "send",
			     wc_wrong(wc, idx, expected_opcode(m.op), len));
	}

	void check_data(size_t idx, const Msg &m, const std::vector<uint64_t> &b)
	{
		uint8_t *s = slot(m);
		if (is_atomic(m.op)) {
			uint64_t got;
			std::memcpy(&got, s, 8);
			uint64_t bad = 0;
			for (int k = 0; k < 8; k++)
				bad += ((got ^ m.expect_orig) >> (8 * k) &
					0xff) != 0;
			if (bad)
				report(msg_name(idx, m) + ": returned " +
				       std::to_string(got) + ", expected " +
				       std::to_string(m.expect_orig));
			add_corrupted(bad, msg_name(idx, m) + " return value");
			return;
		}
		if (m.op != READ)
			return;
		uint64_t bad = 0;
		for (size_t j = 0; j + 1 < b.size(); j++) {
			bad += check_pattern(s + b[j] + j * kGap, m.key, b[j],
					     b[j + 1] - b[j]);
			bad += check_poison(s + b[j + 1] + j * kGap,
					    kGap); // gap / guard
		}
		add_corrupted(bad, msg_name(idx, m) + " read data");
	}

	bool run_batch(const Batch &bt)
	{
		std::vector<std::vector<uint64_t>> layout;
		for (size_t i = bt.first; i < bt.end; i++) {
			const Msg &m = p_.msgs[i];
			layout.push_back(
				pieces(m,
				       std::min<unsigned>(m.sge_hint,
							  e_.cap.max_send_sge)));
			prepare(m, layout.back());
		}
		for (size_t i = bt.first; i < bt.end; i++)
			post(i, p_.msgs[i], layout[i - bt.first]);
		bool ok = true;
		size_t next = bt.first;
		std::array<ibv_wc, 16> wc;
		while (next < bt.end) {
			int n = e_.waiter->poll(e_.scq.get(), wc.data(),
						static_cast<int>(wc.size()),
						deadline_);
			if (n == 0) {
				report(std::to_string(bt.end - next) +
				       " send completions missing at the deadline");
				return false;
			}
			for (int k = 0; k < n; k++, next++) {
				const Msg &m = p_.msgs[next];
				if (!completion_ok(wc[k], next, m)) {
					ok = false;
					continue;
				}
				check_data(next, m, layout[next - bt.first]);
				g_stats.messages++;
				g_stats.bytes += m.size;
			}
		}
		return ok;
	}

	const Options &o_;
	const Plan &p_;
	Endpoint &e_;
	Tcp &tcp_;
	ConnInfo remote_;
	Clock::time_point deadline_;
	bool injected_ = false;
};

// ----------------------------------------------------------------------
// Server: the responder.

class Server {
public:
	Server(const Plan &p, Endpoint &e, Tcp &tcp, Clock::time_point deadline)
		: p_(p), e_(e), tcp_(tcp), deadline_(deadline)
	{
		reset_counters();
	}

	bool run()
	{
		const size_t nb = p_.batches.size();
		for (uint64_t k = 0; !last_; k++) {
			const Batch &bt = p_.batches[k % nb];
			// A new round of --until-stopped: the counters start over,
			// so the plan's replayed values hold again.  No atomic is
			// in flight: the client posts a batch only after READY.
			if (k % nb == 0 && k > 0)
				reset_counters();
			prepare(bt);
			tcp_.send(Ctl{READY, static_cast<uint32_t>(k), 0, 0});
			if (!receive(bt))
				return false;
			check_after(k % nb, bt);
		}
		tcp_.send(Ctl{FINAL, 0, g_stats.corrupted.load(),
			      g_stats.failed.load()});
		return true;
	}

private:
	uint8_t *slot(const Msg &m) { return e_.buf.get() + m.off; }
	uint64_t *counters()
	{
		return reinterpret_cast<uint64_t *>(e_.buf.get() + p_.region);
	}

	void reset_counters()
	{
		auto *c = counters();
		for (int k = 0; k < kCounters; k++)
			c[k] = p_.counter_init[k];
	}

	std::vector<uint64_t> recv_layout(const Msg &m)
	{
		return pieces(m,
			      std::min<unsigned>(m.rsge_hint,
						 std::min(2u,
							  e_.cap.max_recv_sge)));
	}

	void post_recv(size_t idx, const Msg &m)
	{
		std::array<ibv_sge, 3> sg{};
		ibv_recv_wr wr{}, *bad = nullptr;
		wr.wr_id = idx;
		wr.sg_list = sg.data();
		if (m.op != WRITE_IMM) {
			// The last piece has room for a guard the SEND must not
			// touch; a longer SEND would show as a wrong byte_len.
			auto b = recv_layout(m);
			for (size_t j = 0; j + 1 < b.size(); j++)
				sg[j] = {reinterpret_cast<uintptr_t>(
						 slot(m) + b[j] + j * kGap),
					 static_cast<uint32_t>(b[j + 1] - b[j]),
					 e_.mr->lkey};
			wr.num_sge = static_cast<int>(b.size() - 1);
			sg[wr.num_sge - 1].length += kGuard;
		}
		if (int rc = ibv_post_recv(e_.qp.get(), &wr, &bad))
			fail_errno("ibv_post_recv for " + msg_name(idx, m), rc);
	}

	void prepare(const Batch &bt)
	{
		for (size_t i = bt.first; i < bt.end; i++) {
			const Msg &m = p_.msgs[i];
			if (is_atomic(m.op))
				continue;
			std::memset(slot(m), kPoison, round64(m.size) + kSlotPad);
			if (m.op == READ)
				fill_pattern(slot(m), m.key, 0, m.size);
			if (uses_recv(m.op))
				post_recv(i, m);
		}
	}

	// SEND data in the receive pieces, or a WRITE's region, plus the
	// poisoned gaps and guard around it.
	void check_target(size_t idx, const Msg &m)
	{
		std::vector<uint64_t> b = (m.op == SEND || m.op == SEND_IMM) ?
						  recv_layout(m) :
						  pieces(m, 1);
		uint64_t bad = 0;
		for (size_t j = 0; j + 1 < b.size(); j++) {
			bad += check_pattern(slot(m) + b[j] + j * kGap, m.key,
					     b[j], b[j + 1] - b[j]);
			bad += check_poison(slot(m) + b[j + 1] + j * kGap, kGap);
		}
		add_corrupted(bad, msg_name(idx, m) + " data at the responder");
	}

	bool recv_completion_ok(const ibv_wc &wc, size_t idx, const Msg &m)
	{
		ibv_wc_opcode want = m.op == WRITE_IMM ?
					     IBV_WC_RECV_RDMA_WITH_IMM :
					     IBV_WC_RECV;
		bool imm = wc.wc_flags & IBV_WC_WITH_IMM;
		std::string what = wc_wrong(wc, idx, want, m.size);
		if (what.empty() && (imm != has_imm(m.op) ||
				     (imm && wc.imm_data != htobe32(m.imm))))
			what = "immediate data missing, unexpected or wrong";
		return wc_ok(idx, m, "receive", what);
	}

	// Receive completions of the batch, checked as they come, and the
	// client's DONE.  False if either end failed.
	bool receive(const Batch &bt)
	{
		std::vector<size_t> want;
		for (size_t i = bt.first; i < bt.end; i++)
			if (uses_recv(p_.msgs[i].op))
				want.push_back(i);
		size_t got = 0;
		bool done = false, ok = true;
		std::array<ibv_wc, 16> wc;
		while (got < want.size() || !done) {
			if (got == want.size()) {
				done = take_done(ok);
				continue;
			}
			int n = e_.waiter->poll(e_.rcq.get(), wc.data(),
						static_cast<int>(wc.size()),
						deadline_, done ? -1 : tcp_.fd());
			if (n < 0) {
				done = take_done(ok);
				if (!ok)
					return false; // the client failed: stop
				continue;
			}
			if (n == 0) {
				report(std::to_string(want.size() - got) +
				       " receive completions missing at the deadline");
				return false;
			}
			for (int k = 0; k < n; k++, got++) {
				const Msg &m = p_.msgs[want[got]];
				if (!recv_completion_ok(wc[k], want[got], m)) {
					ok = false;
					continue;
				}
				check_target(want[got], m);
				g_stats.messages++;
				g_stats.bytes += m.size;
			}
			if (!ok) {
				tcp_.send(Ctl{ABORT, 0, 0, 0});
				return false;
			}
		}
		return ok;
	}

	bool take_done(bool &ok)
	{
		Ctl c = tcp_.recv<Ctl>(deadline_);
		if (c.type != DONE)
			fail("protocol: expected DONE");
		last_ = c.b != 0;
		if (!c.a) {
			report("the client failed in batch " +
			       std::to_string(c.batch));
			ok = false;
		}
		return true;
	}

	// After DONE: plain WRITE regions, READ sources untouched, counters.
	void check_after(size_t k, const Batch &bt)
	{
		for (size_t i = bt.first; i < bt.end; i++) {
			const Msg &m = p_.msgs[i];
			if (m.op == WRITE || m.op == READ) {
				check_target(i, m);
				g_stats.messages++;
				g_stats.bytes += m.size;
			} else if (is_atomic(m.op)) {
				g_stats.messages++;
				g_stats.bytes += 8;
			}
		}
		auto *c = counters();
		for (int j = 0; j < kCounters; j++) {
			uint64_t want = p_.counter_after[k][j], got = c[j];
			uint64_t bad = 0;
			for (int b = 0; b < 8; b++)
				bad += ((want ^ got) >> (8 * b) & 0xff) != 0;
			add_corrupted(bad, "atomic counter " + std::to_string(j) +
						   " after batch " +
						   std::to_string(k));
		}
	}

	const Plan &p_;
	Endpoint &e_;
	Tcp &tcp_;
	Clock::time_point deadline_;
	bool last_ = false; // the client's DONE said: that was the last batch
};

// ----------------------------------------------------------------------

// The watchdog's report if a verb blocks past the deadline (e.g. a destroy
// that hangs): the summary.
void report_timeout(int seconds)
{
	std::printf("mrc_verify: timeout: still running after %d s\n", seconds);
	print_summary();
}

uint64_t parse_size(const std::string &s)
{
	size_t pos = 0;
	uint64_t v = std::stoull(s, &pos, 0);
	std::string suf = s.substr(pos);
	if (suf == "k" || suf == "K")
		v <<= 10;
	else if (suf == "m" || suf == "M")
		v <<= 20;
	else if (suf == "g" || suf == "G")
		v <<= 30;
	else if (!suf.empty())
		fail("bad size " + s);
	return v;
}

unsigned parse_ops(const std::string &s)
{
	unsigned mask = 0;
	std::stringstream ss(s);
	std::string tok;
	while (std::getline(ss, tok, ',')) {
		auto it = std::find_if(std::begin(kOpName), std::end(kOpName),
				       [&](const char *n) { return tok == n; });
		if (it == std::end(kOpName))
			fail("unknown operation " + tok +
			     " (send,send_imm,write,write_imm,read,cas,faa)");
		mask |= 1u << (it - std::begin(kOpName));
	}
	if (!mask)
		fail("--ops: no operation");
	return mask;
}

void usage()
{
	std::fprintf(stderr,
		     "usage: mrc_verify [-d DEV] [-g GID_INDEX] [-p PORT] [options] [SERVER_ADDR]\n"
		     "  --ops=send,send_imm,write,write_imm,read,cas,faa   (default: all)\n"
		     "  --min-size=1 --max-size=8M  --count=128  --seed=S  --depth=16\n"
		     "  --mtu=256|512|1024|2048|4096  --timeout=300  --qp-timeout=14  --retry=7\n"
		     "  --inject-corruption   flip a byte of the first SEND/WRITE source (must fail)\n"
		     "  --until-stopped       repeat the plan until SIGINT/SIGTERM, then end cleanly\n"
		     "The client's options apply to both ends.\n");
	std::exit(2);
}

Options parse(int argc, char **argv)
{
	static const std::vector<option> longopts = conn_longopts(
		{{"ops", required_argument, nullptr, 'o'},
		 {"min-size", required_argument, nullptr, 'm'},
		 {"max-size", required_argument, nullptr, 'M'},
		 {"count", required_argument, nullptr, 'n'},
		 {"seed", required_argument, nullptr, 's'},
		 {"depth", required_argument, nullptr, 'D'},
		 {"mtu", required_argument, nullptr, 'u'},
		 {"inject-corruption", no_argument, nullptr, 'I'},
		 {"until-stopped", no_argument, nullptr, 'U'}});
	Options o;
	int c;
	while ((c = getopt_long(argc, argv, "d:g:p:n:s:h", longopts.data(),
				nullptr)) != -1) {
		std::string a = optarg ? optarg : "";
		switch (c) {
		case 'o': o.ops = parse_ops(a); break;
		case 'm': o.min_size = parse_size(a); break;
		case 'M': o.max_size = parse_size(a); break;
		case 'n': o.count = std::stoull(a); break;
		case 's':
			o.seed = std::stoull(a, nullptr, 0);
			o.seed_set = true;
			break;
		case 'D': o.depth = static_cast<uint32_t>(std::stoul(a)); break;
		case 'u':
			o.mtu = std::stoi(a);
			(void)mtu_from_bytes(o.mtu);
			break;
		case 'I': o.inject = true; break;
		case 'U': o.until_stopped = true; break;
		default:
			if (!parse_conn_option(c, a, o))
				usage();
		}
	}
	if (optind < argc)
		o.server = argv[optind++];
	if (optind < argc)
		usage();
	if (o.min_size < 1 || o.max_size < o.min_size || o.max_size > (1u << 30))
		fail("need 1 <= --min-size <= --max-size <= 1G");
	if (o.depth < 1 || o.depth > 1024 || o.count < 1 || o.timeout < 1)
		fail("need --depth in 1..1024, --count and --timeout >= 1");
	if (o.qp_timeout < 0 || o.qp_timeout > 31 || o.retry < 0 || o.retry > 7)
		fail("need --qp-timeout in 0..31 and --retry in 0..7");
	if (!o.seed_set)
		o.seed = static_cast<uint64_t>(
				 Clock::now().time_since_epoch().count()) &
			 0xffffffff;
	return o;
}

// The server learns the run's parameters from the client.
void adopt_client_params(Options &o, const ConnInfo &ci)
{
	o.seed = ci.seed;
	o.count = ci.param[0];
	o.min_size = ci.param[1];
	o.max_size = ci.param[2];
	o.ops = static_cast<unsigned>(ci.param[3] & 0xffffffff);
	o.depth = static_cast<uint32_t>((ci.param[3] >> 32) & 0x7fffffff);
	o.until_stopped = ci.param[3] >> 63;
}

void print_config(const Options &o, const Endpoint &e)
{
	std::string ops;
	for (int i = 0; i < NUM_OPS; i++)
		if (o.ops & (1u << i))
			ops += std::string(ops.empty() ? "" : ",") + kOpName[i];
	std::printf("mrc_verify: %s on %s gid %d: ops %s, sizes %" PRIu64
		    "..%" PRIu64 ", count %" PRIu64 ", seed %" PRIu64
		    ", depth %u, mtu %d, inline %u, sge %u\n",
		    o.server.empty() ? "server" : "client", o.dev.c_str(), o.gid,
		    ops.c_str(), o.min_size, o.max_size, o.count, o.seed, o.depth,
		    128 << e.pp.mtu, e.cap.max_inline_data, e.cap.max_send_sge);
	std::fflush(stdout);
}

bool run(Options &o, Clock::time_point deadline)
{
	if (o.server.empty()) {
		Tcp tcp = Tcp::listen_accept(o.port, deadline);
		ConnInfo remote = tcp.recv<ConnInfo>(deadline);
		adopt_client_params(o, remote);
		Plan plan = make_plan(o);
		Endpoint e = open_endpoint(o, plan.buf_size);
		tcp.send(local_info(e, o, plan.buf_size));
		connect_qp(e, o, remote);
		print_config(o, e);
		Server s(plan, e, tcp, deadline);
		return s.run();
	}
	Plan plan = make_plan(o);
	Endpoint e = open_endpoint(o, plan.buf_size);
	Tcp tcp = Tcp::connect(o.server, o.port, deadline);
	tcp.send(local_info(e, o, plan.buf_size));
	ConnInfo remote = tcp.recv<ConnInfo>(deadline);
	connect_qp(e, o, remote);
	print_config(o, e);
	Client c(o, plan, e, tcp, remote, deadline);
	return c.run();
}

} // namespace

int main(int argc, char **argv)
{
	Options o;
	try {
		o = parse(argc, argv);
	} catch (const std::exception &ex) {
		std::fprintf(stderr, "mrc_verify: %s\n", ex.what());
		return 2;
	}
	if (o.until_stopped) {
		struct sigaction sa {};
		sa.sa_handler = on_stop_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, nullptr);
		sigaction(SIGTERM, &sa, nullptr);
	}
	auto start = Clock::now();
	// The watchdog only fires if a verb blocks past the deadline that
	// every wait of the program honours.
	Watchdog wd(o.timeout + 10, report_timeout);
	bool ok = false;
	try {
		ok = run(o, start + std::chrono::seconds(o.timeout));
	} catch (const std::exception &ex) {
		std::printf("mrc_verify: error: %s\n", ex.what());
	}
	// --until-stopped ends after any batch: every message it started
	// must have checked out, but their number is the signal's choice.
	bool all_done = o.until_stopped ? g_stats.messages > 0 :
					  g_stats.messages == o.count;
	ok = ok && all_done && g_stats.corrupted == 0 && g_stats.failed == 0;
	if (!all_done && g_stats.corrupted == 0 && g_stats.failed == 0 && !ok)
		std::printf("mrc_verify: only %" PRIu64 " of %" PRIu64
			    " messages completed\n",
			    g_stats.messages.load(), o.count);
	auto secs = std::chrono::duration<double>(Clock::now() - start).count();
	std::printf("mrc_verify: %s in %.1f s\n", ok ? "PASS" : "FAIL", secs);
	print_summary();
	return ok ? 0 : 1;
}
