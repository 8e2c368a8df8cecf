// SPDX-License-Identifier: GPL-2.0-only
// mrc_rogue_peer: a crafted responder for a real mrc requester QP.
//
//   mrc_rogue_peer victim -d DEV [-g GIDX] --peer ADDR --scenario S [-t SEC]
//   mrc_rogue_peer peer --bind ADDR --scenario S [-t SEC]
//
// "victim" is an ordinary verbs program on an mrc device: one RC QP whose
// address vector names ADDR, with the fixed peer QPN below.  No side
// channel is needed: the peer learns the victim's QPN and address from its
// first request, and both streams start at the PSNs the victim's verbs set
// (kVictimPsn, kPeerPsn, which both modes know).  It posts the scenario's READs, atomics and WRITEs from one
// registered buffer filled with a canary pattern, waits for each
// completion, and at the end checks that
//   - every work request completed exactly once, successfully, and no
//     completion came later;
//   - the buffer holds the canary everywhere except where a READ or atomic
//     was answered, and there exactly what the peer sent (one of the two
//     copies where the peer sent two);
//   - the QP is still RTS and a last READ works.
// "peer" plays the responder at ADDR (a namespace that has that address
// and no mrc instance, so UDP port 4791 is free there): it speaks the wire
// format with mrcproto's encoder, ACKs the victim's requests and answers
// READs and atomics -- and per scenario also sends duplicated, reordered
// and mismatched responses.  Every response asks for an immediate ACK, so
// each one gets a verdict: accepted (ACKed) or refused (NACKed).  It
// checks the verdicts the scenario demands and prints
//   mrc_rogue_peer: peer: S: crafted C, refused R, accepted A, requests Q
//
// Scenarios:
//   dup-atomic    FA answered twice (a second ATOMIC_RESP, another value)
//                 before the ACK; then a READ.
//   dup-reorder   two READs; the first READ's response is sent twice, the
//                 later-PSN copy first; then the second READ's response
//                 and a third READ.  Exactly one copy may be accepted.
//   mismatch      a READ and an FA outstanding; six responses that match
//                 neither (wrong opcode for the rsn, a length not the
//                 READ's, rsns not outstanding), then the right ones and a
//                 READ.  Every crafted one must be refused.
//   slot-reuse    an FA answered twice, then WRITEs through the whole send
//                 ring, each while an ATOMIC_RESP for the FA's rsn arrives
//                 (the old code copied it into the WRITE that reused the
//                 FA's ring slot: 8 bytes into the WRITE's source buffer);
//                 then a READ.  The crafted ones must be refused.
// Exit status: 0 pass, 1 fail, 2 usage.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <deque>
#include <map>
#include <optional>

#include "cli.h"
#include "verbs_common.h"

extern "C" {
#include "wire.h"
}

namespace {

using namespace verbs;

constexpr uint32_t kPeerQpn = 0x00c0de; // the rogue responder's "QP"
constexpr uint32_t kPeerPsn = 0x1000; // the victim's rq_psn: our stream starts there
constexpr uint32_t kVictimPsn = 0x2000; // the victim's sq_psn: its stream starts there
constexpr uint32_t kReadLen = 256;
constexpr uint32_t kWriteLen = 64;
constexpr uint32_t kWrites = 6;		// > the 4 slots of a 3-WR send ring
constexpr uint64_t kRemoteVa = 0x10000; // the peer has no memory: any value
constexpr uint32_t kRemoteKey = 0x1234;
constexpr int kEvilCopy = 7; // what the crafted atomics carry

// What the peer answers: both ends compute it.
uint8_t read_byte(uint32_t rsn, int copy, uint32_t i)
{
	return static_cast<uint8_t>(0x30 + rsn * 16 + copy * 0x55 + i);
}

uint64_t atomic_orig(uint32_t rsn, int copy)
{
	return 0x1111000000000000ull + (uint64_t{rsn} << 8) +
	       static_cast<uint64_t>(copy);
}

enum class Scenario { DupAtomic, DupReorder, Mismatch, SlotReuse };

Scenario parse_scenario(const std::string &s)
{
	if (s == "dup-atomic")
		return Scenario::DupAtomic;
	if (s == "dup-reorder")
		return Scenario::DupReorder;
	if (s == "mismatch")
		return Scenario::Mismatch;
	if (s == "slot-reuse")
		return Scenario::SlotReuse;
	fail("unknown scenario '" + s +
	     "' (dup-atomic, dup-reorder, mismatch, slot-reuse)");
}

struct Options {
	std::string role, dev = "mrc0", addr, scenario_name;
	int gid = 1;
	int timeout = 60;
	Scenario scenario = Scenario::DupAtomic;
};

[[noreturn]] void usage(const char *why)
{
	refuse_usage("mrc_rogue_peer", why,
		     "usage: mrc_rogue_peer victim -d DEV [-g GIDX] --peer ADDR --scenario S [-t SEC]\n"
		     "       mrc_rogue_peer peer --bind ADDR --scenario S [-t SEC]\n");
}

Options parse(int argc, char **argv)
{
	Options o;
	if (argc < 2)
		usage(nullptr);
	o.role = argv[1];
	if (o.role != "victim" && o.role != "peer")
		usage("the role is victim or peer");
	ArgWalker args(argc, argv, 2, usage);
	while (args.next()) {
		const std::string &a = args.word();
		if (a == "-d")
			o.dev = args.value();
		else if (a == "-g")
			o.gid = std::stoi(args.value());
		else if (a == "--peer" || a == "--bind")
			o.addr = args.value();
		else if (a == "--scenario")
			o.scenario_name = args.value();
		else if (a == "-t")
			o.timeout = std::stoi(args.value());
		else
			args.unknown();
	}
	if (o.addr.empty() || o.scenario_name.empty())
		usage("an address and a scenario are needed");
	o.scenario = parse_scenario(o.scenario_name);
	return o;
}

// ---------------------------------------------------------------- victim

class Victim {
public:
	explicit Victim(const Options &o)
		: o_(o), ctx_(open_device(o.dev)), waiter_(ctx_.get()),
		  buf_(alloc_buffer(kBufLen)), expect_(kBufLen)
	{
		for (size_t i = 0; i < kBufLen; i++)
			buf_[i] = expect_[i] = static_cast<uint8_t>(0xa5 ^
								    (i * 7));
		pd_.reset(ibv_alloc_pd(ctx_.get()));
		if (!pd_)
			fail_errno("ibv_alloc_pd");
		mr_ = reg_mr(pd_.get(), buf_.get(), kBufLen, kAllAccess);
		cq_.reset(ibv_create_cq(ctx_.get(), 16, nullptr,
					waiter_.channel(), 0));
		if (!cq_)
			fail_errno("ibv_create_cq");
		qp_ = create_rc_qp(pd_.get(), cq_.get(), cq_.get(), {3, 1, 0},
				   nullptr);
		PathParams pp;
		pp.gid_index = o.gid;
		pp.max_rd_atomic = 2;
		pp.max_dest_rd_atomic = 2;
		ConnInfo peer{};
		peer.qpn = kPeerQpn;
		peer.psn = kPeerPsn;
		in_addr a4{};
		if (inet_pton(AF_INET, o.addr.c_str(), &a4) != 1)
			fail("--peer needs an IPv4 address");
		peer.gid[10] = peer.gid[11] = 0xff; // ::ffff:ADDR
		std::memcpy(peer.gid + 12, &a4, 4);
		qp_to_init(qp_.get(), pp.port, kAllAccess);
		qp_to_rtr(qp_.get(), pp, peer);
		qp_to_rts(qp_.get(), pp, kVictimPsn);
		std::printf("mrc_rogue_peer: victim: qpn %u psn %u, peer qpn %u psn %u at %s\n",
			    qp_->qp_num, kVictimPsn, kPeerQpn, kPeerPsn,
			    o.addr.c_str());
		std::fflush(stdout);
	}

	int run()
	{
		switch (o_.scenario) {
		case Scenario::DupAtomic:
			fa(kAtomic0, 1);
			wait({1});
			answered_atomic(kAtomic0, 0, {0});
			break;
		case Scenario::DupReorder:
			read(kRead0, 1);
			read(kRead1, 2);
			wait({1, 2});
			answered_read(kRead0, 0, {0, 1});
			answered_read(kRead1, 1, {0});
			break;
		case Scenario::Mismatch:
			read(kRead0, 1);
			fa(kAtomic1, 2);
			wait({1, 2});
			answered_read(kRead0, 0, {0});
			answered_atomic(kAtomic1, 1, {0});
			break;
		case Scenario::SlotReuse:
			fa(kAtomic0, 1);
			wait({1});
			answered_atomic(kAtomic0, 0, {0});
			for (uint32_t k = 0; k < kWrites; k++) {
				write(kWriteSrc + k * kWriteLen, 10 + k);
				wait({10 + k});
			}
			break;
		}
		// The QP still works: one more READ, answered normally.
		const uint32_t rsn = rsn_next_;
		read(kRead2, 99);
		wait({99});
		answered_read(kRead2, rsn, {0});
		finish();
		return failures_ ? 1 : 0;
	}

private:
	static constexpr size_t kBufLen = 64 * 1024;
	static constexpr size_t kRead0 = 4096, kRead1 = 8192, kRead2 = 12288;
	static constexpr size_t kAtomic0 = 16384, kAtomic1 = 16448;
	static constexpr size_t kWriteSrc = 20480;

	// One signaled WQE @op of @len bytes at buf_ + @off, to kRemoteVa
	// (kRemoteKey); a FETCH_AND_ADD adds 1.
	void post(ibv_wr_opcode op, size_t off, uint32_t len, uint64_t id)
	{
		ibv_sge sge{reinterpret_cast<uintptr_t>(buf_.get() + off), len,
			    mr_->lkey};
		ibv_send_wr wr = signaled_wr(id, op, sge), *bad = nullptr;
		if (op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			wr.wr.atomic.remote_addr = kRemoteVa;
			wr.wr.atomic.rkey = kRemoteKey;
			wr.wr.atomic.compare_add = 1;
		} else {
			wr.wr.rdma.remote_addr = kRemoteVa;
			wr.wr.rdma.rkey = kRemoteKey;
		}
		if (int rc = ibv_post_send(qp_.get(), &wr, &bad))
			fail_errno("ibv_post_send", rc);
	}

	void read(size_t off, uint64_t id)
	{
		post(IBV_WR_RDMA_READ, off, kReadLen, id);
		rsn_next_++;
	}

	void fa(size_t off, uint64_t id)
	{
		post(IBV_WR_ATOMIC_FETCH_AND_ADD, off, 8, id);
		rsn_next_++;
	}

	void write(size_t off, uint64_t id)
	{
		post(IBV_WR_RDMA_WRITE, off, kWriteLen, id);
	}

	void bad(const std::string &what)
	{
		failures_++;
		std::printf("mrc_rogue_peer: victim: FAIL: %s\n", what.c_str());
	}

	// Wait for the completions of @ids (each once, successfully).
	void wait(std::initializer_list<uint64_t> ids)
	{
		const auto deadline = Clock::now() +
				      std::chrono::seconds(o_.timeout);
		std::map<uint64_t, int> want;
		for (uint64_t id : ids)
			want[id] = 0;
		size_t got = 0;
		while (got < want.size()) {
			ibv_wc wc[8];
			int n = waiter_.poll(cq_.get(), wc, 8, deadline);
			if (n == 0) {
				bad("no completion for " +
				    std::to_string(want.size() - got) +
				    " work request(s) in " +
				    std::to_string(o_.timeout) + " s");
				finish();
				std::exit(1);
			}
			for (int i = 0; i < n; i++)
				got += take(wc[i], want);
		}
	}

	// One completion: returns 1 if it is a new one of @want.
	int take(const ibv_wc &wc, std::map<uint64_t, int> &want)
	{
		if (wc.status != IBV_WC_SUCCESS) {
			bad("wr " + std::to_string(wc.wr_id) +
			    " completed with " + ibv_wc_status_str(wc.status));
			finish();
			std::exit(1);
		}
		if (++seen_[wc.wr_id] > 1) {
			bad("wr " + std::to_string(wc.wr_id) + " completed twice");
			return 0;
		}
		auto it = want.find(wc.wr_id);
		if (it == want.end()) {
			bad("unexpected completion of wr " +
			    std::to_string(wc.wr_id));
			return 0;
		}
		return 1;
	}

	// The READ into @off was answered by rsn @rsn with one of @copies.
	void answered_read(size_t off, uint32_t rsn,
			   std::initializer_list<int> copies)
	{
		for (int c : copies) {
			bool same = true;
			for (uint32_t i = 0; i < kReadLen && same; i++)
				same = buf_[off + i] == read_byte(rsn, c, i);
			if (same) {
				for (uint32_t i = 0; i < kReadLen; i++)
					expect_[off + i] = read_byte(rsn, c, i);
				return;
			}
		}
		bad("READ rsn " + std::to_string(rsn) + " at offset " +
		    std::to_string(off) + " does not hold the response's data");
	}

	void answered_atomic(size_t off, uint32_t rsn,
			     std::initializer_list<int> copies)
	{
		uint64_t v;
		std::memcpy(&v, buf_.get() + off, 8);
		for (int c : copies) {
			if (v == atomic_orig(rsn, c)) {
				std::memcpy(expect_.data() + off, &v, 8);
				return;
			}
		}
		char msg[160];
		std::snprintf(msg, sizeof(msg),
			      "atomic rsn %u at offset %zu holds 0x%016llx, expected 0x%016llx",
			      rsn, off, static_cast<unsigned long long>(v),
			      static_cast<unsigned long long>(
				      atomic_orig(rsn, *copies.begin())));
		bad(msg);
	}

	void finish()
	{
		// Nothing completes twice, even late.
		ibv_wc wc[8];
		const auto until = Clock::now() + std::chrono::milliseconds(500);
		std::map<uint64_t, int> none;
		while (int n = waiter_.poll(cq_.get(), wc, 8, until)) {
			for (int i = 0; i < n; i++)
				if (wc[i].status != IBV_WC_SUCCESS ||
				    seen_[wc[i].wr_id]++)
					bad("late completion of wr " +
					    std::to_string(wc[i].wr_id) + " (" +
					    ibv_wc_status_str(wc[i].status) +
					    ")");
		}
		size_t diffs = 0, first = 0;
		for (size_t i = 0; i < kBufLen; i++) {
			if (buf_[i] != expect_[i] && !diffs++)
				first = i;
		}
		if (diffs)
			bad(std::to_string(diffs) +
			    " byte(s) of local memory changed that no " +
			    "response was for, the first at offset " +
			    std::to_string(first));
		if (qp_state(qp_.get()) != IBV_QPS_RTS)
			bad("the QP left RTS");
		std::printf("mrc_rogue_peer: victim: %s: %zu completions, %zu bytes changed outside "
			    "the answered buffers, %d failure(s)\n",
			    o_.scenario_name.c_str(), seen_.size(), diffs,
			    failures_);
	}

	const Options &o_;
	Context ctx_;
	CqWaiter waiter_;
	Buffer buf_;
	std::vector<uint8_t> expect_;
	Pd pd_;
	Mr mr_;
	Cq cq_;
	Qp qp_;
	uint32_t rsn_next_ = 0;
	std::map<uint64_t, int> seen_;
	int failures_ = 0;
};

// ------------------------------------------------------------------ peer

using Bytes = std::vector<uint8_t>;

class Peer {
public:
	explicit Peer(const Options &o) : o_(o)
	{
		sock_ = Fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
		if (sock_.get() < 0)
			fail_errno("socket");
		sockaddr_in a{};
		a.sin_family = AF_INET;
		a.sin_port = htons(MRC_UDP_PORT);
		if (inet_pton(AF_INET, o.addr.c_str(), &a.sin_addr) != 1)
			fail("--bind needs an IPv4 address");
		if (::bind(sock_.get(), reinterpret_cast<sockaddr *>(&a),
			   sizeof(a)))
			fail_errno("bind " + o.addr + ":" +
				   std::to_string(MRC_UDP_PORT));
		deadline_ = Clock::now() + std::chrono::seconds(o.timeout);
	}

	int run()
	{
		std::printf("mrc_rogue_peer: peer: %s: listening on %s:%u\n",
			    o_.scenario_name.c_str(), o_.addr.c_str(),
			    MRC_UDP_PORT);
		std::fflush(stdout);
		// Until the victim's last READ is answered and it went quiet.
		while (!done_ || heard_within(std::chrono::milliseconds(1500))) {
			if (Clock::now() > deadline_) {
				std::printf(
					"mrc_rogue_peer: peer: FAIL: timeout\n");
				failures_++;
				break;
			}
			auto r = next_request(std::chrono::milliseconds(200));
			if (r)
				handle(*r);
		}
		std::printf("mrc_rogue_peer: peer: %s: crafted %u, refused %u, accepted %u, "
			    "requests %u, %d failure(s)\n",
			    o_.scenario_name.c_str(), crafted_, refused_,
			    crafted_ - refused_, requests_, failures_);
		return failures_ ? 1 : 0;
	}

private:
	struct Req {
		mrc_pkt p;
	};

	// One response we sent with ACK_REQ, waiting for its verdict.
	struct Sent {
		uint32_t psn;
		bool crafted;
		int verdict = -1; // -1 unknown, 0 refused, 1 accepted
	};

	bool heard_within(std::chrono::milliseconds d)
	{
		return Clock::now() - last_rx_ < d;
	}

	void bad(const std::string &what)
	{
		failures_++;
		std::printf("mrc_rogue_peer: peer: FAIL: %s\n", what.c_str());
	}

	// Receive one datagram (decoded) within @wait; handles the victim's
	// ACKs/NACKs (verdicts) and probes itself.
	std::optional<mrc_pkt> recv_one(std::chrono::milliseconds wait)
	{
		pollfd p{sock_.get(), POLLIN, 0};
		if (::poll(&p, 1, static_cast<int>(wait.count())) <= 0)
			return std::nullopt;
		sockaddr_in from{};
		socklen_t fl = sizeof(from);
		ssize_t n = ::recvfrom(sock_.get(), rxbuf_.data(),
				       rxbuf_.size(), 0,
				       reinterpret_cast<sockaddr *>(&from), &fl);
		if (n <= 0)
			return std::nullopt;
		mrc_pkt pkt;
		if (mrc_pkt_decode(rxbuf_.data(), static_cast<uint32_t>(n), &pkt))
			return std::nullopt;
		if (pkt.hdr.dqpn != kPeerQpn && pkt.hdr.dqpn != 0)
			return std::nullopt;
		last_rx_ = Clock::now();
		if (!victim_known_ && pkt.hdr.opcode < MRC_OP_ACK) {
			// Its address; mrc listens on the MRC port, whatever
			// source port (EV) the request came from.
			victim_ = from;
			victim_.sin_port = htons(MRC_UDP_PORT);
			victim_qpn_ = pkt.hdr.sqpn;
			victim_known_ = true;
			// Both streams start at the PSNs the verbs set:
			// ours at the victim's rq_psn, its at its sq_psn.
			vcum_ = kPeerPsn;
			if (pkt.hdr.psn != kVictimPsn)
				bad("the victim's first PSN is not its sq_psn");
		}
		if (!victim_known_)
			return std::nullopt; // nothing to answer yet
		switch (pkt.hdr.opcode) {
		case MRC_OP_ACK: on_ack(pkt.u.ack); return std::nullopt;
		case MRC_OP_NACK: on_nack(pkt.u.nack); return std::nullopt;
		case MRC_OP_PROBE_REQ: answer_probe(pkt); return std::nullopt;
		case MRC_OP_PROBE_RESP:
		case MRC_OP_PORT_STATUS: return std::nullopt;
		default: return pkt;
		}
	}

	// The victim's next new request (retransmissions are re-ACKed).
	std::optional<Req> next_request(std::chrono::milliseconds wait)
	{
		if (!queued_.empty()) {
			Req r = queued_.front();
			queued_.pop_front();
			return r;
		}
		auto p = recv_one(wait);
		if (!p)
			return std::nullopt;
		if (!psn_known_) {
			req_cum_ = p->hdr.psn;
			psn_known_ = true;
		}
		if (p->hdr.psn != req_cum_) {
			send_ack(*p); // a retransmission of something ACKed
			return std::nullopt;
		}
		req_cum_++; // every request here is a single packet
		return Req{*p};
	}

	void on_ack(const mrc_ack_ext &a)
	{
		vcum_ = a.cum_psn;
		for (Sent &s : sent_) {
			if (s.verdict >= 0)
				continue;
			uint32_t off = s.psn - a.sack_base;
			bool sacked = off < MRC_SACK_BITS &&
				      ((a.sack[off / 64] >> (off % 64)) & 1);
			if (static_cast<int32_t>(a.cum_psn - s.psn) > 0 || sacked)
				s.verdict = 1;
		}
	}

	void on_nack(const mrc_nack_ext &n)
	{
		vcum_ = n.cum_psn;
		for (Sent &s : sent_) {
			if (s.verdict < 0 && s.psn == n.psn) {
				s.verdict = 0;
				break;
			}
		}
	}

	void transmit(mrc_pkt &p)
	{
		p.hdr.dqpn = victim_qpn_;
		p.hdr.sqpn = kPeerQpn;
		p.hdr.plane = 1;
		p.hdr.ts = static_cast<uint32_t>(
			Clock::now().time_since_epoch().count());
		Bytes b(2048);
		int n = mrc_pkt_encode(&p, b.data(),
				       static_cast<uint32_t>(b.size()));
		if (n < 0)
			fail(std::string("encode ") +
			     mrc_opcode_name(p.hdr.opcode) + ": " +
			     mrc_wire_strerror(n));
		if (::sendto(sock_.get(), b.data(), static_cast<size_t>(n), 0,
			     reinterpret_cast<const sockaddr *>(&victim_),
			     sizeof(victim_)) != n)
			fail_errno("sendto");
	}

	void answer_probe(const mrc_pkt &req)
	{
		mrc_pkt p;
		mrc_pkt_init(&p, MRC_OP_PROBE_RESP);
		p.hdr.ev = req.hdr.ev;
		p.u.probe = req.u.probe;
		p.u.probe.ts_echo = req.hdr.ts;
		p.u.probe.svc_time = 0;
		transmit(p);
	}

	void send_ack(const mrc_pkt &req)
	{
		mrc_pkt p;
		mrc_pkt_init(&p, MRC_OP_ACK);
		p.hdr.ev = req.hdr.ev;
		p.hdr.psn = req.hdr.psn;
		p.u.ack.cum_psn = req_cum_;
		p.u.ack.sack_base = req_cum_;
		p.u.ack.echo_ev = req.hdr.ev;
		p.u.ack.echo_plane = req.hdr.plane;
		p.u.ack.ts_echo = req.hdr.ts;
		p.u.ack.msn = requests_;
		transmit(p);
	}

	// A READ_RESP of @len bytes for @rsn (copy @copy of its data) at @psn.
	void read_resp(const mrc_pkt &req, uint32_t psn, uint32_t rsn,
		       uint32_t len, int copy, bool crafted)
	{
		mrc_pkt p;
		mrc_pkt_init(&p, MRC_OP_READ_RESP);
		Bytes data(len);
		for (uint32_t i = 0; i < len; i++)
			data[i] = read_byte(rsn, copy, i);
		p.hdr.flags = MRC_F_FIRST | MRC_F_LAST | MRC_F_ACK_REQ;
		p.hdr.psn = psn;
		p.hdr.ev = req.hdr.ev;
		p.u.send.msg.msn = rsn;
		p.u.send.msg.offset = 0;
		p.u.send.msg.msg_len = len;
		p.payload = data.data();
		p.payload_len = len;
		transmit(p);
		sent_.push_back({psn, crafted});
		crafted_ += crafted;
	}

	void atomic_resp(const mrc_pkt &req, uint32_t psn, uint32_t rsn,
			 int copy, bool crafted)
	{
		mrc_pkt p;
		mrc_pkt_init(&p, MRC_OP_ATOMIC_RESP);
		p.hdr.flags = MRC_F_FIRST | MRC_F_LAST | MRC_F_ACK_REQ;
		p.hdr.psn = psn;
		p.hdr.ev = req.hdr.ev;
		p.u.atomic_resp.msn = rsn;
		p.u.atomic_resp.orig = atomic_orig(rsn, copy);
		transmit(p);
		sent_.push_back({psn, crafted});
		crafted_ += crafted;
	}

	// Until every response sent has its verdict; requests that arrive
	// meanwhile wait in queued_.
	void settle()
	{
		const auto until = Clock::now() + std::chrono::seconds(5);
		for (;;) {
			bool open = false;
			for (const Sent &s : sent_)
				open |= s.verdict < 0;
			if (!open)
				break;
			if (Clock::now() > until) {
				bad("no ACK or NACK for a response within 5 s");
				break;
			}
			auto p = recv_one(std::chrono::milliseconds(100));
			if (p) {
				if (p->hdr.psn == req_cum_) {
					req_cum_++;
					queued_.push_back({*p});
				}
			}
		}
		for (const Sent &s : sent_) {
			if (s.crafted && s.verdict == 0)
				refused_++;
			if (!s.crafted && s.verdict == 0)
				bad("a correct response (psn " +
				    std::to_string(s.psn) + ") was refused");
		}
		verdicts_.insert(verdicts_.end(), sent_.begin(), sent_.end());
		sent_.clear();
	}

	// The right response of request @r at the victim's rcv_nxt.
	void answer(const mrc_pkt &r)
	{
		if (r.hdr.opcode == MRC_OP_READ_REQ)
			read_resp(r, vcum_, r.u.read_req.msn, r.u.read_req.len,
				  0, false);
		else if (r.hdr.opcode == MRC_OP_ATOMIC_FA ||
			 r.hdr.opcode == MRC_OP_ATOMIC_CS)
			atomic_resp(r, vcum_, r.u.atomic.msn, 0, false);
		settle();
	}

	void must_refuse_all(const char *what)
	{
		for (const Sent &s : verdicts_)
			if (s.crafted && s.verdict != 0)
				bad(std::string(what) +
				    ": a crafted response (psn " +
				    std::to_string(s.psn) + ") was accepted");
	}

	void handle(const Req &rq)
	{
		const mrc_pkt &r = rq.p;
		const uint32_t i = requests_++;
		const uint8_t op = r.hdr.opcode;
		switch (o_.scenario) {
		case Scenario::DupAtomic:
		case Scenario::SlotReuse:
			if (i == 0 && op == MRC_OP_ATOMIC_FA) {
				// Two answers before the ACK: the second must not count.
				atomic_resp(r, vcum_, r.u.atomic.msn, 0, false);
				atomic_resp(r, vcum_ + 1, r.u.atomic.msn, 1,
					    true);
				settle();
				fa_rsn_ = r.u.atomic.msn;
			} else if (op == MRC_OP_WRITE &&
				   o_.scenario == Scenario::SlotReuse) {
				// While the WRITE is unacknowledged (its WQE posted).
				atomic_resp(r, vcum_, fa_rsn_, kEvilCopy, true);
				settle();
			} else {
				answer(r);
				done_ = op == MRC_OP_READ_REQ;
			}
			must_refuse_all(o_.scenario_name.c_str());
			break;
		case Scenario::DupReorder:
			if (i == 0) {
				first_ = r;
				return; // answered with the second READ; ACKed then
			}
			if (i == 1) {
				const uint32_t q = vcum_,
					       rsn0 = first_.u.read_req.msn;
				read_resp(first_, q + 1, rsn0, kReadLen, 1, true);
				read_resp(first_, q, rsn0, kReadLen, 0, true);
				settle();
				const Sent &b = verdicts_[verdicts_.size() - 2];
				const Sent &a = verdicts_.back();
				if (a.verdict + b.verdict != 1)
					bad("of two responses for rsn " +
					    std::to_string(rsn0) + ", " +
					    std::to_string(a.verdict + b.verdict) +
					    " were accepted, not exactly one");
				answer(r);
				send_ack(first_);
				break;
			}
			answer(r);
			done_ = true;
			break;
		case Scenario::Mismatch:
			if (i == 0) {
				first_ = r;
				return;
			}
			if (i == 1) {
				const uint32_t rsn0 = first_.u.read_req.msn,
					       rsn1 = r.u.atomic.msn;
				atomic_resp(r, vcum_, rsn0, 0,
					    true); // FA's opcode for the READ
				settle();
				read_resp(r, vcum_, rsn1, 8, 0,
					  true); // READ's for the FA
				settle();
				read_resp(r, vcum_, rsn0, 2 * kReadLen, 0,
					  true); // too long
				settle();
				read_resp(r, vcum_, rsn0 + 5, kReadLen, 0,
					  true); // not outstanding
				settle();
				atomic_resp(r, vcum_, rsn1 + 16, 0,
					    true); // same slot, other rsn
				settle();
				atomic_resp(r, vcum_, rsn0 - 1, 0,
					    true); // before the first
				settle();
				must_refuse_all("mismatch");
				answer(first_);
				answer(r);
				break;
			}
			answer(r);
			done_ = true;
			break;
		}
		send_ack(r);
	}

	const Options &o_;
	Fd sock_;
	Clock::time_point deadline_, last_rx_ = Clock::now();
	std::array<uint8_t, 65536> rxbuf_{};
	sockaddr_in victim_{};
	bool victim_known_ = false, psn_known_ = false, done_ = false;
	uint32_t victim_qpn_ = 0;
	uint32_t req_cum_ = 0; // next request PSN of the victim
	uint32_t vcum_ = 0;    // the victim's rcv_nxt, then from its ACKs
	uint32_t fa_rsn_ = 0;
	uint32_t requests_ = 0, crafted_ = 0, refused_ = 0;
	std::deque<Req> queued_;
	std::vector<Sent> sent_, verdicts_;
	mrc_pkt first_{};
	int failures_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
	try {
		const Options o = parse(argc, argv);
		if (o.role == "victim")
			return Victim(o).run();
		return Peer(o).run();
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrc_rogue_peer: %s\n", e.what());
		return 1;
	}
}
