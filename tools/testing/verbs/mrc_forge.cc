// SPDX-License-Identifier: GPL-2.0-only
// mrc_forge: an off-path attacker's control packets against a live MRC
// connection (selftests/mrc/test_65_forge.sh).
//
//   mrc_forge --kind KIND [--dqpn A,B,..] [--sqpn A,B,..] [--count N]
//             [--rate PPS] [--bind ADDR] [--sport P] [--port P]
//             [--listen-ms MS] [--seed S] ADDR
//
// KIND is what a forger would send to hurt a connection whose QPNs it
// knows (--dqpn: the victim's QP, --sqpn: its peer's; every pair is used
// in turn) but whose PSNs it cannot see:
//   ack          ACK with a random cumulative PSN and SACK bits, ECN CE
//                echoed (would cut the congestion window);
//   nack         NACK INVALID_REQUEST or REMOTE_ACCESS_ERROR of a random
//                PSN (would end the connection);
//   port-status  PORT_STATUS "every plane down" with a huge sequence
//                number (would stop all traffic);
//   probe-resp   PROBE_RESP of a random probe id (would revive a dead
//                path; with --dqpn 0 answers a connectionless probe run);
//   probe-req    connectionless PROBE_REQ (dqpn 0): a reflection flood.
// PSNs are drawn from the 24 bits a connection starts in: a blind guess.
// --bind sends from ADDR (e.g. the peer's address, assigned in the
// attacker's namespace: a spoofer that never sees the answers).  With
// --listen-ms the program counts the datagrams that come back to its
// socket while sending and for MS ms after (probe answers go to the
// request's source address and to the MRC port, the default --sport).
//
// Prints "mrc_forge: kind K, sent N, answers M, errors E, sent in T s".  IPv4 only;
// only ever sends to the one numeric address given.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

extern "C" {
#include "wire.h"
}

namespace {

enum class Kind { Ack, Nack, PortStatus, ProbeResp, ProbeReq };

struct Options {
	Kind kind = Kind::Ack;
	std::string kind_name;
	std::string addr, bind_addr;
	std::vector<u32> dqpn{0}, sqpn{0};
	uint64_t count = 1000, rate = 0, seed = 1, listen_ms = 0;
	uint16_t port = MRC_UDP_PORT, sport = MRC_UDP_PORT;
};

[[noreturn]] void usage(const std::string &why)
{
	std::fprintf(stderr,
		     "mrc_forge: %s\n"
		     "usage: mrc_forge --kind ack|nack|port-status|probe-resp|probe-req\n"
		     "                 [--dqpn A,..] [--sqpn A,..] [--count N] [--rate PPS]\n"
		     "                 [--bind ADDR] [--sport P] [--port P] [--listen-ms MS]\n"
		     "                 [--seed S] ADDR\n",
		     why.c_str());
	std::exit(2);
}

uint64_t number(std::string_view s, const char *what)
{
	uint64_t v = 0;
	auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
	if (s.empty() || ec != std::errc() || p != s.data() + s.size())
		usage(std::string("bad ") + what + ": '" + std::string(s) + "'");
	return v;
}

std::vector<u32> qpn_list(std::string_view s)
{
	std::vector<u32> v;
	while (!s.empty()) {
		size_t c = s.find(',');
		uint64_t q = number(s.substr(0, c), "QPN");
		if (q > MRC_QPN_MASK)
			usage("QPN beyond 24 bits");
		v.push_back((u32)q);
		s = c == s.npos ? std::string_view() : s.substr(c + 1);
	}
	if (v.empty())
		usage("empty QPN list");
	return v;
}

Kind kind_of(std::string_view s)
{
	if (s == "ack")
		return Kind::Ack;
	if (s == "nack")
		return Kind::Nack;
	if (s == "port-status")
		return Kind::PortStatus;
	if (s == "probe-resp")
		return Kind::ProbeResp;
	if (s == "probe-req")
		return Kind::ProbeReq;
	usage("unknown kind '" + std::string(s) + "'");
}

Options parse(int argc, char **argv)
{
	Options o;
	for (int i = 1; i < argc; i++) {
		std::string_view a = argv[i];
		auto val = [&]() -> std::string_view {
			if (++i >= argc)
				usage(std::string(a) + " needs a value");
			return argv[i];
		};
		if (a == "--kind") {
			o.kind_name = val();
			o.kind = kind_of(o.kind_name);
		} else if (a == "--dqpn") {
			o.dqpn = qpn_list(val());
		} else if (a == "--sqpn") {
			o.sqpn = qpn_list(val());
		} else if (a == "--count") {
			o.count = number(val(), "count");
		} else if (a == "--rate") {
			o.rate = number(val(), "rate");
		} else if (a == "--seed") {
			o.seed = number(val(), "seed");
		} else if (a == "--listen-ms") {
			o.listen_ms = number(val(), "listen-ms");
		} else if (a == "--port") {
			o.port = (uint16_t)number(val(), "port");
		} else if (a == "--sport") {
			o.sport = (uint16_t)number(val(), "sport");
		} else if (a == "--bind") {
			o.bind_addr = val();
		} else if (a.starts_with("-")) {
			usage("unknown option " + std::string(a));
		} else if (o.addr.empty()) {
			o.addr = a;
		} else {
			usage("one address only");
		}
	}
	if (o.addr.empty() || o.kind_name.empty())
		usage("--kind and ADDR are required");
	return o;
}

class Fd {
public:
	explicit Fd(int fd) : fd_(fd) {}
	~Fd()
	{
		if (fd_ >= 0)
			::close(fd_);
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	int get() const { return fd_; }

private:
	int fd_;
};

sockaddr_in ipv4(const std::string &a, uint16_t port)
{
	sockaddr_in s{};
	s.sin_family = AF_INET;
	s.sin_port = htons(port);
	if (inet_pton(AF_INET, a.c_str(), &s.sin_addr) != 1)
		usage("'" + a + "' is not a numeric IPv4 address");
	return s;
}

// One forged packet of @o.kind, number @i.
std::vector<u8> forge(const Options &o, std::mt19937_64 &rng, uint64_t i)
{
	auto psn = [&] { return (u32)rng() & MRC_QPN_MASK; };
	mrc_pkt p;
	u8 op = MRC_OP_ACK;

	switch (o.kind) {
	case Kind::Ack: op = MRC_OP_ACK; break;
	case Kind::Nack: op = MRC_OP_NACK; break;
	case Kind::PortStatus: op = MRC_OP_PORT_STATUS; break;
	case Kind::ProbeResp: op = MRC_OP_PROBE_RESP; break;
	case Kind::ProbeReq: op = MRC_OP_PROBE_REQ; break;
	}
	mrc_pkt_init(&p, op);
	p.hdr.dqpn = o.dqpn[i % o.dqpn.size()];
	p.hdr.sqpn = o.sqpn[(i / o.dqpn.size()) % o.sqpn.size()];
	p.hdr.psn = psn();
	p.hdr.plane = 1;
	p.hdr.ts = (u32)rng();
	switch (o.kind) {
	case Kind::Ack:
		p.u.ack.cum_psn = psn();
		p.u.ack.sack_base = p.u.ack.cum_psn;
		p.u.ack.sack[0] = rng();
		p.u.ack.echo_plane = 1;
		p.u.ack.ecn = MRC_ACK_ECN_CE;
		p.u.ack.ts_echo = (u32)rng();
		break;
	case Kind::Nack:
		p.u.nack.psn = psn();
		p.u.nack.cum_psn = psn();
		p.u.nack.echo_plane = 1;
		p.u.nack.reason = i % 2 ? MRC_NACK_INVALID_REQUEST :
					  MRC_NACK_REMOTE_ACCESS_ERROR;
		break;
	case Kind::PortStatus:
		p.u.port_status.seq = (u32)rng() | 0x40000000;
		p.u.port_status.up_planes = 0;
		break;
	case Kind::ProbeResp:
	case Kind::ProbeReq:
		p.u.probe.probe_id = (u32)rng();
		p.u.probe.ev = (u16)(rng() % 4);
		p.u.probe.plane = 1;
		if (o.kind == Kind::ProbeResp)
			p.u.probe.ts_echo = (u32)rng();
		break;
	}
	std::vector<u8> b(256);
	int n = mrc_pkt_encode(&p, b.data(), (u32)b.size());
	if (n < 0)
		throw std::logic_error(std::string("cannot encode ") +
				       mrc_opcode_name(op) + ": " +
				       mrc_wire_strerror(n));
	b.resize((size_t)n);
	return b;
}

// Datagrams waiting on @fd, read and counted without blocking.
uint64_t drain(int fd)
{
	uint64_t n = 0;
	u8 buf[2048];
	while (::recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	return n;
}

} // namespace

int main(int argc, char **argv)
{
	try {
		Options o = parse(argc, argv);
		std::mt19937_64 rng(o.seed);
		sockaddr_in dst = ipv4(o.addr, o.port);
		Fd sock(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
		if (sock.get() < 0)
			throw std::runtime_error(std::string("socket: ") +
						 std::strerror(errno));
		sockaddr_in src = ipv4(o.bind_addr.empty() ? "0.0.0.0" :
							     o.bind_addr,
				       o.sport);
		if (::bind(sock.get(), reinterpret_cast<sockaddr *>(&src),
			   sizeof(src)))
			throw std::runtime_error(std::string("bind: ") +
						 std::strerror(errno));
		uint64_t sent = 0, errors = 0, answers = 0;
		auto start = std::chrono::steady_clock::now();
		for (uint64_t i = 0; i < o.count; i++) {
			auto b = forge(o, rng, i);
			if (::sendto(sock.get(), b.data(), b.size(), 0,
				     reinterpret_cast<sockaddr *>(&dst),
				     sizeof(dst)) == (ssize_t)b.size())
				sent++;
			else if (errno == ENOBUFS || errno == EAGAIN ||
				 errno == ECONNREFUSED)
				i--; /* full queue or an old ICMP error */
			else
				errors++;
			if (o.listen_ms)
				answers += drain(sock.get());
			if (o.rate)
				std::this_thread::sleep_until(
					start + std::chrono::nanoseconds(
							(i + 1) *
							1000000000ull / o.rate));
		}
		double send_secs = std::chrono::duration<double>(
					   std::chrono::steady_clock::now() -
					   start)
					   .count();
		auto end = std::chrono::steady_clock::now() +
			   std::chrono::milliseconds(o.listen_ms);
		while (o.listen_ms && std::chrono::steady_clock::now() < end) {
			pollfd pfd = {sock.get(), POLLIN, 0};
			::poll(&pfd, 1, 50);
			answers += drain(sock.get());
		}
		std::printf("mrc_forge: kind %s, sent %llu, answers %llu, errors %llu, sent in %.3f s\n",
			    o.kind_name.c_str(), (unsigned long long)sent,
			    (unsigned long long)answers,
			    (unsigned long long)errors, send_secs);
		return errors ? 1 : 0;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrc_forge: %s\n", e.what());
		return 1;
	}
}
