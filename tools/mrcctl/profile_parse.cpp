// SPDX-License-Identifier: GPL-2.0-only
#include "profile_parse.hpp"

#include <array>
#include <cstdio>

#include <linux/mrc.h>

#include "addr.hpp"
#include "args.hpp"
#include "profile_model.hpp"

namespace mrcctl {

namespace {

constexpr std::size_t kSidLen = 16;

std::optional<std::uint64_t> parse_u64_digits(std::string_view s, int base)
{
	if (s.empty() || s.size() > 20)
		return std::nullopt;
	std::uint64_t v = 0;
	for (char ch : s) {
		int d;
		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (base == 16 && ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			return std::nullopt;
		if (v > (UINT64_MAX - static_cast<unsigned>(d)) /
				static_cast<unsigned>(base))
			return std::nullopt;
		v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
	}
	return v;
}

std::vector<std::string_view> split(std::string_view s, char sep)
{
	std::vector<std::string_view> out;
	std::size_t start = 0;
	for (;;) {
		std::size_t p = s.find(sep, start);
		out.push_back(s.substr(start, p == std::string_view::npos ?
						      std::string_view::npos :
						      p - start));
		if (p == std::string_view::npos)
			return out;
		start = p + 1;
	}
}

struct Name {
	std::string_view word;
	std::uint32_t value;
};

constexpr Name kModes[] = {
	{"auto", MRC_EV_PROFILE_MODE_AUTO},
	{"exp", MRC_EV_PROFILE_MODE_EXP},
	{"gen", MRC_EV_PROFILE_MODE_GEN},
};
constexpr Name kFormats[] = {
	{"udp", MRC_EV_PROFILE_FORMAT_UDP},
	{"stev", MRC_EV_PROFILE_FORMAT_STEV},
	{"srv6", MRC_EV_PROFILE_FORMAT_SRV6},
};
constexpr Name kProfileStates[] = {
	{"init", MRC_EV_PROFILE_STATE_INIT},
	{"offline", MRC_EV_PROFILE_STATE_OFFLINE},
	{"online", MRC_EV_PROFILE_STATE_ONLINE},
};
constexpr Name kEvStates[] = {
	{"unknown", MRC_EV_STATE_UNKNOWN},
	{"good", MRC_EV_STATE_GOOD},
	{"assumed-bad", MRC_EV_STATE_ASSUMED_BAD},
	{"denied", MRC_EV_STATE_DENIED},
};

template <std::size_t N>
std::optional<std::uint8_t> by_name(const Name (&t)[N], std::string_view s)
{
	for (const auto &n : t)
		if (n.word == s)
			return static_cast<std::uint8_t>(n.value);
	return std::nullopt;
}

template <std::size_t N>
std::string name_of(const Name (&t)[N], std::uint32_t v)
{
	for (const auto &n : t)
		if (n.value == v)
			return std::string(n.word);
	return "unknown-" + std::to_string(v);
}

std::uint8_t format_len(std::uint8_t format)
{
	switch (format) {
	case MRC_EV_PROFILE_FORMAT_UDP: return 2;
	case MRC_EV_PROFILE_FORMAT_STEV: return 4;
	case MRC_EV_PROFILE_FORMAT_SRV6: return kSidLen;
	default: return 0;
	}
}

std::vector<std::uint8_t> be_bytes(std::uint64_t v, std::size_t len)
{
	std::vector<std::uint8_t> out(len);
	for (std::size_t i = 0; i < len; i++)
		out[len - 1 - i] = static_cast<std::uint8_t>(v >> (8 * i));
	return out;
}

std::uint64_t be_value(const std::vector<std::uint8_t> &v)
{
	std::uint64_t x = 0;
	for (auto b : v)
		x = x << 8 | b;
	return x;
}

std::string hex_bytes(const std::vector<std::uint8_t> &v)
{
	std::string s = "0x";
	char buf[3];
	for (auto b : v) {
		std::snprintf(buf, sizeof(buf), "%02x", b);
		s += buf;
	}
	return s;
}

std::optional<std::vector<std::uint8_t>> ipv6(std::string_view s)
{
	auto a = parse_addr(s);
	if (!a || a->size() != kSidLen)
		return std::nullopt;
	return a;
}

} // namespace

std::optional<std::uint32_t> parse_time_ns(std::string_view s)
{
	std::uint64_t mult = 1;
	if (s.ends_with("ns")) {
		s.remove_suffix(2);
	} else if (s.ends_with("us")) {
		mult = 1000;
		s.remove_suffix(2);
	} else if (s.ends_with("ms")) {
		mult = 1000000;
		s.remove_suffix(2);
	}
	auto v = parse_u64_digits(s, 10);
	if (!v || *v > UINT32_MAX / mult)
		return std::nullopt;
	return static_cast<std::uint32_t>(*v * mult);
}

std::string time_text(std::uint32_t ns)
{
	if (ns == 0)
		return "0";
	if (ns % 1000000 == 0)
		return std::to_string(ns / 1000000) + "ms";
	if (ns % 1000 == 0)
		return std::to_string(ns / 1000) + "us";
	return std::to_string(ns) + "ns";
}

std::optional<std::uint16_t> parse_plane_list(std::string_view s)
{
	std::uint32_t mask = 0;
	for (auto part : split(s, ',')) {
		auto dash = part.find('-');
		auto lo = parse_u64_digits(part.substr(0, dash), 10);
		auto hi = dash == std::string_view::npos ?
				  lo :
				  parse_u64_digits(part.substr(dash + 1), 10);
		if (!lo || !hi || *lo < 1 || *hi > MRC_MAX_PLANES || *lo > *hi)
			return std::nullopt;
		for (auto p = *lo; p <= *hi; p++)
			mask |= 1u << (p - 1);
	}
	if (!mask)
		return std::nullopt;
	return static_cast<std::uint16_t>(mask);
}

std::string plane_list_text(std::uint16_t mask)
{
	std::string s;
	for (unsigned p = 1; p <= 16; p++) {
		if (!(mask & (1u << (p - 1))))
			continue;
		unsigned q = p;
		while (q < 16 && (mask & (1u << q)))
			q++;
		if (!s.empty())
			s += ',';
		s += std::to_string(p);
		if (q > p)
			s += (q == p + 1 ? "," : "-") + std::to_string(q);
		p = q;
	}
	return s.empty() ? "none" : s;
}

std::optional<std::uint32_t> parse_event_mask(std::string_view s)
{
	const std::uint32_t all = MRC_EV_EVENT_STATE(MRC_EV_STATE_UNKNOWN) |
				  MRC_EV_EVENT_STATE(MRC_EV_STATE_GOOD) |
				  MRC_EV_EVENT_STATE(MRC_EV_STATE_ASSUMED_BAD) |
				  MRC_EV_EVENT_STATE(MRC_EV_STATE_DENIED) |
				  MRC_EV_EVENT_PROFILE;
	if (s == "all")
		return all;
	if (s == "none")
		return 0;
	std::uint32_t mask = 0;
	for (auto w : split(s, ',')) {
		if (w == "profile") {
			mask |= MRC_EV_EVENT_PROFILE;
			continue;
		}
		auto st = by_name(kEvStates, w);
		if (!st)
			return std::nullopt;
		mask |= MRC_EV_EVENT_STATE(*st);
	}
	return mask;
}

std::string event_mask_text(std::uint32_t mask)
{
	if (mask == *parse_event_mask("all"))
		return "all";
	if (!mask)
		return "none";
	std::string s;
	for (const auto &n : kEvStates) {
		if (!(mask & MRC_EV_EVENT_STATE(n.value)))
			continue;
		s += (s.empty() ? "" : ",") + std::string(n.word);
		mask &= ~MRC_EV_EVENT_STATE(n.value);
	}
	if (mask & MRC_EV_EVENT_PROFILE) {
		s += s.empty() ? "profile" : ",profile";
		mask &= ~MRC_EV_EVENT_PROFILE;
	}
	for (unsigned b = 0; b < 32; b++)
		if (mask & (1u << b))
			s += (s.empty() ? "bit" : ",bit") + std::to_string(b);
	return s;
}

std::optional<std::uint8_t> parse_ev_mode(std::string_view s)
{
	return by_name(kModes, s);
}

std::optional<std::uint8_t> parse_ev_format(std::string_view s)
{
	return by_name(kFormats, s);
}

std::optional<std::uint8_t> parse_ev_profile_state(std::string_view s)
{
	return by_name(kProfileStates, s);
}

std::string ev_mode_text(std::uint8_t mode) { return name_of(kModes, mode); }
std::string ev_format_text(std::uint8_t format)
{
	return name_of(kFormats, format);
}
std::string ev_profile_state_text(std::uint8_t state)
{
	return name_of(kProfileStates, state);
}
std::string ev_state_text(std::uint8_t state)
{
	return name_of(kEvStates, state);
}

std::optional<std::vector<std::uint8_t>> parse_ev_value(std::uint8_t format,
							std::string_view s)
{
	switch (format) {
	case MRC_EV_PROFILE_FORMAT_UDP: {
		auto v = parse_number(s);
		if (!v || *v > 0xffff)
			return std::nullopt;
		return be_bytes(*v, 2);
	}
	case MRC_EV_PROFILE_FORMAT_STEV: {
		auto v = parse_number(s);
		if (!v)
			return std::nullopt;
		return be_bytes(*v, 4);
	}
	case MRC_EV_PROFILE_FORMAT_SRV6: {
		auto comma = s.find(',');
		auto sid = ipv6(s.substr(0, comma));
		if (!sid)
			return std::nullopt;
		if (comma == std::string_view::npos)
			return sid;
		auto seg = ipv6(s.substr(comma + 1));
		if (!seg)
			return std::nullopt;
		sid->insert(sid->end(), seg->begin(), seg->end());
		return sid;
	}
	default: return std::nullopt;
	}
}

std::string ev_value_text(std::uint8_t format, const std::vector<std::uint8_t> &v)
{
	char buf[16];
	switch (format) {
	case MRC_EV_PROFILE_FORMAT_UDP:
		if (v.size() == 2)
			return std::to_string(be_value(v));
		break;
	case MRC_EV_PROFILE_FORMAT_STEV:
		if (v.size() == 4) {
			std::snprintf(buf, sizeof(buf), "0x%08llx",
				      static_cast<unsigned long long>(
					      be_value(v)));
			return buf;
		}
		break;
	case MRC_EV_PROFILE_FORMAT_SRV6:
		if (v.size() == kSidLen)
			return *addr_text(v.data(), kSidLen);
		if (v.size() == 2 * kSidLen)
			return *addr_text(v.data(), kSidLen) + ',' +
			       *addr_text(v.data() + kSidLen, kSidLen);
		break;
	default: break;
	}
	return hex_bytes(v);
}

std::optional<std::vector<std::uint8_t>> parse_gen_base(std::uint8_t format,
							std::string_view s)
{
	std::size_t len = format_len(format);
	if (!len)
		return std::nullopt;
	if (format == MRC_EV_PROFILE_FORMAT_SRV6 && !s.starts_with("0x"))
		return ipv6(s);
	if (!s.starts_with("0x") || s.size() < 3 || s.size() - 2 > 2 * len)
		return std::nullopt;
	std::string digits(2 * len - (s.size() - 2), '0');
	digits += s.substr(2);
	std::vector<std::uint8_t> out;
	for (std::size_t i = 0; i < digits.size(); i += 2) {
		auto b = parse_u64_digits(std::string_view(digits).substr(i, 2),
					  16);
		if (!b)
			return std::nullopt;
		out.push_back(static_cast<std::uint8_t>(*b));
	}
	return out;
}

std::string gen_base_text(std::uint8_t format, const std::vector<std::uint8_t> &v)
{
	if (format == MRC_EV_PROFILE_FORMAT_SRV6 && v.size() == kSidLen)
		return *addr_text(v.data(), kSidLen);
	return hex_bytes(v);
}

} // namespace mrcctl

namespace mrcctl {

const std::vector<CcParam> kCcParams = {
	{MRC_A_CC_BASE_RTT, "base-rtt", "base_rtt", CcParam::Time},
	{MRC_A_CC_TARGET_DELAY, "target-delay", "target_delay", CcParam::Time},
	{MRC_A_CC_QA_THRESHOLD, "qa-threshold", "qa_threshold", CcParam::Time},
	{MRC_A_CC_ADJUST_BYTES, "adjust-bytes", "adjust_bytes", CcParam::Number},
	{MRC_A_CC_ADJUST_PERIOD, "adjust-period", "adjust_period", CcParam::Time},
	{MRC_A_CC_ETA, "eta", "eta", CcParam::Number},
	{MRC_A_CC_FI, "fi", "fi", CcParam::Number},
	{MRC_A_CC_FI_SCALE, "fi-scale", "fi_scale", CcParam::Number},
	{MRC_A_CC_GAMMA, "gamma", "gamma", CcParam::Number},
	{MRC_A_CC_MAX_MD_JUMP, "max-md-jump", "max_md_jump", CcParam::Number},
	{MRC_A_CC_MAX_CWND, "max-cwnd", "max_cwnd", CcParam::Number},
	{MRC_A_CC_MIN_CWND, "min-cwnd", "min_cwnd", CcParam::Number},
	{MRC_A_CC_INIT_CWND, "init-cwnd", "init_cwnd", CcParam::Number},
	{MRC_A_CC_QA_GATE, "qa-gate", "qa_gate", CcParam::Byte},
	{MRC_A_CC_DISABLE_QA, "disable-qa", "disable_qa", CcParam::OnOff},
};

const CcParam *cc_param(std::uint16_t attr)
{
	for (const auto &p : kCcParams)
		if (p.attr == attr)
			return &p;
	return nullptr;
}

} // namespace mrcctl
