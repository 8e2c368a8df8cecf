// SPDX-License-Identifier: GPL-2.0-only
/*
 * Print this machine's TSC rate in kHz.  Under TCG a guest's rdtsc reads
 * the host's TSC, but the guest cannot calibrate it (no PIT, HPET or PM
 * timer that it trusts), so tools/vm/run tells the sanitizer kernel the
 * rate (tsc_early_khz=) and spares it the 10 ms jiffies clock.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	const struct timespec nap = { 0, 200 * 1000 * 1000 };
	double t0, t1;
	uint64_t c0, c1;

	t0 = now();
	c0 = __rdtsc();
	nanosleep(&nap, NULL);
	c1 = __rdtsc();
	t1 = now();
	if (t1 <= t0 || c1 <= c0)
		return 1;
	printf("%.0f\n", (c1 - c0) / (t1 - t0) / 1000.0);
	return 0;
}
