// SPDX-License-Identifier: GPL-2.0-only
// The empty-poll yield of mrc_poll_cq() (why: poll_yield.hpp).
#include "poll_yield.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <sched.h>

namespace mrc::lib {

namespace {

constexpr uint32_t default_after = 64;

} // namespace

uint32_t poll_yield_parse(const char *s)
{
	// Digits only: strtoul() would also take blanks and a sign.
	if (!s || *s < '0' || *s > '9')
		return default_after;
	char *end = nullptr;
	errno = 0;
	unsigned long v = std::strtoul(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return default_after;
	return static_cast<uint32_t>(v);
}

uint32_t poll_yield_after()
{
	static const uint32_t after = poll_yield_parse(
		std::getenv("MRC_POLL_YIELD"));
	return after;
}

bool PollYield::note(int polled, uint32_t after)
{
	if (polled != 0) {
		empty_.store(0, std::memory_order_relaxed);
		return false;
	}
	if (!after)
		return false;
	uint32_t run = empty_.load(std::memory_order_relaxed);
	if (run < after) {
		empty_.store(run + 1, std::memory_order_relaxed);
		return false;
	}
	sched_yield();
	return true;
}

} // namespace mrc::lib
