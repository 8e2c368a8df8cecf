// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_pingpong: RDMA WRITE_WITH_IMM ping-pong over lib_mrc, the MRC
// counterpart of ibv_rc_pingpong.  The client writes a message with the
// iteration number as immediate into the server's buffer; the server
// checks it and writes it back; the client checks the echo.  The
// receives for the immediates are posted before the peer can write (an
// MRC QP has no RNR).
//
//   server: mrc_pingpong -d mrc1 [-s SIZE] [-n ITERS]
//   client: mrc_pingpong -d mrc2 [-s SIZE] [-n ITERS] SERVER
#include "example_common.hpp"

using namespace example;

namespace {

uint8_t pattern(long iter, size_t j)
{
	return static_cast<uint8_t>(iter * 131 + j * 7 + 1);
}

void fill(uint8_t *p, size_t n, long iter)
{
	for (size_t j = 0; j < n; j++)
		p[j] = pattern(iter, j);
}

// Bytes of @p that are not pattern @iter.
size_t corrupted(const uint8_t *p, size_t n, long iter)
{
	size_t bad = 0;
	for (size_t j = 0; j < n; j++)
		bad += p[j] != pattern(iter, j);
	return bad;
}

void usage(const char *prog)
{
	std::printf("usage: %s [options] [SERVER]\n%s", prog, common_usage);
}

void run(Options o)
{
	Endpoint e;
	e.opt = o;
	const size_t sz = o.size;
	// [0, sz): what this side writes; [sz, 2 sz): what the peer writes.
	open_endpoint(e, 2 * sz, 4);
	post_recv(e, 0);
	connect_endpoint(e);
	const bool client = !o.server.empty();
	auto deadline = Clock::now() + std::chrono::seconds(o.timeout);
	uint8_t *out = e.buf.get(), *in = e.buf.get() + sz;
	ibv_wc wc[2];
	size_t bad = 0;

	sync_peer(e.sock);
	auto t0 = Clock::now();
	for (long i = 0; i < o.iters; i++) {
		if (client) {
			fill(out, sz, i);
			post_write(e, 0, sz, sz, i & 0xffffffff, 1);
			wait_cq(e.scq.get(), wc, 1, deadline, "ping");
		}
		wait_cq(e.rcq.get(), wc, 1, deadline, client ? "pong" : "ping");
		if (wc[0].opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
		    ntohl(wc[0].imm_data) != (i & 0xffffffff))
			fail("message " + std::to_string(i) +
			     ": wrong immediate " +
			     std::to_string(ntohl(wc[0].imm_data)));
		bad += corrupted(in, sz, i);
		if (i + 1 < o.iters || !client)
			post_recv(e, 0);
		if (!client) {
			std::memcpy(out, in, sz);
			post_write(e, 0, sz, sz, i & 0xffffffff, 2);
			wait_cq(e.scq.get(), wc, 1, deadline, "pong");
		}
	}
	double secs = seconds_since(t0);
	sync_peer(e.sock);
	double bytes = 2.0 * static_cast<double>(sz) *
		       static_cast<double>(o.iters);
	std::printf("%.0f bytes in %.2f seconds = %.2f Mbit/sec\n", bytes, secs,
		    bytes * 8 / secs / 1e6);
	std::printf("%ld iters in %.2f seconds = %.2f usec/iter\n", o.iters,
		    secs, secs * 1e6 / static_cast<double>(o.iters));
	std::printf("mrc_pingpong: %ld messages of %zu bytes, %zu corrupted bytes\n",
		    o.iters, sz, bad);
	if (bad)
		fail("corrupted data");
}

} // namespace

int main(int argc, char **argv)
{
	return run_main("mrc_pingpong", [&] {
		Options o;
		parse_options(argc, argv, o, {}, usage);
		if (!o.size || o.iters <= 0)
			fail("size and iterations must be positive");
		run(o);
	});
}
