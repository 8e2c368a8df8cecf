// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_controller: what a fabric controller does with the controller API
// (mrc_ctl.h), end to end, with one "ok - ..." / "not ok - ..." line per
// check and "step ..." / "event ..." lines that say what happened.
//
//   server: mrc_controller -d mrc1 --serve
//   client: mrc_controller -d mrc2 --step-dir DIR [--exp-ev P:V ...] SERVER
//
// The client is the controller and the sending host at once:
//   1. profiles: an EV format profile (UDP, one 16-bit field), an EXP EV
//      profile (its slots filled by REPLACE_EV with the --exp-ev EVs, by
//      default 4 per plane of 2) and a GEN EV profile (0xd000..0xd003 on
//      planes 1 and 2), both ONLINE with GOOD and ASSUMED_BAD events;
//   2. an EV event CQ on a completion channel (the channel's fd becomes
//      readable when events arrive);
//   3. two QPs to the server, one on each EV profile, each streaming
//      WRITE_WITH_IMM that the server verifies byte by byte;
//   4. "@ cut": the caller cuts a spine link and creates DIR/cut; the
//      events of the next seconds are printed, then every EV of the EXP
//      profile is probed in one batch (those behind the cut link do not
//      answer); "@ repair": the caller repairs it, and the program waits
//      until every EV that went ASSUMED_BAD has reported GOOD again;
//   5. every EV of each profile probed in one batch: all answer, each on
//      its port, with an RTT;
//   6. port 2 disabled (mrc_ctl_modify_port), "@ port-down" while the
//      caller counts the port's bytes, then enabled again, "@ port-up";
//   7. the streams stop; the server prints its verified totals.
// At each "@ NAME" line the program waits for DIR/NAME to exist.
#include "example_common.hpp"

#include <mrc_ctl.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

using namespace example;

namespace {

int failures = 0;

void check(bool ok, const std::string &what)
{
	std::printf("%s - %s\n", ok ? "ok" : "not ok", what.c_str());
	std::fflush(stdout);
	failures += !ok;
}

void usage(const char *prog)
{
	std::printf("usage: %s [options] --serve | --step-dir DIR [--exp-ev P:V]... SERVER\n%s"
		    "      --serve           the receiving end (verifies every byte)\n"
		    "      --step-dir=DIR    wait at each step for DIR/NAME\n"
		    "      --exp-ev=P:V      an EV of the EXP profile (port P, UDP port V)\n"
		    "      --cut-secs=S      seconds of events after the cut (default 4)\n",
		    prog, common_usage);
}

constexpr uint64_t fmt_id = 1, exp_id = 81, gen_id = 82;
constexpr size_t slots = 8;
constexpr uint32_t final_imm = 0xffffffffu;
constexpr int stream_count = 2;

// ---------------------------------------------------------------------
// The streams: the client writes message i (a pattern of the stream and
// i) into slot i % slots with WRITE_WITH_IMM i; the server checks it,
// reposts the receive and returns a credit (its count of checked
// messages) into the client's credit word.  Buffer layout on both sides:
// the slots, an 8-byte final word, the credit word, one credit source
// word per slot.  The last message is an 8-byte WRITE_WITH_IMM of the
// count into the final word with immediate final_imm.

size_t final_off(size_t sz) { return slots * sz; }
size_t credit_off(size_t sz) { return slots * sz + 8; }
size_t buf_size(size_t sz) { return slots * sz + 16 + slots * 8; }

uint8_t pattern(int stream, uint64_t seq, size_t j)
{
	return static_cast<uint8_t>(seq * 251 + j * 13 + 3 + stream * 101);
}

uint64_t load(const Endpoint &e, size_t off)
{
	return std::atomic_ref<uint64_t>(
		       *reinterpret_cast<uint64_t *>(e.buf.get() + off))
		.load(std::memory_order_acquire);
}

struct StreamResult {
	uint64_t messages = 0, bytes = 0, corrupted = 0;
	std::string error;
};

void client_stream(Endpoint &e, int stream, const std::atomic<bool> &stop,
		   StreamResult &r)
{
	try {
		const size_t sz = e.opt.size;
		auto deadline = Clock::now() +
				std::chrono::seconds(e.opt.timeout);
		std::vector<ibv_wc> wc(slots);
		uint64_t i = 0, done = 0;
		sync_peer(e.sock);
		auto reap = [&] {
			int n = mrc_poll_cq(e.scq.get(),
					    static_cast<int>(slots), wc.data());
			if (n < 0)
				fail_errno("mrc_poll_cq");
			for (int k = 0; k < n; k++)
				if (wc[k].status != IBV_WC_SUCCESS)
					fail("message " +
					     std::to_string(wc[k].wr_id) +
					     " failed: " +
					     ibv_wc_status_str(wc[k].status));
			done += static_cast<uint64_t>(n);
			if (Clock::now() > deadline)
				fail("timed out at message " + std::to_string(i));
		};
		while (!stop.load(std::memory_order_relaxed)) {
			while (i >= load(e, credit_off(sz)) + slots ||
			       i - done >= slots)
				reap();
			const size_t off = (i % slots) * sz;
			uint8_t *p = e.buf.get() + off;
			for (size_t j = 0; j < sz; j++)
				p[j] = pattern(stream, i, j);
			post_write(e, off, off, sz,
				   static_cast<int64_t>(i & 0x7fffffff), i);
			i++;
		}
		while (done < i)
			reap();
		std::memcpy(e.buf.get() + final_off(sz), &i, 8);
		post_write(e, final_off(sz), final_off(sz), 8, final_imm, i);
		while (done < i + 1)
			reap();
		// The server's last credits are acknowledged before this QP
		// may go.
		sync_peer(e.sock);
		r.messages = i;
		r.bytes = i * sz;
	} catch (const std::exception &ex) {
		r.error = ex.what();
	}
}

void server_stream(Endpoint &e, int stream, StreamResult &r)
{
	try {
		const size_t sz = e.opt.size;
		auto deadline = Clock::now() +
				std::chrono::seconds(e.opt.timeout);
		ibv_wc wc[16];
		uint64_t sent = 0, sdone = 0;
		sync_peer(e.sock);
		for (uint64_t i = 0;; i++) {
			wait_cq(e.rcq.get(), wc, 1, deadline, "messages");
			const uint32_t imm = ntohl(wc[0].imm_data);
			if (wc[0].opcode != IBV_WC_RECV_RDMA_WITH_IMM)
				fail("message " + std::to_string(i) +
				     ": not a WRITE_WITH_IMM");
			if (imm == final_imm) {
				uint64_t total = load(e, final_off(sz));
				if (total != i)
					fail("the client counted " +
					     std::to_string(total) +
					     " messages, the server " +
					     std::to_string(i));
				r.messages = i;
				break;
			}
			if (imm != (i & 0x7fffffff))
				fail("message " + std::to_string(i) +
				     ": immediate " + std::to_string(imm));
			const uint8_t *p = e.buf.get() + (i % slots) * sz;
			for (size_t j = 0; j < sz; j++)
				r.corrupted += p[j] != pattern(stream, i, j);
			r.bytes += sz;
			post_recv(e, 0);
			while (sent - sdone >= slots)
				sdone += static_cast<uint64_t>(
					wait_cq(e.scq.get(), wc, 16, deadline,
						"credits"));
			const size_t src = credit_off(sz) + 8 + (i % slots) * 8;
			const uint64_t credit = i + 1;
			std::memcpy(e.buf.get() + src, &credit, 8);
			post_write(e, src, credit_off(sz), 8, -1, 0);
			sent++;
		}
		while (sdone < sent)
			sdone += static_cast<uint64_t>(
				wait_cq(e.scq.get(), wc, 16, deadline, "credits"));
		sync_peer(e.sock);
	} catch (const std::exception &ex) {
		r.error = ex.what();
	}
}

// The endpoints of both streams; @profiles the client's EV profiles.
void open_streams(const Options &o, std::vector<std::unique_ptr<Endpoint>> &eps,
		  const uint64_t *profiles)
{
	for (int s = 0; s < stream_count; s++) {
		auto e = std::make_unique<Endpoint>();
		e->opt = o;
		e->opt.port = static_cast<uint16_t>(o.port + s);
		if (profiles)
			e->opt.ev_profile = profiles[s];
		open_endpoint(*e, buf_size(o.size), slots + 2);
		for (size_t k = 0; k < slots + 1; k++)
			post_recv(*e, 0);
		connect_endpoint(*e);
		eps.push_back(std::move(e));
	}
}

int serve(const Options &o)
{
	std::vector<std::unique_ptr<Endpoint>> eps;
	open_streams(o, eps, nullptr);
	std::vector<StreamResult> res(stream_count);
	std::vector<std::thread> th;
	for (int s = 0; s < stream_count; s++)
		th.emplace_back(server_stream, std::ref(*eps[s]), s,
				std::ref(res[s]));
	for (auto &t : th)
		t.join();
	int bad = 0;
	for (int s = 0; s < stream_count; s++) {
		const StreamResult &r = res[s];
		if (!r.error.empty()) {
			std::printf("server: stream %d failed: %s\n", s,
				    r.error.c_str());
			bad++;
			continue;
		}
		std::printf("server: stream %d: %llu messages, %llu bytes verified, %llu corrupted bytes\n",
			    s, static_cast<unsigned long long>(r.messages),
			    static_cast<unsigned long long>(r.bytes),
			    static_cast<unsigned long long>(r.corrupted));
		bad += r.corrupted != 0;
	}
	return bad ? 1 : 0;
}

// ---------------------------------------------------------------------
// The controller.

mrc_ctl_ev udp_ev(uint8_t port, uint16_t v)
{
	mrc_ctl_ev ev{};
	ev.port = port;
	ev.val[0] = static_cast<uint8_t>(v >> 8);
	ev.val[1] = static_cast<uint8_t>(v);
	return ev;
}

uint16_t udp_val(const mrc_ctl_ev &ev)
{
	return static_cast<uint16_t>(ev.val[0] << 8 | ev.val[1]);
}

std::string ev_name(const mrc_ctl_ev &ev)
{
	char b[48];
	std::snprintf(b, sizeof(b), "port %u value 0x%04x", ev.port, udp_val(ev));
	return b;
}

const char *state_name(int s)
{
	switch (s) {
	case MRC_CTL_EV_GOOD: return "good";
	case MRC_CTL_EV_ASSUMED_BAD: return "assumed_bad";
	case MRC_CTL_EV_DENIED: return "denied";
	case MRC_CTL_EV_UNKNOWN: return "unknown";
	}
	return "?";
}

using EvKey = std::pair<uint64_t, std::pair<uint8_t, uint16_t>>;

EvKey key_of(uint64_t profile, const mrc_ctl_ev &ev)
{
	return {profile, {ev.port, udp_val(ev)}};
}

struct Controller {
	Options opt;
	DeviceList list;
	VContext vctx;
	Context ctx;
	std::string step_dir;
	std::vector<mrc_ctl_ev> exp_evs;
	mrc_comp_channel *channel = nullptr;
	Cq evcq;
	// Every event so far, with the step it came in.
	struct Seen {
		std::string step;
		uint64_t profile;
		mrc_ctl_ev ev;
		int state;
	};
	std::vector<Seen> events;
	std::string step = "start";
	const Clock::time_point t0 = Clock::now();
	uint64_t dropped = 0;

	~Controller()
	{
		evcq.reset();
		if (channel)
			mrc_destroy_comp_channel(channel);
	}

	void open()
	{
		int n = 0;
		list.reset(ibv_get_device_list(&n));
		if (!list)
			fail_errno("ibv_get_device_list");
		for (int i = 0; i < n; i++)
			if (opt.dev == ibv_get_device_name(list[i]))
				vctx.reset(ibv_open_device(list[i]));
		if (!vctx)
			fail("cannot open RDMA device " + opt.dev);
		mrc_context_attr ca{MRC_API_CURRENT_VERSION,
				    MRC_VENDOR_API_CURRENT_VERSION};
		ctx.reset(mrc_create_context(vctx.get(), &ca));
		if (!ctx)
			fail_errno("mrc_create_context");
		mrc_ctl_device_attr da{};
		int supported = 0;
		check(mrc_ctl_query_device_ex(vctx.get(), ctx.get(), &da,
					      &supported) == 0 &&
			      supported &&
			      (da.opt_attr & MRC_CTL_OPT_CAP_EV_EVENT) &&
			      (da.opt_attr & MRC_CTL_OPT_CAP_EP_OP_EV_PROBE),
		      "device: a controller device with EV events and EV probes");
		std::printf("step device: ports 0x%x, EV profiles of up to %u EVs\n",
			    da.phy_port_mask, da.ev.ev_max_count_profile);
	}

	// The caller's turn: "@ NAME", then wait for DIR/NAME.
	void wait_step(const std::string &name, int seconds = 120)
	{
		// The caller acts as soon as it reads the line: what comes
		// from now on belongs to the step.
		step = name;
		std::printf("@ %s\n", name.c_str());
		std::fflush(stdout);
		const std::string f = step_dir + "/" + name;
		auto end = Clock::now() + std::chrono::seconds(seconds);
		while (access(f.c_str(), F_OK)) {
			if (Clock::now() > end)
				fail("nobody created " + f);
			collect(50);
		}
	}

	void modify_ev(uint64_t id, mrc_ctl_ev_profile_attr &a, int mask,
		       const std::string &what)
	{
		if (mrc_ctl_modify_ev_profile(ctx.get(), id, &a, mask))
			fail_errno(what);
	}

	std::vector<mrc_ctl_ev_op_entry> ev_array(uint64_t id)
	{
		std::vector<mrc_ctl_ev_op_entry> ent(256);
		mrc_ctl_ev_profile_attr a{};
		a.ev_op = {MRC_CTL_EV_OP_QUERY_EV_ARRAY, ent.data(),
			   static_cast<int>(ent.size())};
		if (mrc_ctl_query_ev_profile(ctx.get(), id, &a,
					     MRC_CTL_EV_PROFILE_EV_OP))
			fail_errno("QUERY_EV_ARRAY of profile " +
				   std::to_string(id));
		ent.resize(static_cast<size_t>(a.ev_op.entry_count));
		return ent;
	}

	int profile_state(uint64_t id)
	{
		mrc_ctl_ev_profile_attr a{};
		if (mrc_ctl_query_ev_profile(ctx.get(), id, &a,
					     MRC_CTL_EV_PROFILE_CUR_STATE))
			return -1;
		return a.cur_profile_state;
	}

	void print_profile(uint64_t id, const char *mode)
	{
		auto evs = ev_array(id);
		std::string s;
		for (const auto &x : evs)
			s += " " + std::to_string(x.ev.port) + ":" +
			     std::to_string(udp_val(x.ev));
		std::printf("step profiles: %s profile %llu, %zu EVs:%s\n",
			    mode, static_cast<unsigned long long>(id),
			    evs.size(), s.c_str());
	}

	void online(uint64_t id)
	{
		mrc_ctl_ev_profile_attr a{};
		a.profile_state = MRC_CTL_PROFILE_ONLINE;
		a.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;
		modify_ev(id, a,
			  MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_EVENT_MASK,
			  "EV profile " + std::to_string(id) + " ONLINE");
	}

	void profiles()
	{
		// A UDP format: the source port, one field of 16 bits.
		mrc_ctl_ev_fmt_profile_attr fa{};
		fa.profile_state = MRC_CTL_PROFILE_OFFLINE;
		fa.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
		if (mrc_ctl_modify_ev_fmt_profile(ctx.get(), fmt_id, &fa,
						  MRC_CTL_EV_FMT_PROFILE_STATE |
							  MRC_CTL_EV_FMT_PROFILE_MODE))
			fail_errno("EV format profile OFFLINE");
		mrc_ctl_ev_fmt_field w16{16};
		fa.profile_state = MRC_CTL_PROFILE_ONLINE;
		fa.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, &w16, 1};
		if (mrc_ctl_modify_ev_fmt_profile(ctx.get(), fmt_id, &fa,
						  MRC_CTL_EV_FMT_PROFILE_STATE |
							  MRC_CTL_EV_FMT_PROFILE_OP))
			fail_errno("EV format profile ONLINE");

		// EXP: ev_count unpopulated slots, filled by REPLACE_EV.
		mrc_ctl_ev_profile_attr a{};
		a.profile_state = MRC_CTL_PROFILE_OFFLINE;
		a.ev_mode = MRC_CTL_EV_MODE_EXP;
		a.ev_fmt_profile_id = fmt_id;
		a.ev_count = static_cast<uint32_t>(exp_evs.size());
		const int def = MRC_CTL_EV_PROFILE_STATE |
				MRC_CTL_EV_PROFILE_MODE |
				MRC_CTL_EV_PROFILE_FMT_ID |
				MRC_CTL_EV_PROFILE_COUNT;
		modify_ev(exp_id, a, def, "EXP profile OFFLINE");
		std::vector<mrc_ctl_ev_op_entry> r;
		for (const auto &ev : exp_evs) {
			mrc_ctl_ev_op_entry x{};
			x.ev_new = ev; // x.ev: MRC_CTL_EV_UNPOPULATED (zero)
			x.state = MRC_CTL_EV_UNKNOWN;
			r.push_back(x);
		}
		a = {};
		a.ev_op = {MRC_CTL_EV_OP_REPLACE_EV, r.data(),
			   static_cast<int>(r.size())};
		modify_ev(exp_id, a, MRC_CTL_EV_PROFILE_EV_OP,
			  "REPLACE_EV into the EXP profile's slots");
		online(exp_id);

		// GEN: one field for the format's one, 0xd0 fixed above
		// the mask, 0..3 generated under it, on planes 1 and 2.
		mrc_ctl_ev_field f[1] = {{16, 0xd000, 0, 3, 0xff}};
		a = {};
		a.profile_state = MRC_CTL_PROFILE_OFFLINE;
		a.ev_mode = MRC_CTL_EV_MODE_GEN;
		a.ev_fmt_profile_id = fmt_id;
		a.ev_count = 8;
		a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, f, 1};
		modify_ev(gen_id, a, def | MRC_CTL_EV_PROFILE_EV_FIELDS_OP,
			  "GEN profile OFFLINE");
		online(gen_id);

		check(profile_state(exp_id) == MRC_CTL_PROFILE_ONLINE &&
			      profile_state(gen_id) == MRC_CTL_PROFILE_ONLINE,
		      "profiles: EXP profile " + std::to_string(exp_id) +
			      " and GEN profile " + std::to_string(gen_id) +
			      " ONLINE");
		auto got = ev_array(exp_id);
		bool same = got.size() == exp_evs.size();
		for (size_t i = 0; same && i < got.size(); i++)
			same = got[i].ev.port == exp_evs[i].port &&
			       !std::memcmp(got[i].ev.val, exp_evs[i].val,
					    sizeof(exp_evs[i].val));
		check(same, "profiles: the EXP profile holds the " +
				    std::to_string(exp_evs.size()) +
				    " EVs replaced into its slots, in order");
		auto gen = ev_array(gen_id);
		std::set<std::pair<int, int>> want, have;
		for (int p = 1; p <= 2; p++)
			for (int v = 0xd000; v <= 0xd003; v++)
				want.insert({p, v});
		for (const auto &x : gen)
			have.insert({x.ev.port, udp_val(x.ev)});
		check(gen.size() == 8 && have == want,
		      "profiles: the GEN profile expands to 0xd000..0xd003 on ports 1 and 2");
		print_profile(exp_id, "EXP");
		print_profile(gen_id, "GEN");
	}

	void event_cq()
	{
		if (mrc_create_comp_channel(ctx.get(), &channel))
			fail_errno("mrc_create_comp_channel");
		evcq.reset(mrc_ctl_create_ev_event_cq(ctx.get(), 4096, this,
						      channel, 0));
		if (!evcq && errno == EOPNOTSUPP) {
			// A library without channels for event CQs: poll.
			mrc_destroy_comp_channel(channel);
			channel = nullptr;
			evcq.reset(mrc_ctl_create_ev_event_cq(ctx.get(), 4096,
							      this, nullptr, 0));
		}
		if (!evcq)
			fail_errno("mrc_ctl_create_ev_event_cq");
		if (channel && mrc_req_notify_cq(evcq.get(), 0))
			fail_errno("mrc_req_notify_cq on the EV event CQ");
		std::printf("step events: an EV event CQ of 4096 entries%s\n",
			    channel ? " on a completion channel" : " (polled)");
	}

	// Wait up to @ms for events (on the channel's fd if there is one)
	// and take every one there is.
	void collect(int ms)
	{
		if (channel) {
			int fd = -1;
			if (mrc_get_comp_channel_fd(channel, &fd))
				fail_errno("mrc_get_comp_channel_fd");
			pollfd p{fd, POLLIN, 0};
			if (::poll(&p, 1, ms) > 0) {
				mrc_cq *cq = nullptr;
				void *cq_ctx = nullptr;
				if (mrc_get_cq_event(channel, &cq, &cq_ctx))
					fail_errno("mrc_get_cq_event");
				if (cq != evcq.get() || cq_ctx != this)
					fail("mrc_get_cq_event named another CQ");
				mrc_ack_cq_events(cq, 1);
				if (mrc_req_notify_cq(cq, 0))
					fail_errno("mrc_req_notify_cq");
				notified++;
			}
		} else {
			std::this_thread::sleep_for(std::chrono::milliseconds(ms));
		}
		mrc_ctl_ev_event ev[64];
		int n;
		while ((n = mrc_ctl_poll_ev_event(evcq.get(), 64, ev)) > 0)
			for (int i = 0; i < n; i++) {
				events.push_back({step, ev[i].profile_id,
						  ev[i].ev, ev[i].state});
				dropped += ev[i].drop_count;
				std::printf("event %s profile %llu %s state %s drop %u\n",
					    step.c_str(),
					    static_cast<unsigned long long>(
						    ev[i].profile_id),
					    ev_name(ev[i].ev).c_str(),
					    state_name(ev[i].state),
					    ev[i].drop_count);
			}
		if (n < 0)
			fail("mrc_ctl_poll_ev_event: " + std::to_string(n));
		std::fflush(stdout);
	}

	void collect_for(int seconds)
	{
		auto end = Clock::now() + std::chrono::seconds(seconds);
		while (Clock::now() < end)
			collect(100);
	}

	// The EVs of profile @id probed in one batch toward the server.
	struct Probe {
		int rc, err;
		std::vector<mrc_ctl_ev_op_entry> evs;
		std::vector<mrc_ctl_ep_rsp> rsp;
	};

	Probe probe(uint64_t id, uint32_t timeout_ns)
	{
		return probe_evs(ev_array(id), timeout_ns);
	}

	// @evs probed in one batch toward the server.
	Probe probe_evs(std::vector<mrc_ctl_ev_op_entry> evs, uint32_t timeout_ns)
	{
		Probe r;
		r.evs = std::move(evs);
		std::vector<mrc_ctl_ep_req> req;
		in_addr a4{};
		if (inet_pton(AF_INET, opt.server.c_str(), &a4) != 1)
			fail("the server must be an IPv4 address: " + opt.server);
		for (size_t i = 0; i < r.evs.size(); i++) {
			mrc_ctl_ep_req q{};
			q.req_id = static_cast<uint16_t>(i + 1);
			q.dgid.raw[10] = 0xff;
			q.dgid.raw[11] = 0xff;
			std::memcpy(q.dgid.raw + 12, &a4, 4);
			q.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
			q.req_ev = r.evs[i].ev;
			req.push_back(q);
		}
		r.rsp.resize(req.size());
		int n = 0;
		errno = 0;
		r.rc = mrc_ctl_ep_batch_send_wait(ctx.get(), 0,
						  MRC_CTL_EP_OP_EV_PROBE,
						  req.data(),
						  static_cast<int>(req.size()),
						  timeout_ns, r.rsp.data(), &n);
		r.err = errno;
		r.rsp.resize(static_cast<size_t>(std::max(n, 0)));
		return r;
	}

	// The entries of @r's batch whose EV is one of @evs.
	static std::vector<mrc_ctl_ev_op_entry>
	entries_of(const Probe &r, const std::vector<mrc_ctl_ev> &evs)
	{
		std::vector<mrc_ctl_ev_op_entry> out;
		for (const auto &e : r.evs)
			for (const auto &m : evs)
				if (!std::memcmp(&e.ev, &m, sizeof(m)))
					out.push_back(e);
		return out;
	}

	// Prints the answers of @r and returns the EVs without one.
	std::vector<mrc_ctl_ev> report_probe(const Probe &r, uint64_t id,
					     const std::string &when)
	{
		std::map<uint16_t, const mrc_ctl_ep_rsp *> by_id;
		bool ports = true, rtts = true, ids = true;
		for (const auto &a : r.rsp) {
			if (!a.req_id || a.req_id > r.evs.size() ||
			    by_id.count(a.req_id)) {
				ids = false;
				continue;
			}
			by_id[a.req_id] = &a;
			ports &= a.port == r.evs[a.req_id - 1u].ev.port;
			rtts &= a.rtt > 0;
		}
		std::vector<mrc_ctl_ev> missing;
		std::string m;
		for (size_t i = 0; i < r.evs.size(); i++) {
			auto it = by_id.find(static_cast<uint16_t>(i + 1));
			if (it == by_id.end()) {
				missing.push_back(r.evs[i].ev);
				m += " " + std::to_string(r.evs[i].ev.port) +
				     ":" + std::to_string(udp_val(r.evs[i].ev));
				continue;
			}
			std::printf("probe %s profile %llu %s rtt %u ns\n",
				    when.c_str(),
				    static_cast<unsigned long long>(id),
				    ev_name(r.evs[i].ev).c_str(),
				    it->second->rtt);
		}
		std::printf("step probe %s: profile %llu, %zu of %zu EVs answered (rc %d errno %d), missing:%s\n",
			    when.c_str(), static_cast<unsigned long long>(id),
			    by_id.size(), r.evs.size(), r.rc, r.err,
			    m.empty() ? " none" : m.c_str());
		check(ids && ports && rtts,
		      "probe " + when + ": profile " + std::to_string(id) +
			      ": every answer names one request, came in on its EV's port, RTT > 0");
		return missing;
	}

	// The EVs (profile, EV) that reported ASSUMED_BAD in step @s and
	// have not reported GOOD since.
	std::set<EvKey> bad_since(const std::string &s, std::set<EvKey> *all)
	{
		std::set<EvKey> bad;
		bool on = false;
		for (const auto &x : events) {
			on |= x.step == s;
			if (!on)
				continue;
			const EvKey k = key_of(x.profile, x.ev);
			if (x.state == MRC_CTL_EV_ASSUMED_BAD) {
				bad.insert(k);
				if (all)
					all->insert(k);
			} else if (x.state == MRC_CTL_EV_GOOD) {
				bad.erase(k);
			}
		}
		return bad;
	}

	void cut_and_repair(int cut_secs)
	{
		wait_step("cut");
		collect_for(cut_secs);
		std::set<EvKey> went_bad;
		bad_since("cut", &went_bad);
		std::string s;
		for (const auto &k : went_bad)
			s += " " + std::to_string(k.first) + "/" +
			     std::to_string(k.second.first) + ":" +
			     std::to_string(k.second.second);
		std::printf("step cut: %zu EVs went ASSUMED_BAD:%s (at %.1f s)\n",
			    went_bad.size(), s.empty() ? " none" : s.c_str(),
			    seconds_since(t0));
		check(!went_bad.empty(),
		      "cut: EV events: some EVs went ASSUMED_BAD");
		// The EXP profile probed while the link is cut.
		report_probe(probe(exp_id, 1000000000u), exp_id, "during-cut");
		collect(10);

		wait_step("repair");
		auto end = Clock::now() + std::chrono::seconds(60);
		std::set<EvKey> still;
		while (Clock::now() < end) {
			collect(100);
			still = bad_since("cut", nullptr);
			if (still.empty())
				break;
		}
		std::printf("step repair: %zu of %zu EVs reported GOOD again (at %.1f s)\n",
			    went_bad.size() - still.size(), went_bad.size(),
			    seconds_since(t0));
		check(still.empty(),
		      "repair: every EV that went ASSUMED_BAD reported GOOD again");
	}

	void probe_all()
	{
		step = "probe";
		for (uint64_t id : {exp_id, gen_id}) {
			Probe r = probe(id, 2000000000u);
			auto missing = report_probe(r, id, "all");
			const size_t total = r.evs.size();
			check((r.rc == 0) == missing.empty() &&
				      (r.rc != 0 || r.rsp.size() == total),
			      "probe all: profile " + std::to_string(id) +
				      ": the batch returned 0 exactly when every EV answered");
			// A probe is one datagram each way: one lost to a
			// full queue (the streams move back onto the
			// repaired links now) is asked again, as a
			// controller would, at most twice, and said.
			for (int again = 1; again <= 2 && !missing.empty();
			     again++) {
				const std::string when = "again-" +
							 std::to_string(again);
				Probe a = probe_evs(entries_of(r, missing),
						    2000000000u);
				missing = report_probe(a, id, when);
			}
			check(missing.empty(),
			      "probe all: profile " + std::to_string(id) +
				      ": all " + std::to_string(total) +
				      " EVs answered (each asked at most 3 times)");
			collect(10);
		}
	}

	int port_state(uint8_t port)
	{
		mrc_ctl_port_attr a{};
		if (mrc_ctl_query_port(ctx.get(), port, &a,
				       MRC_CTL_PORT_ADMIN_STATE))
			return -1;
		return a.port_admin_state;
	}

	void set_port(uint8_t port, mrc_ctl_port_admin_state st)
	{
		mrc_ctl_port_attr a{};
		a.port_admin_state = st;
		if (mrc_ctl_modify_port(ctx.get(), port, &a,
					MRC_CTL_PORT_ADMIN_STATE))
			fail_errno("mrc_ctl_modify_port " + std::to_string(port));
	}

	void port_cycle()
	{
		step = "port";
		set_port(2, MRC_CTL_PORT_ADMIN_DISABLED);
		check(port_state(2) == MRC_CTL_PORT_ADMIN_DISABLED,
		      "port: port 2 disabled, it queries DISABLED");
		std::printf("step port: port 2 disabled (at %.1f s)\n",
			    seconds_since(t0));
		wait_step("port-down");
		set_port(2, MRC_CTL_PORT_ADMIN_ENABLED);
		check(port_state(2) == MRC_CTL_PORT_ADMIN_ENABLED,
		      "port: port 2 enabled again, it queries ENABLED");
		std::printf("step port: port 2 enabled (at %.1f s)\n",
			    seconds_since(t0));
		wait_step("port-up");
	}

	unsigned int notified = 0;
};

int control(const Options &o, const std::string &step_dir,
	    std::vector<mrc_ctl_ev> exp_evs, int cut_secs)
{
	Controller c;
	c.opt = o;
	c.step_dir = step_dir;
	c.exp_evs = std::move(exp_evs);
	c.open();
	c.profiles();
	c.event_cq();

	std::vector<std::unique_ptr<Endpoint>> eps;
	const uint64_t profiles[stream_count] = {exp_id, gen_id};
	open_streams(o, eps, profiles);
	std::atomic<bool> stop{false};
	std::vector<StreamResult> res(stream_count);
	std::vector<std::thread> th;
	for (int s = 0; s < stream_count; s++)
		th.emplace_back(client_stream, std::ref(*eps[s]), s,
				std::cref(stop), std::ref(res[s]));
	std::printf("step qps: 2 QPs streaming to %s, on EV profiles %llu (EXP) and %llu (GEN)\n",
		    o.server.c_str(), static_cast<unsigned long long>(exp_id),
		    static_cast<unsigned long long>(gen_id));
	// On any failure below the streams still end before the threads
	// are joined.
	struct Joiner {
		std::atomic<bool> &stop;
		std::vector<std::thread> &th;
		~Joiner()
		{
			stop = true;
			for (auto &t : th)
				if (t.joinable())
					t.join();
		}
	} joiner{stop, th};

	c.collect_for(2);
	c.cut_and_repair(cut_secs);
	c.probe_all();
	c.port_cycle();

	stop = true;
	for (auto &t : th)
		t.join();
	for (int s = 0; s < stream_count; s++) {
		const StreamResult &r = res[s];
		check(r.error.empty() && r.messages > 0,
		      "stream " + std::to_string(s) + ": " +
			      std::to_string(r.messages) + " messages, " +
			      std::to_string(r.bytes) + " bytes written" +
			      (r.error.empty() ? "" : ": " + r.error));
	}
	c.collect(10);
	std::printf("step end: %zu EV events, %llu dropped, %u channel notifications\n",
		    c.events.size(), static_cast<unsigned long long>(c.dropped),
		    c.notified);
	check(c.dropped == 0, "events: none dropped");
	if (c.channel)
		check(c.notified > 0 && !c.events.empty(),
		      "events: the completion channel's fd woke the controller " +
			      std::to_string(c.notified) + " times for " +
			      std::to_string(c.events.size()) + " events");
	return 0;
}

mrc_ctl_ev parse_ev(const char *a)
{
	std::string s(a);
	auto colon = s.find(':');
	if (colon == std::string::npos)
		fail("--exp-ev wants PORT:VALUE, not " + s);
	uint64_t p = parse_num(s.substr(0, colon));
	uint64_t v = parse_num(s.substr(colon + 1));
	if (!p || p > 16 || v > 0xffff)
		fail("--exp-ev: port 1..16, value 0..65535: " + s);
	return udp_ev(static_cast<uint8_t>(p), static_cast<uint16_t>(v));
}

} // namespace

int main(int argc, char **argv)
{
	return run_main("mrc_controller", [&] {
		Options o;
		o.size = 16384;
		o.timeout = 240;
		bool serving = false;
		std::string step_dir;
		std::vector<mrc_ctl_ev> exp_evs;
		int cut_secs = 4;
		parse_options(argc, argv, o,
			      {{"serve", 0, false, set_true(serving)},
			       {"step-dir", 0, true,
				[&](const char *a) { step_dir = a; }},
			       {"exp-ev", 0, true,
				[&](const char *a) {
					exp_evs.push_back(parse_ev(a));
				}},
			       {"cut-secs", 0, true, number_into(cut_secs)}},
			      usage);
		if (!o.size || o.size > (1u << 20))
			fail("size must be 1..1 MiB");
		if (serving) {
			if (serve(o))
				fail("a stream failed or had corrupted bytes");
			return;
		}
		if (o.server.empty() || step_dir.empty())
			fail("the controller needs --step-dir and the SERVER");
		if (exp_evs.empty())
			for (uint8_t p = 1; p <= 2; p++)
				for (uint16_t k = 0; k < 4; k++)
					exp_evs.push_back(
						udp_ev(p, static_cast<uint16_t>(
								  0xc100 +
								  16 * p + k)));
		control(o, step_dir, exp_evs, cut_secs);
		std::printf("mrc_controller: %d failed\n", failures);
		if (failures)
			std::exit(1);
	});
}
