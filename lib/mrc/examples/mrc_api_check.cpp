// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_api_check: lib_mrc's documented refusals and object rules on a real
// device, one "ok - ..." / "not ok - ..." line per check, exit status 1
// if one failed.
//
//   mrc_api_check -d DEV          what needs no MRC device methods:
//                                 versions, contexts, channels, CQs, hints
//   mrc_api_check -d DEV --mrc    also what needs them (an MRC QP): the
//                                 device query, the verbs attributes the
//                                 API refuses, the state table, limits,
//                                 masks, an unknown profile, non-WRITE
//                                 posts, EBUSY of used CQs and hints
//   mrc_api_check -d DEV --ctl N  the controller API's ports on a device
//                                 with planes 1..N: every port enabled,
//                                 the refusals, port N disabled (and
//                                 left so, for the caller to see); CC
//                                 profile 77 through its states and
//                                 refusals, left ONLINE
//   mrc_api_check -d DEV --ctl-unpriv N
//                                 without CAP_NET_ADMIN: port N still
//                                 reads, a change is refused with EPERM;
//                                 CC profile 77 reads, its changes EPERM
//   mrc_api_check -d DEV --cc-busy ID
//                                 CC profile ID is ONLINE and a route
//                                 names it: ONLINE -> OFFLINE is EBUSY
//                                 and leaves it ONLINE
//   mrc_api_check -d DEV --ev-busy ID
//                                 the same for EV profile ID
//   mrc_api_check -d DEV --ev-events CQE
//                                 an EV event CQ of CQE entries and its
//                                 refusals; "ready" once it listens, then
//                                 after a line on stdin (or once the
//                                 --go-file F exists), every event it
//                                 holds ("event profile P port N state S
//                                 drop D value HEX") until 2 s pass
//                                 without one, and the totals
//   mrc_api_check -d DEV --ev       EV format profiles 1-3, EV profiles
//                                 31 (EXP, left ONLINE), 32, 33 (GEN,
//                                 mrc.rst's worked example, left ONLINE)
//                                 and 34 (made with mrcctl beforehand:
//                                 the second example, taken ONLINE)
//   mrc_api_check -d DEV --ev-unpriv
//                                 without CAP_NET_ADMIN: profile 31
//                                 reads, its changes EPERM
//   mrc_api_check -d DEV --ep-peer ADDR --ep-probe N [--ep-down P]
//                 [--ep-timeout MS]
//                                 the argument refusals of
//                                 mrc_ctl_ep_batch_send_wait(), then UDP
//                                 EVs 0xc000 + 16 p + 0..3 of planes
//                                 1..N probed in one batch toward ADDR:
//                                 each req_id answered once, on its
//                                 port, RTT > 0; with --ep-down P (its
//                                 link down): ETIMEDOUT, the others
//                                 answered, none from P
//   mrc_api_check -d DEV --ep-peer ADDR --ep-status MASK
//                                 PORT_STATUS_UPDATE MASK (bit N: port
//                                 N up) to ADDR: one response (a live
//                                 connection to ADDR is needed); to an
//                                 address without one: ETIMEDOUT
//   mrc_api_check -d DEV --ep-peer ADDR --ep-unpriv
//                                 without CAP_NET_ADMIN: both EPERM
#include "example_common.hpp"

#include <mrc_ctl.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

using namespace example;

namespace {

int failures = 0;

void check(bool ok, const std::string &what)
{
	std::printf("%s - %s\n", ok ? "ok" : "not ok", what.c_str());
	failures += !ok;
}

// @rc is the errno-style result (0 / errno value) or -1 with errno.
bool refused(int rc, int err)
{
	return rc == err || (rc == -1 && errno == err);
}

void objects(Endpoint &e)
{
	uint32_t cur = 0, last = 1, vcur = 0, vlast = 1;
	mrc_query_version(&cur, &last, &vcur, &vlast);
	check(cur == MRC_API_CURRENT_VERSION &&
		      last == MRC_API_LAST_SUPPORTED_VERSION &&
		      vcur == MRC_VENDOR_API_CURRENT_VERSION &&
		      vlast == MRC_VENDOR_API_LAST_SUPPORTED_VERSION,
	      "mrc_query_version reports the header's versions");

	mrc_context_attr future{MRC_API_VER(2, 0, 0), 0};
	errno = 0;
	check(!mrc_create_context(e.vctx.get(), &future) && errno == EINVAL,
	      "a context for API 2.0.0 is refused with EINVAL");
	Context other(mrc_create_context(e.vctx.get(), nullptr));
	check(other != nullptr, "a context with default versions");

	mrc_comp_channel *ch = nullptr;
	check(mrc_create_comp_channel(e.ctx.get(), &ch) == 0 && ch,
	      "a completion channel");
	int fd = -1;
	check(ch && mrc_get_comp_channel_fd(ch, &fd) == 0 && fd >= 0,
	      "its file descriptor");
	mrc_cq *cq = mrc_create_cq(e.ctx.get(), 16, &fd, ch, 0);
	check(cq != nullptr, "a CQ on the channel");
	errno = 0;
	check(!mrc_create_cq(e.ctx.get(), 0, nullptr, nullptr, 0) &&
		      errno == EINVAL,
	      "a CQ of 0 entries is refused with EINVAL");
	errno = 0;
	check(!mrc_create_cq(other.get(), 4, nullptr, ch, 0) && errno == EINVAL,
	      "a CQ on another context's channel is refused with EINVAL");
	check(refused(mrc_destroy_comp_channel(ch), EBUSY),
	      "a channel with a CQ: EBUSY");
	check(refused(mrc_destroy_context(e.ctx.get()), EBUSY),
	      "a context with children: EBUSY");
	check(cq && mrc_req_notify_cq(cq, 0) == 0, "mrc_req_notify_cq");
	ibv_wc wc;
	check(cq && mrc_poll_cq(cq, 1, &wc) == 0, "an empty CQ polls 0");

	mrc_qp_hint_init_attr hi{};
	hi.attr.num_qps_per_peer = -1;
	errno = 0;
	check(!mrc_create_qp_hint(e.ctx.get(), &hi) && errno == EINVAL,
	      "a hint with a negative count is refused with EINVAL");
	hi.attr = {2, 8, 4, {}};
	hi.attr.vendor_cfg[0] = 0x5a;
	mrc_qp_hint *h = mrc_create_qp_hint(e.ctx.get(), &hi);
	check(h != nullptr, "a QP hint");
	mrc_qp_hint_attr ha{};
	check(h &&
		      mrc_query_qp_hint(h, &ha,
					MRC_QP_HINT_NUM_QPS_PER_PEER |
						MRC_QP_HINT_NUM_SEND_PEERS |
						MRC_QP_HINT_NUM_REMOTE_RECV_PEERS |
						MRC_QP_HINT_VENDOR_CFG) == 0 &&
		      ha.num_qps_per_peer == 2 && ha.num_send_peers == 8 &&
		      ha.num_remote_recv_peers == 4 && ha.vendor_cfg[0] == 0x5a,
	      "the hint queries back");
	ha.num_send_peers = 16;
	check(h && mrc_modify_qp_hint(h, &ha, MRC_QP_HINT_NUM_SEND_PEERS) == 0,
	      "modify the hint");
	mrc_qp_hint_attr hb{};
	check(h && mrc_query_qp_hint(h, &hb, MRC_QP_HINT_NUM_SEND_PEERS) == 0 &&
		      hb.num_send_peers == 16 && hb.num_qps_per_peer == 0,
	      "a query fills only the masked fields");
	errno = 0;
	check(h && mrc_modify_qp_hint(h, &ha, 1 << 5) == -1 && errno == EINVAL,
	      "an unknown hint mask bit is refused with EINVAL");
	errno = 0;
	check(h && mrc_query_qp_hint(h, &ha, 1 << 3) == -1 && errno == EINVAL,
	      "an unknown hint query mask bit is refused with EINVAL");
	check(h && mrc_destroy_qp_hint(h) == 0, "destroy the hint");

	check(cq && mrc_destroy_cq(cq) == 0, "destroy the CQ");
	check(ch && mrc_destroy_comp_channel(ch) == 0,
	      "destroy the channel, now unused");
	check(mrc_destroy_context(other.release()) == 0,
	      "destroy a context without children");
}

// Everything that needs an MRC QP (the device's own methods).
void qps(Endpoint &e)
{
	int supported = 0;
	mrc_device_attr d{};
	check(mrc_query_device(e.vctx.get(), &d, &supported) == 0 && supported,
	      "mrc_query_device: supported");
	check(d.mrc_protocol_version & MRC_PROTOCOL_VERSION_1,
	      "the device speaks protocol 1");
	// mrc.ko's default trim_dscp (7): trimmed packets are NACKed.
	check(d.cap & MRC_DEVICE_CAP_TRIM_NACK, "the device reports TRIM_NACK");
	check(d.cap & MRC_DEVICE_CAP_SVC_TIME, "the device reports SVC_TIME");
	check(!(d.cap & MRC_DEVICE_CAP_DYNAMIC_MPR),
	      "the device does not report DYNAMIC_MPR");
	check(d.wimm_attr.max_wimm > 0 && d.wimm_attr.max_wimm_dest > 0 &&
		      d.mpr_attr.max_mpr > 0,
	      "max_wimm " + std::to_string(d.wimm_attr.max_wimm) +
		      ", max_wimm_dest " +
		      std::to_string(d.wimm_attr.max_wimm_dest) + ", max_mpr " +
		      std::to_string(d.mpr_attr.max_mpr) + " are set");
	mrc_qp *qp = e.qp.get();
	check(refused(mrc_destroy_cq(e.scq.get()), EBUSY),
	      "a CQ with a QP: EBUSY");

	ibv_qp_attr v{};
	mrc_qp_attr m{};
	v.qp_state = IBV_QPS_INIT;
	m.wimm.max_wimm = 1;
	check(refused(mrc_modify_qp(qp, &v, 0, &m, MRC_QP_MAX_WIMM), EINVAL),
	      "an MRC attribute without a transition: EINVAL");
	m.wimm.max_wimm = 0;
	check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_MAX_WIMM),
		      EINVAL),
	      "MRC_QP_MAX_WIMM 0 (no WRITE_WITH_IMM at all): EINVAL");
	check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, 1 << 12), EINVAL),
	      "an unknown MRC mask bit: EINVAL");
	m.profile.ev_profile_id = 0xdead0001;
	int rc = mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID);
	check(rc != 0, "an unknown EV profile id is refused (" +
			       std::string(std::strerror(rc)) + ")");

	mrc_qp_hint_init_attr hi{};
	hi.attr.num_qps_per_peer = 1;
	mrc_qp_hint *h = mrc_create_qp_hint(e.ctx.get(), &hi);
	m = {};
	m.qp_hint = h;
	std::memset(m.vendor_cfg, 0xa5, sizeof(m.vendor_cfg));
	// The verbs attributes the API does not support are accepted and
	// ignored, as programs written for MRC NICs pass them: port 9 does
	// not exist and must not reach the device.
	v.port_num = 9;
	v.timeout = 31;
	v.retry_cnt = 7;
	v.rnr_retry = 7;
	constexpr int replaced = IBV_QP_PORT | IBV_QP_TIMEOUT |
				 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				 IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_QP_RD_ATOMIC |
				 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_ALT_PATH |
				 IBV_QP_PATH_MIG_STATE;
	check(h && mrc_modify_qp(qp, &v, IBV_QP_STATE | replaced, &m,
				 MRC_QP_HINT | MRC_QP_VENDOR_CFG) == 0,
	      "RESET -> INIT with a hint, vendor data and the nine verbs "
	      "attributes the library replaces (port 9 ignored)");
	check(refused(mrc_destroy_qp_hint(h), EBUSY), "a hint a QP uses: EBUSY");
	ibv_qp_attr qv{};
	mrc_qp_attr qm{};
	mrc_qp_init_attr qi{};
	check(mrc_query_qp(qp, &qv, IBV_QP_STATE | IBV_QP_PORT, &qm,
			   MRC_QP_HINT | MRC_QP_VENDOR_CFG, &qi) == 0 &&
		      qv.qp_state == IBV_QPS_INIT && qv.port_num == 1 &&
		      qm.qp_hint == h && qm.vendor_cfg[127] == 0xa5 &&
		      qi.send_cq == e.scq.get(),
	      "mrc_query_qp: INIT, the hint, the vendor data, the init attributes");
	check(refused(mrc_query_qp(qp, &qv, 0, &qm, 1 << 12, nullptr), EINVAL),
	      "mrc_query_qp with an unknown MRC mask bit: EINVAL");
	check(mrc_query_qp(qp, &qv, 0, &qm,
			   MRC_QP_MAX_WIMM | MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT,
			   nullptr) == 0,
	      "mrc_query_qp of the kernel-kept attributes");

	v = {};
	v.qp_state = IBV_QPS_RTR;
	m = {};
	m.wimm.max_wimm_dest = static_cast<uint16_t>(d.wimm_attr.max_wimm_dest +
						     1);
	check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_MAX_WIMM_DEST),
		      EINVAL),
	      "max_wimm_dest above the device's: EINVAL");
	m = {};
	m.mpr.mpr_dest = static_cast<uint8_t>(d.mpr_attr.max_mpr + 1);
	if (d.mpr_attr.max_mpr < 255)
		check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m,
					    MRC_QP_MPR_DEST),
			      EINVAL),
		      "mpr_dest above the device's: EINVAL");
	m = {};
	m.cap = 1 << 7;
	check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_CAP), EINVAL),
	      "an unknown QP cap bit: EINVAL");
	if (!(d.cap & MRC_DEVICE_CAP_DYNAMIC_MPR)) {
		m.cap = MRC_QP_CAP_DYNAMIC_MPR;
		check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_CAP),
			      EINVAL),
		      "dynamic MPR on a device without it: EINVAL");
	}
	m = {};
	m.timeout = 25;
	check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_TIMEOUT),
		      EINVAL),
	      "MRC_QP_TIMEOUT 25 (above the API's 24): EINVAL");
	m = {};
	m.profile.ev_profile_id = 0;
	check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID),
		      EINVAL),
	      "MRC_QP_EV_PROFILE_ID at INIT -> RTR (an INIT attribute): EINVAL");
	m = {};
	check(refused(mrc_modify_qp(qp, &v, IBV_QP_STATE, &m, MRC_QP_HINT),
		      EINVAL),
	      "MRC_QP_HINT at INIT -> RTR (an INIT attribute): EINVAL");

	// Posting: anything but WRITE / WRITE_WITH_IMM is refused before the
	// device sees it.
	const std::pair<ibv_wr_opcode, const char *> ops[] =
		{{IBV_WR_SEND, "SEND"},
		 {IBV_WR_SEND_WITH_IMM, "SEND_WITH_IMM"},
		 {IBV_WR_RDMA_READ, "RDMA_READ"},
		 {IBV_WR_ATOMIC_CMP_AND_SWP, "ATOMIC_CMP_AND_SWP"},
		 {IBV_WR_ATOMIC_FETCH_AND_ADD, "ATOMIC_FETCH_AND_ADD"}};
	for (auto [op, name] : ops) {
		ibv_send_wr wr{}, *bad = nullptr;
		wr.opcode = op;
		errno = 0;
		rc = mrc_post_send(qp, &wr, &bad);
		check(rc == EINVAL && errno == EINVAL && bad == &wr,
		      std::string("mrc_post_send of ") + name +
			      ": EINVAL, *bad_wr set");
	}
	ibv_send_wr second{}, first{}, *bad = nullptr;
	first.opcode = IBV_WR_RDMA_READ;
	first.next = &second;
	second.opcode = IBV_WR_RDMA_WRITE;
	check(mrc_post_send(qp, &first, &bad) == EINVAL && bad == &first &&
		      first.next == &second,
	      "a list starting with a READ: EINVAL at it, the list intact");
	ibv_wc wc;
	check(mrc_poll_cq(e.scq.get(), 1, &wc) == 0,
	      "nothing refused reached the send queue");

	check(mrc_destroy_qp(e.qp.release()) == 0, "destroy the QP");
	check(mrc_destroy_qp_hint(h) == 0, "the hint, now unused, goes");
}

} // namespace

mrc_ctl_port_admin_state port_state(Endpoint &e, int port, int *rc)
{
	mrc_ctl_port_attr pa{};
	pa.port_admin_state = static_cast<mrc_ctl_port_admin_state>(99);
	*rc = mrc_ctl_query_port(e.ctx.get(), static_cast<uint8_t>(port), &pa,
				 MRC_CTL_PORT_ADMIN_STATE);
	return pa.port_admin_state;
}

int set_port(Endpoint &e, int port, int state)
{
	mrc_ctl_port_attr pa{};
	pa.port_admin_state = static_cast<mrc_ctl_port_admin_state>(state);
	return mrc_ctl_modify_port(e.ctx.get(), static_cast<uint8_t>(port), &pa,
				   MRC_CTL_PORT_ADMIN_STATE);
}

// CC profiles through the API (id 77; the caller must not have one).
mrc_ctl_cc_nscc_cfg good_cc()
{
	mrc_ctl_cc_nscc_cfg c{};
	c.base_rtt = 123000;
	c.target_delay = 246000;
	c.qa_threshold = 5000000;
	c.adjust_bytes_threshold = 32768;
	c.adjust_period_threshold = 50000;
	c.eta = 3;
	c.fi = 2;
	c.fi_scale = 8;
	c.gamma = 0.5f;	       // 512 / 1024
	c.max_md_jump = 0.25f; // 256 / 1024
	c.max_cwnd = 100000;   // below the default init cwnd: it follows
	c.qa_gate = 2;
	c.disable_qa = 1;
	return c;
}

bool same_cc(const mrc_ctl_cc_nscc_cfg &a, const mrc_ctl_cc_nscc_cfg &b)
{
	return a.base_rtt == b.base_rtt && a.target_delay == b.target_delay &&
	       a.qa_threshold == b.qa_threshold &&
	       a.adjust_bytes_threshold == b.adjust_bytes_threshold &&
	       a.adjust_period_threshold == b.adjust_period_threshold &&
	       a.eta == b.eta && a.fi == b.fi && a.fi_scale == b.fi_scale &&
	       a.gamma == b.gamma && a.max_md_jump == b.max_md_jump &&
	       a.max_cwnd == b.max_cwnd && a.qa_gate == b.qa_gate &&
	       a.disable_qa == b.disable_qa;
}

int cc_modify(Endpoint &e, uint64_t id, int state, const char *algo,
	      const mrc_ctl_cc_nscc_cfg *cfg, int extra = 0)
{
	mrc_ctl_cc_profile_attr a{};
	a.profile_state = static_cast<mrc_ctl_profile_state>(state);
	a.algorithm = algo;
	a.cc_config = cfg;
	int mask = MRC_CTL_CC_PROFILE_STATE | extra;
	if (algo)
		mask |= MRC_CTL_CC_PROFILE_ALGORITHM;
	if (cfg)
		mask |= MRC_CTL_CC_PROFILE_CONFIG;
	errno = 0;
	return mrc_ctl_modify_cc_profile(e.ctx.get(), id, &a, mask);
}

// The state of profile @id (-1: the query failed), its algorithm and
// values in @algo / @cfg.
int cc_state(Endpoint &e, uint64_t id, std::string *algo = nullptr,
	     mrc_ctl_cc_nscc_cfg *cfg = nullptr)
{
	mrc_ctl_cc_nscc_cfg c{};
	mrc_ctl_cc_profile_attr a{};
	a.cur_profile_state = static_cast<mrc_ctl_profile_state>(99);
	a.algorithm = "stale";
	a.cc_config = &c;
	if (mrc_ctl_query_cc_profile(e.ctx.get(), id, &a,
				     MRC_CTL_CC_PROFILE_CUR_STATE |
					     MRC_CTL_CC_PROFILE_ALGORITHM |
					     MRC_CTL_CC_PROFILE_CONFIG))
		return -1;
	if (algo)
		*algo = a.algorithm ? a.algorithm : "(null)";
	if (cfg)
		*cfg = c;
	return a.cur_profile_state;
}

constexpr int INIT = MRC_CTL_PROFILE_INIT, OFFLINE = MRC_CTL_PROFILE_OFFLINE,
	      ONLINE = MRC_CTL_PROFILE_ONLINE;

void ctl_cc_profiles(Endpoint &e)
{
	const char *nscc = "uet-1.0-nscc";
	std::string algo;
	mrc_ctl_cc_nscc_cfg got{}, cfg = good_cc();

	check(cc_state(e, 0, &algo, &got) == ONLINE && algo == nscc &&
		      got.base_rtt == 100000 && got.gamma == 1.0f &&
		      got.max_md_jump == 0.5f,
	      "CC profile 0: the built-in one, ONLINE, base RTT 100 us");
	check(cc_state(e, 77, &algo) == INIT && algo == "(null)",
	      "CC profile 77 starts INIT, no algorithm");
	check(cc_modify(e, 77, ONLINE, nscc, &cfg) == -1 && errno == EINVAL,
	      "INIT -> ONLINE: EINVAL");
	check(cc_modify(e, 77, OFFLINE, nullptr, nullptr) == -1 && errno == EINVAL,
	      "to OFFLINE without an algorithm: EINVAL");
	check(cc_modify(e, 77, OFFLINE, "dctcp", nullptr) == -1 && errno == EINVAL,
	      "an unknown algorithm: EINVAL");
	for (uint64_t id : {uint64_t{0}, uint64_t{65536}})
		check(cc_modify(e, id, OFFLINE, nscc, nullptr) == -1 &&
			      errno == EINVAL,
		      "modify of CC profile " + std::to_string(id) + ": EINVAL");
	check(cc_modify(e, 77, OFFLINE, nscc, nullptr,
			MRC_CTL_CC_PROFILE_CUR_STATE) == -1 &&
		      errno == EINVAL,
	      "modify with CUR_STATE in the mask: EINVAL");
	check(cc_modify(e, 77, 5, nscc, nullptr) == -1 && errno == EINVAL,
	      "modify to state 5: EINVAL");
	check(cc_state(e, 77) == INIT, "... the refusals left it INIT");

	check(cc_modify(e, 77, OFFLINE, nscc, nullptr) == 0 &&
		      cc_state(e, 77, &algo) == OFFLINE && algo == nscc,
	      "INIT -> OFFLINE with uet-1.0-nscc");
	check(cc_modify(e, 77, ONLINE, nullptr, nullptr) == -1 && errno == EINVAL,
	      "to ONLINE without a config: EINVAL");
	struct Bad {
		const char *what;
		void (*spoil)(mrc_ctl_cc_nscc_cfg &);
	} bad[] = {
		{"gamma 2.0", [](mrc_ctl_cc_nscc_cfg &c) { c.gamma = 2.0f; }},
		{"gamma NaN", [](mrc_ctl_cc_nscc_cfg &c) { c.gamma = NAN; }},
		{"max_md_jump 0",
		 [](mrc_ctl_cc_nscc_cfg &c) { c.max_md_jump = 0; }},
		{"eta -1", [](mrc_ctl_cc_nscc_cfg &c) { c.eta = -1; }},
		{"base_rtt 0", [](mrc_ctl_cc_nscc_cfg &c) { c.base_rtt = 0; }},
		{"qa_gate 40", [](mrc_ctl_cc_nscc_cfg &c) { c.qa_gate = 40; }},
		{"max_cwnd 0", [](mrc_ctl_cc_nscc_cfg &c) { c.max_cwnd = 0; }},
	};
	for (const Bad &b : bad) {
		mrc_ctl_cc_nscc_cfg c = good_cc();
		b.spoil(c);
		check(cc_modify(e, 77, ONLINE, nullptr, &c) == -1 &&
			      errno == EINVAL && cc_state(e, 77) == OFFLINE,
		      std::string("to ONLINE with ") + b.what +
			      ": EINVAL, still OFFLINE");
	}
	check(cc_modify(e, 77, ONLINE, nullptr, &cfg) == 0 &&
		      cc_state(e, 77, &algo, &got) == ONLINE && algo == nscc &&
		      same_cc(got, cfg),
	      "OFFLINE -> ONLINE: the kernel holds the values given");
	check(cc_modify(e, 77, INIT, nullptr, nullptr) == -1 && errno == EINVAL,
	      "ONLINE -> INIT: EINVAL");
	mrc_ctl_cc_nscc_cfg c2 = cfg;
	c2.base_rtt = 124000;
	check(cc_modify(e, 77, ONLINE, nullptr, &c2) == 0 &&
		      cc_state(e, 77, nullptr, &got) == ONLINE &&
		      got.base_rtt == 124000,
	      "a new config while ONLINE (cc-profile-set)");
	check(cc_modify(e, 77, OFFLINE, nullptr, nullptr) == 0 &&
		      cc_state(e, 77, nullptr, &got) == OFFLINE &&
		      same_cc(got, c2),
	      "ONLINE -> OFFLINE keeps the values");
	check(cc_modify(e, 77, INIT, nullptr, nullptr) == 0 &&
		      cc_state(e, 77) == INIT,
	      "OFFLINE -> INIT");
	// The NULL algorithm: no congestion control (the kernel's "none").
	check(cc_modify(e, 78, OFFLINE, nullptr, nullptr,
			MRC_CTL_CC_PROFILE_ALGORITHM) == 0 &&
		      cc_state(e, 78, &algo) == OFFLINE && algo == "(null)",
	      "INIT -> OFFLINE with the NULL algorithm (no CC)");
	check(cc_modify(e, 78, ONLINE, nullptr, nullptr) == 0 &&
		      cc_state(e, 78, &algo, &got) == ONLINE &&
		      algo == "(null)" && got.max_cwnd == 524288,
	      "... ONLINE without a config: no CC, the built-in max_cwnd");
	check(cc_modify(e, 78, OFFLINE, nullptr, nullptr) == 0 &&
		      cc_modify(e, 78, INIT, nullptr, nullptr) == 0 &&
		      cc_state(e, 78) == INIT,
	      "... OFFLINE -> INIT");
	check(cc_modify(e, 77, OFFLINE, nscc, &cfg) == 0 &&
		      cc_modify(e, 77, ONLINE, nullptr, nullptr) == 0 &&
		      cc_state(e, 77, nullptr, &got) == ONLINE &&
		      same_cc(got, cfg),
	      "INIT -> OFFLINE with a config -> ONLINE, left for the caller");
	mrc_ctl_cc_profile_attr a{};
	check(mrc_ctl_query_cc_profile(e.ctx.get(), 77, &a,
				       MRC_CTL_CC_PROFILE_CONFIG) == -1 &&
		      errno == EINVAL,
	      "query of the config without cc_config: EINVAL");
	check(mrc_ctl_query_cc_profile(e.ctx.get(), 77, &a,
				       MRC_CTL_CC_PROFILE_VENDOR_CFG) == -1 &&
		      errno == EINVAL,
	      "query of the vendor config: EINVAL");
}

// The controller API's ports: planes 1..n of the device.
void ctl_ports(Endpoint &e, int n)
{
	uint32_t v[4] = {0, 1, 0, 1};
	mrc_ctl_query_version(&v[0], &v[1], &v[2], &v[3]);
	check(v[0] == MRC_CTL_API_CURRENT_VERSION &&
		      v[1] == MRC_CTL_API_LAST_SUPPORTED_VERSION &&
		      v[2] == MRC_CTL_VENDOR_API_CURRENT_VERSION &&
		      v[3] == MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION,
	      "mrc_ctl_query_version reports the header's versions");
	mrc_ctl_device_attr da;
	std::memset(&da, 0xa5, sizeof(da));
	int sup = -1;
	check(mrc_ctl_query_device_ex(e.vctx.get(), e.ctx.get(), &da, &sup) == 0 &&
		      sup == 1,
	      "mrc_ctl_query_device_ex: an MRC device");
	uint32_t want_ports = ((1u << n) - 1) << 1;
	check(da.phy_port_mask == want_ports,
	      "phy_port_mask is planes 1-" + std::to_string(n) + " (" +
		      std::to_string(da.phy_port_mask) + ")");
	check(da.mrc_ctl_protocol_version == MRC_CTL_PROTOCOL_VERSION_1 &&
		      da.ev.ev_max_profiles == 256 &&
		      da.ev.ev_max_count_profile == 256 &&
		      da.ev.ev_max_count == 65536 &&
		      da.ev.ev_free_count == da.ev.ev_max_count &&
		      da.ev.ev_count_align == 1 && da.ev.ev_max_width == 256 &&
		      da.ev.ev_max_fmt_profiles == 256 &&
		      da.cc.cc_max_profiles == 256 &&
		      da.opt_attr == (MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE |
				      MRC_CTL_OPT_CAP_EV_EVENT |
				      MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT |
				      MRC_CTL_OPT_CAP_EP_OP_EV_PROBE),
	      "the kernel's limits, all EVs free, CC profiles change online, "
	      "EV events with exact drop counts, EV probes");
	check(da.cc.algorithms && da.cc.algorithms[0] &&
		      std::string(da.cc.algorithms[0]) == "uet-1.0-nscc" &&
		      !da.cc.algorithms[1],
	      "one CC algorithm: uet-1.0-nscc");
	mrc_ctl_device_attr da0{};
	check(mrc_ctl_query_device(e.vctx.get(), &da0) == 0 &&
		      da0.phy_port_mask == want_ports,
	      "mrc_ctl_query_device (API 1.0.0) answers the same");
	errno = 0;
	check(mrc_ctl_query_device_ex(e.vctx.get(), e.ctx.get(), nullptr,
				      &sup) == -1 &&
		      errno == EINVAL,
	      "mrc_ctl_query_device_ex without attr: EINVAL");
	int rc;
	for (int p = 1; p <= n; p++) {
		auto st = port_state(e, p, &rc);
		check(rc == 0 && st == MRC_CTL_PORT_ADMIN_ENABLED,
		      "port " + std::to_string(p) + " (plane " +
			      std::to_string(p) + ") reads enabled");
	}
	mrc_ctl_port_attr pa{};
	for (int p : {0, n + 1, 255}) {
		errno = 0;
		check(mrc_ctl_query_port(e.ctx.get(), static_cast<uint8_t>(p),
					 &pa, MRC_CTL_PORT_ADMIN_STATE) == -1 &&
			      errno == EINVAL,
		      "query of port " + std::to_string(p) +
			      " (no such plane): EINVAL");
	}
	for (int mask : {0, 2, -1}) {
		errno = 0;
		check(mrc_ctl_query_port(e.ctx.get(), 1, &pa, mask) == -1 &&
			      errno == EINVAL,
		      "query with attr_mask " + std::to_string(mask) + ": EINVAL");
	}
	errno = 0;
	check(set_port(e, n, 7) == -1 && errno == EINVAL,
	      "modify to admin state 7: EINVAL");
	errno = 0;
	check(set_port(e, n + 1, MRC_CTL_PORT_ADMIN_DISABLED) == -1 &&
		      errno == EINVAL,
	      "modify of port " + std::to_string(n + 1) + ": EINVAL");
	check(port_state(e, n, &rc) == MRC_CTL_PORT_ADMIN_ENABLED && rc == 0,
	      "a refused modify changed nothing");
	check(set_port(e, n, MRC_CTL_PORT_ADMIN_DISABLED) == 0,
	      "port " + std::to_string(n) + " disabled");
	check(port_state(e, n, &rc) == MRC_CTL_PORT_ADMIN_DISABLED && rc == 0,
	      "... and reads disabled");
	check(port_state(e, 1, &rc) == MRC_CTL_PORT_ADMIN_ENABLED && rc == 0,
	      "... while port 1 stays enabled");
	check(set_port(e, n, MRC_CTL_PORT_ADMIN_ENABLED) == 0 &&
		      port_state(e, n, &rc) == MRC_CTL_PORT_ADMIN_ENABLED,
	      "port " + std::to_string(n) + " enabled again");
	check(set_port(e, n, MRC_CTL_PORT_ADMIN_DISABLED) == 0,
	      "port " + std::to_string(n) + " disabled for the caller to see");
	ctl_cc_profiles(e);
}

// Without CAP_NET_ADMIN: reading works, changing is refused.
void ctl_unprivileged(Endpoint &e, int port)
{
	int rc;
	auto st = port_state(e, port, &rc);
	check(rc == 0 && (st == MRC_CTL_PORT_ADMIN_ENABLED ||
			  st == MRC_CTL_PORT_ADMIN_DISABLED),
	      "without CAP_NET_ADMIN port " + std::to_string(port) + " reads");
	errno = 0;
	check(set_port(e, port, MRC_CTL_PORT_ADMIN_DISABLED) == -1 &&
		      errno == EPERM,
	      "without CAP_NET_ADMIN modify_port: EPERM");
	mrc_ctl_cc_nscc_cfg cfg = good_cc(), got{};
	check(cc_state(e, 77, nullptr, &got) == ONLINE && same_cc(got, cfg),
	      "without CAP_NET_ADMIN CC profile 77 reads ONLINE");
	check(cc_modify(e, 77, OFFLINE, nullptr, nullptr) == -1 &&
		      errno == EPERM && cc_state(e, 77) == ONLINE,
	      "without CAP_NET_ADMIN ONLINE -> OFFLINE: EPERM");
	check(cc_modify(e, 78, OFFLINE, "uet-1.0-nscc", &cfg) == 0 &&
		      cc_modify(e, 78, ONLINE, nullptr, nullptr) == -1 &&
		      errno == EPERM && cc_state(e, 78) == OFFLINE,
	      "without CAP_NET_ADMIN OFFLINE (the library's) -> ONLINE: EPERM");
}

// A profile a route names cannot leave the kernel (ctl_cc_profile.cpp,
// ctl_ev_profile.cpp): @state reads its state, @offline tries to take it
// OFFLINE.
void profile_busy(const std::string &p, const std::function<int()> &state,
		  const std::function<int()> &offline)
{
	check(state() == ONLINE, p + " is ONLINE");
	errno = 0;
	check(offline() == -1 && errno == EBUSY,
	      p + " named by a route: ONLINE -> OFFLINE is EBUSY");
	check(state() == ONLINE, "... and leaves it ONLINE");
}

void ctl_cc_busy(Endpoint &e, int id)
{
	const auto u = static_cast<uint64_t>(id);
	profile_busy(
		"CC profile " + std::to_string(id),
		[&] { return cc_state(e, u); },
		[&] { return cc_modify(e, u, OFFLINE, nullptr, nullptr); });
}

const char *ev_state_name(mrc_ctl_ev_state s)
{
	switch (s) {
	case MRC_CTL_EV_GOOD: return "good";
	case MRC_CTL_EV_ASSUMED_BAD: return "assumed_bad";
	case MRC_CTL_EV_DENIED: return "denied";
	case MRC_CTL_EV_UNKNOWN: return "unknown";
	}
	return "?";
}

// The refusals of the EV event calls that need a context, then the
// events the caller makes happen (ctl_ev_event.cpp).
void ctl_ev_events(Endpoint &e, int cqe, const std::string &go_file)
{
	mrc_context *ctx = e.ctx.get();
	errno = 0;
	check(!mrc_ctl_create_ev_event_cq(ctx, 0, nullptr, nullptr, 0) &&
		      errno == EINVAL,
	      "create_ev_event_cq with cqe 0: EINVAL");
	errno = 0;
	check(!mrc_ctl_create_ev_event_cq(ctx, 1 << 20, nullptr, nullptr, 0) &&
		      errno == EINVAL,
	      "create_ev_event_cq with cqe 2^20 (beyond 65536): EINVAL");
	mrc_comp_channel *ch = nullptr;
	check(mrc_create_comp_channel(ctx, &ch) == 0, "a completion channel");
	mrc_cq *chcq = mrc_ctl_create_ev_event_cq(ctx, 4, &cqe, ch, 0);
	check(chcq != nullptr, "create_ev_event_cq on a completion channel");
	int chfd = -1;
	check(mrc_get_comp_channel_fd(ch, &chfd) == 0 && chfd >= 0 &&
		      mrc_req_notify_cq(chcq, 0) == 0,
	      "... the channel's fd, the event CQ armed (mrc_req_notify_cq)");
	pollfd pfd{chfd, POLLIN, 0};
	check(::poll(&pfd, 1, 0) == 0,
	      "... the fd is not readable before an event");
	int fl = fcntl(chfd, F_GETFL);
	mrc_cq *got = nullptr;
	void *got_ctx = nullptr;
	errno = 0;
	check(fl >= 0 && fcntl(chfd, F_SETFL, fl | O_NONBLOCK) == 0 &&
		      mrc_get_cq_event(ch, &got, &got_ctx) == -1 &&
		      errno == EAGAIN,
	      "... mrc_get_cq_event on the non-blocking fd without an event: EAGAIN");
	check(refused(mrc_destroy_comp_channel(ch), EBUSY),
	      "... the channel cannot go while the event CQ uses it: EBUSY");
	check(mrc_destroy_cq(chcq) == 0, "... the event CQ destroyed");
	check(mrc_destroy_comp_channel(ch) == 0, "... then the channel");

	int tag = 0;
	Cq cq(mrc_ctl_create_ev_event_cq(ctx, cqe, &tag, nullptr, 0));
	if (!cq)
		fail_errno("mrc_ctl_create_ev_event_cq");
	check(true, "an EV event CQ of " + std::to_string(cqe) + " entries");
	mrc_ctl_ev_event ev[64];
	check(mrc_ctl_poll_ev_event(cq.get(), -1, ev) == -EINVAL,
	      "poll_ev_event with num_entries -1: -EINVAL");
	ibv_wc wc;
	check(mrc_poll_cq(cq.get(), 1, &wc) == -1 && errno == EINVAL,
	      "mrc_poll_cq on an EV event CQ: EINVAL");
	check(refused(mrc_req_notify_cq(cq.get(), 0), EOPNOTSUPP),
	      "mrc_req_notify_cq on an EV event CQ: EOPNOTSUPP");
	Cq vcq(mrc_create_cq(ctx, 4, nullptr, nullptr, 0));
	check(vcq && mrc_ctl_poll_ev_event(vcq.get(), 1, ev) == -EINVAL,
	      "poll_ev_event on a CQ of completions: -EINVAL");
	std::printf("ready\n");
	std::fflush(stdout);

	// The caller makes its events, then says go: with a file that
	// appears (a shell's background job has no stdin), else a line.
	if (!go_file.empty()) {
		while (access(go_file.c_str(), F_OK))
			std::this_thread::sleep_for(std::chrono::milliseconds(50));
	} else {
		char line[64];
		if (!std::fgets(line, sizeof(line), stdin))
			fail("no go line on stdin");
	}
	uint64_t delivered = 0, dropped = 0;
	bool bad = false;
	auto quiet_since = std::chrono::steady_clock::now();
	while (std::chrono::steady_clock::now() - quiet_since <
	       std::chrono::seconds(2)) {
		int n = mrc_ctl_poll_ev_event(cq.get(), 64, ev);
		if (n < 0) {
			check(false, "poll_ev_event: " + std::to_string(n));
			break;
		}
		if (!n) {
			std::this_thread::sleep_for(std::chrono::milliseconds(20));
			continue;
		}
		quiet_since = std::chrono::steady_clock::now();
		for (int i = 0; i < n; i++) {
			std::string hex;
			char b[3];
			for (uint8_t v : ev[i].ev.val) {
				std::snprintf(b, sizeof(b), "%02x", v);
				hex += b;
			}
			bad |= !ev[i].ev.port;
			std::printf("event profile %llu port %u state %s drop %u value %s\n",
				    static_cast<unsigned long long>(
					    ev[i].profile_id),
				    ev[i].ev.port, ev_state_name(ev[i].state),
				    ev[i].drop_count, hex.c_str());
			delivered++;
			dropped += ev[i].drop_count;
		}
	}
	check(!bad, "every event names its port");
	std::printf("ev_events: delivered %llu dropped %llu total %llu\n",
		    static_cast<unsigned long long>(delivered),
		    static_cast<unsigned long long>(dropped),
		    static_cast<unsigned long long>(delivered + dropped));
	check(mrc_destroy_cq(cq.release()) == 0,
	      "the EV event CQ destroyed (mrc_destroy_cq)");
}
#include "api_check_ev.hpp"
#include "api_check_ep.hpp"

int main(int argc, char **argv)
{
	return run_main("mrc_api_check", [&] {
		Options o;
		bool mrc = false, ev = false, ev_unpriv = false;
		int ctl = 0, unpriv = 0, busy = 0, ev_busy = 0, ev_cqe = 0;
		std::string go_file;
		EpOpts ep;
		parse_options(argc, argv, o,
			      {{"mrc", 0, false, set_true(mrc)},
			       {"ev", 0, false, set_true(ev)},
			       {"ev-unpriv", 0, false, set_true(ev_unpriv)},
			       {"ctl", 0, true,
				[&](const char *a) { ctl = std::atoi(a); }},
			       {"ctl-unpriv", 0, true,
				[&](const char *a) { unpriv = std::atoi(a); }},
			       {"cc-busy", 0, true,
				[&](const char *a) { busy = std::atoi(a); }},
			       {"ev-busy", 0, true,
				[&](const char *a) { ev_busy = std::atoi(a); }},
			       {"ev-events", 0, true,
				[&](const char *a) { ev_cqe = std::atoi(a); }},
			       {"go-file", 0, true,
				[&](const char *a) { go_file = a; }},
			       {"ep-peer", 0, true,
				[&](const char *a) { ep.peer = a; }},
			       {"ep-probe", 0, true,
				[&](const char *a) { ep.planes = std::atoi(a); }},
			       {"ep-down", 0, true,
				[&](const char *a) { ep.down = std::atoi(a); }},
			       {"ep-status", 0, true,
				[&](const char *a) {
					ep.status = std::strtol(a, nullptr, 0);
				}},
			       {"ep-timeout", 0, true,
				[&](const char *a) {
					ep.timeout_ms = static_cast<uint32_t>(
						std::atoi(a));
				}},
			       {"ep-unpriv", 0, false, set_true(ep.unpriv)}},
			      [](const char *prog) {
				      std::printf("usage: %s -d DEV [--mrc | --ctl N | --ctl-unpriv N | --cc-busy ID | --ev-busy ID | --ev | --ev-unpriv | --ev-events CQE [--go-file F] | --ep-peer ADDR (--ep-probe N [--ep-down P] [--ep-timeout MS] | --ep-status MASK | --ep-unpriv)]\n",
						  prog);
			      });
		Endpoint e;
		e.opt = o;
		int n = 0;
		e.list.reset(ibv_get_device_list(&n));
		for (int i = 0; e.list && i < n; i++)
			if (o.dev == ibv_get_device_name(e.list[i]))
				e.vctx.reset(ibv_open_device(e.list[i]));
		if (!e.vctx)
			fail("cannot open " + o.dev);
		e.ctx.reset(mrc_create_context(e.vctx.get(), nullptr));
		if (!e.ctx)
			fail_errno("mrc_create_context");
		if (!ep.peer.empty()) {
			if (ep.unpriv)
				ctl_ep_unpriv(e, ep);
			else if (ep.status >= 0)
				ctl_ep_status(e, ep);
			else
				ctl_ep_probe(e, ep);
		} else if (ev_cqe > 0)
			ctl_ev_events(e, ev_cqe, go_file);
		else if (ev || ev_unpriv)
			ev ? ctl_ev(e) : ctl_ev_unprivileged(e);
		else if (busy > 0)
			ctl_cc_busy(e, busy);
		else if (ev_busy > 0)
			profile_busy(
				"EV profile " + std::to_string(ev_busy),
				[&] { return ev_state(e, ev_busy); },
				[&] { return ev_set_state(e, ev_busy, OFFLINE); });
		else if (ctl > 0 || unpriv > 0)
			ctl > 0 ? ctl_ports(e, ctl) : ctl_unprivileged(e, unpriv);
		else
			objects(e);
		if (mrc) {
			e.ctx.reset();
			open_endpoint(e, 4096, 4, false);
			qps(e);
		}
		std::printf("mrc_api_check: %d failed\n", failures);
		if (failures)
			std::exit(1);
	});
}
