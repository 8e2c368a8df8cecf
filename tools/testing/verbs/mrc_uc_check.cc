// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_uc_check: UC queue pairs through the stock rxe provider.  The client
// (TAP output) sends on a UC QP; the server owns the peer UC QP, posts
// receives, waits for receive completions and reports what it saw, each
// when the client asks over the TCP side channel.
//
// Checks: create with max_send_wr / max_recv_wr within and beyond the
// device's limits, a UC QP on an SRQ refused, a UD QP created (UD has
// mrc_ud_check), query_qp reports UC; the
// IB core's UC attribute masks (RC-only attributes at RTR and RTS
// refused); a SEND that finds no receive WQE is dropped (the sender
// completes it, the receiver sees nothing and stays RTS) and the next
// SEND, with a receive posted, is delivered; SEND_WITH_IMM; a
// WRITE_WITH_IMM and a WRITE with a bad rkey are dropped (the sender
// completes them successfully, no receive completes, no byte lands, the
// receiver stays RTS) and a good WRITE_WITH_IMM lands after them; RDMA
// READ and ATOMIC complete with IBV_WC_LOC_QP_OP_ERR and end the QP.
#include "cli.h"
#include "tap.h"
#include "verbs_common.h"

#include <array>

using namespace verbs;

namespace {

constexpr uint32_t kMsg = 64;	  // bytes per SEND
constexpr uint32_t kSlot = 256;	  // bytes per receive buffer
constexpr uint32_t kSlots = 8;	  // receive buffers
constexpr uint32_t kWrite = 4096; // the WRITE target, after the slots
constexpr uint32_t kRecvWr = 4;

struct Options : ConnOptions {
	Options() : ConnOptions(18540, 14, 7) {}
};

// One request of the client: post @n receives (op 1; the reply says they
// are posted), or report the receives that complete within @n ms, once
// @want of them did and 100 ms more found no other (op 2), or end (0).
struct Cmd {
	uint32_t op;
	uint32_t n;
	uint32_t want;
};
struct Reply : RecvReport {
	uint32_t wtag; // the first 4 bytes of the WRITE target
};

Qp create_uc(ibv_pd *pd, ibv_cq *cq, uint32_t send_wr, uint32_t recv_wr,
	     ibv_srq *srq = nullptr, ibv_qp_cap *cap = nullptr)
{
	ibv_qp_init_attr a{};
	a.send_cq = cq;
	a.recv_cq = cq;
	a.srq = srq;
	a.qp_type = IBV_QPT_UC;
	a.cap.max_send_wr = send_wr;
	a.cap.max_recv_wr = recv_wr;
	a.cap.max_send_sge = 1;
	a.cap.max_recv_sge = 1;
	Qp qp(ibv_create_qp(pd, &a));
	if (cap)
		*cap = a.cap;
	return qp;
}

// UC's attributes (ib_modify_qp_is_ok()): no RD atomics, RNR timer, timeout or
// retry counts.
int uc_to_init(ibv_qp *qp)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     IBV_QP_ACCESS_FLAGS);
}

int uc_to_rtr(ibv_qp *qp, const Options &o, ibv_mtu mtu, const ConnInfo &r,
	      int extra = 0)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qp_num = r.qpn;
	a.rq_psn = r.psn;
	a.max_dest_rd_atomic = 1;
	a.ah_attr.is_global = 1;
	std::memcpy(a.ah_attr.grh.dgid.raw, r.gid, 16);
	a.ah_attr.grh.sgid_index = static_cast<uint8_t>(o.gid);
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | extra);
}

int uc_to_rts(ibv_qp *qp, uint32_t psn, int extra = 0)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = psn;
	a.timeout = 14;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | extra);
}

void bring_up(ibv_qp *qp, const Options &o, ibv_mtu mtu, const ConnInfo &r,
	      uint32_t psn)
{
	if (int rc = uc_to_init(qp))
		fail_errno("UC QP to INIT", err_of(rc));
	if (int rc = uc_to_rtr(qp, o, mtu, r))
		fail_errno("UC QP to RTR", err_of(rc));
	if (int rc = uc_to_rts(qp, psn))
		fail_errno("UC QP to RTS", err_of(rc));
}

// ---------------------------------------------------------------- server
int serve(const Options &o, Clock::time_point dl)
{
	PortBase b = open_port_base(o);
	const size_t len = kWrite + 4096;
	Buffer buf = alloc_buffer(len);
	Mr mr = reg_mr(b.pd.get(), buf.get(), len,
		       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	Cq cq = port_cq(b, 64);
	Qp qp = create_uc(b.pd.get(), cq.get(), 16, kRecvWr);
	if (!qp)
		fail_errno("ibv_create_qp UC");
	Tcp tcp = Tcp::listen_accept(o.port, dl);
	uint32_t psn = new_psn();
	ConnInfo mine = conn_info(qp.get(), psn, b.gid, buf.get() + kWrite,
				  4096, mr->rkey);
	mine.param[0] = b.mtu;
	ConnInfo peer = exchange(tcp, mine, false, dl);
	bring_up(qp.get(), o,
		 std::min(b.mtu, static_cast<ibv_mtu>(peer.param[0])), peer, psn);
	RecvSlots slots{buf.get(), kSlot, kSlots, mr->lkey};
	return serve_requests<
		Cmd>("mrc_uc_check", tcp, dl, [&](const Cmd &c, unsigned &errors) {
		Reply r{};
		if (c.op == 1) {
			slots.post(qp.get(), c.n, kSlot);
			report_recvs(r, {}, slots, 0, qp.get());
			return r;
		}
		auto wcs = poll_settled(cq.get(), c.want,
					std::min<int>(c.n, ms_until(dl)), kSlots);
		for (auto &w : wcs)
			errors += w.status != IBV_WC_SUCCESS;
		report_recvs(r, wcs, slots, 0, qp.get());
		r.wtag = tag_at(buf.get() + kWrite);
		return r;
	});
}

// ---------------------------------------------------------------- client
class Client : PortClient<Options> {
public:
	using PortClient::PortClient;

	int run()
	{
		buf_ = alloc_buffer(4096);
		mr_ = reg_mr(b_.pd.get(), buf_.get(), 4096,
			     IBV_ACCESS_LOCAL_WRITE);
		cq_ = port_cq(b_, 64);
		create();
		masks();
		connect();
		send_dropped();
		write_dropped();
		read_refused();
		tcp_.send(Cmd{});
		return tap_.finish();
	}

private:
	void create()
	{
		ibv_device_attr da{};
		if (int rc = ibv_query_device(b_.ctx.get(), &da))
			fail_errno("ibv_query_device", err_of(rc));
		uint32_t max = static_cast<uint32_t>(da.max_qp_wr);
		Qp q = create_uc(b_.pd.get(), cq_.get(), max + 1, 4);
		tap_.check(!q, "UC QP with max_send_wr max_qp_wr + 1 (" +
				       std::to_string(max + 1) + ") is refused");
		q = create_uc(b_.pd.get(), cq_.get(), 4, max + 1);
		tap_.check(!q, "UC QP with max_recv_wr max_qp_wr + 1 is refused");
		auto e = errno_on_srq(b_.pd.get(), [&](ibv_srq *srq) {
			return create_uc(b_.pd.get(), cq_.get(), 4, 0, srq);
		});
		if (e)
			tap_.check(*e == EOPNOTSUPP,
				   "UC QP on an SRQ is refused: " + err_str(*e) +
					   " (EOPNOTSUPP expected)");
		else
			tap_.check(false, "ibv_create_srq: " + err_str(errno));
		// UD is a QP type of mrc too (issue 15; mrc_ud_check).
		ibv_qp_init_attr ua{};
		ua.send_cq = cq_.get();
		ua.recv_cq = cq_.get();
		ua.qp_type = IBV_QPT_UD;
		ua.cap = {4, 4, 1, 1, 0};
		errno = 0;
		q.reset(ibv_create_qp(b_.pd.get(), &ua));
		int ue = errno;
		ibv_qp_attr ua_attr{};
		tap_.check(q &&
				   ibv_query_qp(q.get(), &ua_attr, IBV_QP_STATE,
						&ua) == 0 &&
				   ua.qp_type == IBV_QPT_UD,
			   "UD QP is created: " + err_str(q ? 0 : ue));
		q.reset();
		ibv_qp_cap cap{};
		qp_ = create_uc(b_.pd.get(), cq_.get(), 16, kRecvWr, nullptr,
				&cap);
		if (!qp_)
			fail_errno(
				"ibv_create_qp UC max_send_wr 16 max_recv_wr 4");
		tap_.check(cap.max_send_wr >= 16 && cap.max_recv_wr >= kRecvWr,
			   "UC QP created: max_send_wr " +
				   std::to_string(cap.max_send_wr) +
				   ", max_recv_wr " +
				   std::to_string(cap.max_recv_wr));
		ibv_qp_attr a{};
		ibv_qp_init_attr ia{};
		int rc = ibv_query_qp(qp_.get(), &a, IBV_QP_STATE | IBV_QP_CAP,
				      &ia);
		tap_.check(rc == 0 && ia.qp_type == IBV_QPT_UC &&
				   a.qp_state == IBV_QPS_RESET &&
				   a.cap.max_send_wr >= 16 &&
				   a.cap.max_recv_wr >= kRecvWr,
			   "ibv_query_qp reports qp_type " +
				   std::to_string(ia.qp_type) + " (UC is " +
				   std::to_string(IBV_QPT_UC) + "), RESET");
	}

	// What ib_modify_qp_is_ok() allows a UC QP, checked on a QP of
	// its own (a refused transition leaves it where it was).
	void masks()
	{
		Qp q = create_uc(b_.pd.get(), cq_.get(), 4, 4);
		if (!q)
			fail_errno("ibv_create_qp UC");
		ConnInfo self = conn_info(q.get(), 1, b_.gid, nullptr, 0, 0);
		int rc = uc_to_init(q.get());
		tap_.check(rc == 0,
			   "UC to INIT with REMOTE_WRITE: " + err_str(rc));
		rc = uc_to_rtr(q.get(), o_, b_.mtu, self,
			       IBV_QP_MAX_DEST_RD_ATOMIC);
		tap_.check(err_of(rc) == EINVAL,
			   "UC to RTR with IBV_QP_MAX_DEST_RD_ATOMIC: " +
				   err_str(rc) + " (EINVAL expected)");
		rc = uc_to_rtr(q.get(), o_, b_.mtu, self, IBV_QP_MIN_RNR_TIMER);
		tap_.check(err_of(rc) == EINVAL,
			   "UC to RTR with IBV_QP_MIN_RNR_TIMER: " + err_str(rc) +
				   " (EINVAL expected)");
		rc = uc_to_rtr(q.get(), o_, b_.mtu, self);
		tap_.check(rc == 0, "UC to RTR (AV, MTU, DEST_QPN, RQ_PSN): " +
					    err_str(rc));
		rc = uc_to_rts(q.get(), 1, IBV_QP_TIMEOUT);
		tap_.check(err_of(rc) == EINVAL,
			   "UC to RTS with IBV_QP_TIMEOUT: " + err_str(rc) +
				   " (EINVAL expected)");
		rc = uc_to_rts(q.get(), 1);
		tap_.check(rc == 0 && qp_state(q.get()) == IBV_QPS_RTS,
			   "UC to RTS (SQ_PSN): " + err_str(rc));
	}

	void connect()
	{
		uint32_t psn = new_psn();
		ConnInfo mine = conn_info(qp_.get(), psn, b_.gid, nullptr, 0, 0);
		mine.param[0] = b_.mtu;
		peer_ = exchange(tcp_, mine, true, deadline_);
		mtu_ = std::min(b_.mtu, static_cast<ibv_mtu>(peer_.param[0]));
		bring_up(qp_.get(), o_, mtu_, peer_, psn);
		psn_ = psn;
	}

	// Post @op (tag @tag in the first bytes, @len of them) and wait for
	// its completion; its status, or -1 if none came.
	int post(ibv_qp *qp, ibv_wr_opcode op, uint32_t tag, uint32_t len,
		 uint32_t rkey = 0, uint32_t imm = 0)
	{
		ibv_sge sge;
		ibv_send_wr wr = tagged_wr(tag, op, buf_.get(), kMsg, len,
					   mr_->lkey, imm, sge),
			    *bad;
		if (op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			wr.wr.atomic.remote_addr = peer_.addr;
			wr.wr.atomic.rkey = rkey;
			wr.wr.atomic.compare_add = 1;
		} else {
			wr.wr.rdma.remote_addr = peer_.addr;
			wr.wr.rdma.rkey = rkey;
		}
		if (int rc = ibv_post_send(qp, &wr, &bad))
			fail_errno("ibv_post_send", err_of(rc));
		return wait_status(cq_.get(), tag, 20000);
	}

	Reply expect(uint32_t ms)
	{
		Cmd c{2, ms, 1};
		return request<Reply>(tcp_, c, deadline_);
	}

	void post_recv(uint32_t n)
	{
		Cmd c{1, n, 0};
		request<Reply>(tcp_, c, deadline_);
	}

	static std::string st(int s)
	{
		return s < 0 ? "no completion" :
			       ibv_wc_status_str(static_cast<ibv_wc_status>(s));
	}

	void send_dropped()
	{
		int s = post(qp_.get(), IBV_WR_SEND, 1, kMsg);
		tap_.check(s == IBV_WC_SUCCESS,
			   "SEND to a UC QP without a receive posted completes: " +
				   st(s));
		Reply r = expect(300);
		tap_.check(r.got == 0 && r.state == IBV_QPS_RTS,
			   "... the receiver drops it: " + std::to_string(r.got) +
				   " receives, state " +
				   std::to_string(r.state) + " (RTS is " +
				   std::to_string(IBV_QPS_RTS) + ")");
		post_recv(1);
		s = post(qp_.get(), IBV_WR_SEND, 2, kMsg);
		r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS &&
				   r.opcode == IBV_WC_RECV && r.byte_len == kMsg &&
				   r.tag == 2 && r.state == IBV_QPS_RTS,
			   "the next SEND, with a receive posted, is delivered (tag " +
				   std::to_string(r.tag) + ", " +
				   std::to_string(r.byte_len) + " bytes, " +
				   std::to_string(r.got) + " receives)");
		post_recv(1);
		s = post(qp_.get(), IBV_WR_SEND_WITH_IMM, 3, kMsg, 0, 0xc0ffee);
		r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS &&
				   r.imm == 0xc0ffee && r.tag == 3,
			   "SEND_WITH_IMM delivered with its immediate");
	}

	void write_dropped()
	{
		post_recv(1);
		uint32_t bad = peer_.rkey ^ 0x5a5a00;
		int s = post(qp_.get(), IBV_WR_RDMA_WRITE_WITH_IMM, 0xbad1,
			     kMsg, bad, 7);
		tap_.check(s == IBV_WC_SUCCESS,
			   "WRITE_WITH_IMM with a bad rkey: the sender completes it: " +
				   st(s));
		s = post(qp_.get(), IBV_WR_RDMA_WRITE, 0xbad2, kMsg, bad);
		tap_.check(s == IBV_WC_SUCCESS,
			   "WRITE with a bad rkey: the sender completes it: " +
				   st(s));
		Reply r = expect(300);
		tap_.check(r.got == 0 && r.wtag == 0 && r.state == IBV_QPS_RTS,
			   "... the receiver drops both: " + std::to_string(r.got) +
				   " receives, target tag " +
				   std::to_string(r.wtag) + ", state " +
				   std::to_string(r.state));
		s = post(qp_.get(), IBV_WR_RDMA_WRITE_WITH_IMM, 4, kMsg,
			 peer_.rkey, 9);
		r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS &&
				   r.opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
				   r.imm == 9 && r.wtag == 4 &&
				   r.state == IBV_QPS_RTS,
			   "a good WRITE_WITH_IMM then lands in the receive posted before (imm " +
				   std::to_string(r.imm) + ", target tag " +
				   std::to_string(r.wtag) + ")");
	}

	void read_refused()
	{
		int s = post(qp_.get(), IBV_WR_RDMA_READ, 5, kMsg, peer_.rkey);
		tap_.check(s == IBV_WC_LOC_QP_OP_ERR &&
				   qp_state(qp_.get()) == IBV_QPS_ERR,
			   "RDMA READ on UC: " + st(s) +
				   ", the QP in ERR (IBV_WC_LOC_QP_OP_ERR expected)");
		// An ATOMIC on a second UC QP toward the same peer.
		Qp q = create_uc(b_.pd.get(), cq_.get(), 4, 1);
		if (!q)
			fail_errno("ibv_create_qp UC");
		bring_up(q.get(), o_, mtu_, peer_, psn_ + 1000);
		s = post(q.get(), IBV_WR_ATOMIC_FETCH_AND_ADD, 6, 8, peer_.rkey);
		tap_.check(s == IBV_WC_LOC_QP_OP_ERR,
			   "ATOMIC on UC: " + st(s) +
				   " (IBV_WC_LOC_QP_OP_ERR expected)");
	}

	Tap tap_{"mrc_uc_check"};
	Buffer buf_;
	Mr mr_;
	Cq cq_;
	Qp qp_;
	ConnInfo peer_{};
	ibv_mtu mtu_ = IBV_MTU_1024;
	uint32_t psn_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
	return port_tap_main<Client, Options>("mrc_uc_check",
					      "       [SERVER_ADDR]\n", argc,
					      argv, serve);
}
