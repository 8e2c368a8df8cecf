// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_ud_check: UD queue pairs through the stock rxe provider.  The client
// (TAP output) sends datagrams from a UD QP through an address handle;
// the server owns the peer UD QP, posts receives, waits for receive
// completions and reports what it saw (with its device's rx_ud_drop
// counter), each when the client asks over the TCP side channel.
//
// Checks: a UD QP is created and query_qp reports UD, a UD QP on an SRQ
// is refused; the IB core's UD attribute masks (INIT without a Q_Key, RC
// attributes at RTR and RTS: EINVAL); multicast attach refused
// (EOPNOTSUPP); a SEND lands after the 40-byte GRH that holds the
// sender's address, with src_qp, IBV_WC_GRH, byte_len 40 + payload and
// the RoCE packet type in sl (as mlx5 reports it);
// SEND_WITH_IMM delivers its immediate; a Q_Key that is not the
// receiver's is dropped and counted, a Q_Key with the high bit set is
// the sending QP's own; a datagram without a receive posted is dropped
// and counted; a receive buffer too small completes with
// IBV_WC_LOC_LEN_ERR and the receiver goes on; a SEND above the path MTU
// completes with IBV_WC_LOC_LEN_ERR (no packet) and an RDMA WRITE with
// IBV_WC_LOC_QP_OP_ERR, each leaving the QP in SQE, from which RTS
// resumes sending.  Last, WQEs written straight into the send ring (the
// kernel must not trust it): an AH number that names nothing, an AH of
// another PD, address vectors with a bad network type, a family that is
// not the network type's, a bad GID index, a destination QPN beyond 24
// bits and a huge num_sge each complete with their error (SQE); an
// address vector written by hand (no AH number) is delivered.
#include "cli.h"
#include "raw_sq.h"
#include "tap.h"
#include "verbs_common.h"

#include <cstdio>
#include <cstdlib>

using namespace verbs;

namespace {

constexpr uint32_t kGrh = 40;	       // the GRH in front of the payload
constexpr uint32_t kMsg = 64;	       // bytes per SEND
constexpr uint32_t kSlot = 8192;       // bytes per receive buffer
constexpr uint32_t kSlots = 8;	       // receive buffers
constexpr uint32_t kQkey = 0x11111111; // both QPs' Q_Key

struct Options : ConnOptions {
	Options() : ConnOptions(18545, 14, 7) {}
};

// One request of the client: post @n receives of @len bytes (op 1), or
// report the receives that complete within @n ms, once @len of them did
// and 100 ms more found no other (op 2), or end (0).
struct Cmd {
	uint32_t op;
	uint32_t n;
	uint32_t len;
};
struct Reply : RecvReport {
	uint64_t drops;	   // the device's rx_ud_drop, ~0 if unreadable
	uint8_t grh[kGrh]; // the first receive's GRH
};

Qp create_ud(ibv_pd *pd, ibv_cq *scq, ibv_cq *rcq, uint32_t send_wr,
	     uint32_t recv_wr, ibv_srq *srq = nullptr)
{
	ibv_qp_init_attr a{};
	a.send_cq = scq;
	a.recv_cq = rcq;
	a.srq = srq;
	a.qp_type = IBV_QPT_UD;
	a.cap.max_send_wr = send_wr;
	a.cap.max_recv_wr = recv_wr;
	a.cap.max_send_sge = 1;
	a.cap.max_recv_sge = 1;
	return Qp(ibv_create_qp(pd, &a));
}

int ud_to_init(ibv_qp *qp, int mask = IBV_QP_QKEY)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qkey = kQkey;
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     mask);
}

int ud_to_rtr(ibv_qp *qp, int extra = 0)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTR;
	a.dest_qp_num = 1;
	a.path_mtu = IBV_MTU_1024;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | extra);
}

int ud_to_rts(ibv_qp *qp, int extra = 0)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = new_psn();
	a.timeout = 14;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | extra);
}

void bring_up(ibv_qp *qp)
{
	if (int rc = ud_to_init(qp))
		fail_errno("UD QP to INIT", err_of(rc));
	if (int rc = ud_to_rtr(qp))
		fail_errno("UD QP to RTR", err_of(rc));
	if (int rc = ud_to_rts(qp))
		fail_errno("UD QP to RTS", err_of(rc));
}

// The device's rx_ud_drop counter, or ~0: the RDMA core's hw_counters
// as "rdma statistic" reads them over netlink (the device's sysfs
// directory is not visible in every network namespace).
uint64_t read_drops(const std::string &dev)
{
	const std::string cmd = "rdma statistic show link " + dev +
				"/1 2>/dev/null";
	FILE *f = ::popen(cmd.c_str(), "r");
	if (!f)
		return ~uint64_t{0};
	std::string out;
	char b[512];
	size_t n;
	while ((n = std::fread(b, 1, sizeof(b), f)) > 0)
		out.append(b, n);
	::pclose(f);
	const std::string key = " rx_ud_drop ";
	size_t at = out.find(key);
	if (at == std::string::npos)
		return ~uint64_t{0};
	return std::strtoull(out.c_str() + at + key.size(), nullptr, 10);
}

// ---------------------------------------------------------------- server
int serve(const Options &o, Clock::time_point dl)
{
	PortBase b = open_port_base(o);
	const size_t len = kSlots * kSlot;
	Buffer buf = alloc_buffer(len);
	Mr mr = reg_mr(b.pd.get(), buf.get(), len, IBV_ACCESS_LOCAL_WRITE);
	Cq cq = port_cq(b, 64);
	Qp qp = create_ud(b.pd.get(), cq.get(), cq.get(), 4, kSlots);
	if (!qp)
		fail_errno("ibv_create_qp UD");
	bring_up(qp.get());
	Tcp tcp = Tcp::listen_accept(o.port, dl);
	ConnInfo mine = conn_info(qp.get(), 0, b.gid, nullptr, 0, 0);
	mine.param[0] = b.mtu;
	exchange(tcp, mine, false, dl);
	RecvSlots slots{buf.get(), kSlot, kSlots, mr->lkey};
	return serve_requests<Cmd>("mrc_ud_check", tcp, dl, [&](const Cmd &c, unsigned &) {
		Reply r{};
		std::vector<ibv_wc> wcs;
		if (c.op == 1)
			slots.post(qp.get(), c.n, std::min(c.len, kSlot));
		else
			wcs = poll_settled(cq.get(), c.len,
					   std::min<int>(c.n, ms_until(dl)),
					   kSlots);
		report_recvs(r, wcs, slots, kGrh, qp.get());
		if (!wcs.empty() && wcs[0].wr_id < kSlots)
			std::memcpy(r.grh, slots.at(wcs[0].wr_id), kGrh);
		r.drops = read_drops(o.dev);
		return r;
	});
}

// ---------------------------------------------------------------- client
class Client : PortClient<Options> {
public:
	using PortClient::PortClient;

	int run()
	{
		buf_ = alloc_buffer(8192);
		mr_ = reg_mr(b_.pd.get(), buf_.get(), 8192,
			     IBV_ACCESS_LOCAL_WRITE);
		cq_ = port_cq(b_, 64);
		rcq_ = port_cq(b_, 8);
		create();
		masks();
		connect();
		deliver();
		qkey();
		no_receive();
		small_receive();
		send_errors();
		hostile();
		tcp_.send(Cmd{});
		return tap_.finish();
	}

private:
	void create()
	{
		auto e = errno_on_srq(b_.pd.get(), [&](ibv_srq *srq) {
			return create_ud(b_.pd.get(), cq_.get(), cq_.get(), 4,
					 0, srq);
		});
		if (e)
			tap_.check(*e == EOPNOTSUPP,
				   "UD QP on an SRQ is refused: " + err_str(*e) +
					   " (EOPNOTSUPP expected)");
		else
			tap_.check(false, "ibv_create_srq: " + err_str(errno));
		qp_ = create_ud(b_.pd.get(), cq_.get(), rcq_.get(), 16, 4);
		if (!qp_)
			fail_errno("ibv_create_qp UD");
		ibv_qp_attr a{};
		ibv_qp_init_attr ia{};
		int rc = ibv_query_qp(qp_.get(), &a, IBV_QP_STATE, &ia);
		tap_.check(rc == 0 && ia.qp_type == IBV_QPT_UD &&
				   a.qp_state == IBV_QPS_RESET,
			   "UD QP created, ibv_query_qp reports qp_type " +
				   std::to_string(ia.qp_type) + " (UD is " +
				   std::to_string(IBV_QPT_UD) + "), RESET");
	}

	// What ib_modify_qp_is_ok() allows a UD QP, on a QP of its own (a
	// refused transition leaves it where it was).
	void masks()
	{
		Qp q = create_ud(b_.pd.get(), cq_.get(), cq_.get(), 4, 4);
		if (!q)
			fail_errno("ibv_create_qp UD");
		int rc = ud_to_init(q.get(), 0);
		tap_.check(err_of(rc) == EINVAL,
			   "UD to INIT without a Q_Key: " + err_str(rc) +
				   " (EINVAL expected)");
		rc = ud_to_init(q.get(), IBV_QP_QKEY | IBV_QP_ACCESS_FLAGS);
		tap_.check(err_of(rc) == EINVAL,
			   "UD to INIT with access flags: " + err_str(rc) +
				   " (EINVAL expected)");
		rc = ud_to_init(q.get());
		tap_.check(rc == 0, "UD to INIT (PKEY_INDEX, PORT, QKEY): " +
					    err_str(rc));
		rc = ud_to_rtr(q.get(), IBV_QP_DEST_QPN);
		tap_.check(err_of(rc) == EINVAL,
			   "UD to RTR with IBV_QP_DEST_QPN: " + err_str(rc) +
				   " (EINVAL expected)");
		rc = ud_to_rtr(q.get(), IBV_QP_PATH_MTU);
		tap_.check(err_of(rc) == EINVAL,
			   "UD to RTR with IBV_QP_PATH_MTU: " + err_str(rc) +
				   " (EINVAL expected)");
		rc = ud_to_rtr(q.get());
		tap_.check(rc == 0, "UD to RTR: " + err_str(rc));
		rc = ud_to_rts(q.get(), IBV_QP_TIMEOUT);
		tap_.check(err_of(rc) == EINVAL,
			   "UD to RTS with IBV_QP_TIMEOUT: " + err_str(rc) +
				   " (EINVAL expected)");
		rc = ud_to_rts(q.get());
		ibv_qp_attr a{};
		ibv_qp_init_attr ia{};
		int qrc = ibv_query_qp(q.get(), &a, IBV_QP_STATE | IBV_QP_QKEY,
				       &ia);
		tap_.check(rc == 0 && qrc == 0 && a.qp_state == IBV_QPS_RTS &&
				   a.qkey == kQkey,
			   "UD to RTS (SQ_PSN): " + err_str(rc) +
				   ", query reports RTS and the Q_Key");
		ibv_gid g{};
		g.raw[0] = 0xff;
		g.raw[1] = 0x0e;
		g.raw[15] = 1;
		rc = ibv_attach_mcast(q.get(), &g, 0);
		tap_.check(err_of(rc) == EOPNOTSUPP,
			   "ibv_attach_mcast is refused: " + err_str(rc) +
				   " (EOPNOTSUPP expected)");
	}

	// The address of the peer (its GID, from our GID o_.gid).
	ibv_ah_attr peer_ah() const
	{
		ibv_ah_attr aa{};
		aa.is_global = 1;
		std::memcpy(aa.grh.dgid.raw, peer_.gid, 16);
		aa.grh.sgid_index = static_cast<uint8_t>(o_.gid);
		aa.grh.hop_limit = 64;
		aa.port_num = 1;
		return aa;
	}

	void connect()
	{
		bring_up(qp_.get());
		ConnInfo mine = conn_info(qp_.get(), 0, b_.gid, nullptr, 0, 0);
		mine.param[0] = b_.mtu;
		peer_ = exchange(tcp_, mine, true, deadline_);
		ibv_ah_attr aa = peer_ah();
		ah_.reset(ibv_create_ah(b_.pd.get(), &aa));
		if (!ah_)
			fail_errno("ibv_create_ah");
		mtu_ = 128u << b_.mtu;
	}

	// Post @op of @len bytes (tag @tag after the first bytes) to the
	// peer with @qkey and wait for its completion; its status, or -1 if
	// none came.
	int post(ibv_wr_opcode op, uint32_t tag, uint32_t len,
		 uint32_t qkey = kQkey, uint32_t imm = 0)
	{
		ibv_sge sge;
		ibv_send_wr wr = tagged_wr(tag, op, buf_.get(), kMsg, len,
					   mr_->lkey, imm, sge),
			    *bad;
		wr.wr.ud.ah = ah_.get();
		wr.wr.ud.remote_qpn = peer_.qpn;
		wr.wr.ud.remote_qkey = qkey;
		if (int rc = ibv_post_send(qp_.get(), &wr, &bad))
			return -3 - err_of(rc);
		return wait_status(cq_.get(), tag, 20000);
	}

	Reply expect(uint32_t ms, uint32_t want = 1)
	{
		Cmd c{2, ms, want};
		return request<Reply>(tcp_, c, deadline_);
	}

	Reply post_recv(uint32_t n, uint32_t len = kSlot)
	{
		Cmd c{1, n, len};
		return request<Reply>(tcp_, c, deadline_);
	}

	static std::string st(int s)
	{
		if (s == -1)
			return "no completion";
		if (s < -2)
			return "ibv_post_send: " + err_str(-3 - s);
		if (s < 0)
			return "another completion";
		return ibv_wc_status_str(static_cast<ibv_wc_status>(s));
	}

	// The GRH holds the sender's address: an IPv6 header with our GID
	// as its source, or 20 zero bytes and an IPv4 header with the
	// IPv4 address of our IPv4-mapped GID.
	bool ipv4_gid() const
	{
		static const uint8_t mapped[12] = {0, 0, 0, 0, 0,    0,
						   0, 0, 0, 0, 0xff, 0xff};
		return !std::memcmp(b_.gid.raw, mapped, sizeof(mapped));
	}

	bool grh_from_us(const Reply &r) const
	{
		const uint8_t *g = b_.gid.raw;
		if (ipv4_gid()) {
			static const uint8_t zero[20] = {};
			return !std::memcmp(r.grh, zero, 20) &&
			       (r.grh[20] >> 4) == 4 &&
			       !std::memcmp(r.grh + 20 + 12, g + 12, 4);
		}
		return (r.grh[0] >> 4) == 6 && !std::memcmp(r.grh + 8, g, 16);
	}

	void deliver()
	{
		post_recv(1);
		int s = post(IBV_WR_SEND, 1, kMsg);
		Reply r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS &&
				   r.opcode == IBV_WC_RECV && r.tag == 1 &&
				   r.byte_len == kGrh + kMsg,
			   "SEND delivered after the GRH: " + st(s) + ", " +
				   std::to_string(r.got) + " receives, tag " +
				   std::to_string(r.tag) + ", byte_len " +
				   std::to_string(r.byte_len) + " (" +
				   std::to_string(kGrh + kMsg) + " expected)");
		tap_.check(r.src_qp == qp_->qp_num && (r.flags & IBV_WC_GRH) &&
				   !(r.flags & IBV_WC_WITH_IMM),
			   "... src_qp " + std::to_string(r.src_qp) + " (" +
				   std::to_string(qp_->qp_num) +
				   " expected), IBV_WC_GRH set");
		tap_.check(grh_from_us(r),
			   "... the GRH holds the sender's address");
		// RoCE has no SL: the completion's sl is the packet type, as
		// mlx5 reports it and UCX's UD transport reads it (bit 3
		// UDP, bits 2:0 1 IPv6, 2 IPv4).
		const unsigned want = ipv4_gid() ? 0xa : 0x9;
		tap_.check(r.sl == want, "... sl " + std::to_string(r.sl) +
						 ", the RoCE packet type (" +
						 std::to_string(want) +
						 " expected)");
		drops_ = r.drops;
		tap_.check(drops_ != ~uint64_t{0},
			   "the receiver's rx_ud_drop counter is readable (" +
				   std::to_string(drops_) + ")");
		post_recv(1);
		s = post(IBV_WR_SEND_WITH_IMM, 2, kMsg, kQkey, 0xc0ffee);
		r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS &&
				   (r.flags & IBV_WC_WITH_IMM) &&
				   r.imm == 0xc0ffee && r.tag == 2 &&
				   r.src_qp == qp_->qp_num,
			   "SEND_WITH_IMM delivered with its immediate (" +
				   std::to_string(r.imm) + ")");
	}

	// The receiver's rx_ud_drop grew by @n since the last look.
	bool dropped(const Reply &r, uint64_t n)
	{
		bool ok = r.drops == drops_ + n;
		drops_ = r.drops;
		return ok;
	}

	void qkey()
	{
		post_recv(1);
		int s = post(IBV_WR_SEND, 3, kMsg, kQkey ^ 0x00ff0000);
		Reply r = expect(300);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 0 &&
				   r.state == IBV_QPS_RTS,
			   "SEND with another Q_Key: the sender completes it (" +
				   st(s) + "), the receiver drops it (" +
				   std::to_string(r.got) + " receives)");
		tap_.check(dropped(r, 1), "... rx_ud_drop counted it (" +
						  std::to_string(r.drops) + ")");
		// The receive posted above is still there: the QP's own
		// Q_Key (both are kQkey) reaches it.
		s = post(IBV_WR_SEND, 4, kMsg, 0x80000000u);
		r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS && r.tag == 4,
			   "a Q_Key with the high bit set is the sending QP's: "
			   "delivered (tag " +
				   std::to_string(r.tag) + ")");
	}

	void no_receive()
	{
		int s = post(IBV_WR_SEND, 5, kMsg);
		Reply r = expect(300);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 0 &&
				   r.state == IBV_QPS_RTS && dropped(r, 1),
			   "SEND without a receive posted: dropped, counted, "
			   "the receiver stays RTS (" +
				   std::to_string(r.got) + " receives)");
	}

	void small_receive()
	{
		post_recv(1, kGrh + kMsg / 2);
		int s = post(IBV_WR_SEND, 6, kMsg);
		Reply r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_LOC_LEN_ERR &&
				   r.state == IBV_QPS_RTS,
			   "a receive buffer too small: " +
				   std::string(ibv_wc_status_str(
					   static_cast<ibv_wc_status>(r.status))) +
				   " (IBV_WC_LOC_LEN_ERR expected), the "
				   "receiver stays RTS");
		post_recv(1);
		s = post(IBV_WR_SEND, 7, kMsg);
		r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS && r.tag == 7,
			   "... and receives the next SEND");
	}

	// Back to RTS from SQE: IBA's way out of a send queue error.
	bool resume()
	{
		ibv_qp_attr a{};
		a.qp_state = IBV_QPS_RTS;
		return ibv_modify_qp(qp_.get(), &a, IBV_QP_STATE) == 0 &&
		       qp_state(qp_.get()) == IBV_QPS_RTS;
	}

	void send_errors()
	{
		post_recv(1);
		int s = post(IBV_WR_SEND, 8, mtu_ + 1);
		ibv_qp_state q = qp_state(qp_.get());
		Reply r = expect(300);
		tap_.check(s == IBV_WC_LOC_LEN_ERR && q == IBV_QPS_SQE &&
				   r.got == 0,
			   "SEND of path MTU + 1 bytes (" +
				   std::to_string(mtu_ + 1) + "): " + st(s) +
				   ", the QP in SQE, nothing sent "
				   "(IBV_WC_LOC_LEN_ERR expected)");
		tap_.check(resume(), "SQE -> RTS");
		s = post(IBV_WR_SEND, 9, mtu_);
		r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS && r.tag == 9 &&
				   r.byte_len == kGrh + mtu_,
			   "... a SEND of path MTU bytes is delivered (" +
				   std::to_string(r.byte_len) + " bytes)");
		s = post(IBV_WR_RDMA_WRITE, 10, kMsg);
		q = qp_state(qp_.get());
		tap_.check(s == IBV_WC_LOC_QP_OP_ERR && q == IBV_QPS_SQE,
			   "RDMA WRITE on UD: " + st(s) +
				   ", the QP in SQE (IBV_WC_LOC_QP_OP_ERR "
				   "expected)");
		tap_.check(resume(), "SQE -> RTS");
	}

	// A WQE the provider never writes, published in the send ring after
	// an anchor WQE (an RDMA WRITE: refused, no packet) that finds the
	// ring, then a doorbell (another WRITE, which follows it): @fill
	// writes it; the status it completes with, -1 for none.
	template <typename Fill> int raw(uint64_t id, Fill fill)
	{
		static uint64_t anchor = 0xa0000000;
		int s = post(IBV_WR_RDMA_WRITE, static_cast<uint32_t>(++anchor),
			     kMsg);
		resume();
		auto sq = RawSq::find(anchor);
		if (s != IBV_WC_LOC_QP_OP_ERR || !sq)
			return -1;
		rxe_send_wqe *w = sq->next();
		w->wr.wr_id = id;
		w->wr.opcode = IBV_WR_SEND;
		w->wr.send_flags = IBV_SEND_SIGNALED;
		w->wr.wr.ud.remote_qpn = peer_.qpn;
		w->wr.wr.ud.remote_qkey = kQkey;
		w->dma.length = kMsg;
		w->dma.resid = kMsg;
		w->dma.num_sge = 1;
		RawSq::sges(*w)[0] = {reinterpret_cast<uintptr_t>(buf_.get()),
				      kMsg, mr_->lkey};
		fill(*w);
		sq->publish();
		// The doorbell's WRITE gathers from elsewhere: the raw WQE's
		// bytes are read at this doorbell.
		ibv_sge sge{reinterpret_cast<uintptr_t>(buf_.get() + 4096),
			    kMsg, mr_->lkey};
		ibv_send_wr wr = signaled_wr(++anchor, IBV_WR_RDMA_WRITE, sge);
		ibv_send_wr *bad;
		wr.wr.ud.ah = ah_.get();
		wr.wr.ud.remote_qpn = peer_.qpn;
		wr.wr.ud.remote_qkey = kQkey;
		if (ibv_post_send(qp_.get(), &wr, &bad))
			return -1;
		auto wcs = poll_n(cq_.get(), 2, 5000);
		int st = -1;
		for (auto &wc : wcs)
			if (wc.wr_id == id)
				st = wc.status;
		resume();
		return st;
	}

	// The peer's address as the provider writes it into an AV.
	void fill_av(rxe_av &av) const
	{
		static const uint8_t mapped[12] = {0, 0, 0, 0, 0,    0,
						   0, 0, 0, 0, 0xff, 0xff};
		std::memset(&av, 0, sizeof(av));
		av.port_num = 1;
		av.grh.sgid_index = static_cast<uint8_t>(o_.gid);
		av.grh.hop_limit = 64;
		std::memcpy(av.grh.dgid.raw, peer_.gid, 16);
		if (!std::memcmp(peer_.gid, mapped, sizeof(mapped))) {
			av.network_type = RXE_NETWORK_TYPE_IPV4;
			av.dgid_addr._sockaddr_in.sin_family = AF_INET;
			std::memcpy(&av.dgid_addr._sockaddr_in.sin_addr,
				    peer_.gid + 12, 4);
		} else {
			av.network_type = RXE_NETWORK_TYPE_IPV6;
			av.dgid_addr._sockaddr_in6.sin6_family = AF_INET6;
			std::memcpy(&av.dgid_addr._sockaddr_in6.sin6_addr,
				    peer_.gid, 16);
		}
	}

	void hostile()
	{
		const int op = IBV_WC_LOC_QP_OP_ERR;
		auto is = [](int s, int want) {
			return s == want ? std::string("as expected") :
					   "got " + st(s);
		};
		int s = raw(100, [](rxe_send_wqe &w) {
			w.wr.wr.ud.ah_num = 0x7fffff;
		});
		tap_.check(s == op,
			   "raw WQE, AH number that names no AH: " + is(s, op));
		s = raw(101, [this](rxe_send_wqe &w) {
			fill_av(w.wr.wr.ud.av);
			w.wr.wr.ud.av.network_type = 7;
		});
		tap_.check(s == op, "raw WQE, AV network type 7: " + is(s, op));
		s = raw(102, [this](rxe_send_wqe &w) {
			fill_av(w.wr.wr.ud.av);
			w.wr.wr.ud.av.network_type =
				w.wr.wr.ud.av.network_type ==
						RXE_NETWORK_TYPE_IPV4 ?
					RXE_NETWORK_TYPE_IPV6 :
					RXE_NETWORK_TYPE_IPV4;
		});
		tap_.check(s == op, "raw WQE, AV family not its network type's: " +
					    is(s, op));
		s = raw(103, [this](rxe_send_wqe &w) {
			fill_av(w.wr.wr.ud.av);
			w.wr.wr.ud.av.grh.sgid_index = 250;
		});
		tap_.check(s == op, "raw WQE, AV GID index 250: " + is(s, op));
		s = raw(104, [this](rxe_send_wqe &w) {
			fill_av(w.wr.wr.ud.av);
			w.wr.wr.ud.remote_qpn = 0x1000000 | peer_.qpn;
		});
		tap_.check(s == op, "raw WQE, destination QPN beyond 24 bits: " +
					    is(s, op));
		s = raw(105, [this](rxe_send_wqe &w) {
			fill_av(w.wr.wr.ud.av);
			w.dma.num_sge = 0x7fffffff;
		});
		tap_.check(s == IBV_WC_LOC_LEN_ERR,
			   "raw WQE, num_sge 2^31-1: " +
				   is(s, IBV_WC_LOC_LEN_ERR));
		// An AH of another PD, through the provider (it passes the
		// AH's number as it is).
		Pd pd2(ibv_alloc_pd(b_.ctx.get()));
		ibv_ah_attr aa = peer_ah();
		Ah ah2(pd2 ? ibv_create_ah(pd2.get(), &aa) : nullptr);
		if (ah2) {
			std::swap(ah_, ah2);
			s = post(IBV_WR_SEND, 106, kMsg);
			std::swap(ah_, ah2);
			resume();
		} else {
			s = -2;
		}
		tap_.check(s == op,
			   "SEND through an AH of another PD: " + is(s, op));
		// A hand-written AV (what a provider without AH numbers
		// sends) is delivered.
		post_recv(1);
		s = raw(107, [this](rxe_send_wqe &w) {
			fill_av(w.wr.wr.ud.av);
			uint32_t tag = 107;
			std::memcpy(buf_.get(), &tag, sizeof(tag));
		});
		Reply r = expect(10000);
		tap_.check(s == IBV_WC_SUCCESS && r.got == 1 &&
				   r.status == IBV_WC_SUCCESS && r.tag == 107,
			   "raw WQE with a hand-written AV: " +
				   is(s, IBV_WC_SUCCESS) + ", delivered (tag " +
				   std::to_string(r.tag) + ")");
	}

	Tap tap_{"mrc_ud_check"};
	Buffer buf_;
	Mr mr_;
	Cq cq_;
	Cq rcq_;
	Qp qp_;
	Ah ah_;
	ConnInfo peer_{};
	uint32_t mtu_ = 1024;
	uint64_t drops_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
	return port_tap_main<Client, Options>("mrc_ud_check",
					      "       [SERVER_ADDR]\n", argc,
					      argv, serve);
}
