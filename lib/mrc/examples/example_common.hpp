// SPDX-License-Identifier: GPL-2.0-only
//
// What the lib_mrc example programs share: RAII owners of the mrc.h and
// verbs objects, the options (example_options.hpp), the TCP side channel that exchanges QPN,
// GID, PSN, buffer address and rkey (as ibv_rc_pingpong does), the QP
// bring-up through mrc_modify_qp with the API's state table, and waiting
// for completions with a deadline.  Written against include/mrc.h (no
// verbs QP calls; the generic helpers are the verbs tests'); errors are
// thrown as std::runtime_error, main() prints them and exits 1.
#pragma once

#include <mrc.h>

// The verbs test programs' helpers: fail(), RAII owners, Buffer, Fd.
#include "verbs_common.h"

#include "example_options.hpp"

#include <arpa/inet.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace example {

using verbs::alloc_buffer;
using verbs::Buffer;
using verbs::Clock;
using verbs::Deleter;
using verbs::DeviceList;
using verbs::fail;
using verbs::fail_errno;
using verbs::Fd;
using verbs::Mr;
using verbs::Pd;
using VContext = verbs::Context;
using Context = std::unique_ptr<mrc_context, Deleter<mrc_destroy_context>>;
using Cq = std::unique_ptr<mrc_cq, Deleter<mrc_destroy_cq>>;
using Qp = std::unique_ptr<mrc_qp, Deleter<mrc_destroy_qp>>;

// What each side tells the other.
struct Wire {
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint32_t size;
	uint64_t addr;
	uint8_t gid[16];
};

inline void xfer(int fd, void *buf, size_t len, bool out)
{
	auto *p = static_cast<uint8_t *>(buf);
	while (len) {
		ssize_t r = out ? ::send(fd, p, len, MSG_NOSIGNAL) :
				  ::recv(fd, p, len, 0);
		if (r == 0)
			fail("peer closed the TCP connection");
		if (r < 0) {
			if (errno == EINTR)
				continue;
			fail_errno(out ? "TCP send" : "TCP recv");
		}
		p += r;
		len -= static_cast<size_t>(r);
	}
}

// The server listens on o.port, the client connects to o.server.
inline Fd connect_peer(const Options &o)
{
	addrinfo hints{}, *res = nullptr;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = o.server.empty() ? AI_PASSIVE : 0;
	std::string port = std::to_string(o.port);
	int rc = getaddrinfo(o.server.empty() ? nullptr : o.server.c_str(),
			     port.c_str(), &hints, &res);
	if (rc)
		fail(std::string("getaddrinfo: ") + gai_strerror(rc));
	std::unique_ptr<addrinfo, void (*)(addrinfo *)> ai(res, freeaddrinfo);
	Fd s(::socket(res->ai_family, SOCK_STREAM, 0));
	if (s.get() < 0)
		fail_errno("socket");
	int one = 1;
	setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (!o.server.empty()) {
		auto end = Clock::now() + std::chrono::seconds(o.timeout);
		while (::connect(s.get(), res->ai_addr, res->ai_addrlen)) {
			if (Clock::now() > end)
				fail_errno("connect " + o.server);
			usleep(100000);
		}
		return s;
	}
	setsockopt(s.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (::bind(s.get(), res->ai_addr, res->ai_addrlen) ||
	    ::listen(s.get(), 1))
		fail_errno("bind/listen on port " + port);
	Fd c(::accept(s.get(), nullptr, nullptr));
	if (c.get() < 0)
		fail_errno("accept");
	setsockopt(c.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return c;
}

// One byte each way: both sides reached the same point.
inline void sync_peer(const Fd &s)
{
	char b = 'x';
	xfer(s.get(), &b, 1, true);
	xfer(s.get(), &b, 1, false);
}

// Everything one end of an MRC connection owns.
struct Endpoint {
	Options opt;
	DeviceList list;
	VContext vctx;
	Context ctx;
	mrc_device_attr dev{};
	Pd pd;
	Buffer buf;
	size_t buf_size = 0;
	Mr mr;
	Cq scq, rcq;
	Qp qp;
	Wire me{}, peer{};
	Fd sock;
};

// Open the device, the context, a PD, a buffer of @buf_size bytes as an
// MR, two CQs and an MRC QP with room for @depth requests each way, in
// INIT (in RESET without @init).
inline void open_endpoint(Endpoint &e, size_t buf_size, uint32_t depth,
			  bool init = true)
{
	int n = 0;
	e.list.reset(ibv_get_device_list(&n));
	if (!e.list)
		fail_errno("ibv_get_device_list");
	ibv_device *dev = nullptr;
	for (int i = 0; i < n; i++)
		if (e.opt.dev == ibv_get_device_name(e.list[i]))
			dev = e.list[i];
	if (!dev)
		fail("no RDMA device " + e.opt.dev);
	e.vctx.reset(ibv_open_device(dev));
	if (!e.vctx)
		fail_errno("ibv_open_device " + e.opt.dev);
	mrc_context_attr ca{MRC_API_CURRENT_VERSION,
			    MRC_VENDOR_API_CURRENT_VERSION};
	e.ctx.reset(mrc_create_context(e.vctx.get(), &ca));
	if (!e.ctx)
		fail_errno("mrc_create_context");
	int supported = 0;
	if (mrc_query_device_ex(e.vctx.get(), e.ctx.get(), &e.dev, &supported))
		fail_errno("mrc_query_device_ex");
	if (!supported)
		fail(e.opt.dev + " is not an MRC device");
	e.pd.reset(ibv_alloc_pd(e.vctx.get()));
	if (!e.pd)
		fail_errno("ibv_alloc_pd");
	e.buf_size = buf_size;
	e.buf = alloc_buffer(buf_size);
	e.mr.reset(ibv_reg_mr(e.pd.get(), e.buf.get(), buf_size,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
	if (!e.mr)
		fail_errno("ibv_reg_mr");
	e.scq.reset(mrc_create_cq(e.ctx.get(), static_cast<int>(depth) + 1,
				  nullptr, nullptr, 0));
	e.rcq.reset(mrc_create_cq(e.ctx.get(), static_cast<int>(depth) + 1,
				  nullptr, nullptr, 0));
	if (!e.scq || !e.rcq)
		fail_errno("mrc_create_cq");
	mrc_qp_init_attr qa{};
	qa.send_cq = e.scq.get();
	qa.recv_cq = e.rcq.get();
	qa.cap.max_send_wr = depth;
	qa.cap.max_recv_wr = depth;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.pd = e.pd.get();
	qa.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
			    IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	e.qp.reset(mrc_create_qp(e.ctx.get(), &qa));
	if (!e.qp)
		fail_errno("mrc_create_qp");
	if (!init)
		return;

	// RESET -> INIT with the profiles: receives may be posted from here on.
	ibv_qp_attr v{};
	mrc_qp_attr m{};
	v.qp_state = IBV_QPS_INIT;
	int mmask = 0;
	if (e.opt.ev_profile) {
		m.profile.ev_profile_id = e.opt.ev_profile;
		mmask |= MRC_QP_EV_PROFILE_ID;
	}
	if (e.opt.cc_profile) {
		m.profile.cc_profile_id = e.opt.cc_profile;
		mmask |= MRC_QP_CC_PROFILE_ID;
	}
	int rc = mrc_modify_qp(e.qp.get(), &v, IBV_QP_STATE, &m, mmask);
	if (rc)
		fail_errno("mrc_modify_qp INIT", rc);
}

// The exchange, then INIT -> RTR and RTR -> RTS, each with the MRC
// attributes the state table puts there.
inline void connect_endpoint(Endpoint &e)
{
	ibv_qp_attr v{};
	mrc_qp_attr m{};
	int rc;
	union ibv_gid gid;
	if (ibv_query_gid(e.vctx.get(), 1, e.opt.gid, &gid))
		fail_errno("ibv_query_gid " + std::to_string(e.opt.gid));
	if (mrc_get_qpn(e.qp.get(), &e.me.qpn))
		fail_errno("mrc_get_qpn");
	e.me.psn = static_cast<uint32_t>(std::rand()) & 0xffffff;
	e.me.rkey = e.mr->rkey;
	e.me.addr = reinterpret_cast<uintptr_t>(e.buf.get());
	e.me.size = static_cast<uint32_t>(e.buf_size);
	std::memcpy(e.me.gid, gid.raw, sizeof(e.me.gid));
	e.sock = connect_peer(e.opt);
	xfer(e.sock.get(), &e.me, sizeof(e.me), true);
	xfer(e.sock.get(), &e.peer, sizeof(e.peer), false);

	unsigned int wimm = e.opt.max_wimm;
	if (!wimm)
		wimm = e.dev.wimm_attr.max_wimm;
	v = {};
	m = {};
	v.qp_state = IBV_QPS_RTR;
	v.path_mtu = IBV_MTU_1024;
	v.dest_qp_num = e.peer.qpn;
	v.rq_psn = e.peer.psn;
	v.ah_attr.is_global = 1;
	v.ah_attr.grh.hop_limit = 64;
	v.ah_attr.grh.sgid_index = static_cast<uint8_t>(e.opt.gid);
	std::memcpy(v.ah_attr.grh.dgid.raw, e.peer.gid, sizeof(e.peer.gid));
	m.wimm.max_wimm_dest = static_cast<uint16_t>(
		e.opt.max_wimm_dest ?
			e.opt.max_wimm_dest :
			std::min<unsigned int>(wimm,
					       e.dev.wimm_attr.max_wimm_dest));
	rc = mrc_modify_qp(e.qp.get(), &v,
			   IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN,
			   &m, MRC_QP_MAX_WIMM_DEST);
	if (rc)
		fail_errno("mrc_modify_qp RTR", rc);

	v = {};
	m = {};
	v.qp_state = IBV_QPS_RTS;
	v.sq_psn = e.me.psn;
	m.wimm.max_wimm = static_cast<uint16_t>(wimm);
	m.timeout = e.opt.mrc_timeout;
	m.retry.linear_cnt = e.opt.retry_linear;
	m.retry.exp_cnt = e.opt.retry_exp;
	rc = mrc_modify_qp(e.qp.get(), &v, IBV_QP_STATE | IBV_QP_SQ_PSN, &m,
			   MRC_QP_MAX_WIMM | MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT);
	if (rc)
		fail_errno("mrc_modify_qp RTS", rc);
}

inline void post_recv(Endpoint &e, uint64_t wr_id)
{
	ibv_recv_wr wr{}, *bad = nullptr;
	wr.wr_id = wr_id;
	if (mrc_post_recv(e.qp.get(), &wr, &bad))
		fail_errno("mrc_post_recv");
}

// A WRITE (imm < 0) or WRITE_WITH_IMM of @len bytes from local offset
// @loff to the peer's buffer at @roff.
inline void post_write(Endpoint &e, size_t loff, size_t roff, size_t len,
		       int64_t imm, uint64_t wr_id, bool signaled = true)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(e.buf.get()) + loff,
		    static_cast<uint32_t>(len), e.mr->lkey};
	ibv_send_wr wr{}, *bad = nullptr;
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = imm < 0 ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_WRITE_WITH_IMM;
	if (imm >= 0)
		wr.imm_data = htonl(static_cast<uint32_t>(imm));
	wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
	wr.wr.rdma.remote_addr = e.peer.addr + roff;
	wr.wr.rdma.rkey = e.peer.rkey;
	int rc = mrc_post_send(e.qp.get(), &wr, &bad);
	if (rc)
		fail_errno("mrc_post_send", rc);
}

// Up to @max completions of @cq, waiting until @deadline for the first;
// a failed completion throws.
inline int wait_cq(mrc_cq *cq, ibv_wc *wc, int max, Clock::time_point deadline,
		   const char *what)
{
	for (;;) {
		int n = mrc_poll_cq(cq, max, wc);
		if (n < 0)
			fail_errno(std::string("mrc_poll_cq ") + what);
		for (int i = 0; i < n; i++)
			if (wc[i].status != IBV_WC_SUCCESS)
				fail(std::string(what) + ": completion " +
				     std::to_string(wc[i].wr_id) + " failed: " +
				     ibv_wc_status_str(wc[i].status));
		if (n > 0)
			return n;
		if (Clock::now() > deadline)
			fail(std::string("timed out waiting for ") + what);
	}
}

// The next asynchronous event of @e's context, within @seconds: it must be
// @want for @e's QP.  It is acknowledged and the QP destroyed (which
// waits for the acknowledgement, as ibv_destroy_qp() does).
inline void expect_qp_event(Endpoint &e, ibv_event_type want, int seconds,
			    const char *prog)
{
	pollfd p{e.vctx->async_fd, POLLIN, 0};
	int n = ::poll(&p, 1, seconds * 1000);
	if (n < 0)
		fail_errno("poll on the async fd");
	if (n == 0)
		fail(std::string("no asynchronous event within ") +
		     std::to_string(seconds) + " s, expected " +
		     ibv_event_type_str(want));
	mrc_async_event ev;
	if (mrc_get_async_event(e.ctx.get(), &ev))
		fail_errno("mrc_get_async_event");
	bool ours = ev.element.qp == e.qp.get();
	std::string got = ibv_event_type_str(ev.event_type);
	mrc_ack_async_event(&ev);
	if (ev.event_type != want || !ours)
		fail("asynchronous event " + got + (ours ? "" : " of another QP") +
		     ", expected " + ibv_event_type_str(want) + " of the QP");
	int rc = mrc_destroy_qp(e.qp.release());
	if (rc)
		fail_errno("mrc_destroy_qp after the event", rc);
	std::printf("%s: asynchronous event %s of the QP, acknowledged, QP destroyed\n",
		    prog, got.c_str());
}

inline double seconds_since(Clock::time_point t0)
{
	return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Run @body, turning an exception into a message and exit status 1.
template <typename F> int run_main(const char *prog, F body)
{
	try {
		body();
		return 0;
	} catch (const std::exception &ex) {
		std::fprintf(stderr, "%s: error: %s\n", prog, ex.what());
		return 1;
	}
}

} // namespace example
