// SPDX-License-Identifier: GPL-2.0-only
//
// Shared helpers of the verbs test programs: RAII owners of the ibv objects
// (all of them), and for mrc_verify and mrc_negative the connection
// options, the TCP side channel that exchanges connection info like
// ibv_rc_pingpong does, RC QP bring-up and waiting for completions with a
// deadline.  Errors are thrown as std::runtime_error and turned into a
// message and exit status 1 by main().
#pragma once

#include <infiniband/verbs.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace verbs {

using Clock = std::chrono::steady_clock;

[[noreturn]] inline void fail(const std::string &what)
{
	throw std::runtime_error(what);
}

[[noreturn]] inline void fail_errno(const std::string &what, int err = errno)
{
	throw std::runtime_error(what + ": " + std::strerror(err));
}

// unique_ptr deleter calling an ibv destroy function; the return value of
// a destroy at exit is not actionable, tests that care call it explicitly.
template <auto Fn> struct Deleter {
	template <typename T> void operator()(T *p) const
	{
		if (p)
			(void)Fn(p);
	}
};

using DeviceList = std::unique_ptr<ibv_device *[], Deleter<ibv_free_device_list>>;
using Context = std::unique_ptr<ibv_context, Deleter<ibv_close_device>>;
using Pd = std::unique_ptr<ibv_pd, Deleter<ibv_dealloc_pd>>;
using Mr = std::unique_ptr<ibv_mr, Deleter<ibv_dereg_mr>>;
using Cq = std::unique_ptr<ibv_cq, Deleter<ibv_destroy_cq>>;
using Qp = std::unique_ptr<ibv_qp, Deleter<ibv_destroy_qp>>;
using Channel =
	std::unique_ptr<ibv_comp_channel, Deleter<ibv_destroy_comp_channel>>;
using Ah = std::unique_ptr<ibv_ah, Deleter<ibv_destroy_ah>>;

// Page-aligned zeroed memory for MRs (free() is the matching release).
struct FreeDeleter {
	void operator()(uint8_t *p) const { std::free(p); }
};
using Buffer = std::unique_ptr<uint8_t[], FreeDeleter>;

inline Buffer alloc_buffer(size_t size)
{
	void *p = nullptr;
	size = (size + 4095) & ~size_t{4095};
	if (posix_memalign(&p, 4096, size))
		fail("cannot allocate " + std::to_string(size) + " bytes");
	std::memset(p, 0, size);
	return Buffer(static_cast<uint8_t *>(p));
}

// An owned file descriptor.
class Fd {
public:
	Fd() = default;
	explicit Fd(int fd) : fd_(fd) {}
	Fd(Fd &&o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
	Fd &operator=(Fd &&o) noexcept
	{
		if (this != &o) {
			reset();
			fd_ = o.fd_;
			o.fd_ = -1;
		}
		return *this;
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	~Fd() { reset(); }
	int get() const { return fd_; }
	void reset()
	{
		if (fd_ >= 0)
			::close(fd_);
		fd_ = -1;
	}

private:
	int fd_ = -1;
};

// The options every client/server program takes (-d, -g, -p, --timeout,
// --qp-timeout, --retry, the server address); the defaults of the port
// and of the QP's timeout and retry count are the program's.
struct ConnOptions {
	ConnOptions(uint16_t port_, int qp_timeout_, int retry_)
		: port(port_), qp_timeout(qp_timeout_), retry(retry_)
	{
	}
	std::string dev = "mrc0";
	int gid = 1;
	uint16_t port;
	std::string server; // empty: this is the server
	int timeout = 300;
	int qp_timeout;
	int retry;
};

// The getopt_long table: the shared options, then the program's own and
// the terminating entry.
inline std::vector<option> conn_longopts(std::initializer_list<option> own)
{
	std::vector<option> v = {{"ib-dev", required_argument, nullptr, 'd'},
				 {"gid-idx", required_argument, nullptr, 'g'},
				 {"port", required_argument, nullptr, 'p'},
				 {"timeout", required_argument, nullptr, 't'},
				 {"qp-timeout", required_argument, nullptr, 'T'},
				 {"retry", required_argument, nullptr, 'r'},
				 {"help", no_argument, nullptr, 'h'}};
	v.insert(v.end(), own);
	v.push_back({nullptr, 0, nullptr, 0});
	return v;
}

// Take a shared option (what getopt_long returned, its argument); false if
// c is none of them.  A bad number throws, as std::stoi does.
inline bool parse_conn_option(int c, const std::string &a, ConnOptions &o)
{
	switch (c) {
	case 'd': o.dev = a; break;
	case 'g': o.gid = std::stoi(a); break;
	case 'p': o.port = static_cast<uint16_t>(std::stoi(a)); break;
	case 't': o.timeout = std::stoi(a); break;
	case 'T': o.qp_timeout = std::stoi(a); break;
	case 'r': o.retry = std::stoi(a); break;
	default: return false;
	}
	return true;
}

// The getopt_long loop of a client/server program: the shared options,
// the program's own (@own) through @take(c, arg), which returns false for
// a bad one, then at most one SERVER_ADDR.  Anything else: @usage(), which
// does not return.
template <class Take>
void parse_conn_args(int argc, char **argv, std::initializer_list<option> own,
		     ConnOptions &o, Take take, void (*usage)())
{
	const std::vector<option> longopts = conn_longopts(own);
	int c;
	while ((c = getopt_long(argc, argv, "d:g:p:h", longopts.data(),
				nullptr)) != -1) {
		std::string a = optarg ? optarg : "";
		if (!parse_conn_option(c, a, o) && !take(c, a))
			usage();
	}
	if (optind < argc)
		o.server = argv[optind++];
	if (optind < argc)
		usage();
}

// The options of a TAP program whose checks are named cases
// (mrc_qp_compat, mrc_verbs_ext): the shared ones and the --case names.
struct CaseOptions : ConnOptions {
	using ConnOptions::ConnOptions;
	std::vector<std::string> cases; // empty: all
	bool wants(const char *name) const
	{
		return cases.empty() || std::find(cases.begin(), cases.end(),
						  name) != cases.end();
	}
};

// parse_conn_args() with the one own option --case=NAME, repeatable, NAME
// one of @names; any other NAME: @usage().
template <size_t N>
void parse_case_args(int argc, char **argv, const char *const (&names)[N],
		     CaseOptions &o, void (*usage)())
{
	auto take = [&](int c, const std::string &a) {
		if (c != 'c' || std::find_if(std::begin(names), std::end(names),
					     [&](const char *n) {
						     return a == n;
					     }) == std::end(names))
			return false;
		o.cases.push_back(a);
		return true;
	};
	parse_conn_args(argc, argv, {{"case", required_argument, nullptr, 'c'}},
			o, take, usage);
}

// Last resort if a verb blocks past every deadline (a destroy that hangs
// is one of the bugs these programs look for): after @seconds, call
// report(seconds) and exit with status 3.  Destroying it stops it.
class Watchdog {
public:
	Watchdog(int seconds, void (*report)(int seconds))
		: t_([seconds, report](std::stop_token st) {
			  std::mutex m;
			  std::condition_variable_any cv;
			  std::unique_lock l(m);
			  cv.wait_for(l, st, std::chrono::seconds(seconds),
				      [] { return false; });
			  if (st.stop_requested())
				  return;
			  report(seconds);
			  std::_Exit(3);
		  })
	{
	}

private:
	std::jthread t_;
};

// The main() of a client/server test program that prints TAP
// (mrc_negative, mrc_qp_compat), given its parsed options @o (a
// ConnOptions): a watchdog for a verb that hangs, then @serve() without a
// server address, @client() with one, each until o.timeout; an exception
// is a failed TAP line and exit status 1.
inline const char *tap_main_prog = "";

inline void tap_main_hang(int seconds)
{
	std::printf("not ok - %s: still running after %d s (a verb hangs?)\n",
		    tap_main_prog, seconds);
	std::fflush(stdout);
}

template <class Options>
int tap_main(const char *prog, const Options &o,
	     int (*serve)(const Options &, Clock::time_point),
	     int (*client)(const Options &, Clock::time_point))
{
	tap_main_prog = prog;
	auto deadline = Clock::now() + std::chrono::seconds(o.timeout);
	Watchdog wd(o.timeout + 10, tap_main_hang);
	try {
		return o.server.empty() ? serve(o, deadline) :
					  client(o, deadline);
	} catch (const std::exception &ex) {
		std::printf("not ok - %s: error: %s\n# %s: aborted\n", prog,
			    ex.what(), prog);
		return 1;
	}
}

// The main() of a TAP program with named cases (mrc_qp_compat,
// mrc_verbs_ext): its options by parse_case_args() with @names, then
// tap_main().  A bad one prints "usage: PROG" and the shared options,
// then @usage (the program's own), on stderr; exit status 2.
inline const char *case_main_usage = "";

[[noreturn]] inline void case_main_refuse()
{
	std::fprintf(stderr,
		     "usage: %s [-d DEV] [-g GID_INDEX] [-p PORT] [--timeout=300]\n",
		     tap_main_prog);
	std::fputs(case_main_usage, stderr);
	std::exit(2);
}

template <class Options, size_t N>
int case_tap_main(const char *prog, const char *usage,
		  const char *const (&names)[N], int argc, char **argv,
		  int (*serve)(const Options &, Clock::time_point),
		  int (*client)(const Options &, Clock::time_point))
{
	Options o;
	tap_main_prog = prog;
	case_main_usage = usage;
	parse_case_args(argc, argv, names, o, case_main_refuse);
	return tap_main(prog, o, serve, client);
}

// The first lines of a client's TAP output: the version and which device,
// GID and server it tests.
inline void tap_header(const char *prog, const ConnOptions &o)
{
	std::printf("TAP version 13\n# %s on %s gid %d, server %s\n", prog,
		    o.dev.c_str(), o.gid, o.server.c_str());
}

inline int ms_until(Clock::time_point deadline)
{
	auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
		deadline - Clock::now());
	return left.count() < 0 ?
		       0 :
		       static_cast<int>(
			       std::min<long long>(left.count(), 1 << 30));
}

// The TCP side channel.  The server accepts one connection; the client
// retries connecting until the deadline, since the server may still be
// starting (the selftests start both at about the same time).
class Tcp {
public:
	static Tcp listen_accept(uint16_t port, Clock::time_point deadline)
	{
		Fd ls(::socket(AF_INET6, SOCK_STREAM, 0));
		if (ls.get() < 0)
			fail_errno("socket");
		int one = 1, zero = 0;
		setsockopt(ls.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		// Dual stack: IPv4 clients connect too.
		setsockopt(ls.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero,
			   sizeof(zero));
		sockaddr_in6 a{};
		a.sin6_family = AF_INET6;
		a.sin6_addr = in6addr_any;
		a.sin6_port = htons(port);
		if (::bind(ls.get(), reinterpret_cast<sockaddr *>(&a), sizeof(a)))
			fail_errno("bind to TCP port " + std::to_string(port));
		if (::listen(ls.get(), 1))
			fail_errno("listen");
		pollfd p{ls.get(), POLLIN, 0};
		int n = ::poll(&p, 1, ms_until(deadline));
		if (n <= 0)
			fail("no client connected in time");
		Fd c(::accept(ls.get(), nullptr, nullptr));
		if (c.get() < 0)
			fail_errno("accept");
		return Tcp(std::move(c));
	}

	static Tcp connect(const std::string &host, uint16_t port,
			   Clock::time_point deadline)
	{
		addrinfo hints{}, *res = nullptr;
		hints.ai_socktype = SOCK_STREAM;
		std::string svc = std::to_string(port);
		if (int rc = getaddrinfo(host.c_str(), svc.c_str(), &hints, &res))
			fail("cannot resolve " + host + ": " + gai_strerror(rc));
		std::unique_ptr<addrinfo, decltype(&freeaddrinfo)>
			owner(res, freeaddrinfo);
		for (;;) {
			for (addrinfo *ai = res; ai; ai = ai->ai_next) {
				Fd s(::socket(ai->ai_family, ai->ai_socktype,
					      ai->ai_protocol));
				if (s.get() >= 0 &&
				    ::connect(s.get(), ai->ai_addr,
					      ai->ai_addrlen) == 0)
					return Tcp(std::move(s));
			}
			if (Clock::now() >= deadline)
				fail_errno("cannot connect to " + host +
					   " port " + svc);
			std::this_thread::sleep_for(
				std::chrono::milliseconds(200));
		}
	}

	void send_bytes(const void *buf, size_t len)
	{
		auto p = static_cast<const uint8_t *>(buf);
		while (len) {
			ssize_t n = ::send(fd_.get(), p, len, MSG_NOSIGNAL);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				fail_errno("TCP send");
			p += n;
			len -= static_cast<size_t>(n);
		}
	}

	// Receive exactly len bytes before the deadline.
	void recv_bytes(void *buf, size_t len, Clock::time_point deadline)
	{
		auto p = static_cast<uint8_t *>(buf);
		while (len) {
			if (!readable(deadline))
				fail("timeout waiting for the peer on TCP");
			ssize_t n = ::recv(fd_.get(), p, len, 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				fail_errno("TCP recv");
			if (n == 0)
				fail("peer closed the TCP connection");
			p += n;
			len -= static_cast<size_t>(n);
		}
	}

	template <typename T> void send(const T &v)
	{
		send_bytes(&v, sizeof(v));
	}
	template <typename T> T recv(Clock::time_point deadline)
	{
		T v;
		recv_bytes(&v, sizeof(v), deadline);
		return v;
	}

	bool readable(Clock::time_point deadline)
	{
		pollfd p{fd_.get(), POLLIN, 0};
		for (;;) {
			int n = ::poll(&p, 1, ms_until(deadline));
			if (n < 0 && errno == EINTR)
				continue;
			return n > 0;
		}
	}
	int fd() const { return fd_.get(); }

private:
	explicit Tcp(Fd fd) : fd_(std::move(fd))
	{
		int one = 1;
		setsockopt(fd_.get(), IPPROTO_TCP, TCP_NODELAY, &one,
			   sizeof(one));
	}
	Fd fd_;
};

// What the Client of every run_tap_client() program keeps: its options,
// its open device, the side channel and the deadline.
template <class Options, class Base> class TapClientBase {
protected:
	TapClientBase(const Options &o, Base &b, Tcp &tcp,
		      Clock::time_point deadline)
		: o_(o), b_(b), tcp_(tcp), deadline_(deadline)
	{
	}

	const Options &o_;
	Base &b_;
	Tcp &tcp_;
	Clock::time_point deadline_;
};

// The client end of a client/server TAP program whose device is open (@b):
// the side channel to o.server, the first TAP lines, then the checks of a
// @Client(o, b, tcp, deadline); its run() is the exit status.
template <class Client, class Options, class Base>
int run_tap_client(const char *prog, const Options &o, Base &b,
		   Clock::time_point deadline)
{
	Tcp tcp = Tcp::connect(o.server, o.port, deadline);
	tap_header(prog, o);
	Client c(o, b, tcp, deadline);
	return c.run();
}

// What each end tells the other about its QP and memory.  Both ends run
// on the same architecture (the same build), so the struct goes as is.
struct ConnInfo {
	uint32_t qpn;
	uint32_t psn;
	uint8_t gid[16];
	uint64_t addr; // main buffer
	uint64_t len;
	uint32_t rkey;
	uint32_t rkey2; // a second MR (mrc_negative: no REMOTE_WRITE)
	uint64_t addr2;
	uint64_t len2;
	uint64_t seed;
	uint64_t param[6]; // program specific
};

// A signaled WR @op, id @id, of the one SGE @sge; the remote part (wr.wr)
// is the caller's to fill in.
inline ibv_send_wr signaled_wr(uint64_t id, ibv_wr_opcode op, ibv_sge &sge)
{
	ibv_send_wr wr{};
	wr.wr_id = id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = op;
	wr.send_flags = IBV_SEND_SIGNALED;
	return wr;
}

// signaled_wr() @tag of @op with immediate @imm sending the first @len
// bytes of @buf, whose first @clear bytes are zeroed, then begin with the
// tag; @sge (the caller's, it must outlive the post) gathers them.
inline ibv_send_wr tagged_wr(uint32_t tag, ibv_wr_opcode op, uint8_t *buf,
			     size_t clear, uint32_t len, uint32_t lkey,
			     uint32_t imm, ibv_sge &sge)
{
	std::memset(buf, 0, clear);
	std::memcpy(buf, &tag, sizeof(tag));
	sge = {reinterpret_cast<uintptr_t>(buf), len, lkey};
	ibv_send_wr wr = signaled_wr(tag, op, sge);
	wr.imm_data = htonl(imm);
	return wr;
}

// The ConnInfo of @qp (first PSN @psn, port GID @gid) and its main buffer
// @addr/@len/@rkey; the rest is the program's to fill in.
inline ConnInfo conn_info(const ibv_qp *qp, uint32_t psn, const ibv_gid &gid,
			  const void *addr, uint64_t len, uint32_t rkey)
{
	ConnInfo ci{};
	ci.qpn = qp->qp_num;
	ci.psn = psn;
	std::memcpy(ci.gid, gid.raw, 16);
	ci.addr = reinterpret_cast<uintptr_t>(addr);
	ci.len = len;
	ci.rkey = rkey;
	return ci;
}

inline Context open_device(const std::string &name)
{
	int n = 0;
	DeviceList list(ibv_get_device_list(&n));
	if (!list)
		fail_errno("ibv_get_device_list");
	for (int i = 0; i < n; i++) {
		if (name == ibv_get_device_name(list[i])) {
			Context ctx(ibv_open_device(list[i]));
			if (!ctx)
				fail_errno("ibv_open_device " + name);
			return ctx;
		}
	}
	fail("no RDMA device " + name);
}

inline Mr reg_mr(ibv_pd *pd, void *addr, size_t len, int access)
{
	Mr mr(ibv_reg_mr(pd, addr, len, access));
	if (!mr)
		fail_errno("ibv_reg_mr");
	return mr;
}

inline constexpr int kAllAccess = IBV_ACCESS_LOCAL_WRITE |
				  IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_READ |
				  IBV_ACCESS_REMOTE_ATOMIC;

inline ibv_mtu mtu_from_bytes(int bytes)
{
	switch (bytes) {
	case 256: return IBV_MTU_256;
	case 512: return IBV_MTU_512;
	case 1024: return IBV_MTU_1024;
	case 2048: return IBV_MTU_2048;
	case 4096: return IBV_MTU_4096;
	}
	fail("bad MTU " + std::to_string(bytes) +
	     " (256, 512, 1024, 2048 or 4096)");
}

inline ibv_port_attr query_port(ibv_context *ctx, uint8_t port)
{
	ibv_port_attr pa{};
	if (int rc = ibv_query_port(ctx, port, &pa))
		fail_errno("ibv_query_port", rc);
	return pa;
}

inline ibv_gid query_gid(ibv_context *ctx, uint8_t port, int index)
{
	ibv_gid gid{};
	if (int rc = ibv_query_gid(ctx, port, index, &gid))
		fail_errno("ibv_query_gid " + std::to_string(index), rc);
	static const uint8_t zero[16] = {};
	if (!std::memcmp(gid.raw, zero, sizeof(zero)))
		fail("GID index " + std::to_string(index) + " is empty");
	return gid;
}

// What each end of a client/server program opens first: the device, whose
// port 1 must be active, that port's MTU and GID (index o.gid), and a PD.
struct PortBase {
	Context ctx;
	Pd pd;
	ibv_gid gid{};
	ibv_mtu mtu = IBV_MTU_1024; // port 1's active MTU
};

inline PortBase open_port_base(const ConnOptions &o)
{
	PortBase b;
	b.ctx = open_device(o.dev);
	auto pa = query_port(b.ctx.get(), 1);
	if (pa.state != IBV_PORT_ACTIVE)
		fail(o.dev + " port 1 is not active");
	b.mtu = pa.active_mtu;
	b.gid = query_gid(b.ctx.get(), 1, o.gid);
	b.pd.reset(ibv_alloc_pd(b.ctx.get()));
	if (!b.pd)
		fail_errno("ibv_alloc_pd");
	return b;
}

// The client of a TAP program on port 1 of its device: open_port_base(),
// then run_tap_client() with @Client (a function, so that tap_main() can
// take it).
template <class Client, class Options>
int run_port_client(const Options &o, Clock::time_point deadline)
{
	PortBase b = open_port_base(o);
	return run_tap_client<Client>(tap_main_prog, o, b, deadline);
}

// A CQ of @cqe entries on @b's device (no channel).
inline Cq port_cq(const PortBase &b, int cqe)
{
	Cq cq(ibv_create_cq(b.ctx.get(), cqe, nullptr, nullptr, 0));
	if (!cq)
		fail_errno("ibv_create_cq");
	return cq;
}

// The Client of a port_tap_main() program: a TapClientBase on a PortBase
// whose constructor is public, for the Client to take as its own
// ("using PortClient::PortClient;").
template <class Options>
class PortClient : protected TapClientBase<Options, PortBase> {
public:
	PortClient(const Options &o, PortBase &b, Tcp &tcp,
		   Clock::time_point deadline)
		: TapClientBase<Options, PortBase>(o, b, tcp, deadline)
	{
	}
};

// The main() of a TAP program with only the shared options
// (mrc_srq_check, mrc_uc_check): those by parse_conn_args(), then
// tap_main() with @serve and a run_port_client() of @Client.  A bad one
// prints "usage: PROG" and the shared options, then @usage (the rest of
// the synopsis), on stderr; exit status 2.
template <class Client, class Options>
int port_tap_main(const char *prog, const char *usage, int argc, char **argv,
		  int (*serve)(const Options &, Clock::time_point))
{
	Options o;
	tap_main_prog = prog;
	case_main_usage = usage;
	parse_conn_args(
		argc, argv, {}, o,
		[](int, const std::string &) { return false; }, case_main_refuse);
	return tap_main(prog, o, serve, run_port_client<Client, Options>);
}

struct QpCaps {
	uint32_t depth;
	uint32_t sge;
	uint32_t inline_data;
};

inline Qp create_rc_qp(ibv_pd *pd, ibv_cq *scq, ibv_cq *rcq, const QpCaps &want,
		       ibv_qp_cap *got)
{
	ibv_qp_init_attr a{};
	a.send_cq = scq;
	a.recv_cq = rcq;
	a.qp_type = IBV_QPT_RC;
	a.sq_sig_all = 0;
	a.cap.max_send_wr = want.depth;
	a.cap.max_recv_wr = want.depth;
	a.cap.max_send_sge = want.sge;
	a.cap.max_recv_sge = want.sge;
	a.cap.max_inline_data = want.inline_data;
	Qp qp(ibv_create_qp(pd, &a));
	if (!qp)
		fail_errno("ibv_create_qp");
	if (got)
		*got = a.cap;
	return qp;
}

inline void modify_qp(ibv_qp *qp, ibv_qp_attr &a, int mask, const char *what)
{
	if (int rc = ibv_modify_qp(qp, &a, mask))
		fail_errno(std::string("ibv_modify_qp to ") + what, rc);
}

inline void qp_to_init(ibv_qp *qp, uint8_t port, int access)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = port;
	a.qp_access_flags = access;
	modify_qp(qp, a,
		  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS,
		  "INIT");
}

struct PathParams {
	uint8_t port = 1;
	int gid_index = 1;
	ibv_mtu mtu = IBV_MTU_1024;
	uint8_t max_dest_rd_atomic = 1;
	uint8_t max_rd_atomic = 1;
	uint8_t timeout = 14;
	uint8_t retry = 7;
	uint8_t rnr_retry = 7; // 7: retry forever on RNR NAK
};

inline void qp_to_rtr(ibv_qp *qp, const PathParams &pp, const ConnInfo &remote)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = pp.mtu;
	a.dest_qp_num = remote.qpn;
	a.rq_psn = remote.psn;
	a.max_dest_rd_atomic = pp.max_dest_rd_atomic;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	std::memcpy(a.ah_attr.grh.dgid.raw, remote.gid, 16);
	a.ah_attr.grh.sgid_index = static_cast<uint8_t>(pp.gid_index);
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.sl = 0;
	a.ah_attr.port_num = pp.port;
	modify_qp(qp, a,
		  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			  IBV_QP_MIN_RNR_TIMER,
		  "RTR");
}

inline void qp_to_rts(ibv_qp *qp, const PathParams &pp, uint32_t psn)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_RTS;
	a.timeout = pp.timeout;
	a.retry_cnt = pp.retry;
	a.rnr_retry = pp.rnr_retry;
	a.sq_psn = psn;
	a.max_rd_atomic = pp.max_rd_atomic;
	modify_qp(qp, a,
		  IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC,
		  "RTS");
}

// A verbs call's error: the rxe provider of some rdma-core versions
// returns the negative errno.
inline int err_of(int rc) { return rc < 0 ? -rc : rc; }
// "success", or the error's text and its value as returned.
inline std::string err_str(int rc)
{
	return rc ? std::string(std::strerror(err_of(rc))) + " (" +
			       std::to_string(rc) + ")" :
		    "success";
}

// A fresh 24-bit first PSN.
inline uint32_t new_psn()
{
	return static_cast<uint32_t>(Clock::now().time_since_epoch().count()) &
	       0xffffff;
}

// What a program on a PortBase (@b, with its main buffer b.buf and b.mr,
// @len bytes) tells its peer about @qp: conn_info() and the port's MTU
// in param[0].
template <class B>
ConnInfo port_conn_info(const B &b, const ibv_qp *qp, uint32_t psn, size_t len)
{
	ConnInfo ci = conn_info(qp, psn, b.gid, b.buf.get(), len, b.mr->rkey);
	ci.param[0] = static_cast<uint64_t>(b.mtu);
	return ci;
}

// @qp through INIT (every access), RTR toward @r and RTS with first PSN
// @psn: @pp with o.gid and the smaller of the two ports' MTUs (the
// peer's in param[0], as port_conn_info() puts it).
inline void port_bring_up(const PortBase &b, ibv_qp *qp, const ConnOptions &o,
			  const ConnInfo &r, uint32_t psn, PathParams pp)
{
	pp.gid_index = o.gid;
	pp.mtu = std::min(b.mtu, static_cast<ibv_mtu>(r.param[0]));
	qp_to_init(qp, 1, kAllAccess);
	qp_to_rtr(qp, pp, r);
	qp_to_rts(qp, pp, psn);
}

inline ibv_qp_state qp_state(ibv_qp *qp)
{
	ibv_qp_attr a{};
	ibv_qp_init_attr ia{};
	if (int rc = ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		fail_errno("ibv_query_qp", rc);
	return a.qp_state;
}

// Up to @n completions of @cq, polled (2 ms apart while it is empty)
// until @until.
inline std::vector<ibv_wc> poll_until(ibv_cq *cq, size_t n,
				      Clock::time_point until)
{
	std::vector<ibv_wc> out;
	while (out.size() < n && Clock::now() < until) {
		ibv_wc wc[16];
		int k = ibv_poll_cq(cq, 16, wc);
		if (k < 0)
			fail("ibv_poll_cq");
		out.insert(out.end(), wc, wc + k);
		if (!k)
			std::this_thread::sleep_for(std::chrono::milliseconds(2));
	}
	return out;
}

// The same for at most @ms milliseconds.
inline std::vector<ibv_wc> poll_n(ibv_cq *cq, size_t n, int ms)
{
	return poll_until(cq, n, Clock::now() + std::chrono::milliseconds(ms));
}

// The completions of @cq within @ms once @want of them came, then those
// (at most @more) of 100 ms more: what a receiver saw of a test's sends.
inline std::vector<ibv_wc> poll_settled(ibv_cq *cq, size_t want, int ms,
					size_t more)
{
	auto wcs = poll_n(cq, want, ms);
	auto late = poll_n(cq, more, 100);
	wcs.insert(wcs.end(), late.begin(), late.end());
	return wcs;
}

// The status of the completion of the one WR @id posted on @cq's QP,
// waited for @ms: -1 if none came, -2 if another WR's did.
inline int wait_status(ibv_cq *cq, uint64_t id, int ms)
{
	auto wcs = poll_n(cq, 1, ms);
	if (wcs.empty())
		return -1;
	return wcs[0].wr_id == id ? wcs[0].status : -2;
}

// One receive WR @id of @len bytes at @addr.
inline void post_recv_buf(ibv_qp *qp, uint64_t id, void *addr, uint32_t len,
			  uint32_t lkey)
{
	ibv_sge sge{reinterpret_cast<uintptr_t>(addr), len, lkey};
	ibv_recv_wr wr{}, *bad;
	wr.wr_id = id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (int rc = ibv_post_recv(qp, &wr, &bad))
		fail_errno("ibv_post_recv", err_of(rc));
}

// The 4 bytes at @p (a message's tag).
inline uint32_t tag_at(const uint8_t *p)
{
	uint32_t t;
	std::memcpy(&t, p, sizeof(t));
	return t;
}

// Receive buffers taken in turn from @count slots of @size bytes at @base,
// each zeroed before it is posted; a receive's WR id is its slot.
struct RecvSlots {
	uint8_t *base;
	uint32_t size;
	uint32_t count;
	uint32_t lkey;
	uint32_t next = 0;

	uint8_t *at(uint64_t slot) const { return base + slot * size; }

	// @n receives of @len bytes each on @qp.
	void post(ibv_qp *qp, uint32_t n, uint32_t len)
	{
		for (uint32_t i = 0; i < n; i++, next++) {
			uint8_t *p = at(next % count);
			std::memset(p, 0, size);
			post_recv_buf(qp, next % count, p, len, lkey);
		}
	}
};

// What a receiver tells its client of the receives that completed.
struct RecvReport {
	uint32_t got;
	uint32_t status;   // of the first receive
	uint32_t opcode;   // ...
	uint32_t byte_len; // ...
	uint32_t flags;	   // ... wc_flags
	uint32_t imm;	   // ... (host order)
	uint32_t src_qp;   // ...
	uint32_t tag;	   // ... the 4 bytes @tag_off into its buffer
	uint32_t state;	   // the QP's state after them
	uint32_t sl;	   // of the first receive
};

// @r of the receives @wcs of @qp into @slots.
inline void report_recvs(RecvReport &r, const std::vector<ibv_wc> &wcs,
			 const RecvSlots &slots, uint32_t tag_off, ibv_qp *qp)
{
	r.got = static_cast<uint32_t>(wcs.size());
	if (!wcs.empty()) {
		const ibv_wc &w = wcs[0];
		r.status = w.status;
		r.opcode = w.opcode;
		r.byte_len = w.byte_len;
		r.flags = w.wc_flags;
		r.imm = (w.wc_flags & IBV_WC_WITH_IMM) ? ntohl(w.imm_data) : 0;
		r.src_qp = w.src_qp;
		r.sl = w.sl;
		if (w.wr_id < slots.count)
			r.tag = tag_at(slots.at(w.wr_id) + tag_off);
	}
	r.state = qp_state(qp);
}

// Whether a QP can be made on an SRQ: a fresh SRQ of @pd (4 WRs, 1 SGE)
// for @create(srq), which returns the QP.  The errno of its refusal, 0 if
// it made one; nothing if there was no SRQ (errno says why).
template <class Create>
std::optional<int> errno_on_srq(ibv_pd *pd, Create create)
{
	ibv_srq_init_attr si{};
	si.attr.max_wr = 4;
	si.attr.max_sge = 1;
	ibv_srq *srq = ibv_create_srq(pd, &si);
	if (!srq)
		return std::nullopt;
	errno = 0;
	Qp q = create(srq);
	int e = q ? 0 : errno;
	q.reset();
	ibv_destroy_srq(srq);
	return e;
}

// Each end's @mine for the peer's: the client sends first, the server
// receives first.
template <class T>
T exchange(Tcp &tcp, const T &mine, bool client, Clock::time_point deadline)
{
	if (client) {
		tcp.send(mine);
		return tcp.recv<T>(deadline);
	}
	T peer = tcp.recv<T>(deadline);
	tcp.send(mine);
	return peer;
}

// The server's loop of a program whose client sends @Req requests over
// the side channel until one with op 0: @handle(req, errors) answers
// each (its return value goes back) and counts what went wrong in
// errors; then "# PROG: server: N commands, M errors".  The exit status:
// 1 if there were errors.
template <class Req, class Handle>
int serve_requests(const char *prog, Tcp &tcp, Clock::time_point deadline,
		   Handle handle)
{
	unsigned cmds = 0, errors = 0;
	for (;;) {
		Req c = tcp.recv<Req>(deadline);
		if (c.op == 0)
			break;
		cmds++;
		tcp.send(handle(c, errors));
	}
	std::printf("# %s: server: %u commands, %u errors\n", prog, cmds, errors);
	return errors ? 1 : 0;
}

// Sends request @c and returns the server's reply.
template <class Reply, class Req>
Reply request(Tcp &tcp, const Req &c, Clock::time_point deadline)
{
	tcp.send(c);
	return tcp.recv<Reply>(deadline);
}

// Completion waiting (declare it before the CQs that use its channel, so
// they are destroyed first): poll the CQs; when empty, arm them and sleep on the
// completion channel, at most 100 ms at a time, so a missed event costs a
// little latency and never a hang.  Sleeping instead of spinning matters
// under TCG, where the soft device's kernel threads share two vCPUs with
// both test processes.
class CqWaiter {
public:
	explicit CqWaiter(ibv_context *ctx)
	{
		ch_.reset(ibv_create_comp_channel(ctx));
		if (!ch_)
			fail_errno("ibv_create_comp_channel");
		int fl = ::fcntl(ch_->fd, F_GETFL);
		if (fl < 0 || ::fcntl(ch_->fd, F_SETFL, fl | O_NONBLOCK) < 0)
			fail_errno("fcntl O_NONBLOCK on the completion channel");
	}
	ibv_comp_channel *channel() const { return ch_.get(); }

	// Poll cq for up to max completions; wait until at least one arrives
	// or the deadline passes (returns 0), or extra_fd is readable (-1).
	int poll(ibv_cq *cq, ibv_wc *wc, int max, Clock::time_point deadline,
		 int extra_fd = -1)
	{
		for (;;) {
			int n = ibv_poll_cq(cq, max, wc);
			if (n < 0)
				fail("ibv_poll_cq failed");
			if (n > 0)
				return n;
			// With the errno: a device taken away (EIO) is an outcome
			// the tests tell from a bug.
			if (int rc = ibv_req_notify_cq(cq, 0))
				fail_errno("ibv_req_notify_cq",
					   rc < 0 ? -rc : rc);
			n = ibv_poll_cq(cq, max, wc); // closes the arm race
			if (n < 0)
				fail("ibv_poll_cq failed");
			if (n > 0)
				return n;
			int left = ms_until(deadline);
			if (left == 0)
				return 0;
			pollfd p[2] = {{ch_->fd, POLLIN, 0},
				       {extra_fd, POLLIN, 0}};
			int r = ::poll(p, extra_fd >= 0 ? 2 : 1,
				       std::min(left, 100));
			if (r > 0 && (p[0].revents & POLLIN))
				drain_events();
			if (r > 0 && extra_fd >= 0 && p[1].revents)
				return -1;
		}
	}

private:
	// Ack every event so ibv_destroy_cq does not wait for them; the fd is
	// non-blocking, so this stops when the channel is empty.
	void drain_events()
	{
		ibv_cq *cq = nullptr;
		void *cq_ctx = nullptr;
		while (ibv_get_cq_event(ch_.get(), &cq, &cq_ctx) == 0)
			ibv_ack_cq_events(cq, 1);
	}
	Channel ch_;
};

} // namespace verbs
