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
//    completes with IBV_WC_RETRY_EXC_ERR.
#include "verbs_common.h"

#include <getopt.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>

using namespace verbs;

namespace {

constexpr size_t kBufSize = 64 * 1024;
constexpr uint16_t kDefaultPort = 18521;

// QP timeout 10 and retry 1: the retry-exceeded case takes about 4 ms.
struct Options : ConnOptions {
	Options() : ConnOptions(kDefaultPort, 10, 1) {}
	int case_timeout = 30;	// per completion wait
};

enum CmdType : uint32_t { NEW = 1, CHECK, KILL, END, QUIT };
struct Cmd {
	uint32_t type;
	uint32_t arg;
	uint64_t value;
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
struct Base {
	Context ctx;
	Pd pd;
	Buffer buf, buf2;
	Mr mr, mr2;
	ibv_gid gid{};
	ibv_mtu mtu = IBV_MTU_1024;
	int rd_atom = 1;
};

Base open_base(const Options &o)
{
	Base b;
	b.ctx = open_device(o.dev);
	auto pa = query_port(b.ctx.get(), 1);
	if (pa.state != IBV_PORT_ACTIVE)
		fail(o.dev + " port 1 is not active");
	b.mtu = pa.active_mtu;
	b.gid = query_gid(b.ctx.get(), 1, o.gid);
	ibv_device_attr da{};
	if (int rc = ibv_query_device(b.ctx.get(), &da))
		fail_errno("ibv_query_device", rc);
	b.rd_atom = std::max(1, std::min({da.max_qp_rd_atom, da.max_qp_init_rd_atom, 16}));
	b.pd.reset(ibv_alloc_pd(b.ctx.get()));
	if (!b.pd)
		fail_errno("ibv_alloc_pd");
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
	s.cq.reset(ibv_create_cq(b.ctx.get(), static_cast<int>(2 * depth), nullptr,
				 s.waiter->channel(), 0));
	if (!s.cq)
		fail_errno("ibv_create_cq");
	s.qp = create_rc_qp(b.pd.get(), s.cq.get(), s.cq.get(), {depth, 1, 0}, nullptr);
	s.psn = static_cast<uint32_t>(Clock::now().time_since_epoch().count()) & 0xffffff;
	return s;
}

ConnInfo info_of(const Base &b, const Session &s)
{
	ConnInfo ci{};
	ci.qpn = s.qp->qp_num;
	ci.psn = s.psn;
	std::memcpy(ci.gid, b.gid.raw, 16);
	ci.addr = reinterpret_cast<uintptr_t>(b.buf.get());
	ci.len = kBufSize;
	ci.rkey = b.mr->rkey;
	ci.addr2 = reinterpret_cast<uintptr_t>(b.buf2.get());
	ci.len2 = kBufSize;
	ci.rkey2 = b.mr2->rkey;
	ci.param[0] = static_cast<uint64_t>(b.mtu);
	ci.param[1] = static_cast<uint64_t>(b.rd_atom);
	return ci;
}

void connect_session(Base &b, Session &s, const Options &o, uint8_t timeout, uint8_t retry)
{
	PathParams pp;
	pp.gid_index = o.gid;
	pp.mtu = std::min(b.mtu, static_cast<ibv_mtu>(s.remote.param[0]));
	pp.max_rd_atomic = pp.max_dest_rd_atomic =
		static_cast<uint8_t>(std::min<uint64_t>(b.rd_atom, s.remote.param[1]));
	pp.timeout = timeout;
	pp.retry = retry;
	qp_to_init(s.qp.get(), 1, kAllAccess);
	qp_to_rtr(s.qp.get(), pp, s.remote);
	qp_to_rts(s.qp.get(), pp, s.psn);
}

// ----------------------------------------------------------------------
// Server.

int serve(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o);
	Tcp tcp = Tcp::listen_accept(o.port, deadline);
	std::optional<Session> s;
	int sessions = 0, errors = 0;
	for (;;) {
		Cmd c = tcp.recv<Cmd>(deadline);
		Cmd reply{c.type, 0, 0};
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
			sessions++;
			break;
		}
		case CHECK:
			reply.value = changed(b.buf.get(), kBufSize) + changed(b.buf2.get(), kBufSize);
			break;
		case KILL:
			if (s)
				s->qp.reset();
			break;
		case END:
			s.reset();
			break;
		case QUIT:
			tcp.send(reply);
			std::printf("# mrc_negative: server: %d sessions, %d errors\n", sessions, errors);
			return errors ? 1 : 0;
		default:
			errors++;
			fail("protocol: unknown command " + std::to_string(c.type));
		}
		tcp.send(reply);
	}
}

// ----------------------------------------------------------------------
// Client.

class Client {
public:
	Client(const Options &o, Base &b, Tcp &tcp, Clock::time_point deadline)
		: o_(o), b_(b), tcp_(tcp), deadline_(deadline)
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
		destroy_with_outstanding();
		retry_exceeded();
		command(QUIT);
		std::printf("1..%d\n# mrc_negative: %d passed, %d failed\n", n_, n_ - failed_, failed_);
		return failed_ ? 1 : 0;
	}

private:
	void tap(bool ok, const std::string &what)
	{
		n_++;
		failed_ += !ok;
		std::printf("%s %d - %s\n", ok ? "ok" : "not ok", n_, what.c_str());
		std::fflush(stdout);
	}

	void diag(const std::string &what)
	{
		std::printf("# %s\n", what.c_str());
		std::fflush(stdout);
	}

	uint64_t command(CmdType t)
	{
		tcp_.send(Cmd{t, 0, 0});
		Cmd r = tcp_.recv<Cmd>(deadline_);
		if (r.type != t)
			fail("protocol: reply to command " + std::to_string(t));
		return r.value;
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
		Cmd r = tcp_.recv<Cmd>(deadline_);	// the server's QP is in RTS
		if (r.type != NEW)
			fail("protocol: reply to NEW");
		return s;
	}

	void post(Session &s, ibv_wr_opcode op, uint64_t laddr, uint32_t len, uint32_t lkey,
		  uint64_t raddr, uint32_t rkey, uint64_t id)
	{
		if (int rc = try_post(s, op, laddr, len, lkey, raddr, rkey, id))
			fail_errno("ibv_post_send", rc);
	}

	int try_post(Session &s, ibv_wr_opcode op, uint64_t laddr, uint32_t len, uint32_t lkey,
		     uint64_t raddr, uint32_t rkey, uint64_t id)
	{
		ibv_sge sge{laddr, len, lkey};
		ibv_send_wr wr{}, *bad = nullptr;
		wr.wr_id = id;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = op;
		wr.send_flags = IBV_SEND_SIGNALED;
		if (op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
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

	uint64_t laddr(size_t off = 0) { return reinterpret_cast<uintptr_t>(b_.buf.get()) + off; }

	// The next completion, or nullopt at the case deadline.
	std::optional<ibv_wc> next_wc(Session &s, int seconds = -1)
	{
		ibv_wc wc{};
		auto until = Clock::now() + std::chrono::seconds(seconds < 0 ? o_.case_timeout : seconds);
		int n = s.waiter->poll(s.cq.get(), &wc, 1, std::min(until, deadline_));
		if (n <= 0)
			return std::nullopt;
		return wc;
	}

	static std::string status_name(ibv_wc_status st) { return ibv_wc_status_str(st); }

	// One TAP line: the next completion has status want.
	bool expect_wc(Session &s, ibv_wc_status want, const std::string &what, int seconds = -1)
	{
		auto wc = next_wc(s, seconds);
		std::string got = wc ? status_name(wc->status) : "no completion in time";
		bool ok = wc && wc->status == want;
		tap(ok, what + ": expected " + status_name(want) + ", got " + got);
		return ok;
	}

	void expect_unchanged(const std::string &what)
	{
		uint64_t n = command(CHECK);
		tap(n == 0, what + ": responder's memory unchanged (" + std::to_string(n) +
				    " bytes changed)");
	}

	void expect_qp_error(Session &s, const std::string &what)
	{
		auto st = qp_state(s.qp.get());
		tap(st == IBV_QPS_ERR, what + ": QP state is ERR (state " + std::to_string(st) + ")");
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
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr, bad_key(r.rkey), 1);
		expect_wc(s, IBV_WC_REM_ACCESS_ERR, "RDMA WRITE with a bad rkey");
		expect_unchanged("RDMA WRITE with a bad rkey");
		expect_qp_error(s, "after a remote access error");
		// After the error, both queues only flush.
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr, r.rkey, 2);
		expect_wc(s, IBV_WC_WR_FLUSH_ERR, "valid RDMA WRITE posted on the QP in ERR");
		ibv_sge sge{laddr(4096), 64, b_.mr->lkey};
		ibv_recv_wr rwr{}, *bad = nullptr;
		rwr.wr_id = 3;
		rwr.sg_list = &sge;
		rwr.num_sge = 1;
		if (int rc = ibv_post_recv(s.qp.get(), &rwr, &bad))
			tap(false, "receive posted on the QP in ERR: ibv_post_recv failed: " +
					   std::string(std::strerror(rc)));
		else
			expect_wc(s, IBV_WC_WR_FLUSH_ERR, "receive posted on the QP in ERR", 5);
		expect_unchanged("flushed RDMA WRITE");
		command(END);
	}

	// 64 bytes from 32 before the end of the remote MR: refused whole, a
	// WRITE leaves the target unchanged.
	void out_of_bounds(ibv_wr_opcode op, const std::string &verb)
	{
		Session s = connected();
		const auto &r = s.remote;
		post(s, op, laddr(), 64, b_.mr->lkey, r.addr + r.len - 32, r.rkey, 1);
		expect_wc(s, IBV_WC_REM_ACCESS_ERR, verb + " crossing the end of the remote MR");
		if (op == IBV_WR_RDMA_WRITE)
			expect_unchanged(verb + " out of bounds");
		command(END);
	}

	void out_of_bounds_write() { out_of_bounds(IBV_WR_RDMA_WRITE, "RDMA WRITE"); }
	void out_of_bounds_read() { out_of_bounds(IBV_WR_RDMA_READ, "RDMA READ"); }

	void no_remote_write()
	{
		Session s = connected();
		const auto &r = s.remote;
		// Control: the MR and its rkey are valid for READ.
		std::memset(b_.buf.get(), 0, 64);
		post(s, IBV_WR_RDMA_READ, laddr(), 64, b_.mr->lkey, r.addr2, r.rkey2, 1);
		if (expect_wc(s, IBV_WC_SUCCESS, "RDMA READ from an MR with REMOTE_READ only"))
			tap(changed(b_.buf.get(), 64) == 0, "RDMA READ returned the MR's contents");
		post(s, IBV_WR_RDMA_WRITE, laddr(4096), 64, b_.mr->lkey, r.addr2, r.rkey2, 2);
		expect_wc(s, IBV_WC_REM_ACCESS_ERR, "RDMA WRITE into an MR without REMOTE_WRITE");
		expect_unchanged("RDMA WRITE without REMOTE_WRITE");
		command(END);
	}

	void unaligned_atomic()
	{
		Session s = connected();
		const auto &r = s.remote;
		// Control: the aligned compare-and-swap works (compare 0 fails
		// against the pattern, so memory stays unchanged either way).
		post(s, IBV_WR_ATOMIC_CMP_AND_SWP, laddr(), 8, b_.mr->lkey, r.addr + 64, r.rkey, 1);
		expect_wc(s, IBV_WC_SUCCESS, "atomic compare-and-swap at an 8-byte aligned address");
		// rdma-core's rxe provider (the one mrc is driven by) refuses
		// a misaligned atomic in ibv_post_send (EINVAL) before it
		// reaches the device; that is allowed (an immediate error of
		// the post verb), and then nothing may complete.  If the WR is
		// accepted, the responder must NAK it: Invalid Request.
		int rc = try_post(s, IBV_WR_ATOMIC_FETCH_AND_ADD, laddr(8), 8, b_.mr->lkey,
				  r.addr + 68, r.rkey, 2);
		if (rc) {
			tap(rc == EINVAL, std::string("atomic fetch-and-add at an address not 8-byte "
						      "aligned: refused at post time: ") +
						  std::strerror(rc) + " (expected EINVAL or a "
						  "remote invalid request error completion)");
			auto wc = next_wc(s, 1);
			tap(!wc, "no completion for the refused unaligned atomic" +
					 (wc ? ": got " + status_name(wc->status) : std::string()));
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
			tap(rc != 0, std::string("ibv_post_send on a QP in ") + state +
					     " fails: expected an error, got " +
					     (rc ? std::strerror(rc) : "success"));
			auto wc = next_wc(s, 1);
			tap(!wc, std::string("no completion for the send posted in ") + state +
					 (wc ? std::string(": got ") + status_name(wc->status) : ""));
		}
	}

	void bad_lkey()
	{
		Session s = connected();
		const auto &r = s.remote;
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, bad_key(b_.mr->lkey), r.addr, r.rkey, 1);
		expect_wc(s, IBV_WC_LOC_PROT_ERR, "RDMA WRITE from a local SGE with a bad lkey");
		expect_unchanged("RDMA WRITE with a bad lkey");
		command(END);
	}

	// The peer's QP disappears with our receives posted and sends in
	// flight (long transport timeout); destroying ours must not wait for
	// them.
	void destroy_with_outstanding()
	{
		Session s = connected(18, 7);	// ~1 s timeout, 7 retries
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
			post(s, IBV_WR_RDMA_WRITE, laddr(), 4096, b_.mr->lkey, r.addr, r.rkey, i);
		std::this_thread::sleep_for(std::chrono::milliseconds(200));
		auto t0 = Clock::now();
		int rc = ibv_destroy_qp(s.qp.release());
		double secs = std::chrono::duration<double>(Clock::now() - t0).count();
		char buf[64];
		std::snprintf(buf, sizeof(buf), "%.2f s", secs);
		tap(rc == 0 && secs < 5.0,
		    std::string("ibv_destroy_qp with receives posted and sends in flight to a dead peer: ") +
			    (rc ? std::strerror(rc) : "returned 0") + " in " + buf + " (limit 5 s)");
		rc = ibv_destroy_cq(s.cq.release());
		tap(rc == 0, std::string("ibv_destroy_cq afterwards: ") + (rc ? std::strerror(rc) : "0"));
		command(END);
	}

	void retry_exceeded()
	{
		Session s = connected(static_cast<uint8_t>(o_.qp_timeout), static_cast<uint8_t>(o_.retry));
		const auto &r = s.remote;
		command(KILL);
		auto t0 = Clock::now();
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr, r.rkey, 1);
		// Budget: (retry + 1) timeouts of 4.096 us << qp-timeout,
		// with a generous floor for timer granularity and TCG.
		double budget = (o_.retry + 1) * 4.096e-6 * static_cast<double>(1ull << o_.qp_timeout);
		int limit = static_cast<int>(budget * 4) + 20;
		bool ok = expect_wc(s, IBV_WC_RETRY_EXC_ERR,
				    "RDMA WRITE to a peer that stopped answering (qp-timeout " +
					    std::to_string(o_.qp_timeout) + ", retry " +
					    std::to_string(o_.retry) + ")",
				    limit);
		double secs = std::chrono::duration<double>(Clock::now() - t0).count();
		if (ok)
			diag("retry exceeded after " + std::to_string(secs) + " s (nominal budget " +
			     std::to_string(budget) + " s)");
		post(s, IBV_WR_RDMA_WRITE, laddr(), 64, b_.mr->lkey, r.addr, r.rkey, 2);
		expect_wc(s, IBV_WC_WR_FLUSH_ERR, "RDMA WRITE after retry exceeded");
		command(END);
	}

	const Options &o_;
	Base &b_;
	Tcp &tcp_;
	Clock::time_point deadline_;
	int n_ = 0, failed_ = 0;
};

int run_client(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o);
	fill(b.buf2.get(), kBufSize);
	Tcp tcp = Tcp::connect(o.server, o.port, deadline);
	std::printf("TAP version 13\n# mrc_negative on %s gid %d, server %s\n", o.dev.c_str(), o.gid,
		    o.server.c_str());
	Client c(o, b, tcp, deadline);
	return c.run();
}

[[noreturn]] void usage()
{
	std::fprintf(stderr, "usage: mrc_negative [-d DEV] [-g GID_INDEX] [-p PORT] [--timeout=300]\n"
			     "       [--qp-timeout=10] [--retry=1] [--case-timeout=30] [SERVER_ADDR]\n");
	std::exit(2);
}

Options parse(int argc, char **argv)
{
	static const std::vector<option> longopts =
		conn_longopts({{"case-timeout", required_argument, nullptr, 'c'}});
	Options o;
	int c;
	while ((c = getopt_long(argc, argv, "d:g:p:h", longopts.data(), nullptr)) != -1) {
		std::string a = optarg ? optarg : "";
		switch (c) {
		case 'c': o.case_timeout = std::stoi(a); break;
		default:
			if (!parse_conn_option(c, a, o))
				usage();
		}
	}
	if (optind < argc)
		o.server = argv[optind++];
	if (optind < argc || o.qp_timeout < 1 || o.qp_timeout > 31 || o.retry < 0 || o.retry > 7)
		usage();
	return o;
}

// The watchdog's report: a verb hangs (one of the bugs this program looks for).
void report_hang(int seconds)
{
	std::printf("not ok - mrc_negative: still running after %d s (a verb hangs?)\n", seconds);
	std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
	Options o = parse(argc, argv);
	auto deadline = Clock::now() + std::chrono::seconds(o.timeout);
	Watchdog wd(o.timeout + 10, report_hang);
	try {
		return o.server.empty() ? serve(o, deadline) : run_client(o, deadline);
	} catch (const std::exception &ex) {
		std::printf("not ok - mrc_negative: error: %s\n# mrc_negative: aborted\n", ex.what());
		return 1;
	}
}
