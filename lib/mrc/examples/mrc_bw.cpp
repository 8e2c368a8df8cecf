// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_bw: one-way bandwidth over lib_mrc with every byte verified.  The
// client writes each message (a pattern of its sequence number) with
// WRITE_WITH_IMM into one of SLOTS slots of the server's buffer; the
// server checks the slot when the immediate arrives, reposts the receive
// and returns a credit (its count of checked messages, by RDMA WRITE into
// the client's credit word), so that a slot is reused only after it was
// checked.  Prints the bandwidth (client) and the count of corrupted
// bytes (server, which fails on any).
//
//   server: mrc_bw -d mrc1 [-s SIZE] [-n ITERS] [--slots=N]
//   client: mrc_bw -d mrc2 [-s SIZE] [-n ITERS] [--slots=N] SERVER
#include "example_common.hpp"

#include <atomic>

using namespace example;

namespace {

uint8_t pattern(long seq, size_t j)
{
	return static_cast<uint8_t>(seq * 251 + j * 13 + 3);
}

void usage(const char *prog)
{
	std::printf("usage: %s [options] [SERVER]\n%s"
		    "      --slots=N         messages in flight (default 16)\n",
		    prog, common_usage);
}

// The credit word at the end of the client's buffer.
uint64_t credit(const Endpoint &e, size_t off)
{
	return std::atomic_ref<uint64_t>(
		       *reinterpret_cast<uint64_t *>(e.buf.get() + off))
		.load(std::memory_order_acquire);
}

void client(Endpoint &e, size_t slots)
{
	const Options &o = e.opt;
	const size_t sz = o.size, credit_off = slots * sz;
	auto deadline = Clock::now() + std::chrono::seconds(o.timeout);
	std::vector<ibv_wc> wc(slots);
	long done = 0;

	sync_peer(e.sock);
	auto t0 = Clock::now();
	for (long i = 0; i < o.iters; i++) {
		while (static_cast<uint64_t>(i) >= credit(e, credit_off) + slots ||
		       i - done >= static_cast<long>(slots)) {
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
			done += n;
			if (Clock::now() > deadline)
				fail("timed out at message " + std::to_string(i));
		}
		const size_t off = (static_cast<size_t>(i) % slots) * sz;
		uint8_t *p = e.buf.get() + off;
		for (size_t j = 0; j < sz; j++)
			p[j] = pattern(i, j);
		post_write(e, off, off, sz, i & 0xffffffff,
			   static_cast<uint64_t>(i));
	}
	while (done < o.iters)
		done += wait_cq(e.scq.get(), wc.data(), static_cast<int>(slots),
				deadline, "writes");
	double secs = seconds_since(t0);
	sync_peer(e.sock);
	double bytes = static_cast<double>(sz) * static_cast<double>(o.iters);
	std::printf("mrc_bw: %ld messages of %zu bytes in %.2f s = %.2f MB/s (%.1f Mbit/s)\n",
		    o.iters, sz, secs, bytes / secs / 1e6,
		    bytes * 8 / secs / 1e6);
}

void server(Endpoint &e, size_t slots)
{
	const Options &o = e.opt;
	const size_t sz = o.size, credit_off = slots * sz;
	auto deadline = Clock::now() + std::chrono::seconds(o.timeout);
	ibv_wc wc[16];
	size_t bad = 0;
	long sent = 0, sdone = 0;

	sync_peer(e.sock);
	for (long i = 0; i < o.iters; i++) {
		wait_cq(e.rcq.get(), wc, 1, deadline, "messages");
		uint32_t seq = ntohl(wc[0].imm_data);
		if (wc[0].opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
		    seq != (i & 0xffffffff))
			fail("message " + std::to_string(i) + ": immediate " +
			     std::to_string(seq));
		const size_t off = (static_cast<size_t>(i) % slots) * sz;
		const uint8_t *p = e.buf.get() + off;
		for (size_t j = 0; j < sz; j++)
			bad += p[j] != pattern(i, j);
		post_recv(e, 0);
		// The credit: sent from a word of its own per slot, so that an
		// earlier credit WRITE still in flight reads a stable value.
		while (sent - sdone >= static_cast<long>(slots))
			sdone += wait_cq(e.scq.get(), wc, 16, deadline,
					 "credits");
		auto *w = reinterpret_cast<uint64_t *>(e.buf.get() +
						       credit_off + 8) +
			  (i % slots);
		*w = static_cast<uint64_t>(i + 1);
		post_write(e, credit_off + 8 + (i % slots) * 8, credit_off, 8,
			   -1, 0);
		sent++;
	}
	while (sdone < sent)
		sdone += wait_cq(e.scq.get(), wc, 16, deadline, "credits");
	sync_peer(e.sock);
	std::printf("mrc_bw: %ld messages, %.0f bytes, %zu corrupted bytes\n",
		    o.iters,
		    static_cast<double>(sz) * static_cast<double>(o.iters), bad);
	if (bad)
		fail("corrupted data");
}

} // namespace

int main(int argc, char **argv)
{
	return run_main("mrc_bw", [&] {
		Options o;
		o.size = 65536;
		size_t slots = 16;
		parse_options(argc, argv, o,
			      {{"slots", 0, true, number_into(slots)}}, usage);
		if (!o.size || o.iters <= 0 || !slots || slots > 1024)
			fail("size, iterations and slots (<= 1024) must be positive");
		Endpoint e;
		e.opt = o;
		// Slots, the credit word, one credit source word per slot.
		open_endpoint(e, slots * o.size + 8 + slots * 8,
			      static_cast<uint32_t>(slots));
		for (size_t k = 0; k < slots; k++)
			post_recv(e, 0);
		connect_endpoint(e);
		if (o.server.empty())
			server(e, slots);
		else
			client(e, slots);
	});
}
