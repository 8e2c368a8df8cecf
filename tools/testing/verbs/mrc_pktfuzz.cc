// SPDX-License-Identifier: GPL-2.0-only
// mrc_pktfuzz: throw hostile UDP datagrams at a running mrc instance.
//
//   mrc_pktfuzz [--count N] [--seed S] [--rate PPS] [--port P]
//               [--qpn A,B,...] [--dry-run] ADDR
//
// Sends N datagrams (default 100000) from a plain UDP socket to ADDR:PORT
// (default 4791), a deterministic (given --seed) mix of
//   random   random bytes, random length 0..1500;
//   mutated  a valid MRC packet (mrcproto's encoder: every opcode, random
//            QPNs -- half of them from --qpn when given --, PSNs, EVs,
//            planes, offsets, lengths) then bit flips, truncation,
//            extension or a wrong ICRC;
//   replay   an exact copy of an earlier valid packet;
//   valid    a valid packet with a correct ICRC and random QPNs;
//   spoof    a valid packet with a correct ICRC aimed at a --qpn QPN
//            (without --qpn these are "valid" packets).
// Every datagram is also run through mrcproto's own decoder: the ones it
// rejects are the "invalid" count, the least number of drops the kernel
// must account for (it runs the same decoder).
//
// Only ever sends to the one numeric address given: no name resolution,
// no broadcast, so a typo cannot aim it anywhere else.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli.h"

extern "C" {
#include "icrc.h"
#include "wire.h"
}

namespace {

using Bytes = std::vector<u8>;

// Largest datagram: a 1500-byte MTU minus the IPv4 and UDP headers, so
// nothing is fragmented (fragments would test the IP stack, not mrc).
constexpr size_t kMaxDatagram = 1500 - 20 - 8;
constexpr size_t kMaxRandom = 1500; // "random lengths 0..1500" (may fragment)
constexpr size_t kReplayRing = 512;

struct Options {
	std::string addr;
	uint16_t port = MRC_UDP_PORT;
	uint64_t count = 100000;
	uint64_t seed = 1;
	uint64_t rate = 0; // packets per second, 0: as fast as possible
	std::vector<u32> qpns;
	bool dry_run = false;
};

[[noreturn]] void usage(const char *why)
{
	verbs::refuse_usage("mrc_pktfuzz", why,
			    "usage: mrc_pktfuzz [--count N] [--seed S] [--rate PPS] [--port P]\n"
			    "                   [--qpn A,B,...] [--dry-run] ADDR\n");
}

uint64_t parse_u64(std::string_view s, const char *what)
{
	uint64_t v = 0;
	int base = 10;
	if (s.starts_with("0x") || s.starts_with("0X")) {
		s.remove_prefix(2);
		base = 16;
	}
	auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
	if (s.empty() || ec != std::errc() || p != s.data() + s.size())
		usage((std::string("bad ") + what + ": '" + std::string(s) + "'")
			      .c_str());
	return v;
}

Options parse_args(int argc, char **argv)
{
	Options o;
	std::vector<std::string_view> args(argv + 1, argv + argc);
	for (size_t i = 0; i < args.size(); i++) {
		std::string_view a = args[i], val;
		bool has_val = false;
		if (a.starts_with("--")) {
			if (auto eq = a.find('='); eq != a.npos) {
				val = a.substr(eq + 1);
				a = a.substr(0, eq);
				has_val = true;
			}
		}
		auto value = [&]() -> std::string_view {
			if (has_val)
				return val;
			if (++i >= args.size())
				usage((std::string(a) + " needs a value").c_str());
			return args[i];
		};
		if (a == "--count" || a == "-n") {
			o.count = parse_u64(value(), "count");
		} else if (a == "--seed") {
			o.seed = parse_u64(value(), "seed");
		} else if (a == "--rate") {
			o.rate = parse_u64(value(), "rate");
		} else if (a == "--port" || a == "-p") {
			uint64_t p = parse_u64(value(), "port");
			if (p == 0 || p > 65535)
				usage("port out of range");
			o.port = (uint16_t)p;
		} else if (a == "--qpn") {
			std::string_view l = value();
			while (!l.empty()) {
				auto c = l.find(',');
				uint64_t q = parse_u64(l.substr(0, c), "qpn");
				if (q > MRC_QPN_MASK)
					usage("a QPN has 24 bits");
				o.qpns.push_back((u32)q);
				l = c == l.npos ? std::string_view() :
						  l.substr(c + 1);
			}
		} else if (a == "--dry-run") {
			o.dry_run = true;
		} else if (a == "--help" || a == "-h") {
			usage(nullptr);
		} else if (a.starts_with("-") && a != "-") {
			usage((std::string("unknown option ") + std::string(a))
				      .c_str());
		} else if (o.addr.empty()) {
			o.addr = a;
		} else {
			usage("one address only");
		}
	}
	if (o.addr.empty())
		usage("no address");
	return o;
}

// std::mt19937_64 is specified bit for bit by the standard; the helpers
// below use only its raw output (no library distributions, whose results
// may differ between implementations), so a seed replays the same run
// everywhere.
class Rng {
public:
	explicit Rng(uint64_t seed) : g_(seed) {}
	uint64_t u64() { return g_(); }
	u32 u32v() { return (u32)g_(); }
	// Uniform-enough in [0, n) for fuzzing (n is tiny next to 2^64).
	uint64_t below(uint64_t n) { return n ? g_() % n : 0; }
	uint64_t range(uint64_t lo, uint64_t hi)
	{
		return lo + below(hi - lo + 1);
	}
	bool chance(unsigned percent) { return below(100) < percent; }
	void fill(std::span<u8> b)
	{
		for (auto &x : b)
			x = (u8)g_();
	}

private:
	std::mt19937_64 g_;
};

enum Class {
	C_RANDOM,
	C_BITFLIP,
	C_TRUNC,
	C_EXTEND,
	C_BADICRC,
	C_REPLAY,
	C_VALID,
	C_SPOOF,
	C_NR
};
constexpr std::array<const char *, C_NR> kClassName = {
	"random",  "bitflip", "truncate", "extend",
	"badicrc", "replay",  "valid",	  "spoof",
};

const std::array<u8, 14> kOpcodes = {
	MRC_OP_SEND,	   MRC_OP_SEND_IMM,    MRC_OP_WRITE,
	MRC_OP_WRITE_IMM,  MRC_OP_READ_REQ,    MRC_OP_READ_RESP,
	MRC_OP_ATOMIC_CS,  MRC_OP_ATOMIC_FA,   MRC_OP_ATOMIC_RESP,
	MRC_OP_ACK,	   MRC_OP_NACK,	       MRC_OP_PROBE_REQ,
	MRC_OP_PROBE_RESP, MRC_OP_PORT_STATUS,
};

class Generator {
public:
	Generator(Rng &rng, const std::vector<u32> &qpns)
		: rng_(rng), qpns_(qpns)
	{
	}

	// A valid packet of a random opcode; @aim: dqpn (and often sqpn) from
	// the --qpn list.
	Bytes valid(bool aim, u8 *opcode_out)
	{
		const u8 op = kOpcodes[rng_.below(kOpcodes.size())];
		mrc_pkt p;
		mrc_pkt_init(&p, op);
		fill_hdr(p.hdr, aim);
		Bytes payload;
		fill_ext(p, payload);
		Bytes buf(kMaxDatagram);
		int n = mrc_pkt_encode(&p, buf.data(), (u32)buf.size());
		if (n < 0) {
			// The generator must only build what the protocol allows:
			// anything else is a bug here, not a fuzz case.
			throw std::logic_error(
				std::string("generator built an invalid ") +
				mrc_opcode_name(op) + ": " +
				mrc_wire_strerror(n));
		}
		buf.resize((size_t)n);
		*opcode_out = op;
		return buf;
	}

private:
	u32 qpn(bool aim)
	{
		if (aim && !qpns_.empty())
			return qpns_[rng_.below(qpns_.size())];
		// Small QPNs are where real QPs live; all 24 bits otherwise.
		return rng_.chance(50) ? (u32)rng_.below(64) :
					 rng_.u32v() & MRC_QPN_MASK;
	}

	u8 plane()
	{
		return (u8)(rng_.chance(50) ? 1 : rng_.range(1, MRC_MAX_PLANES));
	}

	// PSNs near the start of a stream, near the wrap and anywhere.
	u32 psn()
	{
		switch (rng_.below(3)) {
		case 0: return (u32)rng_.below(4096);
		case 1: return (u32)-1 - (u32)rng_.below(4096);
		default: return rng_.u32v();
		}
	}

	void fill_hdr(mrc_hdr &h, bool aim)
	{
		h.dqpn = qpn(aim);
		h.sqpn = qpn(aim && rng_.chance(50));
		h.psn = psn();
		h.ev = (u16)(rng_.chance(50) ? rng_.below(16) : rng_.u32v());
		h.plane = plane();
		h.ts = rng_.u32v();
	}

	// Payload size: empty, small, or up to what still fits a datagram.
	u32 payload_len(u8 op)
	{
		const u32 room = (u32)kMaxDatagram - (u32)mrc_hdr_len(op) -
				 MRC_ICRC_LEN;
		switch (rng_.below(4)) {
		case 0: return 0;
		case 1: return (u32)rng_.range(1, 64);
		default: return (u32)rng_.range(1, room);
		}
	}

	// Where the payload sits in its message, consistent with FIRST/LAST.
	void placement(mrc_hdr &h, mrc_msg_ext &m, u32 len, bool solicited_ok)
	{
		m.msn = rng_.chance(50) ? (u32)rng_.below(1024) : rng_.u32v();
		const u64 max_msg = 0x80000000ull;
		if (len == 0) { // only a zero-length message has no payload
			m.offset = 0;
			m.msg_len = 0;
		} else {
			switch (rng_.below(4)) {
			case 0: // whole message in one packet
				m.offset = 0;
				m.msg_len = len;
				break;
			case 1: // first packet of a longer one
				m.offset = 0;
				m.msg_len = (u32)rng_.range(len + 1, max_msg);
				break;
			case 2: // last packet
				m.offset = (u32)rng_.range(1, max_msg - len);
				m.msg_len = m.offset + len;
				break;
			default: // somewhere in the middle
				m.offset = (u32)rng_.range(1, max_msg - len - 1);
				m.msg_len = (u32)rng_.range((u64)m.offset +
								    len + 1,
							    max_msg);
				break;
			}
		}
		h.flags = 0;
		if (m.offset == 0)
			h.flags |= MRC_F_FIRST;
		if ((u64)m.offset + len == m.msg_len)
			h.flags |= MRC_F_LAST;
		h.flags |= random_req_flags();
		if (solicited_ok && (h.flags & MRC_F_LAST) && rng_.chance(25))
			h.flags |= MRC_F_SOLICITED;
	}

	u16 random_req_flags()
	{
		u16 f = 0;
		if (rng_.chance(30))
			f |= MRC_F_ACK_REQ;
		if (rng_.chance(20))
			f |= MRC_F_RETX;
		return f;
	}

	// A VA with @len bytes after it that does not wrap.
	u64 va(u64 len)
	{
		u64 v = rng_.chance(50) ? rng_.below(1ull << 47) : rng_.u64();
		if (v + len < v)
			v -= len;
		return v;
	}

	void fill_ext(mrc_pkt &p, Bytes &payload)
	{
		mrc_hdr &h = p.hdr;
		const u8 op = h.opcode;
		if (mrc_opcode_has_payload(op)) {
			payload.resize(payload_len(op));
			rng_.fill(payload);
			p.payload = payload.empty() ? nullptr : payload.data();
			p.payload_len = (u32)payload.size();
		}
		const u16 single = MRC_F_FIRST | MRC_F_LAST;
		switch (op) {
		case MRC_OP_SEND:
		case MRC_OP_SEND_IMM:
		case MRC_OP_READ_RESP:
			placement(h, p.u.send.msg, p.payload_len,
				  op != MRC_OP_READ_RESP);
			if (op == MRC_OP_SEND_IMM)
				p.u.send.imm = rng_.u32v();
			break;
		case MRC_OP_WRITE:
		case MRC_OP_WRITE_IMM:
			placement(h, p.u.write.msg, p.payload_len,
				  op == MRC_OP_WRITE_IMM);
			p.u.write.va = va(p.payload_len);
			p.u.write.rkey = rng_.u32v();
			if (op == MRC_OP_WRITE_IMM)
				p.u.write.imm = rng_.u32v();
			break;
		case MRC_OP_READ_REQ:
			h.flags = single | random_req_flags();
			p.u.read_req.len = (u32)(rng_.chance(50) ?
							 rng_.below(65537) :
							 rng_.below(0x80000001ull));
			p.u.read_req.va = va(p.u.read_req.len);
			p.u.read_req.rkey = rng_.u32v();
			p.u.read_req.msn = rng_.u32v();
			break;
		case MRC_OP_ATOMIC_CS:
		case MRC_OP_ATOMIC_FA:
			h.flags = single | random_req_flags();
			p.u.atomic.va = va(8) & ~7ull;
			p.u.atomic.rkey = rng_.u32v();
			p.u.atomic.msn = rng_.u32v();
			p.u.atomic.swap_add = rng_.u64();
			p.u.atomic.compare = op == MRC_OP_ATOMIC_CS ? rng_.u64() :
								      0;
			break;
		case MRC_OP_ATOMIC_RESP:
			h.flags = single | random_req_flags();
			p.u.atomic_resp.msn = rng_.u32v();
			p.u.atomic_resp.orig = rng_.u64();
			break;
		case MRC_OP_ACK:
			p.u.ack.cum_psn = psn();
			p.u.ack.sack_base = rng_.chance(50) ? p.u.ack.cum_psn :
							      psn();
			for (auto &w : p.u.ack.sack)
				w = rng_.chance(30) ? 0 : rng_.u64();
			p.u.ack.echo_ev = (u16)rng_.u32v();
			p.u.ack.echo_plane = plane();
			p.u.ack.ecn = (u8)rng_.below(2);
			p.u.ack.ts_echo = rng_.u32v();
			p.u.ack.svc_time = rng_.u32v();
			p.u.ack.msn = rng_.u32v();
			break;
		case MRC_OP_NACK:
			p.u.nack.psn = psn();
			p.u.nack.cum_psn = psn();
			p.u.nack.echo_ev = (u16)rng_.u32v();
			p.u.nack.echo_plane = plane();
			p.u.nack.reason = (u8)rng_.range(MRC_NACK_OUT_OF_WINDOW,
							 MRC_NACK_RNR);
			p.u.nack.ts_echo = rng_.u32v();
			if (p.u.nack.reason == MRC_NACK_RNR)
				p.u.nack.rnr_timer_us = rng_.u32v();
			break;
		case MRC_OP_PROBE_REQ:
		case MRC_OP_PROBE_RESP:
			if (rng_.chance(50)) // probes are connectionless
				h.dqpn = h.sqpn = 0;
			p.u.probe.probe_id = rng_.u32v();
			p.u.probe.ev = (u16)rng_.u32v();
			p.u.probe.plane = plane();
			if (op == MRC_OP_PROBE_RESP) {
				p.u.probe.ts_echo = rng_.u32v();
				p.u.probe.svc_time = rng_.u32v();
			}
			break;
		case MRC_OP_PORT_STATUS:
			p.u.port_status.seq = rng_.u32v();
			p.u.port_status.up_planes = (u16)rng_.u32v();
			break;
		}
	}

	Rng &rng_;
	const std::vector<u32> &qpns_;
};

// Owns a file descriptor.
class Fd {
public:
	Fd() = default;
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	~Fd() { reset(-1); }
	void reset(int fd)
	{
		if (fd_ >= 0)
			::close(fd_);
		fd_ = fd;
	}
	int get() const { return fd_; }

private:
	int fd_ = -1;
};

class Sender {
public:
	explicit Sender(const Options &o)
	{
		addrinfo hints{};
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_DGRAM;
		hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
		addrinfo *res = nullptr;
		const std::string port = std::to_string(o.port);
		if (int e = getaddrinfo(o.addr.c_str(), port.c_str(), &hints,
					&res))
			throw std::runtime_error(
				"'" + o.addr +
				"' is not a numeric IPv4/IPv6 address: " +
				gai_strerror(e));
		std::memcpy(&dst_, res->ai_addr, res->ai_addrlen);
		dstlen_ = res->ai_addrlen;
		const int family = res->ai_family;
		freeaddrinfo(res);
		if (o.dry_run)
			return;
		sock_.reset(::socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
		if (sock_.get() < 0)
			throw std::runtime_error(std::string("socket: ") +
						 std::strerror(errno));
	}

	// True if sent.  A full queue (ENOBUFS/EAGAIN) is waited out rather than
	// counted: the point is to reach mrc, not to measure the sender.
	bool send(std::span<const u8> b, std::string &err)
	{
		for (int tries = 0; tries < 1000; tries++) {
			ssize_t n = ::sendto(sock_.get(), b.data(), b.size(), 0,
					     reinterpret_cast<const sockaddr *>(
						     &dst_),
					     dstlen_);
			if (n == (ssize_t)b.size())
				return true;
			if (n >= 0) {
				err = "short send";
				return false;
			}
			if (errno != ENOBUFS && errno != EAGAIN &&
			    errno != EINTR && errno != ECONNREFUSED) {
				err = std::strerror(errno);
				return false;
			}
			// ECONNREFUSED: a queued ICMP error of an earlier datagram
			// (e.g. before mrc's socket existed); the next try goes out.
			std::this_thread::sleep_for(
				std::chrono::microseconds(100));
		}
		err = "queue stayed full";
		return false;
	}

	std::string where() const
	{
		char host[INET6_ADDRSTRLEN] = "?";
		uint16_t port = 0;
		if (dst_.ss_family == AF_INET) {
			auto *s = reinterpret_cast<const sockaddr_in *>(&dst_);
			inet_ntop(AF_INET, &s->sin_addr, host, sizeof(host));
			port = ntohs(s->sin_port);
		} else {
			auto *s = reinterpret_cast<const sockaddr_in6 *>(&dst_);
			inet_ntop(AF_INET6, &s->sin6_addr, host, sizeof(host));
			port = ntohs(s->sin6_port);
			return std::string("[") + host +
			       "]:" + std::to_string(port);
		}
		return std::string(host) + ":" + std::to_string(port);
	}

private:
	Fd sock_;
	sockaddr_storage dst_{};
	socklen_t dstlen_ = 0;
};

// Mutations of a valid encoded packet; each leaves a packet that the
// decoder must reject (a CRC-32 catches every 1..3-bit error, a length
// change breaks payload_len, a changed ICRC is wrong by construction).
void bitflip(Rng &rng, Bytes &b)
{
	const unsigned flips = (unsigned)rng.range(1, 3);
	std::vector<size_t> done;
	for (unsigned i = 0; i < flips; i++) {
		size_t bit;
		do { // distinct bits: two flips of one bit would cancel
			bit = rng.below(b.size() * 8);
		} while (std::find(done.begin(), done.end(), bit) != done.end());
		done.push_back(bit);
		b[bit / 8] ^= (u8)(1u << (bit % 8));
	}
}

void truncate(Rng &rng, Bytes &b)
{
	// Often by a few bytes (cuts the ICRC), sometimes into the headers.
	const size_t cut = rng.chance(50) ? rng.range(1, 4) :
					    rng.range(1, b.size());
	b.resize(b.size() - cut);
}

void extend(Rng &rng, Bytes &b)
{
	const size_t room = kMaxDatagram - b.size();
	const size_t add = room ? rng.range(1, std::min<size_t>(room, 64)) : 0;
	if (!add) { // no room: a packet that long cannot grow, flip instead
		bitflip(rng, b);
		return;
	}
	const size_t old = b.size();
	b.resize(old + add);
	rng.fill(std::span<u8>(b).subspan(old));
}

void bad_icrc(Rng &rng, Bytes &b)
{
	u32 x;
	do {
		x = rng.u32v();
	} while (!x);
	for (int i = 0; i < 4; i++)
		b[b.size() - 4 + i] ^= (u8)(x >> (8 * i));
}

int run(const Options &o)
{
	Rng rng(o.seed);
	Generator gen(rng, o.qpns);
	Sender tx(o);
	std::array<uint64_t, C_NR> sent{};
	std::map<u8, uint64_t> ops;	  // valid packets built, per opcode
	std::map<int, uint64_t> verdicts; // decoder result of what was sent
	std::deque<Bytes> ring;		  // earlier valid packets, for replay
	uint64_t errors = 0, invalid = 0, valid = 0;
	std::string first_err;

	const auto start = std::chrono::steady_clock::now();
	for (uint64_t i = 0; i < o.count; i++) {
		if (o.rate) {
			// Paced against the start, so a slow packet is caught up.
			std::this_thread::sleep_until(
				start + std::chrono::nanoseconds(
						(i * 1000000000ull) / o.rate));
		}
		// The mix, in percent: random 20, mutated 40 (10 each), replay 10,
		// valid 15, spoof 15 (valid without --qpn).
		const uint64_t r = rng.below(100);
		Class c;
		if (r < 20)
			c = C_RANDOM;
		else if (r < 60)
			c = (Class)(C_BITFLIP + (r - 20) / 10);
		else if (r < 70)
			c = ring.empty() ? C_VALID : C_REPLAY;
		else if (r < 85)
			c = C_VALID;
		else
			c = o.qpns.empty() ? C_VALID : C_SPOOF;

		Bytes b;
		u8 op = 0;
		if (c == C_RANDOM) {
			b.resize(rng.below(kMaxRandom + 1));
			rng.fill(b);
		} else if (c == C_REPLAY) {
			b = ring[rng.below(ring.size())];
		} else {
			// Mutated packets also hit the given QPNs half of the time:
			// a live QP must survive garbage as well as strangers.
			b = gen.valid(c == C_SPOOF || (!o.qpns.empty() &&
						       rng.chance(50)),
				      &op);
			ops[op]++;
			if (c == C_VALID || c == C_SPOOF) {
				ring.push_back(b);
				if (ring.size() > kReplayRing)
					ring.pop_front();
			}
			switch (c) {
			case C_BITFLIP: bitflip(rng, b); break;
			case C_TRUNC: truncate(rng, b); break;
			case C_EXTEND: extend(rng, b); break;
			case C_BADICRC: bad_icrc(rng, b); break;
			default: break;
			}
		}

		std::string err;
		if (!o.dry_run && !tx.send(b, err)) {
			if (!errors++)
				first_err = err;
			continue; // counted as what reached the wire only
		}
		mrc_pkt dec;
		const int v = mrc_pkt_decode(b.data(), (u32)b.size(), &dec);
		verdicts[v]++;
		if (v)
			invalid++;
		else
			valid++;
		sent[c]++;
	}
	const double secs = std::chrono::duration<double>(
				    std::chrono::steady_clock::now() - start)
				    .count();

	const uint64_t mutated = sent[C_BITFLIP] + sent[C_TRUNC] +
				 sent[C_EXTEND] + sent[C_BADICRC];
	std::printf("mrc_pktfuzz: seed %llu, %s%llu datagrams to %s in %.1f s (%.0f/s)\n",
		    (unsigned long long)o.seed,
		    o.dry_run ? "dry run, built " : "",
		    (unsigned long long)o.count, tx.where().c_str(), secs,
		    secs > 0 ? (double)o.count / secs : 0.0);
	std::printf("mrc_pktfuzz: classes: random %llu, mutated %llu (bitflip %llu, truncate %llu, "
		    "extend %llu, badicrc %llu), replay %llu, valid %llu, spoof %llu\n",
		    (unsigned long long)sent[C_RANDOM],
		    (unsigned long long)mutated,
		    (unsigned long long)sent[C_BITFLIP],
		    (unsigned long long)sent[C_TRUNC],
		    (unsigned long long)sent[C_EXTEND],
		    (unsigned long long)sent[C_BADICRC],
		    (unsigned long long)sent[C_REPLAY],
		    (unsigned long long)sent[C_VALID],
		    (unsigned long long)sent[C_SPOOF]);
	std::string line;
	for (auto [op, n] : ops)
		line += std::string(line.empty() ? "" : ", ") +
			mrc_opcode_name(op) + " " + std::to_string(n);
	std::printf("mrc_pktfuzz: opcodes built: %s\n", line.c_str());
	line.clear();
	for (auto [v, n] : verdicts)
		line += std::string(line.empty() ? "" : ", ") +
			(v ? mrc_wire_strerror(v) : "accepted") + " " +
			std::to_string(n);
	std::printf("mrc_pktfuzz: decoder verdicts: %s\n", line.c_str());
	if (errors)
		std::printf("mrc_pktfuzz: %llu datagrams not sent, first error: %s\n",
			    (unsigned long long)errors, first_err.c_str());
	// The summary line scripts parse.
	std::printf("mrc_pktfuzz: sent %llu, invalid %llu, valid %llu, errors %llu\n",
		    (unsigned long long)(o.count - (o.dry_run ? o.count : errors)),
		    (unsigned long long)invalid, (unsigned long long)valid,
		    (unsigned long long)errors);
	return errors ? 1 : 0;
}

} // namespace

int main(int argc, char **argv)
{
	try {
		return run(parse_args(argc, argv));
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrc_pktfuzz: %s\n", e.what());
		return 1;
	}
}
