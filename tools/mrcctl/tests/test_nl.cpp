// SPDX-License-Identifier: GPL-2.0-only
// The socket layer against a family every kernel has (nlctrl): dumps end
// at NLMSG_DONE, replies and ACKs are collected, refusals become
// KernelError with the kernel's errno and extack text.
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>

#include "nl.hpp"

using namespace mrcctl;

namespace {

// Skip where netlink is unavailable (some sandboxes).
#define OPEN_NLCTRL(var)                                      \
	std::unique_ptr<GenlSocket> var;                      \
	try {                                                 \
		var = std::make_unique<GenlSocket>("nlctrl"); \
	} catch (const Failure &e) {                          \
		GTEST_SKIP() << e.what();                     \
	}

std::string family_name(nl_msg *m)
{
	nlattr *tb[CTRL_ATTR_MAX + 1];
	if (genlmsg_parse(nlmsg_hdr(m), 0, tb, CTRL_ATTR_MAX, nullptr) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_NAME])
		return "";
	return nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]);
}

TEST(Netlink, DumpEndsAtDone)
{
	OPEN_NLCTRL(sk);
	MsgPtr req = sk->request(CTRL_CMD_GETFAMILY, true);
	bool found = false;
	int n = 0;
	sk->transact(req.get(), [&](nl_msg *m) {
		n++;
		found |= family_name(m) == "nlctrl";
	});
	EXPECT_GT(n, 0);
	EXPECT_TRUE(found);
}

TEST(Netlink, DoGetsReplyThenAck)
{
	OPEN_NLCTRL(sk);
	MsgPtr req = sk->request(CTRL_CMD_GETFAMILY, false);
	nla_put_string(req.get(), CTRL_ATTR_FAMILY_NAME, "nlctrl");
	std::vector<std::string> names;
	sk->transact(req.get(),
		     [&](nl_msg *m) { names.push_back(family_name(m)); });
	EXPECT_EQ(names, std::vector<std::string>{"nlctrl"});
	// The socket is reusable after a complete transaction.
	MsgPtr again = sk->request(CTRL_CMD_GETFAMILY, false);
	nla_put_string(again.get(), CTRL_ATTR_FAMILY_NAME, "nlctrl");
	sk->transact(again.get(), [](nl_msg *) {});
}

TEST(Netlink, RefusalBecomesKernelError)
{
	OPEN_NLCTRL(sk);
	MsgPtr req = sk->request(CTRL_CMD_GETFAMILY, false);
	nla_put_string(req.get(), CTRL_ATTR_FAMILY_NAME, "no-such-family");
	try {
		sk->transact(req.get(), [](nl_msg *) {});
		FAIL() << "no error";
	} catch (const KernelError &e) {
		EXPECT_EQ(e.error(), ENOENT);
		EXPECT_NE(std::string(e.what()).find(std::strerror(ENOENT)),
			  std::string::npos);
	}
}

TEST(Netlink, PolicyErrorNamesTheAttributeOrSaysWhy)
{
	OPEN_NLCTRL(sk);
	MsgPtr req = sk->request(CTRL_CMD_GETFAMILY, false);
	// Longer than GENL_NAMSIZ - 1: refused by the family's policy,
	// with an extack pointing at the attribute.
	nla_put_string(req.get(), CTRL_ATTR_FAMILY_NAME,
		       "a-family-name-much-longer-than-sixteen");
	try {
		sk->transact(req.get(), [](nl_msg *) {});
		FAIL() << "no error";
	} catch (const KernelError &e) {
		std::string what = e.what();
		EXPECT_NE(what.find(" ("), std::string::npos) << what;
		RecordProperty("message", what);
	}
}

TEST(Netlink, UnknownFamily)
{
	try {
		GenlSocket sk("no-such-family");
		FAIL() << "resolved a family that does not exist";
	} catch (const Failure &e) {
		EXPECT_NE(std::string(e.what()).find("no-such-family"),
			  std::string::npos);
	}
}

} // namespace
