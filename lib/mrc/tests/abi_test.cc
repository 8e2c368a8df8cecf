// SPDX-License-Identifier: GPL-2.0-only
// The ABI of lib_mrc: mrc.h's layouts and constants as C++ sees them and
// as C sees them (abi_c.c), both against the published values
// (abi_facts.h); the functions mrc.h declares against a fixed list; and
// lib_mrc.so's exported symbols (nm -D --defined-only) against that list.
#include <mrc.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <string>

#define _Alignof(t) alignof(t)
#include "abi_facts.h"

extern "C" {
extern const abi_fact abi_c_facts[];
extern const unsigned long abi_c_nfacts;
extern const unsigned long abi_c_nfunctions;
}

namespace {

#define ABI_FACT(name, expr, expected) \
	static_assert((expr) == (expected), #name ": " #expr " != " #expected);
MRC_ABI_FACTS
#undef ABI_FACT

#define ABI_FACT(name, expr, expected)                 \
	{#name, static_cast<unsigned long long>(expr), \
	 static_cast<unsigned long long>(expected)},
const abi_fact cxx_facts[] = {MRC_ABI_FACTS};
#undef ABI_FACT

// The functions of the OCP application API (mrc.h, API 1.0.1).
const std::set<std::string> api_functions = {
	"mrc_ack_async_event",
	"mrc_ack_cq_events",
	"mrc_create_comp_channel",
	"mrc_create_context",
	"mrc_create_cq",
	"mrc_create_qp",
	"mrc_create_qp_hint",
	"mrc_destroy_comp_channel",
	"mrc_destroy_context",
	"mrc_destroy_cq",
	"mrc_destroy_qp",
	"mrc_destroy_qp_hint",
	"mrc_get_async_event",
	"mrc_get_comp_channel_fd",
	"mrc_get_cq_event",
	"mrc_get_qpn",
	"mrc_modify_qp",
	"mrc_modify_qp_hint",
	"mrc_poll_cq",
	"mrc_post_recv",
	"mrc_post_send",
	"mrc_query_device",
	"mrc_query_device_ex",
	"mrc_query_qp",
	"mrc_query_qp_hint",
	"mrc_query_version",
	"mrc_req_notify_cq",
};

std::string run(const std::string &cmd)
{
	std::unique_ptr<FILE, int (*)(FILE *)> p(popen(cmd.c_str(), "r"), pclose);
	std::string out;
	if (!p)
		return out;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p.get())) > 0)
		out.append(buf, n);
	return out;
}

} // namespace

TEST(LibMrcAbi, CxxFactsMatchPublishedValues)
{
	for (const auto &f : cxx_facts)
		EXPECT_EQ(f.value, f.expected) << f.name;
}

TEST(LibMrcAbi, CFactsMatchCxxFacts)
{
	ASSERT_EQ(abi_c_nfacts, std::size(cxx_facts));
	for (unsigned long i = 0; i < abi_c_nfacts; i++) {
		EXPECT_STREQ(abi_c_facts[i].name, cxx_facts[i].name);
		EXPECT_EQ(abi_c_facts[i].value, cxx_facts[i].value)
			<< cxx_facts[i].name;
		EXPECT_EQ(abi_c_facts[i].value, abi_c_facts[i].expected)
			<< cxx_facts[i].name;
	}
}

TEST(LibMrcAbi, CSeesEveryFunction)
{
	EXPECT_EQ(abi_c_nfunctions, api_functions.size());
}

// The prototypes at the start of a line of the header: "int mrc_x(",
// "void mrc_x(", "struct mrc_y *mrc_x(".
TEST(LibMrcAbi, HeaderDeclaresTheApiFunctions)
{
	std::ifstream h(MRC_HEADER);
	ASSERT_TRUE(h) << MRC_HEADER;
	const std::regex proto(
		R"(^(int|void|struct mrc_[a-z_]+ \*)\s*(mrc_[a-z0-9_]+)\()");
	std::set<std::string> found;
	std::string line;
	std::smatch m;
	while (std::getline(h, line))
		if (std::regex_search(line, m, proto))
			found.insert(m[2]);
	EXPECT_EQ(found, api_functions);
}

TEST(LibMrcAbi, LibraryExportsExactlyTheApi)
{
	const std::string out = run("nm -D --defined-only " LIB_MRC_SO " 2>&1");
	std::set<std::string> exported;
	const std::regex sym(R"(^[0-9a-f]+ ([A-Za-z]) (\S+)$)");
	std::smatch m;
	size_t pos = 0;
	while (pos < out.size()) {
		size_t nl = out.find('\n', pos);
		std::string line = out.substr(pos, nl == std::string::npos ?
							   nl :
							   nl - pos);
		pos = nl == std::string::npos ? out.size() : nl + 1;
		if (std::regex_match(line, m, sym))
			exported.insert(m[2]);
	}
	EXPECT_EQ(exported, api_functions) << "nm -D output:\n" << out;
}

TEST(LibMrcAbi, SonameIsVersioned)
{
	const std::string out = run("objdump -p " LIB_MRC_SO " 2>&1");
	EXPECT_NE(out.find("SONAME               lib_mrc.so.1"), std::string::npos)
		<< out;
}

TEST(LibMrcAbi, VersionQuery)
{
	uint32_t cur = 0, last = 1, vcur = 0, vlast = 1;
	mrc_query_version(&cur, &last, &vcur, &vlast);
	EXPECT_EQ(cur, MRC_API_VER(1, 0, 1));
	EXPECT_EQ(last, MRC_API_VER(0, 0, 0));
	EXPECT_EQ(vcur, MRC_API_VER(1, 0, 0));
	EXPECT_EQ(vlast, MRC_API_VER(0, 0, 0));
	mrc_query_version(nullptr, nullptr, nullptr, nullptr); // no crash
}

// What needs no device: the argument checks before any verbs call.
TEST(LibMrcAbi, NullArgumentsAreRefused)
{
	errno = 0;
	EXPECT_EQ(mrc_create_context(nullptr, nullptr), nullptr);
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	EXPECT_EQ(mrc_destroy_context(nullptr), -1);
	EXPECT_EQ(errno, EINVAL);
	mrc_device_attr a;
	int sup;
	errno = 0;
	EXPECT_EQ(mrc_query_device(nullptr, &a, &sup), -1);
	EXPECT_EQ(errno, EINVAL);
	ibv_send_wr wr{};
	ibv_send_wr *bad = nullptr;
	EXPECT_EQ(mrc_post_send(nullptr, &wr, &bad), EINVAL);
	EXPECT_EQ(bad, &wr);
	uint32_t qpn;
	EXPECT_EQ(mrc_get_qpn(nullptr, &qpn), -1);
	EXPECT_EQ(mrc_destroy_qp(nullptr), EINVAL);
	EXPECT_EQ(mrc_destroy_cq(nullptr), EINVAL);
	EXPECT_EQ(mrc_destroy_qp_hint(nullptr), -1);
	EXPECT_EQ(mrc_modify_qp(nullptr, nullptr, 0, nullptr, 0), EINVAL);
}
