// SPDX-License-Identifier: GPL-2.0-only
//
// The mrc device's own uverbs methods and MRC QP semantics
// (include/uapi/rdma/mrc-abi.h, net/mrc/uverbs_mrc.c), one TAP line each:
//   - the device query's values;
//   - every refusal of MODIFY (mask, reserved, flags, ranges, profiles,
//     states) with its errno, and a MODIFY/QUERY round trip;
//   - an MRC QP: a WRITE works, max_wimm + 12 WRITE_WITH_IMM all complete
//     with at most max_wimm unacknowledged at once (wimm_inflight_max),
//     a SEND completes at once with IBV_WC_LOC_QP_OP_ERR;
//   - a verbs QP: the same SEND works;
//   - timeout and retry: toward a QPN that does not exist (the peer drops
//     everything), timeout 17 with 3 linear + 2 doubling retries fails in
//     10 x 134 ms, linear 0 + exponential 3 in 15 x 16.8 ms, and retry_exp
//     25 (infinite) has not failed after 4 s.
//
//   server: mrc_qp_attr -d mrc0 -g 1
//   client: mrc_qp_attr -d mrc0 -g 1 SERVER_ADDR
#include "verbs_common.h"

#include <random>

#include "kabi.hpp"

using namespace verbs;

namespace {

constexpr uint16_t kPort = 18520;
constexpr uint16_t kMaxWimm = 4;
constexpr int kWimms = kMaxWimm + 12;
constexpr int kRecvs = 64;
constexpr size_t kBuf = 1 << 16;
constexpr uint32_t kNoQpn = 0xabcdef; // no QP has it (the peer drops)

int passed, failed;
uint32_t cc_profile; // --cc-profile: one that exists (0: the built-in)

void tap(bool ok, const std::string &what)
{
	std::printf("%s - %s\n", ok ? "ok" : "not ok", what.c_str());
	(ok ? passed : failed)++;
}

void expect_rc(int rc, int want, const std::string &what)
{
	tap(rc == want,
	    what + " -> " + (want ? std::strerror(-want) : "0") +
		    (rc == want ? "" : " (got " + std::to_string(rc) + ")"));
}

struct Dev {
	explicit Dev(const std::string &name) : ctx(open_device(name))
	{
		pd.reset(ibv_alloc_pd(ctx.get()));
		if (!pd)
			fail_errno("ibv_alloc_pd");
		cq.reset(ibv_create_cq(ctx.get(), 1024, nullptr, nullptr, 0));
		if (!cq)
			fail_errno("ibv_create_cq");
		buf = alloc_buffer(kBuf);
		mr = reg_mr(pd.get(), buf.get(), kBuf, kAllAccess);
	}
	Qp qp()
	{
		return create_rc_qp(pd.get(), cq.get(), cq.get(), {128, 1, 64},
				    nullptr);
	}

	Context ctx;
	Pd pd;
	Cq cq;
	Buffer buf;
	Mr mr;
};

mrc_ib_qp_attr mrc_attr(uint32_t mask)
{
	mrc_ib_qp_attr a{};
	a.mask = mask;
	return a;
}

void set_mrc(ibv_qp *qp, uint32_t extra_mask, const mrc_ib_qp_attr &base)
{
	mrc_ib_qp_attr a = base;
	a.mask = MRC_IB_QP_FLAGS | extra_mask;
	a.flags = MRC_IB_QP_F_MRC;
	if (int rc = mrc::kabi::qp_modify(qp, a))
		fail_errno("MRC_IB_METHOD_QP_MODIFY", -rc);
}

void connect(ibv_qp *qp, const ConnInfo &peer, int gid, uint32_t psn)
{
	PathParams pp;
	pp.gid_index = gid;
	qp_to_init(qp, 1, kAllAccess);
	qp_to_rtr(qp, pp, peer);
	qp_to_rts(qp, pp, psn);
}

void post_recv(ibv_qp *qp, uint64_t id, Dev &d)
{
	ibv_sge s{reinterpret_cast<uintptr_t>(d.buf.get()), 4096, d.mr->lkey};
	ibv_recv_wr wr{};
	ibv_recv_wr *bad;
	wr.wr_id = id;
	wr.sg_list = &s;
	wr.num_sge = 1;
	// Returns the error (errno is not set by every provider).
	if (int rc = ibv_post_recv(qp, &wr, &bad))
		fail_errno("ibv_post_recv", rc);
}

int post_send(ibv_qp *qp, Dev &d, ibv_wr_opcode op, uint64_t id, uint32_t len,
	      const ConnInfo &peer)
{
	ibv_sge s{reinterpret_cast<uintptr_t>(d.buf.get()), len, d.mr->lkey};
	ibv_send_wr wr{};
	ibv_send_wr *bad;
	wr.wr_id = id;
	wr.opcode = op;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.imm_data = htonl(static_cast<uint32_t>(id));
	wr.wr.rdma.remote_addr = peer.addr;
	wr.wr.rdma.rkey = peer.rkey;
	return ibv_post_send(qp, &wr, &bad);
}

// kWimms WRITE_WITH_IMM in one post (one doorbell): without the credits
// all of them would be given to the transport at once.
void post_wimms(ibv_qp *qp, Dev &d, const ConnInfo &peer)
{
	ibv_sge s{reinterpret_cast<uintptr_t>(d.buf.get()), 64, d.mr->lkey};
	std::vector<ibv_send_wr> wr(kWimms);
	for (int i = 0; i < kWimms; i++) {
		wr[i].wr_id = 100 + i;
		wr[i].opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].sg_list = &s;
		wr[i].num_sge = 1;
		wr[i].imm_data = htonl(100 + i);
		wr[i].wr.rdma.remote_addr = peer.addr;
		wr[i].wr.rdma.rkey = peer.rkey;
		wr[i].next = i + 1 < kWimms ? &wr[i + 1] : nullptr;
	}
	ibv_send_wr *bad;
	if (int rc = ibv_post_send(qp, wr.data(), &bad))
		fail_errno("ibv_post_send of the WRITE_WITH_IMM", rc);
}

// Wait for n completions of qp (others are a failure of the caller's).
std::vector<ibv_wc> wait_wc(Dev &d, int n, Clock::time_point until)
{
	return poll_until(d.cq.get(), static_cast<size_t>(n), until);
}

ConnInfo local_info(Dev &d, ibv_qp *qp, int gid)
{
	ConnInfo c{};
	c.qpn = qp->qp_num;
	c.psn = 0x1000;
	std::memcpy(c.gid, query_gid(d.ctx.get(), 1, gid).raw, 16);
	c.addr = reinterpret_cast<uintptr_t>(d.buf.get());
	c.len = kBuf;
	c.rkey = d.mr->rkey;
	return c;
}

int serve(const ConnOptions &o, Clock::time_point deadline)
{
	Dev d(o.dev);
	// c: an MRC QP that never posts a receive (no RNR: it fails).
	Qp a = d.qp(), b = d.qp(), c = d.qp();
	set_mrc(c.get(), 0, mrc_attr(0));
	set_mrc(a.get(), MRC_IB_QP_MAX_WIMM_DEST, [] {
		auto x = mrc_attr(0);
		x.max_wimm_dest = kRecvs;
		return x;
	}());
	Tcp tcp = Tcp::listen_accept(o.port, deadline);
	ConnInfo la = local_info(d, a.get(), o.gid);
	la.param[0] = b->qp_num;
	la.param[1] = c->qp_num;
	tcp.send(la);
	ConnInfo peer = tcp.recv<ConnInfo>(deadline);
	connect(a.get(), peer, o.gid, la.psn);
	ConnInfo pb = peer;
	pb.qpn = static_cast<uint32_t>(peer.param[0]);
	connect(b.get(), pb, o.gid, la.psn);
	pb.qpn = static_cast<uint32_t>(peer.param[1]);
	connect(c.get(), pb, o.gid, la.psn);
	// Pre-posted before the client may send (the provider refuses
	// receives in RESET).
	for (int i = 0; i < kRecvs; i++) {
		post_recv(a.get(), i, d);
		post_recv(b.get(), 1000 + i, d);
	}
	tcp.send<uint8_t>(1);
	// The client says what it sent: kWimms WRITE_IMM on a, 1 SEND on b.
	tcp.recv<uint8_t>(deadline);
	auto wc = wait_wc(d, 2 * kWimms + 1,
			  Clock::now() + std::chrono::seconds(30));
	int imm_a = 0, imm_b = 0, send = 0, bad = 0;
	for (auto &w : wc) {
		bool a_qp = w.qp_num == a->qp_num, b_qp = w.qp_num == b->qp_num;
		if (w.status != IBV_WC_SUCCESS)
			bad++;
		else if (w.opcode == IBV_WC_RECV_RDMA_WITH_IMM && a_qp)
			imm_a++;
		else if (w.opcode == IBV_WC_RECV_RDMA_WITH_IMM && b_qp)
			imm_b++;
		else if (w.opcode == IBV_WC_RECV && b_qp)
			send++;
		else
			bad++;
	}
	std::printf("# mrc_qp_attr: server: %d + %d WRITE_IMM received, %d SEND, %d bad\n",
		    imm_a, imm_b, send, bad);
	int ok = imm_a == kWimms && imm_b == kWimms && send == 1 && !bad;
	tcp.send<uint8_t>(static_cast<uint8_t>(ok));
	tcp.recv<uint8_t>(deadline); // the client is done
	return ok ? 0 : 1;
}

void test_device(Dev &d)
{
	mrc_ib_device_attr da{};
	int rc = mrc::kabi::query_device(d.ctx.get(), &da);
	expect_rc(rc, 0, "QUERY_DEVICE");
	tap(da.protocol_versions == MRC_IB_PROTOCOL_V1, "device: protocol V1");
	// TRIM_NACK with the default trim_dscp (7): trimmed packets are
	// recognised and NACKed.
	tap(da.caps == (MRC_IB_DEV_CAP_TRIM_NACK | MRC_IB_DEV_CAP_SVC_TIME),
	    "device: TRIM_NACK and SVC_TIME, not DYNAMIC_MPR");
	tap(da.max_wimm == 224 && da.max_wimm_dest == 4096,
	    "device: max_wimm 224, max_wimm_dest 4096 (" +
		    std::to_string(da.max_wimm) + ", " +
		    std::to_string(da.max_wimm_dest) + ")");
	tap(da.max_mpr == 8 && da.mpr_resolution == 1,
	    "device: max_mpr 8 x 128 PSNs, resolution 1");
	tap(da.max_timeout == 24 && da.max_retry_linear == 7 &&
		    da.max_retry_exp == MRC_IB_RETRY_EXP_INFINITE,
	    "device: max_timeout 24, retries 7 linear, 25 (infinite) exponential");
	tap(da.n_planes >= 1 && (da.planes_up & 1),
	    "device: plane 1 exists and is up (n_planes " +
		    std::to_string(da.n_planes) + ", planes_up " +
		    std::to_string(da.planes_up) + ")");
}

// A MODIFY of a verbs QP in RESET that must be refused: the attribute
// (mask and fields), the negative errno, what the check says.
struct Refusal {
	mrc_ib_qp_attr attr;
	int err;
	const char *what;
};

// Each row names only the fields it sets, the rest are 0 as a MODIFY
// wants them; GCC's -Wextra asks for every member even with designated
// initializers (which C++20 defines to value-initialize the others).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const Refusal kRefusals[] = {
	{{.mask = 1u << 7}, -EINVAL, "mask bit 7 (HINT) unknown"},
	{{.mask = 1u << 31}, -EINVAL, "mask bit 31 (VENDOR_CFG) unknown"},
	{{.mask = MRC_IB_QP_MPR, .mpr = 1, .reserved = {0, 1}},
	 -EINVAL,
	 "reserved byte not 0"},
	{{.mask = MRC_IB_QP_MPR, .mpr = 1, .wimm_inflight = 1},
	 -EINVAL,
	 "QUERY-only wimm_inflight not 0"},
	{{.mask = MRC_IB_QP_FLAGS, .flags = 2}, -EINVAL, "unknown flag"},
	{{.mask = MRC_IB_QP_MAX_WIMM, .max_wimm = 225},
	 -EINVAL,
	 "max_wimm 225 > 224"},
	{{.mask = MRC_IB_QP_MAX_WIMM, .max_wimm = 0}, -EINVAL, "max_wimm 0"},
	{{.mask = MRC_IB_QP_MAX_WIMM_DEST, .max_wimm_dest = 4097},
	 -EINVAL,
	 "max_wimm_dest 4097 > 4096"},
	{{.mask = MRC_IB_QP_MPR, .mpr = 9}, -EINVAL, "mpr 9 > 8"},
	{{.mask = MRC_IB_QP_MPR_DEST, .mpr_dest = 0}, -EINVAL, "mpr_dest 0"},
	{{.mask = MRC_IB_QP_TIMEOUT, .timeout = 25}, -EINVAL, "timeout 25 > 24"},
	{{.mask = MRC_IB_QP_RETRY_CNT, .retry_linear = 8},
	 -EINVAL,
	 "retry_linear 8 > 7"},
	{{.mask = MRC_IB_QP_RETRY_CNT, .retry_linear = 7, .retry_exp = 26},
	 -EINVAL,
	 "retry_exp 26 > 25"},
	{{.mask = MRC_IB_QP_EV_PROFILE, .ev_profile = 1ull << 32},
	 -EINVAL,
	 "ev_profile 2^32 > U32_MAX"},
	{{.mask = MRC_IB_QP_EV_PROFILE, .ev_profile = 4242},
	 -ENOENT,
	 "ev_profile 4242 does not exist"},
	{{.mask = MRC_IB_QP_CC_PROFILE, .cc_profile = 4242},
	 -ENOENT,
	 "cc_profile 4242 does not exist"},
	{{.mask = MRC_IB_QP_CC_PROFILE, .cc_profile = (1ull << 32) + 1},
	 -EINVAL,
	 "cc_profile 2^32 + 1 > U32_MAX"},
	{{.mask = MRC_IB_QP_CAP, .cap = 1u << 3}, -EINVAL, "unknown cap bit"},
	{{.mask = MRC_IB_QP_CAP, .cap = MRC_IB_QP_CAP_DYNAMIC_MPR},
	 -EOPNOTSUPP,
	 "cap DYNAMIC_MPR not supported"},
	// All or nothing: a good field next to a bad one changes nothing.
	{{.mask = MRC_IB_QP_MPR | MRC_IB_QP_TIMEOUT, .mpr = 3, .timeout = 30},
	 -EINVAL,
	 "good mpr with bad timeout"},
};
#pragma GCC diagnostic pop

void test_refusals(Dev &d)
{
	Qp q = d.qp();
	for (const Refusal &r : kRefusals)
		expect_rc(mrc::kabi::qp_modify(q.get(), r.attr), r.err, r.what);
	mrc_ib_qp_attr r{};
	expect_rc(mrc::kabi::qp_query(q.get(), &r), 0, "QUERY a verbs QP");
	tap(r.mpr == 8 && r.flags == 0 &&
		    !(r.mask & (MRC_IB_QP_MAX_WIMM | MRC_IB_QP_TIMEOUT)),
	    "verbs QP: mpr still 8, no F_MRC, WIMM and timeout not in the mask");
}

// Garbage through MODIFY: random bytes in every field of the attribute
// (any mask, flags, values, reserved bytes) on a QP in RESET and in INIT.
// Each call succeeds or is refused with one of the documented errnos; the
// QP stays queryable; run.sh fails the test on any kernel warning.
void test_garbage(Dev &d)
{
	std::mt19937 rng(56);
	for (bool init : {false, true}) {
		Qp q = d.qp();
		if (init)
			qp_to_init(q.get(), 1, kAllAccess);
		int n_ok = 0, n_bad = 0;
		for (int i = 0; i < 2000; i++) {
			mrc_ib_qp_attr a;
			auto *b = reinterpret_cast<unsigned char *>(&a);
			for (size_t k = 0; k < sizeof(a); k++)
				b[k] = static_cast<unsigned char>(rng());
			// Half the calls with only known bits, so that the
			// value checks behind the mask check are reached.
			if (i & 1) {
				a.mask &= 0x3ff | MRC_IB_QP_FLAGS;
				std::memset(a.reserved, 0, sizeof(a.reserved));
				a.wimm_inflight = a.wimm_inflight_max = 0;
				a.reserved2 = 0;
			}
			int rc = mrc::kabi::qp_modify(q.get(), a);
			if (rc == 0)
				n_ok++;
			else if (rc != -EINVAL && rc != -ENOENT &&
				 rc != -EOPNOTSUPP)
				n_bad++;
		}
		mrc_ib_qp_attr back;
		tap(n_bad == 0 && mrc::kabi::qp_query(q.get(), &back) == 0,
		    std::string("2000 random attributes in ") +
			    (init ? "INIT" : "RESET") + ": " +
			    std::to_string(n_ok) +
			    " accepted, the rest EINVAL/ENOENT/EOPNOTSUPP (" +
			    std::to_string(n_bad) +
			    " other), the QP still answers QUERY");
	}
}

void test_round_trip(Dev &d, const ConnInfo &peer, int gid)
{
	Qp q = d.qp();
	mrc_ib_qp_attr a = mrc_attr(MRC_IB_QP_FLAGS | MRC_IB_QP_EV_PROFILE |
				    MRC_IB_QP_CC_PROFILE | MRC_IB_QP_MAX_WIMM |
				    MRC_IB_QP_MAX_WIMM_DEST | MRC_IB_QP_MPR |
				    MRC_IB_QP_MPR_DEST | MRC_IB_QP_TIMEOUT |
				    MRC_IB_QP_RETRY_CNT | MRC_IB_QP_CAP);
	a.flags = MRC_IB_QP_F_MRC;
	a.max_wimm = 7;
	a.max_wimm_dest = 9;
	a.mpr = 2;
	a.mpr_dest = 3;
	a.timeout = 15;
	a.retry_linear = 5;
	a.retry_exp = 9;
	a.cap = MRC_IB_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED |
		MRC_IB_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;
	a.cc_profile = cc_profile;
	expect_rc(mrc::kabi::qp_modify(q.get(), a), 0,
		  "MODIFY every field in RESET (CC profile " +
			  std::to_string(cc_profile) + ")");
	mrc_ib_qp_attr r{};
	expect_rc(mrc::kabi::qp_query(q.get(), &r), 0, "QUERY");
	tap(r.mask == a.mask && r.flags == a.flags && r.ev_profile == 0 &&
		    r.cc_profile == cc_profile && r.max_wimm == 7 &&
		    r.max_wimm_dest == 9 && r.mpr == 2 && r.mpr_dest == 3 &&
		    r.timeout == 15 && r.retry_linear == 5 &&
		    r.retry_exp == 9 && r.cap == a.cap &&
		    r.wimm_inflight == 0 && r.wimm_inflight_max == 0,
	    "QUERY returns every field MODIFY set, with its mask");

	auto m = [&](uint32_t mask) {
		mrc_ib_qp_attr x = r;
		x.mask = mask;
		x.wimm_inflight = x.wimm_inflight_max = 0;
		return mrc::kabi::qp_modify(q.get(), x);
	};
	mrc_ib_qp_attr clr = mrc_attr(MRC_IB_QP_FLAGS);
	expect_rc(mrc::kabi::qp_modify(q.get(), clr), -EINVAL,
		  "RESET: F_MRC cleared once set");
	qp_to_init(q.get(), 1, kAllAccess);
	expect_rc(m(MRC_IB_QP_FLAGS), -EINVAL, "INIT: FLAGS");
	expect_rc(m(MRC_IB_QP_EV_PROFILE), -EINVAL, "INIT: EV_PROFILE");
	expect_rc(m(MRC_IB_QP_CC_PROFILE), -EINVAL, "INIT: CC_PROFILE");
	expect_rc(m(MRC_IB_QP_MPR_DEST | MRC_IB_QP_MAX_WIMM_DEST), 0,
		  "INIT: MPR_DEST, MAX_WIMM_DEST");
	PathParams pp;
	pp.gid_index = gid;
	ConnInfo nowhere = peer;
	nowhere.qpn = kNoQpn;
	qp_to_rtr(q.get(), pp, nowhere);
	expect_rc(m(MRC_IB_QP_MPR_DEST), -EINVAL, "RTR: MPR_DEST");
	expect_rc(m(MRC_IB_QP_MAX_WIMM_DEST), -EINVAL, "RTR: MAX_WIMM_DEST");
	expect_rc(m(MRC_IB_QP_MAX_WIMM | MRC_IB_QP_MPR | MRC_IB_QP_TIMEOUT |
		    MRC_IB_QP_RETRY_CNT | MRC_IB_QP_CAP),
		  0, "RTR: MAX_WIMM, MPR, TIMEOUT, RETRY_CNT, CAP");
	qp_to_rts(q.get(), pp, 1);
	for (uint32_t bit : {MRC_IB_QP_MAX_WIMM, MRC_IB_QP_MPR, MRC_IB_QP_TIMEOUT,
			     MRC_IB_QP_RETRY_CNT, MRC_IB_QP_CAP})
		expect_rc(m(bit), -EINVAL, "RTS: mask " + std::to_string(bit));
}

void test_traffic(Dev &d, Tcp &tcp, const ConnInfo &peer, int gid)
{
	Qp a = d.qp(), b = d.qp(), c = d.qp();
	auto until = [] { return Clock::now() + std::chrono::seconds(30); };
	mrc_ib_qp_attr w = mrc_attr(0);
	w.max_wimm = kMaxWimm;
	set_mrc(a.get(), MRC_IB_QP_MAX_WIMM, w);
	set_mrc(c.get(), 0, mrc_attr(0));
	ConnInfo me = local_info(d, a.get(), gid);
	me.param[0] = b->qp_num;
	me.param[1] = c->qp_num;
	tcp.send(me);
	connect(a.get(), peer, gid, me.psn);
	ConnInfo pb = peer;
	pb.qpn = static_cast<uint32_t>(peer.param[0]);
	connect(b.get(), pb, gid, me.psn);
	pb.qpn = static_cast<uint32_t>(peer.param[1]);
	connect(c.get(), pb, gid, me.psn);
	tcp.recv<uint8_t>(until()); // the server's QPs are in RTS

	// No receive at the peer's MRC QP: not RNR (which would retry for
	// ever with rnr_retry 7) but Invalid Request, at once.
	post_send(c.get(), d, IBV_WR_RDMA_WRITE_WITH_IMM, 4, 64, peer);
	auto wc = wait_wc(d, 1, until());
	tap(wc.size() == 1 && wc[0].status == IBV_WC_REM_INV_REQ_ERR,
	    "MRC QP: WRITE_WITH_IMM to an MRC QP without receives: "
	    "REM_INV_REQ_ERR (" +
		    std::string(wc.empty() ? "none" :
					     ibv_wc_status_str(wc[0].status)) +
		    ")");

	post_send(a.get(), d, IBV_WR_RDMA_WRITE, 1, 4096, peer);
	wc = wait_wc(d, 1, until());
	tap(wc.size() == 1 && wc[0].status == IBV_WC_SUCCESS,
	    "MRC QP: RDMA WRITE succeeds");
	post_wimms(a.get(), d, peer);
	wc = wait_wc(d, kWimms, until());
	int good = 0;
	for (auto &c : wc)
		good += c.status == IBV_WC_SUCCESS;
	tap(good == kWimms, "MRC QP: " + std::to_string(kWimms) +
				    " WRITE_WITH_IMM with max_wimm " +
				    std::to_string(kMaxWimm) + " all succeed (" +
				    std::to_string(good) + ")");
	mrc_ib_qp_attr r{};
	mrc::kabi::qp_query(a.get(), &r);
	tap(r.wimm_inflight_max == kMaxWimm && r.wimm_inflight == 0,
	    "MRC QP: at most max_wimm unacknowledged at once (most " +
		    std::to_string(r.wimm_inflight_max) + ", now " +
		    std::to_string(r.wimm_inflight) + ")");

	// The same burst on a verbs QP: no credits, all 16 at once (the
	// measure above can see more than max_wimm).
	post_wimms(b.get(), d, peer);
	wc = wait_wc(d, kWimms, until());
	good = 0;
	for (auto &c : wc)
		good += c.status == IBV_WC_SUCCESS;
	mrc::kabi::qp_query(b.get(), &r);
	tap(good == kWimms && r.wimm_inflight_max == kWimms,
	    "verbs QP: the same burst all at once (most " +
		    std::to_string(r.wimm_inflight_max) + " unacknowledged)");
	post_send(b.get(), d, IBV_WR_SEND, 2, 64, peer);
	wc = wait_wc(d, 1, until());
	tap(wc.size() == 1 && wc[0].status == IBV_WC_SUCCESS,
	    "verbs QP: SEND succeeds");
	tcp.send<uint8_t>(1);
	uint8_t srv = tcp.recv<uint8_t>(until());
	tap(srv == 1, "server: every WRITE_IMM and the SEND received");

	post_send(a.get(), d, IBV_WR_SEND, 3, 64, peer);
	wc = wait_wc(d, 1, until());
	tap(wc.size() == 1 && wc[0].status == IBV_WC_LOC_QP_OP_ERR,
	    "MRC QP: SEND completes with LOC_QP_OP_ERR (" +
		    std::string(wc.empty() ? "none" :
					     ibv_wc_status_str(wc[0].status)) +
		    ")");
	tap(qp_state(a.get()) == IBV_QPS_ERR, "MRC QP: in ERR after the bad WQE");
}

// An MRC QP toward a QPN nobody has: how long its WRITE takes to fail.
double time_to_fail(Dev &d, const ConnInfo &peer, int gid, uint8_t t,
		    uint8_t lin, uint8_t exp, double wait_s, bool *failed_out)
{
	Qp q = d.qp();
	mrc_ib_qp_attr a = mrc_attr(0);
	a.timeout = t;
	a.retry_linear = lin;
	a.retry_exp = exp;
	set_mrc(q.get(), MRC_IB_QP_TIMEOUT | MRC_IB_QP_RETRY_CNT, a);
	ConnInfo nowhere = peer;
	nowhere.qpn = kNoQpn;
	connect(q.get(), nowhere, gid, 7);
	auto t0 = Clock::now();
	post_send(q.get(), d, IBV_WR_RDMA_WRITE, 9, 64, peer);
	auto wc = wait_wc(d, 1,
			  t0 + std::chrono::duration_cast<Clock::duration>(
				       std::chrono::duration<double>(wait_s)));
	double s = std::chrono::duration<double>(Clock::now() - t0).count();
	*failed_out = wc.size() == 1 && wc[0].status == IBV_WC_RETRY_EXC_ERR;
	if (wc.empty()) {
		ibv_qp_attr e{};
		e.qp_state = IBV_QPS_ERR;
		modify_qp(q.get(), e, IBV_QP_STATE, "ERR");
		wait_wc(d, 1, Clock::now() + std::chrono::seconds(10)); // flushed
	}
	return s;
}

void test_timeouts(Dev &d, const ConnInfo &peer, int gid)
{
	bool f;
	// 1.024 us << 17 = 134 ms: 4 linear waits, then 2 and 4 times it.
	double want = 10 * 1.024e-6 * (1 << 17);
	double s = time_to_fail(d, peer, gid, 17, 3, 2, 30, &f);
	tap(f && s > 0.9 * want && s < 4 * want,
	    "timeout 17, retry 3 + 2: RETRY_EXC_ERR after " + std::to_string(s) +
		    " s (expected " + std::to_string(want) + ")");
	// 16.8 ms doubling: 1 + 2 + 4 + 8 waits.
	want = 15 * 1.024e-6 * (1 << 14);
	s = time_to_fail(d, peer, gid, 14, 0, 3, 30, &f);
	tap(f && s > 0.9 * want && s < 6 * want,
	    "timeout 14, retry 0 + 3: RETRY_EXC_ERR after " + std::to_string(s) +
		    " s (expected " + std::to_string(want) + ")");
	s = time_to_fail(d, peer, gid, 14, 0, MRC_IB_RETRY_EXP_INFINITE, 4, &f);
	tap(!f && s >= 4, "timeout 14, retry 0 + 25 (infinite): no failure in " +
				  std::to_string(s) + " s");
}

int run_client(const ConnOptions &o, Clock::time_point deadline)
{
	Dev d(o.dev);
	Tcp tcp = Tcp::connect(o.server, o.port, deadline);
	tap_header("mrc_qp_attr", o);
	ConnInfo peer = tcp.recv<ConnInfo>(deadline);
	test_device(d);
	test_refusals(d);
	test_garbage(d);
	test_round_trip(d, peer, o.gid);
	test_traffic(d, tcp, peer, o.gid);
	test_timeouts(d, peer, o.gid);
	tcp.send<uint8_t>(1);
	std::printf("# mrc_qp_attr: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

void report_hang(int seconds)
{
	std::printf("not ok - mrc_qp_attr: hung for %d s\n", seconds);
	std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
	ConnOptions o(kPort, 14, 7);
	auto opts = conn_longopts(
		{{"cc-profile", required_argument, nullptr, 'C'}});
	int c;
	try {
		while ((c = getopt_long(argc, argv, "d:g:p:t:T:r:hC:",
					opts.data(), nullptr)) != -1) {
			if (c == 'C') {
				cc_profile = static_cast<uint32_t>(
					std::stoul(optarg));
				continue;
			}
			if (!parse_conn_option(c, optarg ? optarg : "", o)) {
				std::printf(
					"usage: mrc_qp_attr [-d DEV] [-g GID] [-p PORT] [SERVER]\n");
				return c == 'h' ? 0 : 2;
			}
		}
		if (optind < argc)
			o.server = argv[optind];
		auto deadline = Clock::now() + std::chrono::seconds(o.timeout);
		Watchdog wd(o.timeout + 10, report_hang);
		return o.server.empty() ? serve(o, deadline) :
					  run_client(o, deadline);
	} catch (const std::exception &ex) {
		std::printf("not ok - mrc_qp_attr: error: %s\n# mrc_qp_attr: aborted\n",
			    ex.what());
		return 1;
	}
}
