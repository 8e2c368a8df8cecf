// SPDX-License-Identifier: GPL-2.0-only
#include "extack.hpp"

#include <cerrno>
#include <cstring>

namespace mrcctl {

namespace {

ExtAck parse_tlvs(const unsigned char *p, std::size_t len)
{
	ExtAck ack;

	while (len >= sizeof(nlattr)) {
		nlattr a;
		std::memcpy(&a, p, sizeof(a));
		if (a.nla_len < sizeof(nlattr) || a.nla_len > len)
			break;
		const unsigned char *data = p + NLA_HDRLEN;
		std::size_t dlen = a.nla_len - NLA_HDRLEN;
		switch (a.nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			ack.msg.assign(reinterpret_cast<const char *>(data),
				       strnlen(reinterpret_cast<const char *>(data),
					       dlen));
			break;
		case NLMSGERR_ATTR_OFFS:
			if (dlen >= 4) {
				std::uint32_t v;
				std::memcpy(&v, data, 4);
				ack.offset = v;
			}
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			if (dlen >= 4) {
				std::uint32_t v;
				std::memcpy(&v, data, 4);
				ack.miss_type = v;
			}
			break;
		default:
			break;
		}
		std::size_t step = NLA_ALIGN(a.nla_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
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
		std::memcpy(&e, reinterpret_cast<const unsigned char *>(hdr) +
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
