// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_negative: the error semantics of an RC QP, each case on a fresh QP
// pair (most cases leave the QP in the error state).
//
//   server: mrc_negative -d mrc0 -g 1 [-p PORT]
//   client: mrc_negative -d mrc0 -g 1 [-p PORT] [--qp-timeout=10 --retry=1] SERVER_ADDR
//
// The client is the requester and prints one TAP line per check with the
// expected and the actual outcome; the server is the passive responder,
// driven by commands over the TCP side channel: set up a new QP pair,
// check that its buffers are unchanged, destroy its QP (a peer that stops
// answering), tear the pair down.  The client exits non-zero if a check
// failed; its last line is "# mrc_negative: N passed, M failed".
//
// The expected completion statuses follow the InfiniBand Architecture
// Specification (vol. 1, ch. 9 and 10):
//  - an R_Key violation, an access outside the MR or without the MR's
//    remote right is a Remote Access Error: NAK "Remote Access Error",
//    IBV_WC_REM_ACCESS_ERR at the requester (9.7.5.2.x, class C);
//  - an atomic whose virtual address is not 8-byte aligned is an Invalid
//    Request: NAK "Invalid Request", IBV_WC_REM_INV_REQ_ERR (9.4.5: the
//    responder "shall" check natural alignment, misalignment is reported
//    as an invalid request, not as an access violation);
//  - a local protection error (bad L_Key) completes with
//    IBV_WC_LOC_PROT_ERR and no packet is sent;
//  - after an error completion the QP is in the Error state and every
//    outstanding or later work request completes with IBV_WC_WR_FLUSH_ERR
//    (10.3.1, 11.4.1.1);
//  - posting a send WR on a QP in Reset or Init is an immediate error of
//    the post verb (11.4.1.1: the send queue accepts work only from RTS);
//  - a requester that exhausts its retry count on transport timeouts
//    completes with IBV_WC_RETRY_EXC_ERR;
//  - a QP that an error of its own moves to the Error state raises one
//    affiliated asynchronous event (11.6.3.1): the responder that finds
//    an access violation IBV_EVENT_QP_ACCESS_ERR, the requester whose
//    request failed (NAK, retries, local protection) IBV_EVENT_QP_FATAL;
//    a QP the application moves to Error raises none.
#include "cli.h"
#include "side_commands.h"
#include "tap.h"
#include "raw_sq.h"
#include "verbs_common.h"

#include <getopt.h>
#include <sys/mman.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>

using namespace verbs;

namespace {

constexpr size_t kBufSize = 64 * 1024;
// A READ of this size cannot be answered and acknowledged between
// ibv_post_send() and the next verb, even on a fast host.
constexpr size_t kBigSize = 16u << 20;
constexpr uint16_t kDefaultPort = 18521;

// QP timeout 10 and retry 1: the retry-exceeded case takes about 4 ms.
struct Options : ConnOptions {
	Options() : ConnOptions(kDefaultPort, 10, 1) {}
	int case_timeout = 30; // per completion wait
};

// BIG_MR: register a kBigSize buffer (REMOTE_READ), reply its address in
// value and its rkey in arg; DEREG_BIG: time ibv_dereg_mr() of it, reply
// the microseconds in value and the QP's state 5 s later (or once ERR) in
// arg.
// ASYNC: the asynchronous events of the server's QP so far: the first's
// type + 1 in arg (0: none), their number in value.
enum CmdType : uint32_t {
	NEW = 1,
	CHECK,
	KILL,
	END,
	QUIT,
	BIG_MR,
	DEREG_BIG,
	ASYNC
};

uint8_t pattern(size_t i) { return static_cast<uint8_t>(i * 7 + 3); }

void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = pattern(i);
}

size_t changed(const uint8_t *p, size_t n)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += p[i] != pattern(i);
	return bad;
}

// Device, PD and memory, shared by the sessions of one end.  buf has
// every access right; buf2 lacks REMOTE_WRITE (and REMOTE_ATOMIC).
struct Base : PortBase {
	explicit Base(PortBase p) : PortBase(std::move(p)) {}
	Buffer buf, buf2;
	Mr mr, mr2;
	int rd_atom = 1;
};

Base open_base(const Options &o)
{
	Base b(open_port_base(o));
	ibv_device_attr da{};
	if (int rc = ibv_query_device(b.ctx.get(), &da))
		fail_errno("ibv_query_device", rc);
	b.rd_atom = std::max(1, std::min({da.max_qp_rd_atom,
					  da.max_qp_init_rd_atom, 16}));
	b.buf = alloc_buffer(kBufSize);
	b.buf2 = alloc_buffer(kBufSize);
	b.mr = reg_mr(b.pd.get(), b.buf.get(), kBufSize, kAllAccess);
	b.mr2 = reg_mr(b.pd.get(), b.buf2.get(), kBufSize,
		       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	return b;
}

// One QP with its CQ (send and receive share it).
struct Session {
	std::optional<CqWaiter> waiter;
	Cq cq;
	Qp qp;
	uint32_t psn = 0;
	ConnInfo remote{};
};

Session new_session(Base &b, uint32_t depth = 16)
{
	Session s;
	s.waiter.emplace(b.ctx.get());
	s.cq.reset(ibv_create_cq(b.ctx.get(), static_cast<int>(2 * depth),
				 nullptr, s.waiter->channel(), 0));
	if (!s.cq)
		fail_errno("ibv_create_cq");
	s.qp = create_rc_qp(b.pd.get(), s.cq.get(), s.cq.get(), {depth, 1, 0},
			    nullptr);
	s.psn = static_cast<uint32_t>(Clock::now().time_since_epoch().count()) &
		0xffffff;
	return s;
}

ConnInfo info_of(const Base &b, const Session &s)
{
	ConnInfo ci = conn_info(s.qp.get(), s.psn, b.gid, b.buf.get(), kBufSize,
				b.mr->rkey);
	ci.addr2 = reinterpret_cast<uintptr_t>(b.buf2.get());
	ci.len2 = kBufSize;
	ci.rkey2 = b.mr2->rkey;
	ci.param[0] = static_cast<uint64_t>(b.mtu);
	ci.param[1] = static_cast<uint64_t>(b.rd_atom);
	return ci;
}

void connect_session(Base &b, Session &s, const Options &o, uint8_t timeout,
		     uint8_t retry)
{
	PathParams pp;
	pp.gid_index = o.gid;
	pp.mtu = std::min(b.mtu, static_cast<ibv_mtu>(s.remote.param[0]));
	pp.max_rd_atomic = pp.max_dest_rd_atomic = static_cast<uint8_t>(
		std::min<uint64_t>(b.rd_atom, s.remote.param[1]));
	pp.timeout = timeout;
	pp.retry = retry;
	qp_to_init(s.qp.get(), 1, kAllAccess);
	qp_to_rtr(s.qp.get(), pp, s.remote);
	qp_to_rts(s.qp.get(), pp, s.psn);
}

// The next asynchronous event of @ctx within @ms milliseconds, already
// acknowledged (the copy keeps the element pointer to compare with).
std::optional<ibv_async_event> next_async_event(ibv_context *ctx, int ms)
{
	pollfd p{ctx->async_fd, POLLIN, 0};
	if (::poll(&p, 1, ms) <= 0)
		return std::nullopt;
	ibv_async_event ev;
	if (ibv_get_async_event(ctx, &ev))
		return std::nullopt;
	ibv_async_event copy = ev;
	ibv_ack_async_event(&ev);
	return copy;
}

// ----------------------------------------------------------------------
// Server.

int serve(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o);
	Tcp tcp = Tcp::listen_accept(o.port, deadline);
	std::optional<Session> s;
	Buffer big;
	Mr big_mr;
	return serve_commands(tcp, deadline, "mrc_negative", NEW, QUIT, [&](const Cmd &c, Cmd &reply) {
		switch (c.type) {
		case NEW: {
			s.reset();
			fill(b.buf.get(), kBufSize);
			fill(b.buf2.get(), kBufSize);
			s.emplace(new_session(b));
			tcp.send(info_of(b, *s));
			s->remote = tcp.recv<ConnInfo>(deadline);
			// The responder's timeout and retry do not matter.
			connect_session(b, *s, o, 14, 7);
			break;
		}
		case CHECK:
			reply.value = changed(b.buf.get(), kBufSize) +
				      changed(b.buf2.get(), kBufSize);
			break;
		case KILL:
			if (s)
				s->qp.reset();
			break;
		case ASYNC:
			// Raised before the NAK that told the client left.
			while (auto ev = next_async_event(b.ctx.get(), 0)) {
				if (!s || ev->element.qp != s->qp.get())
					continue;
				if (!reply.value++)
					reply.arg = ev->event_type + 1;
			}
			break;
		case END: s.reset(); break;
		case BIG_MR:
			big_mr.reset();
			big = alloc_buffer(kBigSize);
			fill(big.get(), kBigSize);
			big_mr = reg_mr(b.pd.get(), big.get(), kBigSize,
					IBV_ACCESS_LOCAL_WRITE |
						IBV_ACCESS_REMOTE_READ);
			reply.value = reinterpret_cast<uintptr_t>(big.get());
			reply.arg = big_mr->rkey;
			break;
		case DEREG_BIG: {
			auto t0 = Clock::now();
			int rc = ibv_dereg_mr(big_mr.release());
			auto us = std::chrono::duration_cast<std::chrono::microseconds>(
				Clock::now() - t0);
			reply.value = rc ? ~uint64_t{0} :
					   static_cast<uint64_t>(us.count());
			auto until = Clock::now() + std::chrono::seconds(5);
			ibv_qp_state st = s ? qp_state(s->qp.get()) : IBV_QPS_ERR;
			while (s && st != IBV_QPS_ERR && Clock::now() < until) {
				std::this_thread::sleep_for(
					std::chrono::milliseconds(50));
				st = qp_state(s->qp.get());
			}
			reply.arg = st;
			break;
		}
		default: return false;
		}
		return true;
	});
}

// ----------------------------------------------------------------------
// Client.

class Client : TapClientBase<Options, Base> {
public:
	Client(const Options &o, Base &b, Tcp &tcp, Clock::time_point deadline)
		: TapClientBase(o, b, tcp, deadline)
	{
	}

	int run()
	{
		bad_rkey();
		out_of_bounds_write();
		out_of_bounds_read();
		no_remote_write();
		unaligned_atomic();
		post_before_rts();
		bad_lkey();
		user_error_no_event();
		destroy_with_outstanding();
		retry_exceeded();
		wrapping_remote_range(IBV_WR_RDMA_WRITE, "RDMA WRITE");
		wrapping_remote_range(IBV_WR_RDMA_READ, "RDMA READ");
		raw_wqes();
		max_inline();
		sqd();
		dereg_with_read_outstanding();
		dereg_with_writes_queued();
		command(QUIT);
		return tap_.finish();
	}

private:
	void tap(bool ok, const std::string &what) { tap_.check(ok, what); }
	void diag(const std::string &what) { tap_.diag(what); }

	uint64_t command(CmdType t)
	{
		return round_trip(tcp_, Cmd{t, 0, 0}, deadline_).value;
	}

	// A connected pair: the server's fresh QP and ours, both in RTS.
	Session connected(uint8_t timeout = 14, uint8_t retry = 7)
	{
		tcp_.send(Cmd{NEW, 0, 0});
		ConnInfo remote = tcp_.recv<ConnInfo>(deadline_);
		Session s = new_session(b_);
		s.remote = remote;
		tcp_.send(info_of(b_, s));
		connect_session(b_, s, o_, timeout, retry);
		Cmd r = tcp_.recv<Cmd>(deadline_); // the server's QP is in RTS
		if (r.type != NEW)
			fail("protocol: reply to NEW");
		return s;
	}

	void post(Session &s, ibv_wr_opcode op, uint64_t laddr, uint32_t len,
		  uint32_t lkey, uint64_t raddr, uint32_t rkey, uint64_t id)
	{
		if (int rc = try_post(s, op, laddr, len, lkey, raddr, rkey, id))
			fail_errno("ibv_post_send", rc);
	}

	int try_post(Session &s, ibv_wr_opcode op, uint64_t laddr, uint32_t len,
		     uint32_t lkey, uint64_t raddr, uint32_t rkey, uint64_t id)
	{
		ibv_sge sge{laddr, len, lkey};
		ibv_send_wr wr = signaled_wr(id, op, sge), *bad = nullptr;
		if (op == IBV_WR_ATOMIC_CMP_AND_SWP ||
		    op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			wr.wr.atomic.remote_addr = raddr;
			wr.wr.atomic.rkey = rkey;
			wr.wr.atomic.compare_add = 0;
			wr.wr.atomic.swap = 1;
		} else {
			wr.wr.rdma.remote_addr = raddr;
			wr.wr.rdma.rkey = rkey;
		}
		return ibv_post_send(s.qp.get(), &wr, &bad);
	}

	uint64_t laddr(size_t off = 0)
	{
		return reinterpret_cast<uintptr_t>(b_.buf.get()) + off;
	}

	// The next completion, or nullopt at the case deadline.
	std::optional<ibv_wc> next_wc(Session &s, int seconds = -1)
	{
		ibv_wc wc{};
		auto until = Clock::now() +
			     std::chrono::seconds(seconds < 0 ? o_.case_timeout :
								seconds);
		int n = s.waiter->poll(s.cq.get(), &wc, 1,
				       std::min(until, deadline_));
		if (n <= 0)
			return std::nullopt;
		return wc;
	}

	static std::string status_name(ibv_wc_status st)
	{
		return ibv_wc_status_str(st);
	}

	// One TAP line: the next completion has status want.
	bool expect_wc(Session &s, ibv_wc_status want, const std::string &what,
		       int seconds = -1)
	{
		auto wc = next_wc(s, seconds);
		std::string got = wc ? status_name(wc->status) :
				       "no completion in time";
		bool ok = wc && wc->status == want;
		tap(ok,
		    what + ": expected " + status_name(want) + ", got " + got);
		return ok;
	}

	void expect_unchanged(const std::string &what)
	{
		uint64_t n = command(CHECK);
		tap(n == 0, what + ": responder's memory unchanged (" +
				    std::to_string(n) + " bytes changed)");
	}

	// One TAP line: our QP's next asynchronous event is @want (or,
	// with @want nullopt, none comes within a second).
	void expect_async(Session &s, std::optional<ibv_event_type> want,
			  const std::string &what)
	{
		auto ev = next_async_event(b_.ctx.get(), want ? 5000 : 1000);
		std::string got = !ev ? std::string("none") :
					std::string(ibv_event_type_str(
						ev->event_type)) +
						  (ev->element.qp == s.qp.get() ?
							   "" :
							   " of another QP");
		bool ok = want ? ev && ev->event_type == *want &&
					  ev->element.qp == s.qp.get() :
				 !ev;
		tap(ok, what + ": asynchronous event expected " +
				(want ? ibv_event_type_str(*want) : "none") +
				", got " + got);
	}

	// The same for the server's QP, asked over the side channel.
	void expect_peer_async(std::optional<ibv_event_type> want,
			       const std::string &what)
	{
		tcp_.send(Cmd{ASYNC, 0, 0});
		Cmd r = tcp_.recv<Cmd>(deadline_);
		if (r.type != ASYNC)
			fail("protocol: reply to ASYNC");
		std::string got =
			!r.value ?
				std::string("none") :
				std::string(ibv_event_type_str(
					static_cast<ibv_event_type>(r.arg - 1))) +
					(r.value > 1 ?
						 " and " +
							 std::to_string(
								 r.value - 1) +
							 " more" :
						 "");
		bool ok = want ? r.value == 1 && r.arg == *want + 1u :
				 r.value == 0;
		tap(ok, what + ": responder's asynchronous event expected " +
				(want ? ibv_event_type_str(*want) : "none") +
				", got " + got);
	}

	void expect_qp_error(Session &s, const std::string &what)
	{
		auto st = qp_state(s.qp.get());
		tap(st == IBV_QPS_ERR, what + ": QP state is ERR (state " +
					       std::to_string(st) + ")");
	}

	uint32_t bad_key(uint32_t key)
	{
		// Another MR index with the same key byte: no MR of the peer.
		uint32_t k = key ^ 0x00a5a500;
		return k == b_.mr->rkey || k == b_.mr2->rkey ? k ^ 0x00010000 : k;
	}

	void bad_rkey()
	{
		Session s = connected();
		const auto &r = s.remote;
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     bad_key(r.rkey), 1);
		expect_wc(s, IBV_WC_REM_ACCESS_ERR, "RDMA WRITE with a bad rkey");
		expect_unchanged("RDMA WRITE with a bad rkey");
		expect_qp_error(s, "after a remote access error");
		expect_async(s, IBV_EVENT_QP_FATAL, "RDMA WRITE with a bad rkey");
		expect_peer_async(IBV_EVENT_QP_ACCESS_ERR,
				  "RDMA WRITE with a bad rkey");
		// After the error, both queues only flush.
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     r.rkey, 2);
		expect_wc(s, IBV_WC_WR_FLUSH_ERR,
			  "valid RDMA WRITE posted on the QP in ERR");
		ibv_sge sge{laddr(4096), 64, b_.mr->lkey};
		ibv_recv_wr rwr{}, *bad = nullptr;
		rwr.wr_id = 3;
		rwr.sg_list = &sge;
		rwr.num_sge = 1;
		if (int rc = ibv_post_recv(s.qp.get(), &rwr, &bad))
			tap(false,
			    "receive posted on the QP in ERR: ibv_post_recv failed: " +
				    std::string(std::strerror(rc)));
		else
			expect_wc(s, IBV_WC_WR_FLUSH_ERR,
				  "receive posted on the QP in ERR", 5);
		expect_unchanged("flushed RDMA WRITE");
		command(END);
	}

	// 64 bytes from 32 before the end of the remote MR: refused whole, a
	// WRITE leaves the target unchanged.
	void out_of_bounds(ibv_wr_opcode op, const std::string &verb)
	{
		Session s = connected();
		const auto &r = s.remote;
		post(s, op, laddr(), 64, b_.mr->lkey, r.addr + r.len - 32,
		     r.rkey, 1);
		expect_wc(s, IBV_WC_REM_ACCESS_ERR,
			  verb + " crossing the end of the remote MR");
		if (op == IBV_WR_RDMA_WRITE)
			expect_unchanged(verb + " out of bounds");
		command(END);
	}

	void out_of_bounds_write()
	{
		out_of_bounds(IBV_WR_RDMA_WRITE, "RDMA WRITE");
	}
	void out_of_bounds_read()
	{
		out_of_bounds(IBV_WR_RDMA_READ, "RDMA READ");
	}

	void no_remote_write()
	{
		Session s = connected();
		const auto &r = s.remote;
		// Control: the MR and its rkey are valid for READ.
		std::memset(b_.buf.get(), 0, 64);
		post(s, IBV_WR_RDMA_READ, laddr(), 64, b_.mr->lkey, r.addr2,
		     r.rkey2, 1);
		if (expect_wc(s, IBV_WC_SUCCESS,
			      "RDMA READ from an MR with REMOTE_READ only"))
			tap(changed(b_.buf.get(), 64) == 0,
			    "RDMA READ returned the MR's contents");
		post(s, IBV_WR_RDMA_WRITE, laddr(4096), 64, b_.mr->lkey,
		     r.addr2, r.rkey2, 2);
		expect_wc(s, IBV_WC_REM_ACCESS_ERR,
			  "RDMA WRITE into an MR without REMOTE_WRITE");
		expect_unchanged("RDMA WRITE without REMOTE_WRITE");
		command(END);
	}

	void unaligned_atomic()
	{
		Session s = connected();
		const auto &r = s.remote;
		// Control: the aligned compare-and-swap works (compare 0 fails
		// against the pattern, so memory stays unchanged either way).
		post(s, IBV_WR_ATOMIC_CMP_AND_SWP, laddr(), 8, b_.mr->lkey,
		     r.addr + 64, r.rkey, 1);
		expect_wc(s, IBV_WC_SUCCESS,
			  "atomic compare-and-swap at an 8-byte aligned address");
		// rdma-core's rxe provider (the one mrc is driven by) refuses
		// a misaligned atomic in ibv_post_send (EINVAL) before it
		// reaches the device; that is allowed (an immediate error of
		// the post verb), and then nothing may complete.  If the WR is
		// accepted, the responder must NAK it: Invalid Request.
		int rc = try_post(s, IBV_WR_ATOMIC_FETCH_AND_ADD, laddr(8), 8,
				  b_.mr->lkey, r.addr + 68, r.rkey, 2);
		if (rc) {
			tap(rc == EINVAL,
			    std::string("atomic fetch-and-add at an address not 8-byte "
					"aligned: refused at post time: ") +
				    std::strerror(rc) +
				    " (expected EINVAL or a "
				    "remote invalid request error completion)");
			auto wc = next_wc(s, 1);
			tap(!wc,
			    "no completion for the refused unaligned atomic" +
				    (wc ? ": got " + status_name(wc->status) :
					  std::string()));
		} else {
			expect_wc(s, IBV_WC_REM_INV_REQ_ERR,
				  "atomic fetch-and-add at an address not 8-byte aligned "
				  "(IBA: Invalid Request NAK)");
		}
		expect_unchanged("unaligned atomic");
		command(END);
	}

	// Posting fails at once in RESET and INIT, and leaves no completion.
	void post_before_rts()
	{
		for (bool init : {false, true}) {
			Session s = new_session(b_);
			if (init)
				qp_to_init(s.qp.get(), 1, kAllAccess);
			const char *state = init ? "INIT" : "RESET";
			ibv_sge sge{laddr(), 64, b_.mr->lkey};
			ibv_send_wr wr{}, *bad = nullptr;
			wr.wr_id = 1;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			wr.opcode = IBV_WR_SEND;
			wr.send_flags = IBV_SEND_SIGNALED;
			int rc = ibv_post_send(s.qp.get(), &wr, &bad);
			tap(rc != 0,
			    std::string("ibv_post_send on a QP in ") + state +
				    " fails: expected an error, got " +
				    (rc ? std::strerror(rc) : "success"));
			auto wc = next_wc(s, 1);
			tap(!wc,
			    std::string("no completion for the send posted in ") +
				    state +
				    (wc ? std::string(": got ") +
						     status_name(wc->status) :
					  ""));
		}
	}

	void bad_lkey()
	{
		Session s = connected();
		const auto &r = s.remote;
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, bad_key(b_.mr->lkey),
		     r.addr, r.rkey, 1);
		expect_wc(s, IBV_WC_LOC_PROT_ERR,
			  "RDMA WRITE from a local SGE with a bad lkey");
		expect_unchanged("RDMA WRITE with a bad lkey");
		expect_async(s, IBV_EVENT_QP_FATAL, "RDMA WRITE with a bad lkey");
		expect_peer_async(std::nullopt, "RDMA WRITE with a bad lkey");
		command(END);
	}

	// Moved to ERR by the application: flushes, no event.
	void user_error_no_event()
	{
		Session s = connected();
		const auto &r = s.remote;
		ibv_qp_attr a{};
		a.qp_state = IBV_QPS_ERR;
		if (int rc = ibv_modify_qp(s.qp.get(), &a, IBV_QP_STATE))
			fail_errno("ibv_modify_qp ERR", rc);
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     r.rkey, 1);
		expect_wc(s, IBV_WC_WR_FLUSH_ERR,
			  "RDMA WRITE on a QP the application moved to ERR");
		expect_async(s, std::nullopt, "QP the application moved to ERR");
		command(END);
	}

	// The peer's QP disappears with our receives posted and sends in
	// flight (long transport timeout); destroying ours must not wait for
	// them.
	void destroy_with_outstanding()
	{
		Session s = connected(18, 7); // ~1 s timeout, 7 retries
		const auto &r = s.remote;
		command(KILL);
		for (uint64_t i = 0; i < 4; i++) {
			ibv_sge sge{laddr(8192 + i * 1024), 1024, b_.mr->lkey};
			ibv_recv_wr rwr{}, *bad = nullptr;
			rwr.wr_id = 100 + i;
			rwr.sg_list = &sge;
			rwr.num_sge = 1;
			if (int rc = ibv_post_recv(s.qp.get(), &rwr, &bad))
				fail_errno("ibv_post_recv", rc);
		}
		for (uint64_t i = 0; i < 8; i++)
			post(s, IBV_WR_RDMA_WRITE, laddr(), 4096, b_.mr->lkey,
			     r.addr, r.rkey, i);
		std::this_thread::sleep_for(std::chrono::milliseconds(200));
		auto t0 = Clock::now();
		int rc = ibv_destroy_qp(s.qp.release());
		double secs =
			std::chrono::duration<double>(Clock::now() - t0).count();
		char buf[64];
		std::snprintf(buf, sizeof(buf), "%.2f s", secs);
		tap(rc == 0 && secs < 5.0,
		    std::string(
			    "ibv_destroy_qp with receives posted and sends in flight to a dead peer: ") +
			    (rc ? std::strerror(rc) : "returned 0") + " in " +
			    buf + " (limit 5 s)");
		rc = ibv_destroy_cq(s.cq.release());
		tap(rc == 0, std::string("ibv_destroy_cq afterwards: ") +
				     (rc ? std::strerror(rc) : "0"));
		command(END);
	}

	void retry_exceeded()
	{
		Session s = connected(static_cast<uint8_t>(o_.qp_timeout),
				      static_cast<uint8_t>(o_.retry));
		const auto &r = s.remote;
		command(KILL);
		auto t0 = Clock::now();
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     r.rkey, 1);
		// Budget: (retry + 1) timeouts of 4.096 us << qp-timeout,
		// with a generous floor for timer granularity and TCG.
		double budget = (o_.retry + 1) * 4.096e-6 *
				static_cast<double>(1ull << o_.qp_timeout);
		int limit = static_cast<int>(budget * 4) + 20;
		bool ok = expect_wc(s, IBV_WC_RETRY_EXC_ERR,
				    "RDMA WRITE to a peer that stopped answering (qp-timeout " +
					    std::to_string(o_.qp_timeout) +
					    ", retry " +
					    std::to_string(o_.retry) + ")",
				    limit);
		double secs =
			std::chrono::duration<double>(Clock::now() - t0).count();
		if (ok)
			diag("retry exceeded after " + std::to_string(secs) +
			     " s (nominal budget " + std::to_string(budget) +
			     " s)");
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     r.rkey, 2);
		expect_wc(s, IBV_WC_WR_FLUSH_ERR,
			  "RDMA WRITE after retry exceeded");
		expect_async(s, IBV_EVENT_QP_FATAL, "retry exceeded");
		command(END);
	}

	// A remote range that wraps past 2^64 lies in no MR; the rxe provider
	// passes it on.  It must complete at once (no retries of a packet the
	// wire cannot carry, no kernel warning) with the status an IB
	// responder's bounds check gives: Remote Access Error.
	void wrapping_remote_range(ibv_wr_opcode op, const std::string &verb)
	{
		Session s = connected();
		const auto &r = s.remote;
		auto t0 = Clock::now();
		post(s, op, laddr(), 64, b_.mr->lkey, ~uint64_t{0} - 31, r.rkey,
		     1);
		bool ok = expect_wc(s, IBV_WC_REM_ACCESS_ERR,
				    verb + " whose remote range wraps past 2^64",
				    5);
		double secs =
			std::chrono::duration<double>(Clock::now() - t0).count();
		if (ok)
			tap(secs < 2.0,
			    verb + " with a wrapping range fails at once (" +
				    std::to_string(secs) + " s, limit 2 s)");
		expect_qp_error(s, verb + " with a wrapping range");
		expect_unchanged(verb + " with a wrapping range");
		command(END);
	}

	// A WQE written into the mapped send ring behind the provider's back
	// (what a hostile process can do), then a valid one that rings the
	// doorbell: the first completes with want, the second is flushed.
	template <typename Fill>
	void raw_case(const std::string &what, ibv_wc_status want, Fill fill_wqe)
	{
		Session s = connected();
		const auto &r = s.remote;
		// What the control WRITE writes is what the server holds there.
		fill(b_.buf.get(), 64);
		// A valid WR first, to find the ring by its wr_id.
		uint64_t marker = 0x6d72635f72617700ull ^
				  static_cast<uint64_t>(
					  Clock::now().time_since_epoch().count());
		post(s, IBV_WR_RDMA_WRITE, laddr(), 8, b_.mr->lkey, r.addr,
		     r.rkey, marker);
		if (!expect_wc(s, IBV_WC_SUCCESS, what + ": control WRITE")) {
			command(END);
			return;
		}
		auto sq = RawSq::find(marker);
		if (!sq) {
			tap(false,
			    what + ": the send ring is found in the process's mappings");
			command(END);
			return;
		}
		rxe_send_wqe *w = sq->next();
		w->wr.wr_id = 1;
		w->wr.send_flags = IBV_SEND_SIGNALED;
		fill_wqe(*w, *sq, r);
		sq->publish();
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     r.rkey, 2);
		auto t0 = Clock::now();
		auto wc = next_wc(s, 5);
		double secs =
			std::chrono::duration<double>(Clock::now() - t0).count();
		std::string got = wc ? status_name(wc->status) :
				       "no completion in 5 s";
		tap(wc && wc->wr_id == 1 && wc->status == want,
		    what + " (raw WQE): expected " + status_name(want) +
			    " at once, got " + got + " after " +
			    std::to_string(secs) + " s");
		expect_wc(s, IBV_WC_WR_FLUSH_ERR, what + ": the WR after it", 5);
		expect_qp_error(s, what);
		expect_unchanged(what);
		command(END);
	}

	void raw_wqes()
	{
		raw_case(
			"atomic fetch-and-add at an address not 8-byte aligned",
			IBV_WC_REM_INV_REQ_ERR,
			[this](rxe_send_wqe &w, RawSq &, const ConnInfo &r) {
				w.wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
				w.wr.wr.atomic.remote_addr = r.addr + 68;
				w.wr.wr.atomic.rkey = r.rkey;
				w.wr.wr.atomic.compare_add = 1;
				w.dma.num_sge = 1;
				RawSq::sges(w)[0] = {laddr(16), 8, b_.mr->lkey};
			});
		// Aligned, so the wire carries it; the word ends at 2^64, in no
		// MR of the peer.
		raw_case(
			"compare-and-swap on the last aligned word below 2^64",
			IBV_WC_REM_ACCESS_ERR,
			[this](rxe_send_wqe &w, RawSq &, const ConnInfo &r) {
				w.wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
				w.wr.wr.atomic.remote_addr = ~uint64_t{0} - 7;
				w.wr.wr.atomic.rkey = r.rkey;
				w.dma.num_sge = 1;
				RawSq::sges(w)[0] = {laddr(16), 8, b_.mr->lkey};
			});
		raw_case("inline WRITE one byte longer than the slot's max_inline_data",
			 IBV_WC_LOC_LEN_ERR,
			 [](rxe_send_wqe &w, RawSq &sq, const ConnInfo &r) {
				 w.wr.opcode = IBV_WR_RDMA_WRITE;
				 w.wr.send_flags |= IBV_SEND_INLINE;
				 w.wr.wr.rdma.remote_addr = r.addr;
				 w.wr.wr.rdma.rkey = r.rkey;
				 w.dma.length = sq.slot_room() + 1;
			 });
		raw_case("inline RDMA READ", IBV_WC_LOC_QP_OP_ERR,
			 [](rxe_send_wqe &w, RawSq &, const ConnInfo &r) {
				 w.wr.opcode = IBV_WR_RDMA_READ;
				 w.wr.send_flags |= IBV_SEND_INLINE;
				 w.wr.wr.rdma.remote_addr = r.addr;
				 w.wr.wr.rdma.rkey = r.rkey;
				 w.dma.length = 8;
			 });
		raw_case("an opcode RC QPs do not have (LOCAL_INV)",
			 IBV_WC_LOC_QP_OP_ERR,
			 [](rxe_send_wqe &w, RawSq &, const ConnInfo &) {
				 w.wr.opcode = IBV_WR_LOCAL_INV;
			 });
		raw_case("more SGEs than the slot holds", IBV_WC_LOC_LEN_ERR,
			 [](rxe_send_wqe &w, RawSq &sq, const ConnInfo &r) {
				 w.wr.opcode = IBV_WR_RDMA_WRITE;
				 w.wr.wr.rdma.remote_addr = r.addr;
				 w.wr.wr.rdma.rkey = r.rkey;
				 w.dma.num_sge = sq.slot_room() / sizeof(rxe_sge) +
						 1;
			 });
		raw_case("SGE lengths beyond the largest message (2^31)", IBV_WC_LOC_LEN_ERR, [this](rxe_send_wqe &w, RawSq &, const ConnInfo &r) {
			w.wr.opcode = IBV_WR_RDMA_WRITE;
			w.wr.wr.rdma.remote_addr = r.addr;
			w.wr.wr.rdma.rkey = r.rkey;
			w.dma.num_sge = 2;
			RawSq::sges(w)[0] = {laddr(), 0x80000000u, b_.mr->lkey};
			RawSq::sges(w)[1] = {laddr(), 0x80000000u, b_.mr->lkey};
		});
	}

	// max_inline_data is what a send slot holds: create and query report
	// the same value, a chain of inline WRITEs of that size arrives intact
	// (each WQE stays in its slot), and one byte more is refused.
	void max_inline()
	{
		tcp_.send(Cmd{NEW, 0, 0});
		ConnInfo remote = tcp_.recv<ConnInfo>(deadline_);
		Session s;
		s.waiter.emplace(b_.ctx.get());
		s.cq.reset(ibv_create_cq(b_.ctx.get(), 32, nullptr,
					 s.waiter->channel(), 0));
		if (!s.cq)
			fail_errno("ibv_create_cq");
		ibv_qp_cap got{};
		s.qp = create_rc_qp(b_.pd.get(), s.cq.get(), s.cq.get(),
				    {16, 1, 0}, &got);
		s.psn = 1;
		s.remote = remote;
		tcp_.send(info_of(b_, s));
		connect_session(b_, s, o_, 14, 7);
		if (tcp_.recv<Cmd>(deadline_).type != NEW)
			fail("protocol: reply to NEW");
		const auto &r = s.remote;

		ibv_qp_attr a{};
		ibv_qp_init_attr ia{};
		if (int rc = ibv_query_qp(s.qp.get(), &a, IBV_QP_CAP, &ia))
			fail_errno("ibv_query_qp", rc);
		uint32_t inl = a.cap.max_inline_data;
		tap(inl == got.max_inline_data && inl > 0,
		    "max_inline_data: ibv_query_qp says " +
			    std::to_string(inl) + ", ibv_create_qp said " +
			    std::to_string(got.max_inline_data));
		// Four inline WRITEs in one post, each writing the bytes the
		// server's buffer already holds there: any spill of one WQE into
		// the next slot changes what lands.
		uint32_t len = std::min<uint32_t>(inl, 1024);
		std::vector<std::vector<uint8_t>> data(4);
		std::vector<ibv_sge> sge(4);
		std::vector<ibv_send_wr> wr(4);
		for (size_t k = 0; k < 4; k++) {
			size_t off = 1024 * (k + 1);
			data[k].resize(len);
			for (size_t i = 0; i < len; i++)
				data[k][i] = pattern(off + i);
			sge[k] = {reinterpret_cast<uintptr_t>(data[k].data()),
				  len, 0};
			wr[k] = {};
			wr[k].wr_id = 10 + k;
			wr[k].sg_list = &sge[k];
			wr[k].num_sge = 1;
			wr[k].opcode = IBV_WR_RDMA_WRITE;
			wr[k].send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
			wr[k].wr.rdma.remote_addr = r.addr + off;
			wr[k].wr.rdma.rkey = r.rkey;
			wr[k].next = k + 1 < 4 ? &wr[k + 1] : nullptr;
		}
		ibv_send_wr *bad = nullptr;
		int rc = ibv_post_send(s.qp.get(), wr.data(), &bad);
		tap(rc == 0,
		    "four inline WRITEs of max_inline_data bytes posted: " +
			    std::string(rc ? std::strerror(std::abs(rc)) : "0"));
		if (auto sq = RawSq::find(13))
			tap(inl <= sq->slot_room(),
			    "max_inline_data " + std::to_string(inl) +
				    " fits the " +
				    std::to_string(sq->slot_room()) +
				    " bytes a send slot has after "
				    "the WQE header");
		else
			tap(false,
			    "max_inline_data: the send ring is found in the process's mappings");
		if (rc == 0) {
			bool all = true;
			for (int k = 0; k < 4; k++) {
				auto wc = next_wc(s, 10);
				all = all && wc && wc->status == IBV_WC_SUCCESS;
			}
			tap(all,
			    "four inline WRITEs of max_inline_data bytes complete");
			expect_unchanged(
				"inline WRITEs of max_inline_data bytes land intact");
		}
		// One byte more: refused by the post, or failed by the kernel.
		std::vector<uint8_t> more(inl + 1, 0);
		ibv_sge sg1{reinterpret_cast<uintptr_t>(more.data()), inl + 1, 0};
		ibv_send_wr w1{};
		w1.wr_id = 20;
		w1.sg_list = &sg1;
		w1.num_sge = 1;
		w1.opcode = IBV_WR_RDMA_WRITE;
		w1.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
		w1.wr.rdma.remote_addr = r.addr;
		w1.wr.rdma.rkey = r.rkey;
		rc = ibv_post_send(s.qp.get(), &w1, &bad);
		if (rc) {
			tap(true,
			    "inline WRITE of max_inline_data + 1 bytes refused at post time");
		} else {
			auto wc = next_wc(s, 5);
			tap(wc && wc->status == IBV_WC_LOC_LEN_ERR,
			    "inline WRITE of max_inline_data + 1 bytes: expected refusal or " +
				    status_name(IBV_WC_LOC_LEN_ERR) + ", got " +
				    (wc ? status_name(wc->status) :
					  std::string("no completion")));
		}
		expect_unchanged("inline WRITE one byte too long");
		command(END);
	}

	int modify_state(Session &s, ibv_qp_state st)
	{
		ibv_qp_attr a{};
		a.qp_state = st;
		return ibv_modify_qp(s.qp.get(), &a, IBV_QP_STATE);
	}

	// SQD: work posted while drained is accepted and sent after SQD->RTS;
	// the address vector cannot change under the connection (SQD->SQD
	// with IBV_QP_AV is refused with EINVAL).
	void sqd()
	{
		Session s = connected();
		const auto &r = s.remote;
		int rc = modify_state(s, IBV_QPS_SQD);
		tap(rc == 0,
		    "RTS -> SQD: " + std::string(rc ? std::strerror(rc) : "0"));
		if (rc) {
			command(END);
			return;
		}
		// Our pattern bytes 0..63 onto the server's: the same values.
		fill(b_.buf.get(), 64);
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     r.rkey, 1);
		auto wc = next_wc(s, 1);
		tap(!wc, "a WRITE posted in SQD is not sent while in SQD" +
				 (wc ? ": got " + status_name(wc->status) :
				       std::string()));

		ibv_qp_attr a{};
		a.qp_state = IBV_QPS_SQD;
		a.ah_attr.is_global = 1;
		std::memcpy(a.ah_attr.grh.dgid.raw, r.gid, 16);
		a.ah_attr.grh.sgid_index = static_cast<uint8_t>(o_.gid);
		a.ah_attr.grh.hop_limit = 64;
		a.ah_attr.port_num = 1;
		rc = ibv_modify_qp(s.qp.get(), &a, IBV_QP_STATE | IBV_QP_AV);
		tap(rc == EINVAL,
		    "SQD -> SQD with IBV_QP_AV: expected EINVAL, got " +
			    std::string(rc ? std::strerror(rc) : "success"));

		rc = modify_state(s, IBV_QPS_RTS);
		tap(rc == 0,
		    "SQD -> RTS: " + std::string(rc ? std::strerror(rc) : "0"));
		expect_wc(s, IBV_WC_SUCCESS,
			  "the WRITE posted in SQD, after SQD -> RTS", 10);
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr,
		     r.rkey, 2);
		expect_wc(s, IBV_WC_SUCCESS, "a WRITE posted after SQD -> RTS",
			  10);
		expect_unchanged("WRITEs around SQD");
		command(END);
	}

	// The responder deregisters the MR of a READ whose response the
	// requester no longer acknowledges (our QP goes to ERR right after
	// posting it): ibv_dereg_mr() must not wait for the peer's retry
	// budget, and the responder's QP ends (it cannot resend the data).
	void dereg_with_read_outstanding()
	{
		Session s = connected();
		tcp_.send(Cmd{BIG_MR, 0, 0});
		Cmd big = tcp_.recv<Cmd>(deadline_);
		if (big.type != BIG_MR)
			fail("protocol: reply to BIG_MR");
		Buffer local = alloc_buffer(kBigSize);
		Mr lmr = reg_mr(b_.pd.get(), local.get(), kBigSize,
				IBV_ACCESS_LOCAL_WRITE);
		post(s, IBV_WR_RDMA_READ,
		     reinterpret_cast<uintptr_t>(local.get()),
		     static_cast<uint32_t>(kBigSize), lmr->lkey, big.value,
		     big.arg, 1);
		int rc = modify_state(s, IBV_QPS_ERR);
		if (rc)
			fail_errno("ibv_modify_qp to ERR", rc);
		expect_wc(s, IBV_WC_WR_FLUSH_ERR,
			  "READ of 16 MiB, requester moved to ERR", 10);
		tcp_.send(Cmd{DEREG_BIG, 0, 0});
		Cmd d = tcp_.recv<Cmd>(deadline_);
		if (d.type != DEREG_BIG)
			fail("protocol: reply to DEREG_BIG");
		double secs = static_cast<double>(d.value) / 1e6;
		tap(d.value != ~uint64_t{0} && secs < 2.0,
		    "responder's ibv_dereg_mr with a READ response unacknowledged: " +
			    (d.value == ~uint64_t{0} ?
				     std::string("failed") :
				     std::to_string(secs) + " s") +
			    " (limit 2 s)");
		tap(d.arg == IBV_QPS_ERR,
		    "the responder's QP ends in ERR after the dereg (state " +
			    std::to_string(d.arg) + ")");
		command(END);
	}

	// The requester deregisters the local MR of WRITEs it just posted and
	// unmaps the memory: payloads of 256 bytes and more leave as
	// references to the MR's pages (net.c), so packets still queued in
	// the stack hold those pages while the process has given them back.
	// Every WRITE must complete, successfully (sent before the dereg) or
	// with an error (a packet built after it finds no MR), nothing may
	// hang, and on the sanitizer kernel (test_62 is in its lane) KASAN
	// catches a page freed under a queued skb.  A new connection then
	// works.
	void dereg_with_writes_queued()
	{
		constexpr size_t kLen = 1u << 20, kEach = 64 * 1024;
		constexpr int kWrites = static_cast<int>(kLen / kEach);
		Session s = connected(18, 7);
		const auto &r = s.remote;
		void *p = mmap(nullptr, kLen, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			fail_errno("mmap");
		auto *mem = static_cast<uint8_t *>(p);
		fill(mem, kLen);
		ibv_mr *mr = ibv_reg_mr(b_.pd.get(), mem, kLen,
					IBV_ACCESS_LOCAL_WRITE);
		if (!mr)
			fail_errno("ibv_reg_mr");
		for (int i = 0; i < kWrites; i++)
			post(s, IBV_WR_RDMA_WRITE,
			     reinterpret_cast<uintptr_t>(mem) + i * kEach,
			     static_cast<uint32_t>(kEach), mr->lkey, r.addr,
			     r.rkey, static_cast<uint64_t>(i));
		int rc = ibv_dereg_mr(mr);
		tap(rc == 0, std::string("ibv_dereg_mr of the local MR of ") +
				     std::to_string(kWrites) +
				     " WRITEs of 64 KiB just posted: " +
				     (rc ? std::strerror(rc) : "0"));
		tap(munmap(p, kLen) == 0, "its memory unmapped");
		int ok = 0, err = 0, other = 0;
		for (int i = 0; i < kWrites; i++) {
			auto wc = next_wc(s);
			if (!wc)
				break;
			if (wc->status == IBV_WC_SUCCESS)
				ok++;
			else if (wc->status == IBV_WC_LOC_PROT_ERR ||
				 wc->status == IBV_WC_WR_FLUSH_ERR)
				err++;
			else
				other++;
		}
		tap(ok + err == kWrites && !other,
		    "every WRITE completed: " + std::to_string(ok) +
			    " successful, " + std::to_string(err) +
			    " local protection / flush errors, " +
			    std::to_string(other) + " other, " +
			    std::to_string(kWrites - ok - err - other) +
			    " missing");
		command(END);
		Session t = connected();
		post(t, IBV_WR_RDMA_WRITE, laddr(), 4096, b_.mr->lkey,
		     t.remote.addr, t.remote.rkey, 1);
		expect_wc(t, IBV_WC_SUCCESS,
			  "a WRITE on a new connection afterwards");
		command(END);
	}

	Tap tap_{"mrc_negative"};
};

int run_client(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o);
	fill(b.buf2.get(), kBufSize);
	return run_tap_client<Client>("mrc_negative", o, b, deadline);
}

[[noreturn]] void usage()
{
	refuse_usage("mrc_negative", nullptr,
		     "usage: mrc_negative [-d DEV] [-g GID_INDEX] [-p PORT] [--timeout=300]\n"
		     "       [--qp-timeout=10] [--retry=1] [--case-timeout=30] [SERVER_ADDR]\n");
}

Options parse(int argc, char **argv)
{
	Options o;
	auto take = [&](int c, const std::string &a) {
		if (c != 'c')
			return false;
		o.case_timeout = std::stoi(a);
		return true;
	};
	parse_conn_args(argc, argv,
			{{"case-timeout", required_argument, nullptr, 'c'}}, o,
			take, usage);
	if (o.qp_timeout < 1 || o.qp_timeout > 31 || o.retry < 0 || o.retry > 7)
		usage();
	return o;
}

} // namespace

int main(int argc, char **argv)
{
	return tap_main("mrc_negative", parse(argc, argv), serve, run_client);
}
