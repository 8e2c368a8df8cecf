// SPDX-License-Identifier: GPL-2.0-only
// An API field (width, init_val, min_val..max_val, mask) expands to the
// values init_val & ~mask | deposit(g, mask) for g = min_val..max_val:
// g's bits, most significant first, go where mask has ones.  The
// kernel's field takes the values v with lo <= v <= hi and no bit outside
// its mask, in increasing order from init.  deposit() keeps the order of
// g, so with F = init_val & ~mask the API field is the kernel's field
// mask | F, lo = F | deposit(min_val), hi = F | deposit(max_val) exactly
// when no bit of F lies below a bit of mask (the kernel's range would let
// such a fixed bit vary); a field with mask 0 is fixed (lo = hi = F).
// The kernel's start is init_val's bits under the mask (which the API
// overwrites in every EV) when they are within min_val..max_val.
#include "ctl_ev_fields.hpp"

#include <bit>
#include <cerrno>
#include <linux/mrc.h>

namespace mrc::lib {

namespace {

constexpr unsigned int max_fields = 8;	  // MRC_EV_GEN_MAX_FIELDS
constexpr unsigned int max_gen_bits = 64; // MRC_EV_GEN_MAX_BITS
constexpr unsigned int max_field_bits = 32;

uint64_t low_bits(unsigned int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

// The bits of @g, lowest first, at the ones of @mask.
uint32_t deposit(uint32_t g, uint32_t mask)
{
	uint32_t out = 0;
	for (uint32_t m = mask; m; m &= m - 1, g >>= 1)
		if (g & 1)
			out |= m & -m;
	return out;
}

// The bits of @v at the ones of @mask, packed from bit 0.
uint32_t extract(uint32_t v, uint32_t mask)
{
	uint32_t out = 0;
	unsigned int i = 0;
	for (uint32_t m = mask; m; m &= m - 1, i++)
		if (v & m & -m)
			out |= 1u << i;
	return out;
}

// A fixed zero field of @w bits (1..32).
mrcctl::GenField zero_field(unsigned int w)
{
	mrcctl::GenField f;
	f.width = w;
	f.mask = 0;
	return f;
}

// Value bits the kernel generates in for @format (SRV6: the SID).
unsigned int gen_value_bits(uint8_t format)
{
	switch (format) {
	case MRC_EV_PROFILE_FORMAT_UDP: return 16;
	case MRC_EV_PROFILE_FORMAT_STEV: return 32;
	case MRC_EV_PROFILE_FORMAT_SRV6: return 128;
	default: return 0;
	}
}

} // namespace

int ev_field_check(const mrc_ctl_ev_field &f)
{
	if (!f.width)
		return EINVAL;
	if (f.width > max_field_bits)
		return E2BIG;
	uint64_t lim = low_bits(f.width);
	unsigned int k = static_cast<unsigned int>(std::popcount(f.mask));
	if (f.init_val > lim || f.mask > lim || f.max_val > low_bits(k) ||
	    f.min_val > f.max_val)
		return EINVAL;
	return 0;
}

int ev_gen_to_kernel(const std::vector<mrc_ctl_ev_field> &api,
		     const std::vector<uint8_t> &fmt, uint8_t format,
		     std::vector<mrcctl::GenField> *out, uint32_t *shift,
		     uint32_t *values)
{
	if (api.empty() || api.size() > fmt.size())
		return EINVAL;
	std::vector<mrcctl::GenField> k;
	uint64_t count = 1;
	unsigned int total = 0, after = 0;
	for (size_t i = 0; i < fmt.size(); i++) {
		total += fmt[i];
		if (i >= api.size())
			after += fmt[i];
	}
	for (size_t i = 0; i < api.size(); i++) {
		const mrc_ctl_ev_field &a = api[i];
		if (int err = ev_field_check(a))
			return err;
		if (a.width > fmt[i])
			return EINVAL;
		// The format field's extra bits, zero, above the field (none
		// above the first: they are above everything generated).
		for (unsigned int pad = fmt[i] - a.width; i && pad;) {
			unsigned int w = pad < max_field_bits ? pad :
								max_field_bits;
			k.push_back(zero_field(w));
			pad -= w;
		}
		uint32_t fixed = a.init_val & ~a.mask;
		if (fixed && a.mask &&
		    std::countr_zero(fixed) < 32 - std::countl_zero(a.mask))
			return EOPNOTSUPP;
		uint32_t start = extract(a.init_val, a.mask);
		if (start < a.min_val || start > a.max_val)
			start = a.min_val;
		mrcctl::GenField f;
		f.width = a.width;
		f.mask = a.mask | fixed;
		f.min = fixed | deposit(a.min_val, a.mask);
		f.max = fixed | deposit(a.max_val, a.mask);
		f.init = fixed | deposit(start, a.mask);
		k.push_back(f);
		count *= static_cast<uint64_t>(a.max_val - a.min_val) + 1;
	}
	unsigned int bits = 0;
	for (const auto &f : k)
		bits += f.width;
	// A 256-bit SRV6 format: the kernel generates the SID (the upper
	// 128 bits) only.
	unsigned int value_bits = gen_value_bits(format);
	if (format == MRC_EV_PROFILE_FORMAT_SRV6 && total == 256) {
		if (after < 128)
			return E2BIG;
		after -= 128;
	}
	if (k.size() > max_fields || bits > max_gen_bits ||
	    after + bits > value_bits || count > 65536)
		return E2BIG;
	*out = k;
	*shift = after;
	*values = static_cast<uint32_t>(count);
	return 0;
}

int ev_exp_fields_check(const std::vector<mrc_ctl_ev_field> &api,
			const std::vector<uint8_t> &fmt)
{
	for (const auto &a : api)
		if (int err = ev_field_check(a))
			return err;
	if (api.size() != fmt.size())
		return EOPNOTSUPP;
	for (size_t i = 0; i < api.size(); i++) {
		const mrc_ctl_ev_field &a = api[i];
		uint32_t all = static_cast<uint32_t>(low_bits(a.width));
		if (a.width != fmt[i] || a.mask != all)
			return EOPNOTSUPP;
	}
	return 0;
}

std::vector<mrc_ctl_ev_field>
ev_gen_from_kernel(const std::vector<mrcctl::GenField> &k)
{
	std::vector<mrc_ctl_ev_field> out;
	for (const auto &f : k) {
		uint32_t mask = f.mask.value_or(
			static_cast<uint32_t>(low_bits(f.width)));
		mrc_ctl_ev_field a{};
		a.width = f.width;
		if (f.min == f.max) {
			a.init_val = f.min; // fixed
		} else {
			// Above the highest bit where min and max differ the
			// values are min's: fixed bits; below, the mask's.
			unsigned int d = 32 - std::countl_zero(f.min ^ f.max);
			uint32_t low = static_cast<uint32_t>(low_bits(d));
			a.mask = mask & low;
			a.init_val = (f.min & ~low) | (f.init & a.mask);
			a.min_val = extract(f.min, a.mask);
			a.max_val = extract(f.max, a.mask);
		}
		out.push_back(a);
	}
	return out;
}

} // namespace mrc::lib
