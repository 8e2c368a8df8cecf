// SPDX-License-Identifier: GPL-2.0-only
//
// Completion queue verbs of an MRC instance through the stock rxe provider:
// creation limits, completion channels, arming, polling an empty CQ,
// resizing, and many CQs created and destroyed.  Completions carrying data
// need the QP data path and are tested with it, not here.
//
//   mrc_cq_check [-d DEVICE]      (default mrc0)
//   mrc_cq_check [-d DEVICE] -H SECONDS
//                                 only create 3 CQs and hold them for
//                                 SECONDS (for "rdma res show cq")
//
// Prints TAP lines ("ok N - ..." / "not ok N - ...") and the plan; exits 1
// if a check failed, 2 if the device cannot be opened.

#include "tap.h"
#include "verbs_common.h"

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr int kMaxCqe = 32767; // MRC_MAX_CQE (net/mrc/verbs.h)
constexpr int kMaxCq = 4096;   // MRC_MAX_CQ

using verbs::Channel;
using verbs::Context;
using verbs::DeviceList;

// ibv_destroy_cq for the Cq owner, reporting a failure.
int destroy_cq(ibv_cq *cq)
{
	int ret = ibv_destroy_cq(cq);

	if (ret)
		std::fprintf(stderr, "# ibv_destroy_cq: %s\n",
			     std::strerror(ret));
	return ret;
}

using Cq = std::unique_ptr<ibv_cq, verbs::Deleter<destroy_cq>>;

using verbs::Tap;

Context open_device(const std::string &name)
{
	int num = 0;
	DeviceList list(ibv_get_device_list(&num));

	if (!list)
		return nullptr;
	for (int i = 0; i < num; i++)
		if (name == ibv_get_device_name(list[i]))
			return Context(ibv_open_device(list[i]));
	errno = ENODEV;
	return nullptr;
}

Cq create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *ch = nullptr,
	     int vector = 0)
{
	errno = 0;
	return Cq(ibv_create_cq(ctx, cqe, nullptr, ch, vector));
}

// A failed verb reports its error either as the return value or in errno,
// depending on the libibverbs path; accept either for the expected errno.
bool failed_with(int ret, int err)
{
	return ret != 0 && (ret == err || errno == err);
}

bool poll_empty(ibv_cq *cq)
{
	ibv_wc wc[4];

	return ibv_poll_cq(cq, 4, wc) == 0;
}

void check_notify(Tap &t, ibv_cq *cq, int solicited_only, const std::string &what)
{
	errno = 0;
	int ret = ibv_req_notify_cq(cq, solicited_only);

	if (!t.check(ret == 0, what))
		t.diag(what + ": returned " + std::to_string(ret) + ", errno " +
		       std::strerror(errno));
}

void check_sizes(Tap &t, ibv_context *ctx)
{
	for (int cqe : {1, 100, 4096, kMaxCqe}) {
		Cq cq = create_cq(ctx, cqe);
		std::string what = "create_cq cqe=" + std::to_string(cqe);

		if (!t.check(cq != nullptr, what + " succeeds")) {
			t.diag(what + ": " + std::strerror(errno));
			continue;
		}
		t.check(cq->cqe >= cqe, what + " reports cqe >= requested (" +
						std::to_string(cq->cqe) + ")");
		t.check(poll_empty(cq.get()), what + ": poll_cq on it returns 0");
	}
	for (int cqe : {0, kMaxCqe + 1}) {
		Cq cq = create_cq(ctx, cqe);

		t.check(!cq && errno == EINVAL,
			"create_cq cqe=" + std::to_string(cqe) +
				" fails with EINVAL");
	}
}

void check_vector(Tap &t, ibv_context *ctx)
{
	Cq cq = create_cq(ctx, 1, nullptr, ctx->num_comp_vectors);

	t.check(!cq && errno == EINVAL,
		"create_cq with comp_vector = num_comp_vectors fails with EINVAL");
}

void check_channel(Tap &t, ibv_context *ctx)
{
	Channel ch(ibv_create_comp_channel(ctx));

	if (!t.check(ch != nullptr, "ibv_create_comp_channel")) {
		t.diag(std::strerror(errno));
		return;
	}
	Cq cq = create_cq(ctx, 16, ch.get());
	if (!t.check(cq != nullptr, "create_cq with a completion channel")) {
		t.diag(std::strerror(errno));
		return;
	}
	check_notify(t, cq.get(), 0, "req_notify_cq(next completion)");
	check_notify(t, cq.get(), 1, "req_notify_cq(solicited only)");
	check_notify(t, cq.get(), 0, "req_notify_cq re-armed");
	t.check(poll_empty(cq.get()), "poll_cq on an armed empty CQ returns 0");
}

void check_resize(Tap &t, ibv_context *ctx)
{
	Cq cq = create_cq(ctx, 100);

	if (!t.check(cq != nullptr, "create_cq cqe=100 for resizing"))
		return;

	const int sizes[] = {1000, kMaxCqe, 1, 50};
	for (int cqe : sizes) {
		std::string what = "resize_cq to " + std::to_string(cqe);

		errno = 0;
		int ret = ibv_resize_cq(cq.get(), cqe);
		if (!t.check(ret == 0, what)) {
			t.diag(what + ": " + std::strerror(ret > 0 ? ret : errno));
			continue;
		}
		t.check(cq->cqe >= cqe, what + ": cqe >= requested (" +
						std::to_string(cq->cqe) + ")");
		t.check(poll_empty(cq.get()), what + ": poll_cq returns 0");
	}
	for (int cqe : {0, kMaxCqe + 1}) {
		errno = 0;
		int ret = ibv_resize_cq(cq.get(), cqe);

		t.check(failed_with(ret, EINVAL), "resize_cq to " +
							  std::to_string(cqe) +
							  " fails with EINVAL");
	}
	t.check(poll_empty(cq.get()), "poll_cq after refused resizes returns 0");
	check_notify(t, cq.get(), 0, "req_notify_cq after resize");
}

void check_many(Tap &t, ibv_context *ctx)
{
	std::vector<Cq> cqs;
	bool ok = true;

	for (int round = 0; round < 2 && ok; round++) {
		for (int i = 0; i < 200; i++) {
			cqs.push_back(create_cq(ctx, 1 + i));
			if (!cqs.back()) {
				t.diag("CQ " + std::to_string(i) + ": " +
				       std::strerror(errno));
				ok = false;
				break;
			}
		}
		cqs.clear();
	}
	t.check(ok, "200 CQs created and destroyed, twice");
}

// One CQ beyond MRC_MAX_CQ is refused with ENOMEM, and every slot comes
// back after destruction.
void check_limit(Tap &t, ibv_context *ctx)
{
	std::vector<Cq> cqs;
	int made = 0;

	cqs.reserve(kMaxCq + 1);
	for (int i = 0; i <= kMaxCq; i++) {
		cqs.push_back(create_cq(ctx, 1));
		if (!cqs.back())
			break;
		made++;
	}
	int err = errno;
	t.check(made == kMaxCq && err == ENOMEM,
		"CQ number " + std::to_string(kMaxCq + 1) +
			" is refused with ENOMEM (made " + std::to_string(made) +
			", errno " + std::strerror(err) + ")");
	cqs.clear();
	Cq again = create_cq(ctx, 1);
	t.check(again != nullptr,
		"a CQ can be created after destroying them all");
}

// -H: three CQs exist while the caller looks at them from outside.
int hold(ibv_context *ctx, unsigned int seconds)
{
	std::vector<Cq> cqs;

	for (int i = 0; i < 3; i++) {
		cqs.push_back(create_cq(ctx, 8));
		if (!cqs.back()) {
			std::perror("ibv_create_cq");
			return 1;
		}
	}
	std::printf("# holding %zu CQs for %u s\n", cqs.size(), seconds);
	std::fflush(stdout);
	sleep(seconds);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	std::string name = "mrc0";
	int hold_seconds = -1;
	int opt;

	while ((opt = getopt(argc, argv, "d:H:")) != -1) {
		switch (opt) {
		case 'd': name = optarg; break;
		case 'H': hold_seconds = std::atoi(optarg); break;
		default:
			std::fprintf(stderr,
				     "usage: %s [-d DEVICE] [-H SECONDS]\n",
				     argv[0]);
			return 2;
		}
	}

	Tap t;
	Context ctx = open_device(name);
	if (!t.check(ctx != nullptr, "open device " + name)) {
		t.diag(std::strerror(errno));
		t.finish();
		return 2;
	}
	if (hold_seconds >= 0)
		return hold(ctx.get(), hold_seconds);
	check_sizes(t, ctx.get());
	check_vector(t, ctx.get());
	check_channel(t, ctx.get());
	check_resize(t, ctx.get());
	check_many(t, ctx.get());
	check_limit(t, ctx.get());
	return t.finish();
}
