// SPDX-License-Identifier: GPL-2.0-only
#include <cerrno>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "extack.hpp"

using namespace mrcctl;

namespace {

// Builds netlink messages byte by byte, as the kernel lays them out.
class Buf {
public:
	template <typename T> void put(const T &v)
	{
		const auto *p = reinterpret_cast<const unsigned char *>(&v);
		b_.insert(b_.end(), p, p + sizeof(v));
	}
	void attr(std::uint16_t type, const void *data, std::size_t len)
	{
		nlattr a{static_cast<std::uint16_t>(NLA_HDRLEN + len), type};
		put(a);
		const auto *p = static_cast<const unsigned char *>(data);
		b_.insert(b_.end(), p, p + len);
		while (b_.size() % 4)
			b_.push_back(0);
	}
	void attr_str(std::uint16_t type, const char *s)
	{
		attr(type, s, std::strlen(s) + 1);
	}
	void attr_u32(std::uint16_t type, std::uint32_t v)
	{
		attr(type, &v, 4);
	}
	void pad(std::size_t n) { b_.insert(b_.end(), n, 0); }
	// Patch the outer nlmsg_len and return the header.
	const nlmsghdr *finish()
	{
		auto *h = reinterpret_cast<nlmsghdr *>(b_.data());
		h->nlmsg_len = static_cast<std::uint32_t>(b_.size());
		return h;
	}

private:
	std::vector<unsigned char> b_;
};

Buf error_msg(int err, std::uint16_t flags, std::uint32_t echoed_len)
{
	Buf b;
	nlmsghdr h{0, NLMSG_ERROR, flags, 1, 0};
	b.put(h);
	nlmsgerr e{};
	e.error = -err;
	e.msg.nlmsg_len = echoed_len;
	b.put(e);
	return b;
}

TEST(ExtAck, CappedWithMessageAndOffset)
{
	Buf b = error_msg(ERANGE, NLM_F_CAPPED | NLM_F_ACK_TLVS, 40);
	b.attr_str(NLMSGERR_ATTR_MSG, "plane id out of range (1..16)");
	b.attr_u32(NLMSGERR_ATTR_OFFS, 28);
	ExtAck a = parse_error_tlvs(b.finish());
	EXPECT_EQ(a.msg, "plane id out of range (1..16)");
	EXPECT_EQ(a.offset, 28u);
	EXPECT_FALSE(a.miss_type);
}

TEST(ExtAck, UncappedSkipsEchoedRequest)
{
	// The request (header + 12 bytes payload) is echoed before the TLVs.
	Buf b = error_msg(EBUSY, NLM_F_ACK_TLVS, NLMSG_HDRLEN + 12);
	b.pad(12);
	b.attr_str(NLMSGERR_ATTR_MSG, "netdev is already a plane");
	EXPECT_EQ(parse_error_tlvs(b.finish()).msg, "netdev is already a plane");
}

TEST(ExtAck, MissingAttribute)
{
	Buf b = error_msg(EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 20);
	b.attr_u32(NLMSGERR_ATTR_MISS_TYPE, 10);
	ExtAck a = parse_error_tlvs(b.finish());
	EXPECT_TRUE(a.msg.empty());
	EXPECT_EQ(a.miss_type, 10u);
}

TEST(ExtAck, NoTlvsFlag)
{
	Buf b = error_msg(EPERM, NLM_F_CAPPED, 20);
	b.attr_str(NLMSGERR_ATTR_MSG, "ignored without NLM_F_ACK_TLVS");
	EXPECT_TRUE(parse_error_tlvs(b.finish()).msg.empty());
}

TEST(ExtAck, TruncatedTlvIsIgnored)
{
	Buf b = error_msg(EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 20);
	nlattr bogus{200, NLMSGERR_ATTR_MSG}; // claims more than there is
	b.put(bogus);
	b.put(std::uint32_t{0x41414141});
	EXPECT_TRUE(parse_error_tlvs(b.finish()).msg.empty());
}

TEST(ExtAck, UnterminatedMessageAndTrailingNewline)
{
	Buf b = error_msg(EINVAL, NLM_F_CAPPED | NLM_F_ACK_TLVS, 20);
	b.attr(NLMSGERR_ATTR_MSG, "bad\n", 4); // no NUL
	EXPECT_EQ(parse_error_tlvs(b.finish()).msg, "bad");
}

TEST(ExtAck, DoneOfFailedDump)
{
	Buf b;
	nlmsghdr h{0, NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS, 1, 0};
	b.put(h);
	b.put(int{-ENODEV});
	b.attr_str(NLMSGERR_ATTR_MSG, "no such mrc device");
	EXPECT_EQ(parse_done_tlvs(b.finish()).msg, "no such mrc device");
}

TEST(ExtAck, Describe)
{
	ExtAck a;
	a.msg = "plane id is taken";
	EXPECT_EQ(describe_error(EEXIST, a, "plane_id", ""),
		  std::string("plane id is taken (") + std::strerror(EEXIST) +
			  ")");
	ExtAck none;
	EXPECT_EQ(describe_error(EIO, none, "", ""), std::strerror(EIO));
	EXPECT_EQ(describe_error(EPERM, none, "", ""),
		  std::string("changes need CAP_NET_ADMIN in the instance's "
			      "network namespace (") +
			  std::strerror(EPERM) + ")");
	EXPECT_EQ(describe_error(EINVAL, none, "", "plane_ifname"),
		  std::string("missing attribute plane_ifname (") +
			  std::strerror(EINVAL) + ")");
	EXPECT_EQ(describe_error(ERANGE, none, "plane_id", ""),
		  std::string("invalid attribute plane_id (") +
			  std::strerror(ERANGE) + ")");
}

} // namespace
