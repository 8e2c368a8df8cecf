// SPDX-License-Identifier: GPL-2.0-only
// Gloo's ring all-reduce over Gloo's own ibverbs transport, unmodified
// library, on an RDMA device (an mrc instance in the selftests): the
// collective library PyTorch uses for CPU tensors, as a program of ours
// that checks every result.
//
//   mrc_gloo_allreduce --rank R --size N --store DIR -d DEV -g GID_INDEX
//                      [--count FLOATS] [--iters N] [--until FILE]
//                      [--timeout SECS]
//
// The ranks meet through a gloo FileStore in DIR (the namespaces of the
// selftests share the file system), then each all-reduce sums a vector
// whose every element is known from the rank, the index and the round,
// so the sum is known too: every element of every round is compared.
// With --until FILE the rounds go on (at least --iters) until FILE
// exists, so that a run outlasts a fault the caller injects.
// Prints "rounds N" once a second while it runs (the caller sees the
// collective go on through a fault), then "mrc_gloo: rank R: N
// all-reduces of C floats, M wrong"; exits 0 only when M is 0 and every
// round completed.
#include <gloo/allreduce_ring.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/ibverbs/device.h>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../verbs/cli.h"

namespace {

const char usage_text[] =
	"usage: mrc_gloo_allreduce --rank R --size N --store DIR -d DEV -g GID_INDEX\n"
	"                          [--count FLOATS] [--iters N] [--until FILE] [--timeout SECS]\n";

void usage(const char *why)
{
	verbs::refuse_usage("mrc_gloo_allreduce", why, usage_text);
}

struct Options {
	int rank = -1, size = 0, gid_index = -1;
	std::string store, dev, until;
	size_t count = 65536;
	long iters = 20;
	int timeout = 60;
};

Options parse(int argc, char **argv)
{
	Options o;
	verbs::ArgWalker a(argc, argv, 1, usage);
	auto num = [&](long lo, long hi) {
		const std::string v = a.value();
		char *end = nullptr;
		long n = std::strtol(v.c_str(), &end, 0);
		if (v.empty() || *end || n < lo || n > hi)
			usage(("bad value for " + a.word() + ": " + v).c_str());
		return n;
	};
	while (a.next()) {
		if (a.is("--rank"))
			o.rank = static_cast<int>(num(0, 1 << 16));
		else if (a.is("--size"))
			o.size = static_cast<int>(num(1, 1 << 16));
		else if (a.is("--store"))
			o.store = a.value();
		else if (a.is("-d"))
			o.dev = a.value();
		else if (a.is("-g"))
			o.gid_index = static_cast<int>(num(0, 1 << 16));
		else if (a.is("--count"))
			o.count = static_cast<size_t>(num(1, 1 << 24));
		else if (a.is("--iters"))
			o.iters = num(1, 1L << 30);
		else if (a.is("--until"))
			o.until = a.value();
		else if (a.is("--timeout"))
			o.timeout = static_cast<int>(num(1, 3600));
		else
			a.unknown();
	}
	if (o.rank < 0 || o.size < 1 || o.rank >= o.size || o.store.empty() ||
	    o.dev.empty() || o.gid_index < 0)
		usage("--rank, --size, --store, -d and -g are required, rank < size");
	return o;
}

// Element @i of rank @r's input in round @round: small integers, exact
// in a float, so the sum over the ranks is exact too.
float input(int r, size_t i, long round)
{
	return static_cast<float>((r + 1) * static_cast<long>(i % 1000) +
				  round % 97);
}

float expected(int size, size_t i, long round)
{
	const long ranks = static_cast<long>(size) * (size + 1) / 2;
	return static_cast<float>(ranks * static_cast<long>(i % 1000) +
				  size * (round % 97));
}

// The Gloo objects of a run.  They outlive any exception (the handler
// prints it, then the process ends) and are never destroyed: Gloo's
// ibverbs buffers enforce at destruction that each send has completed,
// but a send completes when its ACK comes, which over several paths can
// come after the peer's last message (the receive that ended the round):
// destroying them at once aborts now and then, after a collective that
// went right, and an abort in a destructor hides the error that unwound
// the stack.  The kernel takes the QPs down with the process.
struct Run {
	std::shared_ptr<gloo::transport::Device> dev;
	std::optional<gloo::rendezvous::FileStore> file_store;
	std::optional<gloo::rendezvous::PrefixStore> store;
	std::shared_ptr<gloo::rendezvous::Context> ctx;
	std::vector<float> data;
	std::vector<float *> ptrs;
	std::optional<gloo::AllreduceRing<float>> allreduce;
	float more = 0;
	std::vector<float *> more_ptrs{&more};
	std::optional<gloo::AllreduceRing<float>> vote;
};

[[noreturn]] void run(const Options &o, Run &g)
{
	long rounds = 0, wrong = 0;

	try {
		gloo::transport::ibverbs::attr attr;
		attr.name = o.dev;
		attr.port = 1;
		attr.index = o.gid_index;
		g.dev = gloo::transport::ibverbs::CreateDevice(attr);
		g.file_store.emplace(o.store);
		g.store.emplace("mrc_gloo", *g.file_store);
		g.ctx = std::make_shared<gloo::rendezvous::Context>(o.rank,
								    o.size);
		g.ctx->setTimeout(std::chrono::seconds(o.timeout));
		g.ctx->connectFullMesh(*g.store, g.dev);

		g.data.resize(o.count);
		g.ptrs = {g.data.data()};
		g.allreduce.emplace(g.ctx, g.ptrs, static_cast<int>(o.count));
		// Made once, as Gloo's algorithms are meant to be used:
		// each instance registers its buffers with every pair.
		g.vote.emplace(g.ctx, g.more_ptrs, 1);
		auto shown = std::chrono::steady_clock::now();
		for (long round = 0;; round++) {
			// Every rank decides alike whether to go on: the
			// file counts only through a second all-reduce (of
			// the flag), so no rank is left waiting.
			if (round >= o.iters) {
				if (o.until.empty())
					break;
				g.more = std::filesystem::exists(o.until) ? 0 : 1;
				g.vote->run();
				if (g.more < static_cast<float>(o.size))
					break;
			}
			for (size_t i = 0; i < o.count; i++)
				g.data[i] = input(o.rank, i, round);
			g.allreduce->run();
			for (size_t i = 0; i < o.count; i++)
				wrong += g.data[i] != expected(o.size, i, round);
			rounds++;
			const auto now = std::chrono::steady_clock::now();
			if (now - shown >= std::chrono::seconds(1)) {
				shown = now;
				std::printf("rounds %ld\n", rounds);
				std::fflush(stdout);
			}
		}
		std::printf("mrc_gloo: rank %d: %ld all-reduces of %zu floats, %ld wrong\n",
			    o.rank, rounds, o.count, wrong);
		std::fflush(stdout);
		// Every rank has every byte it waited for once all are here.
		g.store->set("done-" + std::to_string(o.rank), {'1'});
		std::vector<std::string> keys;
		for (int r = 0; r < o.size; r++)
			keys.push_back("done-" + std::to_string(r));
		g.store->wait(keys, std::chrono::seconds(o.timeout));
	} catch (const std::exception &e) {
		std::printf("mrc_gloo: rank %d: after %ld rounds: %s\n", o.rank,
			    rounds, e.what());
		std::fflush(stdout);
		std::_Exit(1);
	}
	std::_Exit(wrong ? 1 : 0);
}

} // namespace

int main(int argc, char **argv)
{
	const Options o = parse(argc, argv);
	static Run g; // run() ends the process with _Exit(): see Run
	run(o, g);
}
