// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_imm: more WRITE_WITH_IMM than the QP's max_wimm at once.  The
// client sets MRC_QP_MAX_WIMM (-W, default 4) and posts --count (default
// 4 x max_wimm) WRITE_WITH_IMM in one list; the requester keeps at most
// max_wimm of them in flight, the rest wait for credits, and every one
// completes, in order, on both sides.  The server posts --recv receives
// (default: --count) before the client starts: with fewer receives than
// immediates an MRC QP has no RNR to fall back on, the QP fails, and
// --expect-fail makes that the expected outcome (a failed completion on
// the client, exit 0).  With --async each end then waits for its QP's
// asynchronous event (mrc_get_async_event): QP_FATAL at the client,
// QP_REQ_ERR at the server (an invalid request: no receive), acknowledges
// it and destroys the QP.  --peer-gone: the server destroys its QP once
// connected; the client's WRITE_WITH_IMM runs out of retries
// (the common --mrc-timeout, --retry-linear, --retry-exp: MRC_QP_TIMEOUT
// and MRC_QP_RETRY_CNT), completes RETRY_EXC_ERR, and QP_FATAL follows.
// --wimm-dest=N sets MRC_QP_MAX_WIMM_DEST (default: -W): a client whose
// max_wimm is larger may find the server holding N WRITE_WITH_IMM not
// yet completed (a packet lost before them); the next one is refused,
// the server's QP fails (its receives flush: with --expect-fail that is
// the expected outcome there too) and raises QP_REQ_ERR.
//
//   server: mrc_imm -d mrc1 [--count=N] [--recv=N] [--async] [--peer-gone]
//   client: mrc_imm -d mrc2 [-W MAX_WIMM] [--count=N] [--expect-fail]
//           [--async] [--peer-gone] [--mrc-timeout=T] [--retry-linear=N]
//           [--retry-exp=N] SERVER
#include "example_common.hpp"

using namespace example;

namespace {

void usage(const char *prog)
{
	std::printf("usage: %s [options] [SERVER]\n%s"
		    "      --count=N         WRITE_WITH_IMM to post (default 4 x max-wimm)\n"
		    "      --recv=N          receives the server posts (default --count)\n"
		    "      --expect-fail     the run must end in a failed completion\n"
		    "      --async           then the QP's asynchronous event must come\n"
		    "      --peer-gone       the server destroys its QP, the client's retries run out\n"
		    "      --wimm-dest=N     MRC_QP_MAX_WIMM_DEST (default -W)\n",
		    prog, common_usage);
}

struct ImmOptions {
	long count = 0;
	long recv = -1;
	bool expect_fail = false;
	bool async = false;
	bool peer_gone = false;
};

// The server's QP disappears; the client's one WRITE_WITH_IMM is never
// acknowledged, fails RETRY_EXC_ERR, and the QP raises QP_FATAL.
void peer_gone_client(Endpoint &e)
{
	sync_peer(e.sock); // the server's QP is gone
	auto t0 = Clock::now();
	post_write(e, 0, 0, e.opt.size, 1, 1);
	ibv_wc wc{};
	auto deadline = t0 + std::chrono::seconds(e.opt.timeout);
	int n;
	while ((n = mrc_poll_cq(e.scq.get(), 1, &wc)) == 0 &&
	       Clock::now() < deadline)
		usleep(1000);
	if (n < 0)
		fail_errno("mrc_poll_cq");
	if (n == 0)
		fail("no completion in time");
	if (wc.status != IBV_WC_RETRY_EXC_ERR)
		fail(std::string("completion ") + ibv_wc_status_str(wc.status) +
		     ", expected " + ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR));
	std::printf("mrc_imm: WRITE_WITH_IMM to a destroyed QP: %s after %.3f s\n",
		    ibv_wc_status_str(wc.status), seconds_since(t0));
	expect_qp_event(e, IBV_EVENT_QP_FATAL, e.opt.timeout, "mrc_imm");
}

void peer_gone_server(Endpoint &e)
{
	int rc = mrc_destroy_qp(e.qp.release());
	if (rc)
		fail_errno("mrc_destroy_qp", rc);
	std::printf("mrc_imm: QP destroyed\n");
	sync_peer(e.sock);
}

void client(Endpoint &e, const ImmOptions &io)
{
	const size_t sz = e.opt.size;
	auto deadline = Clock::now() + std::chrono::seconds(e.opt.timeout);
	std::vector<ibv_sge> sge(static_cast<size_t>(io.count));
	std::vector<ibv_send_wr> wr(static_cast<size_t>(io.count));
	for (long i = 0; i < io.count; i++) {
		auto k = static_cast<size_t>(i);
		sge[k] = {reinterpret_cast<uintptr_t>(e.buf.get()) + k * sz,
			  static_cast<uint32_t>(sz), e.mr->lkey};
		std::memset(e.buf.get() + k * sz, static_cast<int>(i & 0xff), sz);
		wr[k] = {};
		wr[k].wr_id = k;
		wr[k].sg_list = &sge[k];
		wr[k].num_sge = 1;
		wr[k].opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		wr[k].imm_data = htonl(static_cast<uint32_t>(i));
		wr[k].send_flags = IBV_SEND_SIGNALED;
		wr[k].wr.rdma.remote_addr = e.peer.addr + k * sz;
		wr[k].wr.rdma.rkey = e.peer.rkey;
		wr[k].next = i + 1 < io.count ? &wr[k + 1] : nullptr;
	}
	sync_peer(e.sock); // the server's receives are posted
	ibv_send_wr *bad = nullptr;
	int rc = mrc_post_send(e.qp.get(), wr.data(), &bad);
	if (rc)
		fail_errno("mrc_post_send of " + std::to_string(io.count) +
				   " WRITE_WITH_IMM",
			   rc);
	std::printf("mrc_imm: posted %ld WRITE_WITH_IMM at once, max_wimm %u\n",
		    io.count, e.opt.max_wimm);
	long next = 0;
	std::vector<ibv_wc> wc(static_cast<size_t>(io.count));
	while (next < io.count) {
		int n = mrc_poll_cq(e.scq.get(), static_cast<int>(io.count),
				    wc.data());
		if (n < 0)
			fail_errno("mrc_poll_cq");
		for (int k = 0; k < n; k++, next++) {
			if (wc[k].status != IBV_WC_SUCCESS) {
				std::printf("mrc_imm: WRITE_WITH_IMM %lu failed: %s\n",
					    wc[k].wr_id,
					    ibv_wc_status_str(wc[k].status));
				if (io.expect_fail && io.async)
					expect_qp_event(e, IBV_EVENT_QP_FATAL,
							e.opt.timeout, "mrc_imm");
				if (io.expect_fail)
					return;
				fail("failed completion");
			}
			if (wc[k].wr_id != static_cast<uint64_t>(next))
				fail("completion out of order: " +
				     std::to_string(wc[k].wr_id) +
				     ", expected " + std::to_string(next));
		}
		if (Clock::now() > deadline)
			fail("timed out after " + std::to_string(next) +
			     " completions");
	}
	if (io.expect_fail)
		fail("every WRITE_WITH_IMM completed, a failure was expected");
	std::printf("mrc_imm: %ld WRITE_WITH_IMM completed in order\n", io.count);
	sync_peer(e.sock);
}

void server(Endpoint &e, const ImmOptions &io)
{
	const size_t sz = e.opt.size;
	const long want = std::min(io.count, io.recv);
	auto deadline = Clock::now() + std::chrono::seconds(e.opt.timeout);
	ibv_wc wc;
	sync_peer(e.sock);
	for (long i = 0; i < want; i++) {
		int n;
		while ((n = mrc_poll_cq(e.rcq.get(), 1, &wc)) == 0 &&
		       Clock::now() < deadline)
			;
		if (n < 0)
			fail_errno("mrc_poll_cq immediates");
		if (n == 0)
			fail("timed out waiting for immediates");
		if (wc.status != IBV_WC_SUCCESS) {
			std::printf("mrc_imm: receive %lu failed: %s\n",
				    wc.wr_id, ibv_wc_status_str(wc.status));
			if (!io.expect_fail)
				fail("failed receive completion");
			if (io.async)
				expect_qp_event(e, IBV_EVENT_QP_REQ_ERR,
						e.opt.timeout, "mrc_imm");
			return;
		}
		if (ntohl(wc.imm_data) != static_cast<uint32_t>(i))
			fail("immediate " + std::to_string(ntohl(wc.imm_data)) +
			     ", expected " + std::to_string(i));
		const uint8_t *p = e.buf.get() + static_cast<size_t>(i) * sz;
		for (size_t j = 0; j < sz; j++)
			if (p[j] != static_cast<uint8_t>(i & 0xff))
				fail("message " + std::to_string(i) +
				     " corrupted");
	}
	std::printf("mrc_imm: %ld immediates received in order, data verified\n",
		    want);
	if (want == io.count)
		sync_peer(e.sock);
	else if (io.async)
		expect_qp_event(e, IBV_EVENT_QP_REQ_ERR, e.opt.timeout,
				"mrc_imm");
}

} // namespace

int main(int argc, char **argv)
{
	return run_main("mrc_imm", [&] {
		Options o;
		o.size = 256;
		o.max_wimm = 4;
		ImmOptions io;
		parse_options(argc, argv, o,
			      {{"count", 0, true, number_into(io.count)},
			       {"recv", 0, true, number_into(io.recv)},
			       {"expect-fail", 0, false, set_true(io.expect_fail)},
			       {"async", 0, false, set_true(io.async)},
			       {"peer-gone", 0, false, set_true(io.peer_gone)},
			       {"wimm-dest", 0, true,
				number_into(o.max_wimm_dest)}},
			      usage);
		if (!io.count)
			io.count = 4L * (o.max_wimm ? o.max_wimm : 4);
		if (io.recv < 0)
			io.recv = io.count;
		if (io.count <= 0 || io.count > 4096 || !o.size)
			fail("--count must be 1..4096");
		Endpoint e;
		e.opt = o;
		open_endpoint(e, static_cast<size_t>(io.count) * o.size,
			      static_cast<uint32_t>(io.count));
		if (o.server.empty())
			for (long i = 0; i < io.recv; i++)
				post_recv(e, static_cast<uint64_t>(i));
		connect_endpoint(e);
		if (io.peer_gone) {
			sync_peer(e.sock); // both QPs are in RTS
			if (o.server.empty())
				peer_gone_server(e);
			else
				peer_gone_client(e);
			return;
		}
		if (o.server.empty())
			server(e, io);
		else
			client(e, io);
	});
}
