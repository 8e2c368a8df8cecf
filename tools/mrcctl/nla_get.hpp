// SPDX-License-Identifier: GPL-2.0-only
// Decoding replies and events with libnl: a message or nest is parsed
// against the libnl policy of its attribute set (nl_policy.hpp, generated
// at build time from Documentation/netlink/specs/mrc.yaml) by
// genlmsg_parse() / nla_parse_nested(), which check every length; a
// reply that breaks the policy is refused as a whole (Failure).
// Attributes newer than the policy are ignored.  (libnl's getters take
// non-const pointers, hence none here either.)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.hpp"
#include "nl_policy.hpp"

namespace mrcctl::nla {

// The attributes of one message or nest, by type.
class Attrs {
public:
	explicit Attrs(std::size_t n) : tb_(n, nullptr) {}

	nlattr **data() { return tb_.data(); }
	int maxtype() const { return static_cast<int>(tb_.size()) - 1; }
	nlattr *operator[](int type) const
	{
		return type > 0 && type <= maxtype() ?
			       tb_[static_cast<std::size_t>(type)] :
			       nullptr;
	}
	bool has(int type) const { return (*this)[type] != nullptr; }

	// Attribute @type read by @get (libnl's nla_get_*()), if present.
	template <class T>
	std::optional<T> value(int type, T (*get)(const nlattr *)) const
	{
		if (nlattr *a = (*this)[type])
			return get(a);
		return std::nullopt;
	}
	std::optional<std::uint8_t> u8(int type) const
	{
		return value(type, nla_get_u8);
	}
	std::optional<std::uint16_t> u16(int type) const
	{
		return value(type, nla_get_u16);
	}
	std::optional<std::uint32_t> u32(int type) const
	{
		return value(type, nla_get_u32);
	}
	std::optional<std::uint64_t> u64(int type) const
	{
		return value(type, nla_get_u64);
	}
	// A u8 0/1 as a bool.
	std::optional<bool> flag_u8(int type) const
	{
		if (auto v = u8(type))
			return *v != 0;
		return std::nullopt;
	}
	// The policy checked the terminating NUL.
	std::optional<std::string> str(int type) const
	{
		if (nlattr *a = (*this)[type])
			return std::string(static_cast<const char *>(nla_data(a)));
		return std::nullopt;
	}
	std::optional<std::vector<std::uint8_t>> bytes(int type) const
	{
		nlattr *a = (*this)[type];
		if (!a)
			return std::nullopt;
		auto *p = static_cast<const std::uint8_t *>(nla_data(a));
		return std::vector<std::uint8_t>(p, p + nla_len(a));
	}

private:
	std::vector<nlattr *> tb_;
};

// The top-level attributes of genetlink message @msg, set of @policy.
template <std::size_t N>
Attrs parse(nl_msg *msg, const std::array<nla_policy, N> &policy)
{
	Attrs tb(N);
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb.data(), tb.maxtype(),
			  policy.data()) < 0)
		throw Failure("malformed message from the kernel");
	return tb;
}

// The attributes inside @nest, set of @policy.
template <std::size_t N>
Attrs parse_nested(nlattr *nest, const std::array<nla_policy, N> &policy)
{
	Attrs tb(N);
	if (nla_parse_nested(tb.data(), tb.maxtype(), nest, policy.data()) < 0)
		throw Failure("malformed nest from the kernel");
	return tb;
}

// Each entry of list nest @list (a nest holding one @type attribute per
// element), parsed with the element's @policy.
template <std::size_t N, typename F>
void for_each_entry(nlattr *list, int type,
		    const std::array<nla_policy, N> &policy, F f)
{
	if (!list)
		return;
	nlattr *pos;
	int rem;
	nla_for_each_nested(pos, list, rem)
	{
		if (nla_type(pos) == type)
			f(parse_nested(pos, policy));
	}
}

} // namespace mrcctl::nla
