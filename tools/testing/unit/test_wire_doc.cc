// SPDX-License-Identifier: GPL-2.0-only
// Keeps Documentation/networking/mrc.rst true to the code: the opcode,
// flag, NACK reason and error tables of the document are parsed and
// compared with what wire.h/wire.c actually implement.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "test_wire_util.h"

using namespace mrc_test;

namespace {

std::string read_doc()
{
	// This file is tools/testing/unit/test_wire_doc.cc.
	std::string here = __FILE__;
	std::string root = here.substr(0, here.rfind("tools/testing/unit/"));
	std::ifstream f(root + "Documentation/networking/mrc.rst");
	std::stringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

// From the section title @title to the end of the first table in it:
// the title's underline, then the table's top border, header separator
// and bottom border are the four lines starting with "====".
std::string section(const std::string &doc, const std::string &title)
{
	size_t a = doc.find("\n" + title + "\n");
	if (a == std::string::npos)
		return "";
	size_t end = a;
	for (int i = 0; i < 4 && end != std::string::npos; i++)
		end = doc.find("\n====", end + 1);
	return doc.substr(a, end == std::string::npos ? end : end - a);
}

TEST(WireDoc, OpcodeTableMatchesCode)
{
	const std::string doc = read_doc();
	ASSERT_FALSE(doc.empty()) << "Documentation/networking/mrc.rst not found";
	const std::string tab = section(doc, "Opcodes");
	std::regex row(R"(\n0x([0-9a-f]{2})\s+([A-Z_]+)\s+(\d+))");
	std::map<int, std::string> seen;
	for (std::sregex_iterator it(tab.begin(), tab.end(), row), end;
	     it != end; ++it) {
		int op = std::stoi((*it)[1].str(), nullptr, 16);
		EXPECT_EQ((*it)[2].str(), mrc_opcode_name((u8)op));
		EXPECT_EQ(std::stoi((*it)[3].str()), mrc_ext_hdr_len((u8)op))
			<< (*it)[2].str();
		seen[op] = (*it)[2].str();
	}
	EXPECT_EQ(seen.size(), all_opcodes().size());
	for (u8 op : all_opcodes())
		EXPECT_TRUE(seen.count(op)) << mrc_opcode_name(op);
}

TEST(WireDoc, FlagTableMatchesCode)
{
	const std::string tab = section(read_doc(), "Flags");
	const std::map<std::string, int> code = {
		{"FIRST", MRC_F_FIRST},		{"LAST", MRC_F_LAST},
		{"ACK_REQ", MRC_F_ACK_REQ},	{"RETX", MRC_F_RETX},
		{"SOLICITED", MRC_F_SOLICITED},
	};
	std::regex row(R"(\n([A-Z_]+)\s+0x([0-9a-f]{4}))");
	int all = 0;
	size_t n = 0;
	for (std::sregex_iterator it(tab.begin(), tab.end(), row), end;
	     it != end; ++it, ++n) {
		auto c = code.find((*it)[1].str());
		ASSERT_NE(c, code.end()) << (*it)[1].str();
		EXPECT_EQ(std::stoi((*it)[2].str(), nullptr, 16), c->second);
		all |= c->second;
	}
	EXPECT_EQ(n, code.size());
	EXPECT_EQ(all, MRC_F_ALL);
}

TEST(WireDoc, NackReasonTableMatchesCode)
{
	const std::string doc = read_doc();
	size_t a = doc.find("===== ==================== ====");
	ASSERT_NE(a, std::string::npos);
	const std::string tab = doc.substr(a, 1500);
	std::regex row(R"(\n(\d)\s+([A-Z_]+)\s)");
	int n = 0;
	for (std::sregex_iterator it(tab.begin(), tab.end(), row), end;
	     it != end; ++it, ++n)
		EXPECT_EQ((*it)[2].str(),
			  mrc_nack_reason_name((u8)std::stoi((*it)[1].str())));
	EXPECT_EQ(n, MRC_NACK_RNR);
}

TEST(WireDoc, EveryDecodeErrorIsDocumented)
{
	const std::string tab = section(read_doc(), "Decoder checks");
	const std::map<int, std::string> names = {
		{MRC_WIRE_ETRUNC, "ETRUNC"},
		{MRC_WIRE_EVERSION, "EVERSION"},
		{MRC_WIRE_EOPCODE, "EOPCODE"},
		{MRC_WIRE_EFLAGS, "EFLAGS"},
		{MRC_WIRE_EQPN, "EQPN"},
		{MRC_WIRE_EPLANE, "EPLANE"},
		{MRC_WIRE_ERESERVED, "ERESERVED"},
		{MRC_WIRE_EPAYLOAD_LEN, "EPAYLOAD_LEN"},
		{MRC_WIRE_EPAYLOAD, "EPAYLOAD"},
		{MRC_WIRE_ERANGE, "ERANGE"},
		{MRC_WIRE_EREASON, "EREASON"},
		{MRC_WIRE_EICRC, "EICRC"},
		{MRC_WIRE_ENOSPC, "ENOSPC"},
	};
	EXPECT_EQ(names.size(), (size_t)MRC_WIRE_NR_ERR - 1);
	for (const auto &[code, name] : names)
		EXPECT_NE(tab.find("\n" + name + " "), std::string::npos)
			<< name << " (" << mrc_wire_strerror(code) << ")";
}

} // namespace
