// SPDX-License-Identifier: GPL-2.0-only
// Attribute accessors shared by the decoders: they check the payload
// length instead of trusting the type, so a malformed attribute is ignored
// rather than read out of bounds.  (libnl's getters take non-const
// pointers, hence none here either.)
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include <netlink/attr.h>

namespace mrcctl::nla {

inline std::optional<std::uint32_t> get_u32(nlattr *a)
{
	if (nla_len(a) < 4)
		return std::nullopt;
	return nla_get_u32(a);
}

inline std::optional<std::uint16_t> get_u16(nlattr *a)
{
	if (nla_len(a) < 2)
		return std::nullopt;
	return nla_get_u16(a);
}

inline std::optional<bool> get_flag_u8(nlattr *a)
{
	if (nla_len(a) < 1)
		return std::nullopt;
	return nla_get_u8(a) != 0;
}

inline std::optional<std::string> get_string(const nlattr *a)
{
	const char *p = static_cast<const char *>(nla_data(a));
	int len = nla_len(a);
	if (len <= 0)
		return std::string();
	return std::string(p, strnlen(p, static_cast<std::size_t>(len)));
}

template <typename F> void for_each_attr(nlattr *head, int len, F f)
{
	nlattr *pos;
	int rem;
	nla_for_each_attr(pos, head, len, rem) f(pos);
}

template <typename F> void for_each_nested(nlattr *nest, F f)
{
	nlattr *pos;
	int rem;
	nla_for_each_nested(pos, nest, rem) f(pos);
}

inline std::optional<std::uint64_t> get_u64(nlattr *a)
{
	if (nla_len(a) < 8)
		return std::nullopt;
	return nla_get_u64(a);
}

} // namespace mrcctl::nla
