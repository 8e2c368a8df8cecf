// SPDX-License-Identifier: GPL-2.0-only
// Basic vocabulary of the simulator: time, ids, the deterministic PRNG and
// the hash used by switches for ECMP.
#pragma once

#include <cstdint>
#include <limits>

namespace mrcsim {

// Simulated time in picoseconds: a 4 KB packet at 800 Gb/s takes ~41 ns, so
// nanoseconds would round serialisation times by a few percent; int64 ps
// still covers ~106 days.
using Time = std::int64_t;
constexpr Time kPs = 1;
constexpr Time kNs = 1000;
constexpr Time kUs = 1000 * kNs;
constexpr Time kMs = 1000 * kUs;
constexpr Time kNever = std::numeric_limits<Time>::max();

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// splitmix64 finaliser: a cheap, well-mixed 64-bit hash; also the ECMP hash
// (switches only need something deterministic and uniform).
constexpr std::uint64_t mix64(std::uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

constexpr std::uint64_t hash_combine(std::uint64_t h, std::uint64_t v)
{
	return mix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

// xoshiro256** seeded through splitmix64: fast, small state, and identical
// output on every platform (std::uniform_*_distribution is not portable,
// so the helpers below do their own range reduction).
class Rng {
public:
	explicit Rng(std::uint64_t seed = 1)
	{
		for (auto &w : s_) {
			seed += 0x9e3779b97f4a7c15ULL;
			w = mix64(seed);
		}
	}

	std::uint64_t next()
	{
		const std::uint64_t r = rotl(s_[1] * 5, 7) * 9;
		const std::uint64_t t = s_[1] << 17;
		s_[2] ^= s_[0];
		s_[3] ^= s_[1];
		s_[1] ^= s_[2];
		s_[0] ^= s_[3];
		s_[2] ^= t;
		s_[3] = rotl(s_[3], 45);
		return r;
	}

	// Uniform in [0, n) (Lemire's multiply-shift; the tiny bias is
	// irrelevant for traffic and path choices).
	std::uint64_t below(std::uint64_t n)
	{
		return static_cast<std::uint64_t>(
			(static_cast<unsigned __int128>(next()) * n) >> 64);
	}

	double uniform()
	{
		return static_cast<double>(next() >> 11) * 0x1.0p-53;
	}

private:
	static constexpr std::uint64_t rotl(std::uint64_t x, int k)
	{
		return (x << k) | (x >> (64 - k));
	}
	std::uint64_t s_[4];
};

} // namespace mrcsim
