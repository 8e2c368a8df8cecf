// SPDX-License-Identifier: GPL-2.0-only
// mrc_api_check's endpoint operations (--ep-probe, --ep-status,
// --ep-unpriv): mrc_ctl_ep_batch_send_wait() toward a peer.  Included by
// mrc_api_check.cpp (check(), Endpoint).

#include <map>
#include <vector>

namespace {

struct EpOpts {
	std::string peer;
	int planes = 0;	     // --ep-probe N: planes 1..N
	int down = 0;	     // --ep-down P: plane P cannot answer
	long status = -1;    // --ep-status MASK (bit N: port N up)
	bool unpriv = false; // --ep-unpriv
	uint32_t timeout_ms = 1000;
};

constexpr int ep_per_plane = 4;

ibv_gid gid_of(const std::string &addr)
{
	ibv_gid g{};
	in_addr a4{};
	if (inet_pton(AF_INET, addr.c_str(), &a4) == 1) {
		g.raw[10] = 0xff;
		g.raw[11] = 0xff;
		std::memcpy(g.raw + 12, &a4, 4);
	} else if (inet_pton(AF_INET6, addr.c_str(), g.raw) != 1) {
		fail("not an address: " + addr);
	}
	return g;
}

// UDP EV k of plane p: source port 0xc000 + 16 p + k, big endian.
mrc_ctl_ep_req ep_udp_req(const EpOpts &o, uint16_t id, int p, int k)
{
	mrc_ctl_ep_req r{};
	r.req_id = id;
	r.dgid = gid_of(o.peer);
	r.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	const unsigned sport = 0xc000u + 16u * static_cast<unsigned>(p) +
			       static_cast<unsigned>(k);
	r.req_ev.val[0] = static_cast<uint8_t>(sport >> 8);
	r.req_ev.val[1] = static_cast<uint8_t>(sport);
	r.req_ev.port = static_cast<uint8_t>(p);
	return r;
}

// Every EV of planes 1..o.planes, ids 100, 101, ...
std::vector<mrc_ctl_ep_req> ep_batch_reqs(const EpOpts &o)
{
	std::vector<mrc_ctl_ep_req> v;
	for (int p = 1; p <= o.planes; p++)
		for (int k = 0; k < ep_per_plane; k++)
			v.push_back(
				ep_udp_req(o,
					   static_cast<uint16_t>(100 + v.size()),
					   p, k));
	return v;
}

struct EpResult {
	int rc = 0, err = 0, n = -1;
	std::vector<mrc_ctl_ep_rsp> rsp;
};

EpResult ep_send(Endpoint &e, mrc_ctl_ep_op_type op,
		 std::vector<mrc_ctl_ep_req> reqs, uint32_t timeout_ns)
{
	EpResult r;
	r.rsp.resize(std::max<size_t>(reqs.size(), 1));
	errno = 0;
	r.rc = mrc_ctl_ep_batch_send_wait(e.ctx.get(), 0, op, reqs.data(),
					  static_cast<int>(reqs.size()),
					  timeout_ns, r.rsp.data(), &r.n);
	r.err = errno;
	return r;
}

// A refusal: -1, EINVAL, nothing answered.
void ep_refused(Endpoint &e, const std::string &what,
		std::vector<mrc_ctl_ep_req> reqs,
		mrc_ctl_ep_op_type op = MRC_CTL_EP_OP_EV_PROBE,
		uint32_t timeout_ns = 100000000)
{
	EpResult r = ep_send(e, op, std::move(reqs), timeout_ns);
	check(r.rc == -1 && r.err == EINVAL && r.n == 0,
	      "ep_batch_send_wait refuses " + what + ": EINVAL (rc " +
		      std::to_string(r.rc) + " errno " + std::to_string(r.err) +
		      ")");
}

void ep_refusals(Endpoint &e, const EpOpts &o)
{
	const mrc_ctl_ep_req good = ep_udp_req(o, 1, 1, 0);
	mrc_ctl_ep_rsp rsp[2];
	int n = 7;
	mrc_ctl_ep_req one[1] = {good};
	errno = 0;
	check(mrc_ctl_ep_batch_send_wait(e.ctx.get(), 0, MRC_CTL_EP_OP_EV_PROBE,
					 one, 1, 1000000, nullptr, &n) == -1 &&
		      errno == EINVAL && n == 0,
	      "ep_batch_send_wait refuses a null rsp: EINVAL");
	errno = 0;
	check(mrc_ctl_ep_batch_send_wait(e.ctx.get(), 0, MRC_CTL_EP_OP_EV_PROBE,
					 nullptr, 1, 1000000, rsp, &n) == -1 &&
		      errno == EINVAL,
	      "ep_batch_send_wait refuses a null req: EINVAL");
	errno = 0;
	check(mrc_ctl_ep_batch_send_wait(e.ctx.get(), 0, MRC_CTL_EP_OP_EV_PROBE,
					 one, 1, 1000000, rsp, nullptr) == -1 &&
		      errno == EINVAL,
	      "ep_batch_send_wait refuses a null num_rsp: EINVAL");
	ep_refused(e, "num_req 0", {});
	ep_refused(e, "257 requests", std::vector<mrc_ctl_ep_req>(257, good));
	ep_refused(e, "a duplicate req_id", {good, ep_udp_req(o, 1, 2, 0)});
	auto bad = good;
	bad.req_ev.port = 0;
	ep_refused(e, "port 0", {bad});
	bad.req_ev.port = 17;
	ep_refused(e, "port 17", {bad});
	bad = good;
	bad.ev_fmt_mode = static_cast<mrc_ctl_ev_fmt_mode>(0);
	ep_refused(e, "no EV format", {bad});
	bad = good;
	bad.req_ev.val[5] = 1;
	ep_refused(e, "a UDP EV with bytes beyond its 2", {bad});
	bad = good;
	bad.dgid = ibv_gid{};
	ep_refused(e, "a zero destination GID", {bad});
	bad = good;
	bad.sgid = gid_of("192.0.2.77");
	ep_refused(e, "a source GID not the device's", {bad});
	bad = good;
	bad.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
	if (o.peer.find(':') == std::string::npos)
		ep_refused(e, "an STEV EV toward an IPv4 peer", {bad});
	ep_refused(e, "a zero timeout", {good}, MRC_CTL_EP_OP_EV_PROBE, 0);
	ep_refused(e, "an unknown operation", {good},
		   static_cast<mrc_ctl_ep_op_type>(7));
	bad = good;
	bad.op.port_status_update.port_status = 1; // bit 0: no port
	ep_refused(e, "a port status with bit 0", {bad},
		   MRC_CTL_EP_OP_PORT_STATUS_UPDATE);
}

void ctl_ep_probe(Endpoint &e, const EpOpts &o)
{
	mrc_ctl_device_attr da{};
	check(mrc_ctl_query_device(e.vctx.get(), &da) == 0 &&
		      (da.opt_attr & MRC_CTL_OPT_CAP_EP_OP_EV_PROBE),
	      "the device offers EV probes (MRC_CTL_OPT_CAP_EP_OP_EV_PROBE)");
	if (!o.down)
		ep_refusals(e, o);
	auto reqs = ep_batch_reqs(o);
	const auto t0 = std::chrono::steady_clock::now();
	EpResult r = ep_send(e, MRC_CTL_EP_OP_EV_PROBE, reqs,
			     o.timeout_ms * 1000000u);
	const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
				std::chrono::steady_clock::now() - t0)
				.count();
	const int want = static_cast<int>(reqs.size()) -
			 (o.down ? ep_per_plane : 0);
	const std::string what = std::to_string(reqs.size()) +
				 " EVs on planes 1-" + std::to_string(o.planes);
	if (o.down)
		check(r.rc == -1 && r.err == ETIMEDOUT && r.n == want,
		      what + " with plane " + std::to_string(o.down) +
			      " down: ETIMEDOUT, " + std::to_string(r.n) +
			      " answers (want " + std::to_string(want) + ")");
	else
		check(r.rc == 0 && r.n == want,
		      what + " probed in one batch: all " + std::to_string(r.n) +
			      " answered in " + std::to_string(ms) + " ms");
	std::map<uint16_t, int> seen;
	bool ports_ok = true, rtt_ok = true, ids_ok = true;
	for (int i = 0; i < std::max(r.n, 0); i++) {
		const mrc_ctl_ep_rsp &a = r.rsp[static_cast<size_t>(i)];
		if (a.req_id < 100 || a.req_id >= 100 + reqs.size() ||
		    seen[a.req_id]++) {
			ids_ok = false;
			continue;
		}
		const mrc_ctl_ep_req &q = reqs[a.req_id - 100u];
		ports_ok &= a.port == q.req_ev.port &&
			    a.port != static_cast<uint8_t>(o.down);
		rtt_ok &= a.rtt > 0;
		if (i < 2)
			std::printf("# req_id %u port %u rtt %u ns adj_svc_time %u\n",
				    a.req_id, a.port, a.rtt, a.adj_svc_time);
	}
	check(ids_ok, "every answer names a request of the batch, once");
	check(ports_ok, "every answer came in on its EV's port");
	check(rtt_ok, "every answer has an RTT > 0");
}

void ctl_ep_status(Endpoint &e, const EpOpts &o)
{
	mrc_ctl_ep_req q{};
	q.req_id = 9;
	q.dgid = gid_of(o.peer);
	q.op.port_status_update.port_status = static_cast<uint32_t>(o.status);
	EpResult r = ep_send(e, MRC_CTL_EP_OP_PORT_STATUS_UPDATE, {q}, 0);
	check(r.rc == 0 && r.n == 1 && r.rsp[0].req_id == 9 && r.rsp[0].rtt == 0,
	      "PORT_STATUS_UPDATE " + std::to_string(o.status) + " to " +
		      o.peer + ": sent on its connection (1 response)");
	// Nobody there: no connection carries it, no response.
	q.dgid = gid_of(o.peer.find(':') == std::string::npos ? "192.0.2.1" :
								"2001:db8::1");
	r = ep_send(e, MRC_CTL_EP_OP_PORT_STATUS_UPDATE, {q}, 0);
	check(r.rc == -1 && r.err == ETIMEDOUT && r.n == 0,
	      "PORT_STATUS_UPDATE to a peer without a connection: ETIMEDOUT, "
	      "no response");
}

void ctl_ep_unpriv(Endpoint &e, const EpOpts &o)
{
	EpResult r = ep_send(e, MRC_CTL_EP_OP_EV_PROBE,
			     {ep_udp_req(o, 1, 1, 0)}, 100000000);
	check(r.rc == -1 && r.err == EPERM && r.n == 0,
	      "without CAP_NET_ADMIN an EV probe batch: EPERM");
	mrc_ctl_ep_req q = ep_udp_req(o, 2, 1, 0);
	q.op.port_status_update.port_status = 0x1e;
	r = ep_send(e, MRC_CTL_EP_OP_PORT_STATUS_UPDATE, {q}, 0);
	check(r.rc == -1 && r.err == EPERM && r.n == 0,
	      "without CAP_NET_ADMIN a PORT_STATUS_UPDATE: EPERM");
}

} // namespace
