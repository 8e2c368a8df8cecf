// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_qp_compat: RC QP behaviours that real verbs programs rely on, as the
// kernel's soft-RoCE (rdma_rxe) has them (tools/testing/verbs/rxe-check.sh
// runs this program on rxe too):
//  - queues of depth 0: a QP with max_recv_wr 0 (a pure sender) or
//    max_send_wr 0 (a pure responder), and max_*_sge 0, is created (qperf's
//    bandwidth client and server make them); posting to the empty-by-design
//    queue fails at once with ENOMEM, the provider's full-queue error (the
//    send queue in RTS: before, the doorbell's EINVAL comes first); the
//    sender's WRITEs and SENDs reach a responder without send queue, which
//    also answers READs; a SEND to a QP without receive queue is NAKed RNR
//    (IBV_WC_RNR_RETRY_EXC_ERR at a requester with rnr_retry 1) and leaves
//    that QP in RTS;
//  - ibv_destroy_qp completes nothing: after destroying a QP with receives
//    posted and WRITEs outstanding, the CQ holds no completion of it, while
//    another QP on the same CQ keeps the completions it already had and
//    goes on working;
//  - ibv_modify_qp to ERR still flushes every outstanding work request
//    (IBV_WC_WR_FLUSH_ERR), receives and sends; receives posted in ERR
//    complete as flushed after ERR -> ERR without the CQ being armed.
//
//   server: mrc_qp_compat -d mrc0 -g 1 [-p PORT]
//   client: mrc_qp_compat -d mrc0 -g 1 [-p PORT] [--case=NAME]... SERVER_ADDR
//
// --case runs only the named cases (zero-create, zero-transfer, rnr,
// destroy, err; default all).
// The client prints one TAP line per check and, last,
// "# mrc_qp_compat: N passed, M failed"; the server is driven over the TCP
// side channel and ends with "# mrc_qp_compat: server: N sessions, M errors".
#include "side_commands.h"
#include "tap.h"
#include "verbs_common.h"

#include <getopt.h>

#include <algorithm>
#include <map>
#include <optional>

using namespace verbs;

namespace {

constexpr size_t kBufSize = 1 << 20;
constexpr uint32_t kChunk = 4096;
constexpr size_t kRecvOff = 256 * 1024; // server: where receives land
constexpr size_t kReadOff = 512 * 1024; // server: what READs fetch
constexpr uint16_t kDefaultPort = 18531;

// The cases, by the names --case takes.
constexpr const char *kCases[] = {"zero-create", "zero-transfer", "rnr",
				  "destroy", "err"};

struct Options : CaseOptions {
	Options() : CaseOptions(kDefaultPort, 14, 7) {}
};

// NEW: slot in arg, the server QP's queues in value (see Spec);
// RECV: wait for value receive completions of slot arg, reply the good
// ones (status, length and data right) in value, all in arg;
// VERIFY: mismatches of the client's pattern in the server's buffer at
// value >> 32, length value & 0xffffffff; STATE: QP state of slot arg;
// KILL: destroy slot arg's QP; END: every session away, buffer refilled.
enum CmdType : uint32_t { NEW = 1, RECV, VERIFY, STATE, KILL, END, QUIT };

// A QP's queue depths (its SGE counts: 1, or 0 with depth 0) and the
// receives posted at once.
struct Spec {
	uint32_t send_wr;
	uint32_t recv_wr;
	uint32_t nrecv = 0;
	uint64_t pack() const
	{
		return uint64_t{send_wr} | uint64_t{recv_wr} << 16 |
		       uint64_t{nrecv} << 32;
	}
	static Spec unpack(uint64_t v)
	{
		return {static_cast<uint32_t>(v & 0xffff),
			static_cast<uint32_t>((v >> 16) & 0xffff),
			static_cast<uint32_t>((v >> 32) & 0xffff)};
	}
};

// The server's buffer holds server_byte(), the client's client_byte().
uint8_t server_byte(size_t i) { return static_cast<uint8_t>(i * 7 + 3); }
uint8_t client_byte(size_t i) { return static_cast<uint8_t>(i * 13 + 5); }

struct Base : PortBase {
	explicit Base(PortBase p) : PortBase(std::move(p)) {}
	Buffer buf;
	Mr mr;
};

Base open_base(const Options &o, uint8_t (*byte)(size_t))
{
	Base b(open_port_base(o));
	b.buf = alloc_buffer(kBufSize);
	for (size_t i = 0; i < kBufSize; i++)
		b.buf[i] = byte(i);
	b.mr = reg_mr(b.pd.get(), b.buf.get(), kBufSize, kAllAccess);
	return b;
}

// errno of ibv_create_qp, 0 on success (qp and cap then set).
int try_create_qp(Base &b, ibv_cq *cq, const Spec &s, Qp &qp, ibv_qp_cap *cap)
{
	ibv_qp_init_attr a{};
	a.send_cq = cq;
	a.recv_cq = cq;
	a.qp_type = IBV_QPT_RC;
	a.cap.max_send_wr = s.send_wr;
	a.cap.max_recv_wr = s.recv_wr;
	a.cap.max_send_sge = s.send_wr ? 1 : 0;
	a.cap.max_recv_sge = s.recv_wr ? 1 : 0;
	errno = 0;
	qp.reset(ibv_create_qp(b.pd.get(), &a));
	if (!qp)
		return errno ? errno : EINVAL;
	if (cap)
		*cap = a.cap;
	return 0;
}

int post_recv(ibv_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey,
	      uint64_t id, bool with_sge = true)
{
	ibv_sge sge{addr, len, lkey};
	ibv_recv_wr wr{}, *bad = nullptr;
	wr.wr_id = id;
	wr.sg_list = with_sge ? &sge : nullptr;
	wr.num_sge = with_sge ? 1 : 0;
	return ibv_post_recv(qp, &wr, &bad);
}

// ----------------------------------------------------------------------
// Server.

struct ServerSession {
	std::optional<CqWaiter> waiter;
	Cq cq;
	Qp qp;
	Spec spec{};
};

int serve(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o, server_byte);
	Tcp tcp = Tcp::listen_accept(o.port, deadline);
	std::map<uint32_t, ServerSession> ss;
	return serve_commands(tcp, deadline, "mrc_qp_compat", NEW, QUIT, [&](const Cmd &c, Cmd &reply) {
		switch (c.type) {
		case NEW: {
			ss.erase(c.arg);
			ServerSession &s = ss[c.arg];
			s.spec = Spec::unpack(c.value);
			s.waiter.emplace(b.ctx.get());
			s.cq.reset(ibv_create_cq(b.ctx.get(), 64, nullptr,
						 s.waiter->channel(), 0));
			if (!s.cq)
				fail_errno("ibv_create_cq");
			if (int rc = try_create_qp(b, s.cq.get(), s.spec, s.qp,
						   nullptr))
				fail_errno("ibv_create_qp", rc);
			uint32_t psn = new_psn();
			tcp.send(port_conn_info(b, s.qp.get(), psn, kBufSize));
			ConnInfo r = tcp.recv<ConnInfo>(deadline);
			port_bring_up(b, s.qp.get(), o, r, psn, PathParams{});
			// After RESET: the provider refuses receives there.
			for (uint32_t k = 0; k < s.spec.nrecv; k++)
				if (int rc = post_recv(s.qp.get(),
						       reinterpret_cast<uintptr_t>(
							       b.buf.get() +
							       kRecvOff +
							       k * kChunk),
						       kChunk, b.mr->lkey,
						       1000 + k))
					fail_errno("ibv_post_recv", err_of(rc));
			break;
		}
		case RECV: {
			auto it = ss.find(c.arg);
			if (it == ss.end() || !it->second.qp)
				break;
			ServerSession &s = it->second;
			auto until = std::min(deadline,
					      Clock::now() +
						      std::chrono::seconds(10));
			uint32_t all = 0, good = 0;
			while (all < c.value) {
				ibv_wc wc{};
				if (s.waiter->poll(s.cq.get(), &wc, 1, until) <= 0)
					break;
				all++;
				if (wc.status != IBV_WC_SUCCESS ||
				    wc.opcode != IBV_WC_RECV ||
				    wc.byte_len != kChunk || wc.wr_id < 1000)
					continue;
				// Receive k holds the client's bytes at kRecvOff + k
				// * kChunk (the client SENDs from there).
				size_t off = kRecvOff +
					     (wc.wr_id - 1000) * kChunk,
				       bad = 0;
				for (size_t i = 0; i < kChunk; i++)
					bad += b.buf[off + i] !=
					       client_byte(off + i);
				good += bad == 0;
			}
			reply.value = good;
			reply.arg = all;
			break;
		}
		case VERIFY: {
			size_t off = c.value >> 32, len = c.value & 0xffffffff,
			       bad = 0;
			for (size_t i = off; i < off + len && i < kBufSize; i++)
				bad += b.buf[i] != client_byte(i);
			reply.value = bad;
			break;
		}
		case STATE: {
			auto it = ss.find(c.arg);
			reply.arg = it != ss.end() && it->second.qp ?
					    static_cast<uint32_t>(qp_state(
						    it->second.qp.get())) :
					    ~0u;
			break;
		}
		case KILL: {
			auto it = ss.find(c.arg);
			if (it != ss.end())
				it->second.qp.reset();
			break;
		}
		case END:
			ss.clear();
			for (size_t i = 0; i < kBufSize; i++)
				b.buf[i] = server_byte(i);
			break;
		default: return false;
		}
		return true;
	});
}

// ----------------------------------------------------------------------
// Client.

struct Conn {
	Qp qp;
	uint32_t psn = 0;
	ConnInfo remote{};
};

class Client : TapClientBase<Options, Base> {
public:
	Client(const Options &o, Base &b, Tcp &tcp, Clock::time_point deadline)
		: TapClientBase(o, b, tcp, deadline)
	{
	}

	int run()
	{
		if (o_.wants("zero-create"))
			zero_queues_created();
		if (o_.wants("zero-transfer"))
			zero_queue_transfer();
		if (o_.wants("rnr"))
			send_to_zero_rq();
		if (o_.wants("destroy"))
			destroy_completes_nothing();
		if (o_.wants("err"))
			err_still_flushes();
		command(QUIT);
		return tap_.finish();
	}

private:
	void tap(bool ok, const std::string &what) { tap_.check(ok, what); }

	Cmd command(CmdType t, uint32_t arg = 0, uint64_t value = 0)
	{
		return round_trip(tcp_, Cmd{t, arg, value}, deadline_);
	}

	struct Cq1 {
		std::optional<CqWaiter> waiter;
		Cq cq;
	};
	Cq1 new_cq(int cqe = 64)
	{
		Cq1 c;
		c.waiter.emplace(b_.ctx.get());
		c.cq.reset(ibv_create_cq(b_.ctx.get(), cqe, nullptr,
					 c.waiter->channel(), 0));
		if (!c.cq)
			fail_errno("ibv_create_cq");
		return c;
	}

	// Our QP (mine) on cq, connected to a new server QP (theirs) in slot.
	Conn connect(uint32_t slot, const Spec &mine, const Spec &theirs,
		     ibv_cq *cq, PathParams pp = {})
	{
		tcp_.send(Cmd{NEW, slot, theirs.pack()});
		Conn c;
		c.remote = tcp_.recv<ConnInfo>(deadline_);
		if (int rc = try_create_qp(b_, cq, mine, c.qp, nullptr))
			fail_errno("ibv_create_qp", rc);
		c.psn = new_psn();
		tcp_.send(port_conn_info(b_, c.qp.get(), c.psn, kBufSize));
		port_bring_up(b_, c.qp.get(), o_, c.remote, c.psn, pp);
		if (tcp_.recv<Cmd>(deadline_).type != NEW)
			fail("protocol: reply to NEW");
		return c;
	}

	uint64_t laddr(size_t off)
	{
		return reinterpret_cast<uintptr_t>(b_.buf.get() + off);
	}

	int post(Conn &c, ibv_wr_opcode op, size_t loff, uint32_t len,
		 uint64_t roff, uint64_t id, bool with_sge = true)
	{
		ibv_sge sge{laddr(loff), len, b_.mr->lkey};
		ibv_send_wr wr{}, *bad = nullptr;
		wr.wr_id = id;
		wr.sg_list = with_sge ? &sge : nullptr;
		wr.num_sge = with_sge ? 1 : 0;
		wr.opcode = op;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = c.remote.addr + roff;
		wr.wr.rdma.rkey = c.remote.rkey;
		return ibv_post_send(c.qp.get(), &wr, &bad);
	}

	void must_post(Conn &c, ibv_wr_opcode op, size_t loff, uint32_t len,
		       uint64_t roff, uint64_t id)
	{
		if (int rc = post(c, op, loff, len, roff, id))
			fail_errno("ibv_post_send", err_of(rc));
	}

	// @n receives of kChunk each into the receive area, ids @first_id on;
	// a refusal ends the program (@what).
	void must_post_recvs(Conn &c, uint64_t n, uint64_t first_id,
			     const char *what = "ibv_post_recv")
	{
		for (uint64_t i = 0; i < n; i++)
			if (int rc = post_recv(c.qp.get(),
					       laddr(kRecvOff + i * kChunk),
					       kChunk, b_.mr->lkey, first_id + i))
				fail_errno(what, err_of(rc));
	}

	// 4 receives (ids 100..103) and 4 WRITEs (ids 0..3) on @c, whose peer
	// QP is gone: none of them can complete by itself.
	void post_outstanding(Conn &c)
	{
		must_post_recvs(c, 4, 100);
		for (uint64_t i = 0; i < 4; i++)
			must_post(c, IBV_WR_RDMA_WRITE, 0, kChunk, 0, i);
	}

	// Completions of cq until want arrived or the deadline (seconds), then
	// (extra_ms) whatever else comes.
	std::vector<ibv_wc> collect(Cq1 &c, size_t want, int seconds,
				    int extra_ms = 0)
	{
		std::vector<ibv_wc> out;
		auto until = std::min(deadline_,
				      Clock::now() +
					      std::chrono::seconds(seconds));
		while (out.size() < want) {
			ibv_wc wc[16];
			int n = c.waiter->poll(c.cq.get(), wc, 16, until);
			if (n <= 0)
				break;
			out.insert(out.end(), wc, wc + n);
		}
		if (extra_ms) {
			until = std::min(deadline_,
					 Clock::now() + std::chrono::milliseconds(
								extra_ms));
			for (;;) {
				ibv_wc wc[16];
				int n = c.waiter->poll(c.cq.get(), wc, 16, until);
				if (n <= 0)
					break;
				out.insert(out.end(), wc, wc + n);
			}
		}
		return out;
	}

	// ibv_poll_cq only, never ibv_req_notify_cq (which flushes receives
	// of QPs in ERR on its own): up to want completions within ms.
	std::vector<ibv_wc> busy_poll(Cq1 &c, size_t want, int ms)
	{
		std::vector<ibv_wc> out;
		auto until = std::min(deadline_,
				      Clock::now() +
					      std::chrono::milliseconds(ms));
		while (out.size() < want && Clock::now() < until) {
			ibv_wc wc[16];
			int n = ibv_poll_cq(c.cq.get(), 16, wc);
			if (n < 0)
				fail("ibv_poll_cq failed");
			out.insert(out.end(), wc, wc + n);
			if (n == 0)
				std::this_thread::sleep_for(
					std::chrono::milliseconds(5));
		}
		return out;
	}

	static std::string describe(const std::vector<ibv_wc> &v)
	{
		std::string s;
		for (const auto &wc : v) {
			if (s.size() > 300) {
				s += " ...";
				break;
			}
			s += " (qp " + std::to_string(wc.qp_num) + " id " +
			     std::to_string(wc.wr_id) + " " +
			     ibv_wc_status_str(wc.status) + ")";
		}
		return s.empty() ? " none" : s;
	}

	bool all_success(const std::vector<ibv_wc> &v, size_t n)
	{
		return v.size() == n &&
		       std::all_of(v.begin(), v.end(), [](const ibv_wc &wc) {
			       return wc.status == IBV_WC_SUCCESS;
		       });
	}

	// Create with depth 0, query, post to the zero queue.
	void zero_queues_created()
	{
		Cq1 c = new_cq();
		for (bool recv : {true, false}) {
			Spec s = recv ? Spec{16, 0} : Spec{0, 16};
			std::string q = recv ? "max_recv_wr 0 (max_recv_sge 0)" :
					       "max_send_wr 0 (max_send_sge 0)";
			Qp qp;
			ibv_qp_cap cap{};
			int rc = try_create_qp(b_, c.cq.get(), s, qp, &cap);
			uint32_t got = recv ? cap.max_recv_wr : cap.max_send_wr;
			tap(rc == 0 && got == 0,
			    "ibv_create_qp with " + q + ": " + err_str(rc) +
				    (rc ? "" :
					  ", returns depth " +
						     std::to_string(got)));
			if (rc)
				continue;
			ibv_qp_attr a{};
			ibv_qp_init_attr ia{};
			rc = ibv_query_qp(qp.get(), &a, IBV_QP_CAP, &ia);
			got = recv ? a.cap.max_recv_wr : a.cap.max_send_wr;
			tap(rc == 0 && got == 0,
			    "ibv_query_qp of the QP with " + q + ": depth " +
				    std::to_string(got));
			// The receive queue in INIT (the provider refuses
			// receives in RESET); the send queue in RTS
			// (zero_queue_transfer(): before RTS the doorbell is
			// refused with EINVAL whatever the queue).  No SGE, so
			// that only the queue can refuse it (rxe returns
			// max_*_sge 0 for these queues).
			if (recv) {
				qp_to_init(qp.get(), 1, kAllAccess);
				rc = post_recv(qp.get(), 0, 0, 0, 7, false);
				tap(err_of(rc) == ENOMEM,
				    "ibv_post_recv to the queue of depth 0: expected ENOMEM, got " +
					    err_str(rc));
				auto wcs = collect(c, 1, 0, 300);
				tap(wcs.empty(),
				    "no completion for the refused post:" +
					    describe(wcs));
			}
			rc = ibv_destroy_qp(qp.release());
			tap(rc == 0, "ibv_destroy_qp of the QP with " + q +
					     ": " + err_str(rc));
		}
	}

	// A sender without receive queue and a responder without send queue
	// (qperf's rc_bw and rc_rdma_write_bw pair).
	void zero_queue_transfer()
	{
		Cq1 c = new_cq();
		Conn k = connect(0, Spec{16, 0}, Spec{0, 16, 8}, c.cq.get());
		for (uint64_t i = 0; i < 4; i++)
			must_post(k, IBV_WR_RDMA_WRITE, i * kChunk, kChunk,
				  i * kChunk, i);
		auto wcs = collect(c, 4, 20);
		tap(all_success(wcs, 4),
		    "4 WRITEs from a QP with max_recv_wr 0 to one with max_send_wr 0:" +
			    describe(wcs));
		Cmd v = command(VERIFY, 0, uint64_t{0} << 32 | 4 * kChunk);
		tap(v.value == 0, "the WRITEs' data arrived (" +
					  std::to_string(v.value) +
					  " bytes differ)");
		for (uint64_t i = 0; i < 4; i++)
			must_post(k, IBV_WR_SEND, kRecvOff + i * kChunk, kChunk,
				  0, 10 + i);
		wcs = collect(c, 4, 20);
		tap(all_success(wcs, 4),
		    "4 SENDs from the QP with max_recv_wr 0:" + describe(wcs));
		Cmd r = command(RECV, 0, 4);
		tap(r.value == 4 && r.arg == 4,
		    "the responder with max_send_wr 0 received them: " +
			    std::to_string(r.value) + " of " +
			    std::to_string(r.arg) + " receive completions right");
		// READ: the responder answers without a send queue.
		std::memset(b_.buf.get() + kReadOff, 0, kChunk);
		must_post(k, IBV_WR_RDMA_READ, kReadOff, kChunk, kReadOff, 20);
		wcs = collect(c, 1, 20);
		size_t bad = 0;
		for (size_t i = 0; i < kChunk; i++)
			bad += b_.buf[kReadOff + i] != server_byte(kReadOff + i);
		tap(all_success(wcs, 1) && bad == 0,
		    "READ answered by the QP with max_send_wr 0:" + describe(wcs) +
			    ", " + std::to_string(bad) + " bytes wrong");
		for (size_t i = 0; i < kChunk; i++)
			b_.buf[kReadOff + i] = client_byte(kReadOff + i);
		expect_empty_queue_refusal(c,
					   post_recv(k.qp.get(), 0, 0, 0, 30,
						     false),
					   "ibv_post_recv on the connected QP with max_recv_wr 0",
					   0, "the responder");
		// And a connected requester without send queue.
		Conn z = connect(1, Spec{0, 16}, Spec{16, 16}, c.cq.get());
		expect_empty_queue_refusal(c,
					   post(z, IBV_WR_RDMA_WRITE, 0, 0, 0,
						40, false),
					   "ibv_post_send on the connected QP with max_send_wr 0",
					   1, "its peer");
		command(END);
	}

	// A post (its result @rc, @what) to the queue of depth 0 of a
	// connected QP: refused at once with ENOMEM, nothing completes on
	// @c, and the server's QP in @slot (@peer) stays in RTS.
	void expect_empty_queue_refusal(Cq1 &c, int rc, const std::string &what,
					uint32_t slot, const std::string &peer)
	{
		tap(err_of(rc) == ENOMEM,
		    what + ": expected ENOMEM, got " + err_str(rc));
		auto wcs = collect(c, 1, 0, 300);
		tap(wcs.empty(), "no completion for it:" + describe(wcs));
		Cmd st = command(STATE, slot);
		tap(st.arg == IBV_QPS_RTS, peer + " stays in RTS (state " +
						   std::to_string(st.arg) + ")");
	}

	// rxe's responder finds no receive WQE and NAKs RNR.
	void send_to_zero_rq()
	{
		Cq1 c = new_cq();
		PathParams pp;
		pp.rnr_retry = 1;
		Conn k = connect(0, Spec{16, 16}, Spec{16, 0}, c.cq.get(), pp);
		must_post(k, IBV_WR_SEND, 0, 64, 0, 1);
		auto wcs = collect(c, 1, 30);
		tap(wcs.size() == 1 && wcs[0].status == IBV_WC_RNR_RETRY_EXC_ERR,
		    "SEND to a QP with max_recv_wr 0 (rnr_retry 1): expected " +
			    std::string(
				    ibv_wc_status_str(IBV_WC_RNR_RETRY_EXC_ERR)) +
			    ", got" + describe(wcs));
		Cmd st = command(STATE, 0);
		tap(st.arg == IBV_QPS_RTS,
		    "the QP with max_recv_wr 0 stays in RTS after the RNR NAKs (state " +
			    std::to_string(st.arg) + ")");
		command(END);
	}

	// Two QPs on one CQ; one is destroyed with work outstanding.
	void destroy_completes_nothing()
	{
		Cq1 c = new_cq(128);
		PathParams slow;
		slow.timeout = 18; // ~1 s, 7 retries: the WRITEs stay outstanding
		Conn a = connect(0, Spec{16, 16}, Spec{16, 16}, c.cq.get(), slow);
		Conn k = connect(1, Spec{16, 16}, Spec{16, 16}, c.cq.get());
		uint32_t qpn_a = a.qp->qp_num, qpn_b = k.qp->qp_num;
		command(KILL, 0); // a's peer is gone: nothing of a completes
		post_outstanding(a);
		// b's WRITEs complete meanwhile, and are in the CQ (unpolled)
		// when a goes.
		for (uint64_t i = 0; i < 4; i++)
			must_post(k, IBV_WR_RDMA_WRITE, 64 * 1024 + i * kChunk,
				  kChunk, 64 * 1024 + i * kChunk, 200 + i);
		std::this_thread::sleep_for(std::chrono::milliseconds(1500));
		int rc = ibv_destroy_qp(a.qp.release());
		tap(rc == 0,
		    "ibv_destroy_qp with 4 receives and 4 WRITEs outstanding: " +
			    err_str(rc));
		auto wcs = collect(c, 4, 20, 1000);
		std::vector<ibv_wc> of_a, of_b;
		for (const auto &wc : wcs)
			(wc.qp_num == qpn_a ? of_a : of_b).push_back(wc);
		tap(of_a.empty(),
		    "the CQ holds no completion of the destroyed QP:" +
			    describe(of_a));
		bool in_order = of_b.size() == 4;
		for (size_t i = 0; in_order && i < 4; i++)
			in_order = of_b[i].wr_id == 200 + i &&
				   of_b[i].qp_num == qpn_b;
		tap(all_success(of_b, 4) && in_order,
		    "the other QP's 4 WRITE completions on the shared CQ are intact:" +
			    describe(of_b));
		must_post(k, IBV_WR_RDMA_WRITE, 80 * 1024, kChunk, 80 * 1024,
			  210);
		wcs = collect(c, 1, 20, 300);
		tap(all_success(wcs, 1) && wcs[0].qp_num == qpn_b,
		    "the other QP works on after the destroy:" + describe(wcs));
		Cmd v = command(VERIFY, 0,
				uint64_t{64 * 1024} << 32 | 5 * kChunk);
		tap(v.value == 0, "its WRITEs' data arrived (" +
					  std::to_string(v.value) +
					  " bytes differ)");
		rc = ibv_destroy_qp(k.qp.release());
		tap(rc == 0, "ibv_destroy_qp of the other QP: " + err_str(rc));
		wcs = collect(c, 1, 0, 500);
		tap(wcs.empty(), "and the CQ stays empty:" + describe(wcs));
		command(END);
	}

	// modify_qp to ERR completes everything outstanding as flushed.
	void err_still_flushes()
	{
		Cq1 c = new_cq();
		PathParams slow;
		slow.timeout = 18;
		Conn k = connect(0, Spec{16, 16}, Spec{16, 16}, c.cq.get(), slow);
		uint32_t qpn = k.qp->qp_num;
		command(KILL, 0);
		post_outstanding(k);
		std::this_thread::sleep_for(std::chrono::milliseconds(200));
		ibv_qp_attr at{};
		at.qp_state = IBV_QPS_ERR;
		int rc = ibv_modify_qp(k.qp.get(), &at, IBV_QP_STATE);
		tap(rc == 0,
		    "ibv_modify_qp to ERR with 4 receives and 4 WRITEs outstanding: " +
			    err_str(rc));
		auto wcs = collect(c, 8, 20, 300);
		size_t recvs = 0, sends = 0;
		bool ok = wcs.size() == 8;
		for (const auto &wc : wcs) {
			ok = ok && wc.status == IBV_WC_WR_FLUSH_ERR &&
			     wc.qp_num == qpn;
			if (wc.wr_id >= 100 && wc.wr_id < 104)
				recvs++;
			else if (wc.wr_id < 4)
				sends++;
		}
		tap(ok && recvs == 4 && sends == 4,
		    "each of them completes as flushed (" +
			    std::to_string(recvs) + " receives, " +
			    std::to_string(sends) + " WRITEs):" + describe(wcs));
		// Receives posted in ERR only reach the ring (the provider
		// makes no system call); ERR -> ERR must flush them, and a
		// program that busy-polls (never arms the CQ) must see them.
		must_post_recvs(k, 2, 110, "ibv_post_recv in ERR");
		rc = ibv_modify_qp(k.qp.get(), &at, IBV_QP_STATE);
		tap(rc == 0, "ibv_modify_qp ERR -> ERR: " + err_str(rc));
		wcs = busy_poll(c, 2, 3000);
		ok = wcs.size() == 2;
		for (size_t i = 0; ok && i < 2; i++)
			ok = wcs[i].status == IBV_WC_WR_FLUSH_ERR &&
			     wcs[i].wr_id == 110 + i;
		tap(ok,
		    "2 receives posted in ERR complete as flushed after ERR -> ERR, without arming the CQ:" +
			    describe(wcs));
		rc = ibv_destroy_qp(k.qp.release());
		tap(rc == 0, "ibv_destroy_qp in ERR: " + err_str(rc));
		wcs = collect(c, 1, 0, 500);
		tap(wcs.empty(),
		    "nothing more in the CQ after the destroy:" + describe(wcs));
		command(END);
	}

	Tap tap_{"mrc_qp_compat"};
};

int run_client(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o, client_byte);
	return run_tap_client<Client>("mrc_qp_compat", o, b, deadline);
}

} // namespace

int main(int argc, char **argv)
{
	return case_tap_main<Options>("mrc_qp_compat",
				      "       [--case=zero-create|zero-transfer|rnr|destroy|err]... [SERVER_ADDR]\n",
				      kCases, argc, argv, serve, run_client);
}
