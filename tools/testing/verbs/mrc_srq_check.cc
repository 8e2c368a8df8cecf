// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_srq_check: shared receive queues through the stock rxe provider.
// The client (TAP output) owns an SRQ shared by kQps RC QPs; the server
// owns as many plain RC QPs and sends on them what the client asks for
// over the TCP side channel, then reports its send completions.
//
// Checks: device limits; the SRQ's WQEs checked against the SRQ's PD; create, query, resize (WQEs posted before survive)
// and the limit event; SENDs on every QP land in the SRQ's WQEs, complete
// into the QP's receive CQ with its qp_num, data verified; an empty SRQ
// makes the sender retry (RNR) until WQEs are posted; an SRQ WQE with a
// bad lkey completes with IBV_WC_LOC_PROT_ERR (the sender: remote invalid
// request) and its QP raises LAST_WQE_REACHED; a QP moved to ERR flushes
// no SRQ WQE, raises LAST_WQE_REACHED, the other QPs still receive into
// them; destroying the SRQ with QPs attached is refused (EBUSY).
#include "cli.h"
#include "raw_sq.h"
#include "tap.h"
#include "verbs_common.h"

#include <rdma/rdma_user_rxe.h>

#include <array>
#include <atomic>
#include <fstream>
#include <sstream>

using namespace verbs;

namespace {

constexpr int kQps = 3;
constexpr uint32_t kMsg = 32;	// bytes per SEND
constexpr uint32_t kSlot = 64;	// bytes per receive buffer
constexpr uint32_t kSlots = 64; // receive buffers

struct Options : ConnOptions {
	Options() : ConnOptions(18530, 14, 7) {}
};

// One request of the client: SEND @count messages on server QP @qp, the
// first numbered @first; the reply counts the successful completions and
// gives the first bad status.
struct Cmd {
	uint32_t op; // 0: end, 1: send
	uint32_t qp;
	uint32_t count;
	uint32_t first;
};
struct Reply {
	uint32_t ok;
	uint32_t bad_status; // IBV_WC_SUCCESS if none
};

uint8_t pattern(uint32_t msg, uint32_t j)
{
	return static_cast<uint8_t>(msg * 7 + j * 13 + 1);
}

std::string err_str(int rc) { return rc ? std::strerror(rc) : "ok"; }

struct Ends {
	std::array<Qp, kQps> qp;
	std::array<ConnInfo, kQps> peer{};
};

// Both ends: kQps QPs (on @srq if given), exchanged and brought to RTS.
void connect_all(const Options &o, PortBase &b, ibv_cq *cq, ibv_srq *srq,
		 Tcp &tcp, bool client, Ends &e, Clock::time_point dl)
{
	std::array<ConnInfo, kQps> mine{};
	for (int i = 0; i < kQps; i++) {
		ibv_qp_init_attr a{};
		a.send_cq = cq;
		a.recv_cq = cq;
		a.srq = srq;
		a.qp_type = IBV_QPT_RC;
		a.cap.max_send_wr = 16;
		a.cap.max_recv_wr = srq ? 0 : 1;
		a.cap.max_send_sge = 1;
		a.cap.max_recv_sge = 1;
		e.qp[i].reset(ibv_create_qp(b.pd.get(), &a));
		if (!e.qp[i])
			fail_errno("ibv_create_qp" +
				   std::string(srq ? " with an SRQ" : ""));
		mine[i] = conn_info(e.qp[i].get(), 100 + i, b.gid, nullptr, 0, 0);
		qp_to_init(e.qp[i].get(), 1, IBV_ACCESS_LOCAL_WRITE);
	}
	e.peer = exchange(tcp, mine, client, dl);
	PathParams pp;
	pp.gid_index = o.gid;
	pp.mtu = b.mtu;
	pp.timeout = static_cast<uint8_t>(o.qp_timeout);
	pp.retry = static_cast<uint8_t>(o.retry);
	pp.rnr_retry = 7; // RNR: retry for ever
	for (int i = 0; i < kQps; i++) {
		qp_to_rtr(e.qp[i].get(), pp, e.peer[i]);
		qp_to_rts(e.qp[i].get(), pp, 100 + i);
	}
}

// ---------------------------------------------------------------- server
int serve(const Options &o, Clock::time_point dl)
{
	PortBase b = open_port_base(o);
	Buffer buf = alloc_buffer(kMsg * 256);
	Mr mr = reg_mr(b.pd.get(), buf.get(), kMsg * 256, IBV_ACCESS_LOCAL_WRITE);
	Cq cq = port_cq(b, 64);
	Tcp tcp = Tcp::listen_accept(o.port, dl);
	Ends e;
	connect_all(o, b, cq.get(), nullptr, tcp, false, e, dl);
	return serve_requests<
		Cmd>("mrc_srq_check", tcp, dl, [&](const Cmd &c, unsigned &errors) {
		Reply r{0, IBV_WC_SUCCESS};
		for (uint32_t k = 0; k < c.count && c.qp < kQps; k++) {
			uint32_t msg = c.first + k;
			uint8_t *p = buf.get() + (msg % 256) * kMsg;
			std::memcpy(p, &msg, sizeof(msg));
			for (uint32_t j = sizeof(msg); j < kMsg; j++)
				p[j] = pattern(msg, j);
			ibv_sge sge{reinterpret_cast<uintptr_t>(p), kMsg,
				    mr->lkey};
			ibv_send_wr wr = signaled_wr(msg, IBV_WR_SEND, sge), *bad;
			if (int rc = ibv_post_send(e.qp[c.qp].get(), &wr, &bad))
				fail_errno("ibv_post_send", rc);
		}
		auto wcs = poll_n(cq.get(), c.count, ms_until(dl));
		for (auto &w : wcs) {
			if (w.status == IBV_WC_SUCCESS)
				r.ok++;
			else if (r.bad_status == IBV_WC_SUCCESS)
				r.bad_status = w.status;
		}
		if (wcs.size() != c.count)
			errors++;
		return r;
	});
}

// ---------------------------------------------------------------- client
class Client : PortClient<Options> {
public:
	using PortClient::PortClient;

	int run()
	{
		int fl = fcntl(b_.ctx->async_fd, F_GETFL);
		fcntl(b_.ctx->async_fd, F_SETFL, fl | O_NONBLOCK);
		// The SRQ and its receive buffers in a PD of their own, the
		// QPs in the base PD: an SRQ WQE's lkeys belong to the SRQ's
		// PD (IBA 10.2.9), so every receive below checks that too.
		pd2_.reset(ibv_alloc_pd(b_.ctx.get()));
		if (!pd2_)
			fail_errno("ibv_alloc_pd");
		buf_ = alloc_buffer(kSlot * kSlots);
		mr_ = reg_mr(pd2_.get(), buf_.get(), kSlot * kSlots,
			     IBV_ACCESS_LOCAL_WRITE);
		cq_ = port_cq(b_, 64);
		if (!create())
			return tap_.finish();
		connect_all(o_, b_, cq_.get(), srq_, tcp_, true, e_, deadline_);
		shared();
		limit();
		rnr();
		bad_lkey();
		err_keeps_wqes();
		hostile();
		destroy();
		tcp_.send(Cmd{});
		return tap_.finish();
	}

private:
	bool create()
	{
		ibv_device_attr da{};
		int rc = ibv_query_device(b_.ctx.get(), &da);
		tap_.check(rc == 0 && da.max_srq > 0 && da.max_srq_wr >= 64 &&
				   da.max_srq_sge >= 1,
			   "ibv_query_device: max_srq " +
				   std::to_string(da.max_srq) + ", max_srq_wr " +
				   std::to_string(da.max_srq_wr) +
				   ", max_srq_sge " +
				   std::to_string(da.max_srq_sge));
		ibv_srq_init_attr ia{};
		ia.attr.max_wr = 16;
		ia.attr.max_sge = 2;
		srq_ = ibv_create_srq(pd2_.get(), &ia);
		if (!tap_.check(srq_ != nullptr,
				"ibv_create_srq max_wr 16 max_sge 2: " +
					err_str(srq_ ? 0 : errno)))
			return false;
		ibv_srq_attr qa{};
		rc = ibv_query_srq(srq_, &qa);
		tap_.check(rc == 0 && qa.max_wr >= 16 && qa.max_sge >= 2 &&
				   qa.srq_limit == 0,
			   "ibv_query_srq: max_wr " + std::to_string(qa.max_wr) +
				   " max_sge " + std::to_string(qa.max_sge));
		// Beyond the device's limits: refused.
		ibv_srq_init_attr big{};
		big.attr.max_wr = da.max_srq_wr + 1;
		big.attr.max_sge = 1;
		ibv_srq *s = ibv_create_srq(pd2_.get(), &big);
		tap_.check(!s,
			   "ibv_create_srq with max_wr above max_srq_wr is refused");
		if (s)
			ibv_destroy_srq(s);
		// WQEs posted before a resize are still there after it.
		post(4);
		ibv_srq_attr ra{};
		ra.max_wr = 64;
		rc = ibv_modify_srq(srq_, &ra, IBV_SRQ_MAX_WR);
		qa = {};
		ibv_query_srq(srq_, &qa);
		tap_.check(rc == 0 && qa.max_wr >= 64,
			   "ibv_modify_srq max_wr 64 (resize): " + err_str(rc) +
				   ", max_wr now " + std::to_string(qa.max_wr));
		return true;
	}

	// Post @n receives into the SRQ, each its own slot; @bad_lkey for
	// the first of them.
	void post(int n, bool bad_lkey = false)
	{
		for (int i = 0; i < n; i++) {
			uint32_t slot = next_slot_++ % kSlots;
			ibv_sge sge{reinterpret_cast<uintptr_t>(buf_.get() +
								slot * kSlot),
				    kSlot, mr_->lkey};
			if (bad_lkey && i == 0)
				sge.lkey ^= 0x5a5a00;
			ibv_recv_wr wr{}, *bad;
			wr.wr_id = slot;
			wr.sg_list = &sge;
			wr.num_sge = 1;
			if (int rc = ibv_post_srq_recv(srq_, &wr, &bad))
				fail_errno("ibv_post_srq_recv", rc);
		}
	}

	Reply send(uint32_t qp, uint32_t count)
	{
		Cmd c{1, qp, count, next_msg_};
		next_msg_ += count;
		return request<Reply>(tcp_, c, deadline_);
	}

	// The receive @w: success, a QP of ours, the data of a message.
	bool good_recv(const ibv_wc &w, uint32_t want_qp = ~0U)
	{
		if (w.status != IBV_WC_SUCCESS || w.opcode != IBV_WC_RECV ||
		    w.byte_len != kMsg || w.wr_id >= kSlots)
			return false;
		if (want_qp != ~0U && w.qp_num != want_qp)
			return false;
		const uint8_t *p = buf_.get() + w.wr_id * kSlot;
		uint32_t msg;
		std::memcpy(&msg, p, sizeof(msg));
		for (uint32_t j = sizeof(msg); j < kMsg; j++)
			if (p[j] != pattern(msg, j))
				return false;
		return true;
	}

	// Async events until @type arrives for @qp (nullptr: the SRQ), or
	// @ms pass.
	bool wait_event(ibv_event_type type, ibv_qp *qp, int ms)
	{
		auto end = Clock::now() + std::chrono::milliseconds(ms);
		while (Clock::now() < end) {
			ibv_async_event ev;
			if (ibv_get_async_event(b_.ctx.get(), &ev)) {
				std::this_thread::sleep_for(
					std::chrono::milliseconds(5));
				continue;
			}
			bool hit = ev.event_type == type &&
				   (qp ? ev.element.qp == qp :
					 ev.element.srq == srq_);
			ibv_ack_async_event(&ev);
			if (hit)
				return true;
		}
		return false;
	}

	void shared()
	{
		// 4 posted before the resize and 2 more: 2 SENDs on each QP.
		post(2);
		Reply r[kQps];
		for (int i = 0; i < kQps; i++)
			r[i] = send(i, 2);
		auto wcs = poll_n(cq_.get(), 6, 20000);
		int per[kQps] = {};
		bool ok = wcs.size() == 6;
		for (auto &w : wcs) {
			ok = ok && good_recv(w);
			for (int i = 0; i < kQps; i++)
				per[i] += w.qp_num == e_.qp[i]->qp_num;
		}
		for (int i = 0; i < kQps; i++)
			ok = ok && per[i] == 2 && r[i].ok == 2;
		tap_.check(ok, "SRQ shared by " + std::to_string(kQps) +
				       " QPs: 2 SENDs each land in its WQEs (" +
				       std::to_string(wcs.size()) +
				       " receives, qp_num and data checked)");
	}

	void limit()
	{
		post(4);
		ibv_srq_attr a{};
		a.srq_limit = 2;
		int rc = ibv_modify_srq(srq_, &a, IBV_SRQ_LIMIT);
		tap_.check(rc == 0, "ibv_modify_srq srq_limit 2: " + err_str(rc));
		bool early = wait_event(IBV_EVENT_SRQ_LIMIT_REACHED, nullptr,
					200);
		Reply r = send(0, 3); // 1 WQE left: below the limit
		auto wcs = poll_n(cq_.get(), 3, 20000);
		bool ok = wcs.size() == 3 && r.ok == 3;
		for (auto &w : wcs)
			ok = ok && good_recv(w, e_.qp[0]->qp_num);
		tap_.check(ok, "3 SENDs on QP 0 take 3 of the 4 WQEs");
		tap_.check(!early && wait_event(IBV_EVENT_SRQ_LIMIT_REACHED,
						nullptr, 5000),
			   "IBV_EVENT_SRQ_LIMIT_REACHED once fewer than 2 WQEs are left (not before)");
		a = {};
		ibv_query_srq(srq_, &a);
		tap_.check(a.srq_limit == 0,
			   "the limit is disarmed after the event (srq_limit " +
				   std::to_string(a.srq_limit) + ")");
	}

	void rnr()
	{
		// 1 WQE left: the first SEND lands, 2 wait for more (RNR).
		Cmd c{1, 1, 3, next_msg_};
		next_msg_ += 3;
		tcp_.send(c);
		auto wcs = poll_n(cq_.get(), 1, 20000);
		auto more = poll_n(cq_.get(), 1, 500);
		tap_.check(wcs.size() == 1 && good_recv(wcs[0]) && more.empty(),
			   "SRQ empty: 1 of 3 SENDs on QP 1 received, the others wait");
		post(2);
		wcs = poll_n(cq_.get(), 2, 20000);
		Reply r = tcp_.recv<Reply>(deadline_);
		bool ok = wcs.size() == 2 && r.ok == 3;
		for (auto &w : wcs)
			ok = ok && good_recv(w, e_.qp[1]->qp_num);
		tap_.check(ok,
			   "after 2 more WQEs the RNR retries succeed (sender: " +
				   std::to_string(r.ok) + " of 3 completed)");
	}

	void bad_lkey()
	{
		// The bad WQE first: QP 2's SEND takes it.
		post(1, true);
		Reply r = send(2, 1);
		auto wcs = poll_n(cq_.get(), 1, 20000);
		tap_.check(wcs.size() == 1 &&
				   wcs[0].status == IBV_WC_LOC_PROT_ERR &&
				   wcs[0].qp_num == e_.qp[2]->qp_num,
			   std::string(
				   "an SRQ WQE with a bad lkey completes with ") +
				   (wcs.empty() ?
					    "nothing" :
					    ibv_wc_status_str(wcs[0].status)) +
				   " on QP 2");
		tap_.check(r.ok == 0 && r.bad_status == IBV_WC_REM_INV_REQ_ERR,
			   std::string("the sender's SEND fails with ") +
				   ibv_wc_status_str(static_cast<ibv_wc_status>(
					   r.bad_status)));
		tap_.check(wait_event(IBV_EVENT_QP_LAST_WQE_REACHED,
				      e_.qp[2].get(), 5000),
			   "QP 2 in ERR raises IBV_EVENT_QP_LAST_WQE_REACHED");
	}

	void err_keeps_wqes()
	{
		post(2);
		ibv_qp_attr a{};
		a.qp_state = IBV_QPS_ERR;
		int rc = ibv_modify_qp(e_.qp[1].get(), &a, IBV_QP_STATE);
		tap_.check(rc == 0 && wait_event(IBV_EVENT_QP_LAST_WQE_REACHED,
						 e_.qp[1].get(), 5000),
			   "QP 1 moved to ERR raises IBV_EVENT_QP_LAST_WQE_REACHED");
		auto none = poll_n(cq_.get(), 1, 300);
		tap_.check(none.empty(),
			   "QP 1 in ERR flushes none of the SRQ's WQEs");
		Reply r = send(0, 2);
		auto wcs = poll_n(cq_.get(), 2, 20000);
		bool ok = wcs.size() == 2 && r.ok == 2;
		for (auto &w : wcs)
			ok = ok && good_recv(w, e_.qp[0]->qp_num);
		tap_.check(ok, "QP 0 still receives into the 2 WQEs");
	}

	// The SRQ ring as the provider shares it: the one among the
	// process's uverbs mappings whose newest slot holds wr_id @id.
	rxe_queue_buf *find_ring(uint64_t id)
	{
		rxe_queue_buf *found = nullptr;
		for_each_uverbs_mapping([&](uintptr_t start, uintptr_t len) {
			auto *q = reinterpret_cast<rxe_queue_buf *>(start);
			if (q->log2_elem_size < 5 || q->log2_elem_size > 12 ||
			    q->index_mask > 0xffff ||
			    sizeof(*q) + ((uint64_t(q->index_mask) + 1)
					  << q->log2_elem_size) >
				    len)
				return false;
			uint32_t last = (q->producer_index - 1) & q->index_mask;
			uint64_t wr_id;
			std::memcpy(&wr_id,
				    q->data + (size_t(last) << q->log2_elem_size),
				    sizeof(wr_id));
			if (wr_id == id)
				found = q;
			return found != nullptr;
		});
		return found;
	}

	// What userspace writes into the ring is hostile: a WQE whose
	// num_sge is far beyond what a slot holds, published with garbage in
	// the producer index's high bits.  The SEND that takes it completes
	// with IBV_WC_LOC_LEN_ERR; nothing else happens.
	void hostile()
	{
		const uint64_t id = 0x5eed0001;
		ibv_sge sge{reinterpret_cast<uintptr_t>(buf_.get()), kSlot,
			    mr_->lkey};
		ibv_recv_wr wr{}, *bad;
		wr.wr_id = id;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		if (int rc = ibv_post_srq_recv(srq_, &wr, &bad))
			fail_errno("ibv_post_srq_recv", rc);
		rxe_queue_buf *q = find_ring(id);
		if (!tap_.check(q != nullptr,
				"the SRQ ring found among the mappings"))
			return;
		uint32_t last = (q->producer_index - 1) & q->index_mask;
		uint8_t *w = q->data + (size_t(last) << q->log2_elem_size);
		// struct rxe_recv_wqe: wr_id, 8 bytes, then rxe_dma_info
		// (length, resid, cur_sge, num_sge, ...).
		uint32_t huge = 0x7fffffff;
		std::memcpy(w + 8 + 8 + 12, &huge, sizeof(huge));
		std::atomic_ref<uint32_t> prod(q->producer_index);
		prod.store(prod.load() | ~q->index_mask,
			   std::memory_order_release);
		Reply r = send(0, 1);
		auto wcs = poll_n(cq_.get(), 1, 20000);
		tap_.check(wcs.size() == 1 && wcs[0].wr_id == id &&
				   wcs[0].status == IBV_WC_LOC_LEN_ERR &&
				   wcs[0].qp_num == e_.qp[0]->qp_num,
			   std::string(
				   "an SRQ WQE with num_sge 2^31-1 completes with ") +
				   (wcs.empty() ?
					    "nothing" :
					    ibv_wc_status_str(wcs[0].status)) +
				   " on QP 0");
		tap_.check(r.ok == 0 && r.bad_status != IBV_WC_SUCCESS,
			   std::string("the sender's SEND fails with ") +
				   ibv_wc_status_str(static_cast<ibv_wc_status>(
					   r.bad_status)));
	}

	void destroy()
	{
		int rc = ibv_destroy_srq(srq_);
		tap_.check(rc == EBUSY,
			   "ibv_destroy_srq with QPs attached: " + err_str(rc) +
				   " (EBUSY expected)");
		if (!rc)
			srq_ = nullptr;
		for (auto &q : e_.qp)
			q.reset();
		if (srq_) {
			rc = ibv_destroy_srq(srq_);
			tap_.check(rc == 0,
				   "ibv_destroy_srq once the QPs are gone: " +
					   err_str(rc));
			srq_ = nullptr;
		}
	}

	Tap tap_{"mrc_srq_check"};
	Pd pd2_;
	Buffer buf_;
	Mr mr_;
	Cq cq_;
	ibv_srq *srq_ = nullptr;
	Ends e_;
	uint32_t next_slot_ = 0, next_msg_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
	return port_tap_main<Client, Options>("mrc_srq_check",
					      "       [--qp-timeout=14] [--retry=7] [SERVER_ADDR]\n",
					      argc, argv, serve);
}
