// SPDX-License-Identifier: GPL-2.0-only
#include "extack.hpp"

#include <array>
#include <cerrno>
#include <cstring>

#include <netlink/attr.h>

namespace mrcctl {

namespace {

// The extack TLVs, checked by libnl against their policy: a TLV of the
// wrong size is left out, the others are still read.
const std::array<nla_policy, NLMSGERR_ATTR_MAX + 1> kPolicy = [] {
	std::array<nla_policy, NLMSGERR_ATTR_MAX + 1> p{};
	// Read up to a NUL or the end: older kernels need not terminate it.
	p[NLMSGERR_ATTR_MSG] = {NLA_UNSPEC, 0, 0};
	p[NLMSGERR_ATTR_OFFS] = {NLA_U32, 0, 0};
	p[NLMSGERR_ATTR_MISS_TYPE] = {NLA_U32, 0, 0};
	return p;
}();

ExtAck parse_tlvs(const unsigned char *p, std::size_t len)
{
	ExtAck ack;
	std::array<nlattr *, NLMSGERR_ATTR_MAX + 1> tb{};
	// libnl takes non-const attributes; it only reads them.
	auto *head = reinterpret_cast<nlattr *>(const_cast<unsigned char *>(p));
	if (nla_parse(tb.data(), NLMSGERR_ATTR_MAX, head, static_cast<int>(len),
		      nullptr) < 0)
		return ack;
	// One by one, so that a bad TLV spoils only itself.
	for (int t :
	     {NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS, NLMSGERR_ATTR_MISS_TYPE}) {
		nlattr *a = tb[static_cast<std::size_t>(t)];
		if (!a || nla_validate(a, nla_total_size(nla_len(a)),
				       NLMSGERR_ATTR_MAX, kPolicy.data()) < 0)
			continue;
		if (t == NLMSGERR_ATTR_MSG)
			ack.msg.assign(static_cast<const char *>(nla_data(a)),
				       strnlen(static_cast<const char *>(
						       nla_data(a)),
					       static_cast<std::size_t>(
						       nla_len(a))));
		else if (t == NLMSGERR_ATTR_OFFS)
			ack.offset = nla_get_u32(a);
		else
			ack.miss_type = nla_get_u32(a);
	}
	// Kernel strings may end in a newline; it would break our one line.
	while (!ack.msg.empty() &&
	       (ack.msg.back() == '\n' || ack.msg.back() == ' '))
		ack.msg.pop_back();
	return ack;
}

} // namespace

ExtAck parse_error_tlvs(const nlmsghdr *hdr)
{
	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return {};
	std::size_t total = hdr->nlmsg_len;
	std::size_t off = NLMSG_HDRLEN + sizeof(nlmsgerr);
	if (total < off)
		return {};
	// Without NETLINK_CAP_ACK the whole request is echoed before the
	// TLVs; the echoed header's length says how much to skip.
	if (!(hdr->nlmsg_flags & NLM_F_CAPPED)) {
		nlmsgerr e;
		std::memcpy(&e,
			    reinterpret_cast<const unsigned char *>(hdr) +
				    NLMSG_HDRLEN,
			    sizeof(e));
		if (e.msg.nlmsg_len < NLMSG_HDRLEN)
			return {};
		off += NLMSG_ALIGN(e.msg.nlmsg_len) - NLMSG_HDRLEN;
	}
	off = NLMSG_ALIGN(off);
	if (total <= off)
		return {};
	return parse_tlvs(reinterpret_cast<const unsigned char *>(hdr) + off,
			  total - off);
}

ExtAck parse_done_tlvs(const nlmsghdr *hdr)
{
	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return {};
	std::size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int));
	if (hdr->nlmsg_len <= off)
		return {};
	return parse_tlvs(reinterpret_cast<const unsigned char *>(hdr) + off,
			  hdr->nlmsg_len - off);
}

std::string describe_error(int err, const ExtAck &ack,
			   const std::string &bad_attr,
			   const std::string &missing_attr)
{
	std::string s = ack.msg;
	if (s.empty() && !missing_attr.empty())
		s = "missing attribute " + missing_attr;
	else if (s.empty() && !bad_attr.empty())
		s = "invalid attribute " + bad_attr;
	// Generic netlink refuses unprivileged changes before our handler
	// runs, so the kernel has no words for it: supply the reason.
	if (s.empty() && err == EPERM)
		s = "changes need CAP_NET_ADMIN in the instance's network "
		    "namespace";
	const char *e = std::strerror(err);
	return s.empty() ? std::string(e) : s + " (" + e + ")";
}

} // namespace mrcctl
