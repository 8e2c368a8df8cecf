// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_verbs_ext: the verbs beyond ibv_post_send/ibv_poll_cq that the
// kernel's soft-RoCE (rdma_rxe) offers through the same rxe provider
// (tools/testing/verbs/rxe-check.sh runs this program on rxe too):
//  - query: ibv_query_device_ex agrees with ibv_query_device and reports
//    the memory window capabilities;
//  - cq-ex: ibv_create_cq_ex with every wc field the provider reads, and
//    its refusals (a completion timestamp, creation flags);
//  - qp-ex: ibv_create_qp_ex with send_ops_flags, then WRITE, inline
//    WRITE, SEND, SEND_IMM, WRITE_IMM, READ, fetch-and-add and
//    compare-and-swap posted through ibv_wr_* in one batch; completions
//    read through the extended CQ (opcode, byte_len, imm, qp_num, src_qp,
//    wc_flags) at both ends; data and atomic results checked;
//  - rereg: ibv_rereg_mr is refused as on rxe (whose provider has no
//    rereg_mr op: a negative IBV_REREG_MR_ERR_*, errno EOPNOTSUPP, before
//    any system call) and leaves the MR as it was;
//  - mw1, mw2: memory windows of type 1 (ibv_bind_mw) and type 2
//    (ibv_wr_bind_mw): the peer WRITEs and READs through the window's
//    rkey; one byte beyond the window, or a type 2 window from a QP it is
//    not bound to, is a remote access error; after a local invalidate
//    (type 2) or a rebind (type 1) the old rkey is refused;
//  - inv: SEND_WITH_INV invalidates a type 2 window at the responder
//    (IBV_WC_WITH_INV, the rkey in the completion), after which the rkey
//    is refused.
//
//   server: mrc_verbs_ext -d mrc0 -g 1 [-p PORT]
//   client: mrc_verbs_ext -d mrc0 -g 1 [-p PORT] [--case=NAME]... SERVER_ADDR
//
// The client prints one TAP line per check and, last,
// "# mrc_verbs_ext: N passed, M failed"; the server is driven over the
// TCP side channel and ends with "# mrc_verbs_ext: server: N sessions, M
// errors".
#include "verbs_common.h"

#include <getopt.h>

#include <algorithm>
#include <map>
#include <optional>

using namespace verbs;

namespace {

constexpr size_t kBufSize = 1 << 20;
constexpr uint32_t kChunk = 4096;
constexpr size_t kRecvOff = 256 * 1024;	  // server: where receives land
constexpr size_t kAtomicOff = 768 * 1024; // server: atomic targets
constexpr size_t kWinOff = 512 * 1024;	  // server: the windows' range
constexpr uint32_t kWinLen = 64 * 1024;
constexpr uint16_t kDefaultPort = 18541;

constexpr const char *kCases[] = {"query", "cq-ex", "qp-ex", "rereg",
				  "mw1",   "mw2",   "inv"};

// Every wc field the rxe provider's extended CQ can read.
constexpr uint64_t kWcFlags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |
			      IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP |
			      IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL |
			      IBV_WC_EX_WITH_DLID_PATH_BITS;
// Every RC operation the rxe provider builds through ibv_wr_*.
constexpr uint64_t kSendOps = IBV_QP_EX_WITH_RDMA_WRITE |
			      IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
			      IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
			      IBV_QP_EX_WITH_RDMA_READ |
			      IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
			      IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
			      IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW |
			      IBV_QP_EX_WITH_SEND_WITH_INV;
constexpr int kMwAccess = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

struct Options : CaseOptions {
	Options() : CaseOptions(kDefaultPort, 14, 7) {}
};

// NEW: slot arg, value receives posted at once; RECV: value receive
// completions of slot arg, replied as that many WcInfo; BIND: a window of
// type value & 0xff bound on slot arg's QP over [kWinOff, kWinOff +
// kWinLen) (value >> 8: its window index), rkey or error replied; INV:
// local invalidate of rkey value on slot arg's QP; VERIFY: mismatches of
// the client's pattern (arg 1: the server's own) at value >> 32, length
// value & 0xffffffff; STATE:
// QP state of slot arg; END: every session and window away, buffer
// refilled.
enum CmdType : uint32_t { NEW = 1, RECV, BIND, INV, VERIFY, STATE, END, QUIT };
struct Cmd {
	uint32_t type;
	uint32_t arg;
	uint64_t value;
};

// A receive completion as the server read it through the extended CQ.
struct WcInfo {
	uint64_t wr_id;
	uint32_t status;
	uint32_t opcode;
	uint32_t byte_len;
	uint32_t imm; // host order; the invalidated rkey with IBV_WC_WITH_INV
	uint32_t wc_flags;
	uint32_t qp_num;
	uint32_t src_qp;
	uint32_t pad;
};

uint8_t server_byte(size_t i) { return static_cast<uint8_t>(i * 7 + 3); }
uint8_t client_byte(size_t i) { return static_cast<uint8_t>(i * 13 + 5); }

using CqEx = std::unique_ptr<ibv_cq_ex, Deleter<[](ibv_cq_ex *c) {
				     return ibv_destroy_cq(ibv_cq_ex_to_cq(c));
			     }>>;
using Mw = std::unique_ptr<ibv_mw, Deleter<ibv_dealloc_mw>>;

// The device, port and PD (PortBase, destroyed last), then the buffer
// and its MRs.
struct Base : PortBase {
	Buffer buf;
	Mr mr;
	Mr mw_mr; // the same buffer with IBV_ACCESS_MW_BIND (null if refused)
	int mw_mr_errno = 0;
};

Base open_base(const Options &o, uint8_t (*byte)(size_t))
{
	Base b;
	static_cast<PortBase &>(b) = open_port_base(o);
	b.buf = alloc_buffer(kBufSize);
	for (size_t i = 0; i < kBufSize; i++)
		b.buf[i] = byte(i);
	b.mr = reg_mr(b.pd.get(), b.buf.get(), kBufSize, kAllAccess);
	errno = 0;
	b.mw_mr.reset(ibv_reg_mr(b.pd.get(), b.buf.get(), kBufSize,
				 kAllAccess | IBV_ACCESS_MW_BIND));
	if (!b.mw_mr)
		b.mw_mr_errno = errno ? errno : EINVAL;
	return b;
}

// An extended CQ with its completion channel (declared first: destroyed
// last).
struct ExCq {
	Channel ch;
	CqEx cq;
	ibv_cq *base() const { return ibv_cq_ex_to_cq(cq.get()); }
};

ExCq new_ex_cq(ibv_context *ctx, int cqe = 64)
{
	ExCq c;
	c.ch.reset(ibv_create_comp_channel(ctx));
	if (!c.ch)
		fail_errno("ibv_create_comp_channel");
	int fl = ::fcntl(c.ch->fd, F_GETFL);
	if (fl < 0 || ::fcntl(c.ch->fd, F_SETFL, fl | O_NONBLOCK) < 0)
		fail_errno("fcntl O_NONBLOCK");
	ibv_cq_init_attr_ex a{};
	a.cqe = cqe;
	a.channel = c.ch.get();
	a.wc_flags = kWcFlags;
	c.cq.reset(ibv_create_cq_ex(ctx, &a));
	if (!c.cq)
		fail_errno("ibv_create_cq_ex");
	return c;
}

// One completion read through the extended CQ's accessors.
WcInfo read_ex(ibv_cq_ex *cq)
{
	WcInfo w{};
	w.wr_id = cq->wr_id;
	w.status = cq->status;
	w.opcode = ibv_wc_read_opcode(cq);
	w.byte_len = ibv_wc_read_byte_len(cq);
	w.wc_flags = ibv_wc_read_wc_flags(cq);
	// imm_data and invalidated_rkey share the slot (the provider reads
	// the rkey through read_imm_data too).
	if (w.wc_flags & IBV_WC_WITH_IMM)
		w.imm = be32toh(ibv_wc_read_imm_data(cq));
	else if (w.wc_flags & IBV_WC_WITH_INV)
		w.imm = ibv_wc_read_invalidated_rkey(cq);
	w.qp_num = ibv_wc_read_qp_num(cq);
	w.src_qp = ibv_wc_read_src_qp(cq);
	return w;
}

// Up to @want completions of @c within the deadline, then whatever else
// arrives within @extra_ms.
std::vector<WcInfo> collect(ExCq &c, size_t want, Clock::time_point until,
			    int extra_ms = 0)
{
	std::vector<WcInfo> out;
	// One completion per start/end pair, never ibv_next_poll(): the rxe
	// provider of rdma-core 44 unlocks and moves its consumer index
	// when ibv_next_poll() finds the CQ empty, and the ibv_end_poll()
	// the man page requires after it then moves it once more.
	auto poll_all = [&] {
		ibv_poll_cq_attr pa{};
		while (!ibv_start_poll(c.cq.get(), &pa)) {
			out.push_back(read_ex(c.cq.get()));
			ibv_end_poll(c.cq.get());
		}
	};
	auto wait = [&](Clock::time_point t) {
		for (;;) {
			size_t n = out.size();
			poll_all();
			if (out.size() > n)
				return true;
			if (ibv_req_notify_cq(c.base(), 0))
				fail("ibv_req_notify_cq");
			poll_all();
			if (out.size() > n)
				return true;
			int left = ms_until(t);
			if (!left)
				return false;
			pollfd p{c.ch->fd, POLLIN, 0};
			if (::poll(&p, 1, std::min(left, 100)) > 0) {
				ibv_cq *cq;
				void *ctx;
				while (!ibv_get_cq_event(c.ch.get(), &cq, &ctx))
					ibv_ack_cq_events(cq, 1);
			}
		}
	};
	while (out.size() < want && wait(until))
		;
	if (extra_ms) {
		auto t = Clock::now() + std::chrono::milliseconds(extra_ms);
		while (wait(t))
			;
	}
	return out;
}

std::string describe(const std::vector<WcInfo> &v)
{
	std::string s;
	for (const auto &w : v)
		s += " (id " + std::to_string(w.wr_id) + " op " +
		     std::to_string(w.opcode) + " " +
		     ibv_wc_status_str(static_cast<ibv_wc_status>(w.status)) +
		     ")";
	return s.empty() ? " none" : s;
}

// errno of ibv_create_qp_ex, 0 on success.
int create_ex_qp(Base &b, ibv_cq *cq, uint64_t send_ops, Qp &qp,
		 uint32_t depth = 32)
{
	ibv_qp_init_attr_ex a{};
	a.send_cq = cq;
	a.recv_cq = cq;
	a.qp_type = IBV_QPT_RC;
	a.cap.max_send_wr = depth;
	a.cap.max_recv_wr = depth;
	a.cap.max_send_sge = 2;
	a.cap.max_recv_sge = 2;
	a.cap.max_inline_data = 64;
	a.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	a.pd = b.pd.get();
	a.send_ops_flags = send_ops;
	errno = 0;
	qp.reset(ibv_create_qp_ex(b.ctx.get(), &a));
	if (!qp)
		return errno ? errno : EINVAL;
	return 0;
}

// port_bring_up() with the options' timeout and retry count.
void bring_up(const Base &b, ibv_qp *qp, const Options &o, const ConnInfo &r,
	      uint32_t psn)
{
	PathParams pp;
	pp.timeout = static_cast<uint8_t>(o.qp_timeout);
	pp.retry = static_cast<uint8_t>(o.retry);
	port_bring_up(b, qp, o, r, psn, pp);
}

int post_recv(ibv_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey, uint64_t id)
{
	ibv_sge sge{addr, len, lkey};
	ibv_recv_wr wr{}, *bad = nullptr;
	wr.wr_id = id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	return ibv_post_recv(qp, &wr, &bad);
}

// ----------------------------------------------------------------------
// Server.

struct ServerSession {
	ExCq cq;
	Qp qp;
};

// Bind a window of @type over the server's window range on @s's QP; the
// new rkey, or 0 with *err set.
uint32_t server_bind(Base &b, ServerSession &s, std::vector<Mw> &mws,
		     uint32_t type, uint32_t index, Clock::time_point deadline,
		     int *err)
{
	*err = 0;
	if (!b.mw_mr) {
		*err = b.mw_mr_errno;
		return 0;
	}
	if (index >= mws.size())
		mws.resize(index + 1);
	Mw &mw = mws[index];
	if (!mw) {
		errno = 0;
		mw.reset(ibv_alloc_mw(b.pd.get(), type == 2 ? IBV_MW_TYPE_2 :
							      IBV_MW_TYPE_1));
		if (!mw) {
			*err = errno ? errno : EINVAL;
			return 0;
		}
	}
	ibv_mw_bind_info bi{};
	bi.mr = b.mw_mr.get();
	bi.addr = reinterpret_cast<uintptr_t>(b.buf.get() + kWinOff);
	bi.length = kWinLen;
	bi.mw_access_flags = kMwAccess;
	uint32_t rkey;
	if (type == 1) {
		ibv_mw_bind mb{};
		mb.wr_id = 900;
		mb.send_flags = IBV_SEND_SIGNALED;
		mb.bind_info = bi;
		if (int rc = ibv_bind_mw(s.qp.get(), mw.get(), &mb)) {
			*err = err_of(rc);
			return 0;
		}
		rkey = mw->rkey;
	} else {
		ibv_qp_ex *qx = ibv_qp_to_qp_ex(s.qp.get());
		rkey = ibv_inc_rkey(mw->rkey);
		ibv_wr_start(qx);
		qx->wr_id = 900;
		qx->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_bind_mw(qx, mw.get(), rkey, &bi);
		if (int rc = ibv_wr_complete(qx)) {
			*err = err_of(rc);
			return 0;
		}
	}
	auto wcs = collect(s.cq, 1,
			   std::min(deadline,
				    Clock::now() + std::chrono::seconds(10)));
	if (wcs.size() != 1 || wcs[0].wr_id != 900) {
		*err = ETIMEDOUT;
		return 0;
	}
	if (wcs[0].status != IBV_WC_SUCCESS || wcs[0].opcode != IBV_WC_BIND_MW) {
		// A failed bind: the status, offset so that it is not an errno.
		*err = 1000 + static_cast<int>(wcs[0].status);
		return 0;
	}
	if (type == 2)
		mw->rkey = rkey; // ibv_wr_bind_mw leaves it to the caller
	return rkey;
}

uint32_t server_inv(ServerSession &s, uint32_t rkey, Clock::time_point deadline)
{
	ibv_qp_ex *qx = ibv_qp_to_qp_ex(s.qp.get());
	ibv_wr_start(qx);
	qx->wr_id = 901;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_local_inv(qx, rkey);
	if (int rc = ibv_wr_complete(qx))
		return static_cast<uint32_t>(err_of(rc));
	auto wcs = collect(s.cq, 1,
			   std::min(deadline,
				    Clock::now() + std::chrono::seconds(10)));
	if (wcs.size() != 1)
		return ETIMEDOUT;
	if (wcs[0].status != IBV_WC_SUCCESS || wcs[0].opcode != IBV_WC_LOCAL_INV)
		return 1000 + wcs[0].status;
	return 0;
}

int serve(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o, server_byte);
	Tcp tcp = Tcp::listen_accept(o.port, deadline);
	std::map<uint32_t, ServerSession> ss;
	std::vector<Mw> mws;
	int sessions = 0, errors = 0;
	for (;;) {
		Cmd c = tcp.recv<Cmd>(deadline);
		Cmd reply{c.type, 0, 0};
		auto it = ss.find(c.arg);
		bool have = it != ss.end() && it->second.qp;
		switch (c.type) {
		case NEW: {
			ss.erase(c.arg);
			ServerSession &s = ss[c.arg];
			s.cq = new_ex_cq(b.ctx.get());
			if (int rc = create_ex_qp(b, s.cq.base(), kSendOps, s.qp))
				fail_errno("ibv_create_qp_ex", rc);
			uint32_t psn = new_psn();
			tcp.send(port_conn_info(b, s.qp.get(), psn, kBufSize));
			ConnInfo r = tcp.recv<ConnInfo>(deadline);
			bring_up(b, s.qp.get(), o, r, psn);
			for (uint32_t k = 0; k < c.value; k++)
				if (int rc = post_recv(s.qp.get(),
						       reinterpret_cast<uintptr_t>(
							       b.buf.get() +
							       kRecvOff +
							       k * kChunk),
						       kChunk, b.mr->lkey,
						       1000 + k))
					fail_errno("ibv_post_recv", err_of(rc));
			sessions++;
			break;
		}
		case RECV: {
			std::vector<WcInfo> wcs;
			if (have)
				wcs = collect(it->second.cq, c.value,
					      std::min(deadline,
						       Clock::now() +
							       std::chrono::seconds(
								       10)));
			reply.arg = static_cast<uint32_t>(wcs.size());
			tcp.send(reply);
			for (const auto &w : wcs)
				tcp.send(w);
			continue;
		}
		case BIND: {
			int err = ENOENT;
			uint32_t rkey = 0;
			if (have)
				rkey = server_bind(b, it->second, mws,
						   c.value & 0xff,
						   static_cast<uint32_t>(
							   c.value >> 8),
						   deadline, &err);
			reply.arg = static_cast<uint32_t>(err);
			reply.value = rkey;
			break;
		}
		case INV:
			reply.arg = have ? server_inv(it->second,
						      static_cast<uint32_t>(
							      c.value),
						      deadline) :
					   ENOENT;
			break;
		case VERIFY: {
			size_t off = c.value >> 32, len = c.value & 0xffffffff,
			       bad = 0;
			auto want = c.arg ? server_byte : client_byte;
			for (size_t i = off; i < off + len && i < kBufSize; i++)
				bad += b.buf[i] != want(i);
			reply.value = bad;
			break;
		}
		case STATE:
			reply.arg = have ? static_cast<uint32_t>(qp_state(
						   it->second.qp.get())) :
					   ~0u;
			break;
		case END:
			ss.clear();
			mws.clear();
			for (size_t i = 0; i < kBufSize; i++)
				b.buf[i] = server_byte(i);
			break;
		case QUIT:
			tcp.send(reply);
			std::printf("# mrc_verbs_ext: server: %d sessions, %d errors\n",
				    sessions, errors);
			return errors ? 1 : 0;
		default:
			errors++;
			fail("protocol: unknown command " +
			     std::to_string(c.type));
		}
		tcp.send(reply);
	}
}

// ----------------------------------------------------------------------
// Client.

struct Conn {
	ExCq cq;
	Qp qp;
	ConnInfo remote{};
	ibv_qp_ex *qx() const { return ibv_qp_to_qp_ex(qp.get()); }
};

class Client : TapClientBase<Options, Base> {
public:
	Client(const Options &o, Base &b, Tcp &tcp, Clock::time_point deadline)
		: TapClientBase(o, b, tcp, deadline)
	{
	}

	int run()
	{
		struct {
			const char *name;
			void (Client::*fn)();
		} cases[] = {{"query", &Client::query},
			     {"cq-ex", &Client::cq_ex},
			     {"qp-ex", &Client::qp_ex},
			     {"rereg", &Client::rereg},
			     {"mw1", &Client::mw1},
			     {"mw2", &Client::mw2},
			     {"inv", &Client::inv}};
		for (auto &c : cases) {
			if (!o_.wants(c.name))
				continue;
			try {
				(this->*c.fn)();
			} catch (const std::exception &ex) {
				tap(false,
				    std::string(c.name) + ": " + ex.what());
			}
			command(END);
		}
		command(QUIT);
		std::printf("1..%d\n# mrc_verbs_ext: %d passed, %d failed\n",
			    n_, n_ - failed_, failed_);
		return failed_ ? 1 : 0;
	}

private:
	void tap(bool ok, const std::string &what)
	{
		n_++;
		failed_ += !ok;
		std::printf("%s %d - %s\n", ok ? "ok" : "not ok", n_,
			    what.c_str());
		std::fflush(stdout);
	}

	Cmd command(CmdType t, uint32_t arg = 0, uint64_t value = 0)
	{
		tcp_.send(Cmd{t, arg, value});
		Cmd r = tcp_.recv<Cmd>(deadline_);
		if (r.type != t)
			fail("protocol: reply to command " + std::to_string(t));
		return r;
	}

	std::vector<WcInfo> server_recv(uint32_t slot, uint32_t n)
	{
		tcp_.send(Cmd{RECV, slot, n});
		Cmd r = tcp_.recv<Cmd>(deadline_);
		if (r.type != RECV)
			fail("protocol: reply to RECV");
		std::vector<WcInfo> v;
		for (uint32_t i = 0; i < r.arg; i++)
			v.push_back(tcp_.recv<WcInfo>(deadline_));
		return v;
	}

	// Our extended QP, connected to a new server QP in @slot with
	// @nrecv receives posted.
	Conn connect(uint32_t slot, uint32_t nrecv = 0)
	{
		tcp_.send(Cmd{NEW, slot, nrecv});
		Conn c;
		c.remote = tcp_.recv<ConnInfo>(deadline_);
		c.cq = new_ex_cq(b_.ctx.get());
		if (int rc = create_ex_qp(b_, c.cq.base(), kSendOps, c.qp))
			fail_errno("ibv_create_qp_ex", rc);
		uint32_t psn = new_psn();
		tcp_.send(port_conn_info(b_, c.qp.get(), psn, kBufSize));
		bring_up(b_, c.qp.get(), o_, c.remote, psn);
		if (tcp_.recv<Cmd>(deadline_).type != NEW)
			fail("protocol: reply to NEW");
		return c;
	}

	uint64_t laddr(size_t off)
	{
		return reinterpret_cast<uintptr_t>(b_.buf.get() + off);
	}

	Clock::time_point soon(int s = 20)
	{
		return std::min(deadline_,
				Clock::now() + std::chrono::seconds(s));
	}

	// One signaled WRITE (@write) or READ of @len bytes at @raddr with
	// @rkey through ibv_wr_*; its completion.
	std::vector<WcInfo> rdma(Conn &c, bool write, uint64_t raddr,
				 uint32_t rkey, size_t loff, uint32_t len,
				 uint64_t id)
	{
		ibv_qp_ex *qx = c.qx();
		ibv_wr_start(qx);
		qx->wr_id = id;
		qx->wr_flags = IBV_SEND_SIGNALED;
		if (write)
			ibv_wr_rdma_write(qx, rkey, raddr);
		else
			ibv_wr_rdma_read(qx, rkey, raddr);
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(loff), len);
		if (int rc = ibv_wr_complete(qx))
			fail_errno("ibv_wr_complete", err_of(rc));
		return collect(c.cq, 1, soon());
	}

	static bool one_ok(const std::vector<WcInfo> &v, uint32_t opcode)
	{
		return v.size() == 1 && v[0].status == IBV_WC_SUCCESS &&
		       v[0].opcode == opcode;
	}
	static bool one_status(const std::vector<WcInfo> &v, ibv_wc_status st)
	{
		return v.size() == 1 && v[0].status == st;
	}

	// Bytes at the server that differ from our pattern (@theirs: from
	// its own, i.e. what we wrote there).
	size_t verify(size_t off, size_t len, bool theirs = false)
	{
		return command(VERIFY, theirs, uint64_t{off} << 32 | len).value;
	}

	size_t bad_server_bytes(size_t loff, size_t roff, size_t len)
	{
		size_t bad = 0;
		for (size_t i = 0; i < len; i++)
			bad += b_.buf[loff + i] != server_byte(roff + i);
		return bad;
	}

	void restore(size_t off, size_t len)
	{
		for (size_t i = off; i < off + len; i++)
			b_.buf[i] = client_byte(i);
	}

	void query()
	{
		ibv_device_attr a{};
		int rc = ibv_query_device(b_.ctx.get(), &a);
		ibv_device_attr_ex ax{};
		int rcx = ibv_query_device_ex(b_.ctx.get(), nullptr, &ax);
		tap(rc == 0 && rcx == 0,
		    "ibv_query_device_ex: " + err_str(rcx) +
			    " (ibv_query_device: " + err_str(rc) + ")");
		if (rc || rcx)
			return;
		const ibv_device_attr &o = ax.orig_attr;
		tap(o.max_qp == a.max_qp && o.max_qp_wr == a.max_qp_wr &&
			    o.max_cqe == a.max_cqe && o.max_mr == a.max_mr &&
			    o.max_sge == a.max_sge &&
			    o.device_cap_flags == a.device_cap_flags &&
			    o.vendor_id == a.vendor_id && o.max_mw == a.max_mw,
		    "ibv_query_device_ex's orig_attr agrees with ibv_query_device (max_qp " +
			    std::to_string(o.max_qp) + ", max_mw " +
			    std::to_string(o.max_mw) + ")");
		bool mw = (a.device_cap_flags & IBV_DEVICE_MEM_WINDOW) &&
			  (ax.device_cap_flags_ex &
			   IBV_DEVICE_MEM_WINDOW_TYPE_2B) &&
			  a.max_mw > 0;
		tap(mw, "memory windows offered: IBV_DEVICE_MEM_WINDOW, "
			"IBV_DEVICE_MEM_WINDOW_TYPE_2B and max_mw " +
				std::to_string(a.max_mw));
	}

	void cq_ex()
	{
		ibv_cq_init_attr_ex a{};
		a.cqe = 16;
		a.wc_flags = kWcFlags;
		errno = 0;
		CqEx cq(ibv_create_cq_ex(b_.ctx.get(), &a));
		tap(cq != nullptr,
		    "ibv_create_cq_ex with every wc field the provider reads: " +
			    err_str(cq ? 0 : errno));
		if (cq) {
			ibv_poll_cq_attr pa{};
			int rc = ibv_start_poll(cq.get(), &pa);
			tap(rc == ENOENT,
			    "ibv_start_poll on the empty CQ: expected ENOENT, got " +
				    err_str(rc));
			if (rc == 0)
				ibv_end_poll(cq.get());
		}
		a.wc_flags = kWcFlags | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
		errno = 0;
		cq.reset(ibv_create_cq_ex(b_.ctx.get(), &a));
		int e = errno;
		tap(!cq && e == EOPNOTSUPP,
		    "ibv_create_cq_ex with a completion timestamp: expected EOPNOTSUPP, got " +
			    err_str(cq ? 0 : e));
		a.wc_flags = kWcFlags;
		a.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
		a.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
		errno = 0;
		cq.reset(ibv_create_cq_ex(b_.ctx.get(), &a));
		e = errno;
		tap(!cq && e == EOPNOTSUPP,
		    "ibv_create_cq_ex with IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN: expected EOPNOTSUPP, got " +
			    err_str(cq ? 0 : e));
	}

	void qp_ex()
	{
		{
			ExCq c = new_ex_cq(b_.ctx.get());
			Qp qp;
			int rc = create_ex_qp(b_, c.base(),
					      kSendOps | IBV_QP_EX_WITH_TSO, qp);
			tap(rc == EOPNOTSUPP,
			    "ibv_create_qp_ex with IBV_QP_EX_WITH_TSO on RC: expected EOPNOTSUPP, got " +
				    err_str(rc));
		}
		Conn k = connect(0, 3);
		tap(k.qx() != nullptr && k.qx()->wr_send != nullptr,
		    "ibv_create_qp_ex with send_ops_flags: the QP has the ibv_wr_* ops");
		ibv_qp_ex *qx = k.qx();
		uint64_t cs_new = 0xabcdef;
		// The atomics' targets at the server; results land at 8 and
		// 16 KiB here.
		uint64_t *fa_res = reinterpret_cast<uint64_t *>(b_.buf.get() +
								8192),
			 *cs_res = reinterpret_cast<uint64_t *>(b_.buf.get() +
								12288);
		uint64_t fa_target, cs_target;
		// What the server's atomic words hold: its pattern.
		for (int i = 0; i < 8; i++) {
			reinterpret_cast<uint8_t *>(
				&fa_target)[i] = server_byte(kAtomicOff + i);
			reinterpret_cast<uint8_t *>(
				&cs_target)[i] = server_byte(kAtomicOff + 8 + i);
		}
		*fa_res = 0;
		*cs_res = 0;
		std::memset(b_.buf.get() + 16384, 0, kChunk);
		char inl[40];
		for (size_t i = 0; i < sizeof(inl); i++)
			inl[i] = static_cast<char>(client_byte(64 * 1024 + i));
		ibv_wr_start(qx);
		qx->wr_flags = IBV_SEND_SIGNALED;
		qx->wr_id = 1;
		ibv_wr_rdma_write(qx, k.remote.rkey, k.remote.addr + 32768);
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(32768), kChunk);
		qx->wr_id = 2;
		qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
		ibv_wr_rdma_write(qx, k.remote.rkey, k.remote.addr + 64 * 1024);
		ibv_wr_set_inline_data(qx, inl, sizeof(inl));
		qx->wr_flags = IBV_SEND_SIGNALED;
		qx->wr_id = 3;
		ibv_wr_send(qx);
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(kRecvOff), 1000);
		qx->wr_id = 4;
		ibv_wr_send_imm(qx, htobe32(0x5eed0001));
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(kRecvOff + kChunk), 2000);
		qx->wr_id = 5;
		ibv_wr_rdma_write_imm(qx, k.remote.rkey,
				      k.remote.addr + 40 * 1024,
				      htobe32(0x5eed0002));
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(40 * 1024), 3000);
		qx->wr_id = 6;
		ibv_wr_rdma_read(qx, k.remote.rkey, k.remote.addr + 128 * 1024);
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(16384), kChunk);
		qx->wr_id = 7;
		ibv_wr_atomic_fetch_add(qx, k.remote.rkey,
					k.remote.addr + kAtomicOff, 5);
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(8192), 8);
		qx->wr_id = 8;
		ibv_wr_atomic_cmp_swp(qx, k.remote.rkey,
				      k.remote.addr + kAtomicOff + 8, cs_target,
				      cs_new);
		ibv_wr_set_sge(qx, b_.mr->lkey, laddr(12288), 8);
		int rc = ibv_wr_complete(qx);
		tap(rc == 0, "ibv_wr_complete of 8 WRs built with ibv_wr_*: " +
				     err_str(rc));
		auto wcs = collect(k.cq, 8, soon(), 200);
		static const uint32_t ops[8] =
			{IBV_WC_RDMA_WRITE, IBV_WC_RDMA_WRITE, IBV_WC_SEND,
			 IBV_WC_SEND,	    IBV_WC_RDMA_WRITE, IBV_WC_RDMA_READ,
			 IBV_WC_FETCH_ADD,  IBV_WC_COMP_SWAP};
		bool ok = wcs.size() == 8;
		for (size_t i = 0; ok && i < 8; i++)
			ok = wcs[i].status == IBV_WC_SUCCESS &&
			     wcs[i].wr_id == i + 1 && wcs[i].opcode == ops[i] &&
			     wcs[i].qp_num == k.qp->qp_num;
		tap(ok, "8 completions in order, opcode and qp_num right, read "
			"through the extended CQ:" +
				describe(wcs));
		tap(ok && wcs[5].byte_len == kChunk,
		    "the READ's byte_len is " + std::to_string(kChunk) +
			    (ok ? " (" + std::to_string(wcs[5].byte_len) + ")" :
				  ""));
		size_t bad = bad_server_bytes(16384, 128 * 1024, kChunk);
		tap(bad == 0, "the READ's data arrived (" +
				      std::to_string(bad) + " bytes differ)");
		tap(*fa_res == fa_target && *cs_res == cs_target,
		    "the atomics returned the original values");
		auto rw = server_recv(0, 3);
		ok = rw.size() == 3;
		for (size_t i = 0; ok && i < 3; i++)
			ok = rw[i].status == IBV_WC_SUCCESS &&
			     rw[i].wr_id == 1000 + i &&
			     rw[i].src_qp == k.qp->qp_num &&
			     rw[i].qp_num == k.remote.qpn;
		tap(ok, "the responder's 3 receive completions, src_qp and "
			"qp_num right:" +
				describe(rw));
		tap(ok && rw[0].opcode == IBV_WC_RECV && rw[0].byte_len == 1000 &&
			    !(rw[0].wc_flags & IBV_WC_WITH_IMM),
		    "SEND: IBV_WC_RECV, byte_len 1000, no immediate");
		tap(ok && rw[1].opcode == IBV_WC_RECV && rw[1].byte_len == 2000 &&
			    (rw[1].wc_flags & IBV_WC_WITH_IMM) &&
			    rw[1].imm == 0x5eed0001,
		    "SEND_IMM: byte_len 2000, IBV_WC_WITH_IMM, imm 0x5eed0001");
		tap(ok && rw[2].opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
			    rw[2].byte_len == 3000 &&
			    (rw[2].wc_flags & IBV_WC_WITH_IMM) &&
			    rw[2].imm == 0x5eed0002,
		    "WRITE_IMM: IBV_WC_RECV_RDMA_WITH_IMM, byte_len 3000, imm 0x5eed0002");
		size_t v = verify(32768, kChunk) +
			   verify(64 * 1024, sizeof(inl)) +
			   verify(kRecvOff, 1000) +
			   verify(kRecvOff + kChunk, 2000) +
			   verify(40 * 1024, 3000);
		tap(v == 0, "the WRITEs', the inline WRITE's and the SENDs' data "
			    "arrived (" +
				    std::to_string(v) + " bytes differ)");
		// The classic post path on the same extended QP.
		ibv_sge sge{laddr(48 * 1024), kChunk, b_.mr->lkey};
		ibv_send_wr wr = signaled_wr(9, IBV_WR_RDMA_WRITE, sge), *badw;
		wr.wr.rdma.remote_addr = k.remote.addr + 48 * 1024;
		wr.wr.rdma.rkey = k.remote.rkey;
		rc = ibv_post_send(k.qp.get(), &wr, &badw);
		wcs = collect(k.cq, 1, soon());
		tap(rc == 0 && one_ok(wcs, IBV_WC_RDMA_WRITE) &&
			    verify(48 * 1024, kChunk) == 0,
		    "ibv_post_send on the extended QP:" + describe(wcs));
		// A builder error (inline data beyond max_inline_data): the
		// batch is refused at ibv_wr_complete, nothing is sent.
		std::vector<char> big(4096, 'x');
		ibv_wr_start(qx);
		qx->wr_id = 10;
		qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
		ibv_wr_rdma_write(qx, k.remote.rkey, k.remote.addr);
		ibv_wr_set_inline_data(qx, big.data(), big.size());
		rc = ibv_wr_complete(qx);
		wcs = collect(k.cq, 0, soon(0), 300);
		tap(rc != 0 && wcs.empty(),
		    "ibv_wr_complete with inline data beyond the QP's limit is refused (" +
			    err_str(rc) +
			    "), nothing completes:" + describe(wcs));
		Cmd st = command(STATE, 0);
		tap(st.arg == IBV_QPS_RTS, "the responder stays in RTS (state " +
						   std::to_string(st.arg) + ")");
	}

	void rereg()
	{
		Buffer buf = alloc_buffer(2 * kChunk);
		Mr mr = reg_mr(b_.pd.get(), buf.get(), 2 * kChunk,
			       IBV_ACCESS_LOCAL_WRITE);
		uint32_t lkey = mr->lkey;
		Pd pd2(ibv_alloc_pd(b_.ctx.get()));
		struct {
			const char *what;
			int flags;
			ibv_pd *pd;
			void *addr;
			size_t len;
			int access;
		} cases[] = {
			{"IBV_REREG_MR_CHANGE_ACCESS", IBV_REREG_MR_CHANGE_ACCESS,
			 nullptr, nullptr, 0, kAllAccess},
			{"IBV_REREG_MR_CHANGE_PD", IBV_REREG_MR_CHANGE_PD,
			 pd2.get(), nullptr, 0, 0},
			{"IBV_REREG_MR_CHANGE_TRANSLATION",
			 IBV_REREG_MR_CHANGE_TRANSLATION, nullptr,
			 buf.get() + kChunk, kChunk, 0},
		};
		for (auto &c : cases) {
			errno = 0;
			int rc = ibv_rereg_mr(mr.get(), c.flags, c.pd, c.addr,
					      c.len, c.access);
			int e = errno;
			tap(rc < 0 && e == EOPNOTSUPP,
			    std::string("ibv_rereg_mr ") + c.what +
				    ": expected a refusal with EOPNOTSUPP (as on rxe), got " +
				    std::to_string(rc) + ", " + err_str(e));
		}
		tap(mr->lkey == lkey && mr->pd == b_.pd.get() &&
			    mr->addr == buf.get() && mr->length == 2 * kChunk,
		    "the MR is unchanged");
		// Still usable: a WRITE from it.
		Conn k = connect(0);
		for (size_t i = 0; i < kChunk; i++)
			buf[i] = client_byte(96 * 1024 + i);
		ibv_wr_start(k.qx());
		k.qx()->wr_id = 1;
		k.qx()->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_rdma_write(k.qx(), k.remote.rkey,
				  k.remote.addr + 96 * 1024);
		ibv_wr_set_sge(k.qx(), mr->lkey,
			       reinterpret_cast<uintptr_t>(buf.get()), kChunk);
		int rc = ibv_wr_complete(k.qx());
		auto wcs = collect(k.cq, 1, soon());
		tap(rc == 0 && one_ok(wcs, IBV_WC_RDMA_WRITE) &&
			    verify(96 * 1024, kChunk) == 0,
		    "a WRITE from the MR after the refused reregistrations:" +
			    describe(wcs));
		rc = ibv_dereg_mr(mr.release());
		tap(rc == 0, "ibv_dereg_mr: " + err_str(rc));
	}

	// A window of @type bound at the server on slot @slot's QP: its rkey
	// (0 after a failed check).
	uint32_t bind(uint32_t slot, uint32_t type, uint32_t index = 0)
	{
		Cmd r = command(BIND, slot, type | index << 8);
		std::string e = r.arg >= 1000 ?
					std::string(ibv_wc_status_str(
						static_cast<ibv_wc_status>(
							r.arg - 1000))) :
					err_str(static_cast<int>(r.arg));
		tap(r.arg == 0 && r.value != 0,
		    "server: ibv_alloc_mw type " + std::to_string(type) + " and " +
			    (type == 1 ? "ibv_bind_mw" : "ibv_wr_bind_mw") +
			    " over 64 KiB of an MR with IBV_ACCESS_MW_BIND: " + e);
		return r.arg ? 0 : static_cast<uint32_t>(r.value);
	}

	// WRITE and READ through the window @rkey on @k, inside it: data
	// right both ways.
	void through_window(Conn &k, uint32_t rkey, const std::string &what)
	{
		uint64_t base = k.remote.addr + kWinOff;
		auto wcs = rdma(k, true, base + 1024, rkey, kWinOff + 1024,
				kChunk, 1);
		tap(one_ok(wcs, IBV_WC_RDMA_WRITE) &&
			    verify(kWinOff + 1024, kChunk) == 0,
		    "WRITE through the " + what +
			    " window's rkey:" + describe(wcs));
		std::memset(b_.buf.get() + 16384, 0, kChunk);
		wcs = rdma(k, false, base + kWinLen - kChunk, rkey, 16384,
			   kChunk, 2);
		size_t bad = bad_server_bytes(16384, kWinOff + kWinLen - kChunk,
					      kChunk);
		tap(one_ok(wcs, IBV_WC_RDMA_READ) && bad == 0,
		    "READ of the window's last 4 KiB through its rkey:" +
			    describe(wcs) + ", " + std::to_string(bad) +
			    " bytes wrong");
		restore(16384, kChunk);
	}

	// A WRITE with @rkey at @off from the server's buffer start that the
	// responder must refuse; the QP ends, both ways.  @off must be a
	// range no earlier check of the case wrote (through_window() writes
	// [kWinOff + 1024, kWinOff + 5120)).
	void refused(Conn &k, uint32_t rkey, uint64_t off, uint32_t len,
		     const std::string &what, uint32_t slot)
	{
		auto wcs = rdma(k, true, k.remote.addr + off, rkey, 0, len, 77);
		tap(one_status(wcs, IBV_WC_REM_ACCESS_ERR),
		    what + ": expected " +
			    ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR) + ", got" +
			    describe(wcs));
		size_t v = verify(off, len, true);
		tap(v == 0, what + ": nothing written at the server (" +
				    std::to_string(v) + " bytes changed)");
		Cmd st = command(STATE, slot);
		tap(st.arg == IBV_QPS_ERR,
		    what + ": the responder's QP is in ERR (state " +
			    std::to_string(st.arg) + ")");
	}

	void mw1()
	{
		Conn k = connect(0);
		uint32_t rkey = bind(0, 1);
		if (!rkey)
			return;
		tap(rkey != k.remote.rkey, "the window's rkey is its own");
		through_window(k, rkey, "type 1");
		refused(k, rkey, kWinOff + kWinLen - 8, 16,
			"WRITE through the type 1 window's rkey, 8 bytes past its end",
			0);
		// Rebinding gives a new rkey; the old one is gone.
		Conn k2 = connect(1);
		uint32_t rkey2 = bind(1, 1);
		if (!rkey2)
			return;
		tap(rkey2 != rkey, "a rebind changes the rkey");
		through_window(k2, rkey2, "rebound type 1");
		refused(k2, rkey, kWinOff + 16384, 64,
			"WRITE through the type 1 window's rkey before the rebind",
			1);
	}

	void mw2()
	{
		Conn k = connect(0);
		Conn other = connect(1);
		uint32_t rkey = bind(0, 2);
		if (!rkey)
			return;
		through_window(k, rkey, "type 2");
		// Bound to the server's QP of slot 0: not reachable from the
		// QP of slot 1.
		refused(other, rkey, kWinOff + 16384, 64,
			"WRITE through the type 2 window from a QP it is not bound to",
			1);
		refused(k, rkey, kWinOff - 64, 128,
			"WRITE through the type 2 window's rkey, starting 64 bytes before it",
			0);
		// Local invalidate, then the rkey is refused.
		Conn k3 = connect(2);
		uint32_t r3 = bind(2, 2, 1);
		if (!r3)
			return;
		through_window(k3, r3, "second type 2");
		Cmd r = command(INV, 2, r3);
		tap(r.arg == 0, "server: IBV_WR_LOCAL_INV of the window's rkey: " +
					err_str(static_cast<int>(r.arg)));
		refused(k3, r3, kWinOff + 16384, 64,
			"WRITE through the locally invalidated window's rkey", 2);
	}

	void inv()
	{
		Conn k = connect(0, 1);
		uint32_t rkey = bind(0, 2);
		if (!rkey)
			return;
		through_window(k, rkey, "type 2");
		ibv_wr_start(k.qx());
		k.qx()->wr_id = 5;
		k.qx()->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_send_inv(k.qx(), rkey);
		ibv_wr_set_sge(k.qx(), b_.mr->lkey, laddr(kRecvOff), 512);
		int rc = ibv_wr_complete(k.qx());
		auto wcs = collect(k.cq, 1, soon());
		tap(rc == 0 && one_ok(wcs, IBV_WC_SEND),
		    "SEND_WITH_INV of the window's rkey:" + describe(wcs));
		auto rw = server_recv(0, 1);
		tap(rw.size() == 1 && rw[0].status == IBV_WC_SUCCESS &&
			    rw[0].opcode == IBV_WC_RECV && rw[0].byte_len == 512 &&
			    (rw[0].wc_flags & IBV_WC_WITH_INV) &&
			    rw[0].imm == rkey,
		    "the receive completes with IBV_WC_WITH_INV and the rkey:" +
			    describe(rw) +
			    (rw.size() == 1 ?
				     " flags " + std::to_string(rw[0].wc_flags) +
					     " rkey " + std::to_string(rw[0].imm) :
				     ""));
		refused(k, rkey, kWinOff + 16384, 64,
			"WRITE through the remotely invalidated window's rkey",
			0);
	}

	int n_ = 0, failed_ = 0;
};

int run_client(const Options &o, Clock::time_point deadline)
{
	Base b = open_base(o, client_byte);
	return run_tap_client<Client>("mrc_verbs_ext", o, b, deadline);
}

} // namespace

int main(int argc, char **argv)
{
	return case_tap_main<Options>("mrc_verbs_ext",
				      "       [--qp-timeout=14] [--retry=7]\n"
				      "       [--case=query|cq-ex|qp-ex|rereg|mw1|mw2|inv]... [SERVER_ADDR]\n",
				      kCases, argc, argv, serve, run_client);
}
