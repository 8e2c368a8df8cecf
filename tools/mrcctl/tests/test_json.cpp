// SPDX-License-Identifier: GPL-2.0-only
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "json.hpp"

using mrcctl::JsonWriter;

namespace {

std::string quote(std::string_view s)
{
	std::string out;
	mrcctl::json_quote(out, s);
	return out;
}

TEST(JsonQuote, Plain) { EXPECT_EQ(quote("veth1"), "\"veth1\""); }

TEST(JsonQuote, EscapesQuotesAndBackslash)
{
	EXPECT_EQ(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
}

TEST(JsonQuote, EscapesControlCharacters)
{
	EXPECT_EQ(quote("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
	EXPECT_EQ(quote(std::string_view("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
	EXPECT_EQ(quote(std::string_view("a\0b", 3)), "\"a\\u0000b\"");
}

TEST(JsonQuote, KeepsValidUtf8)
{
	EXPECT_EQ(quote("\xc3\xa9t\xc3\xa9"), "\"\xc3\xa9t\xc3\xa9\"");
	EXPECT_EQ(quote("\xe2\x82\xac"), "\"\xe2\x82\xac\"");
	EXPECT_EQ(quote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
}

TEST(JsonQuote, ReplacesInvalidUtf8)
{
	EXPECT_EQ(quote("a\xff"), "\"a\\ufffd\"");
	EXPECT_EQ(quote("\xc0\xaf"), "\"\\ufffd\\ufffd\""); // overlong
	EXPECT_EQ(quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\""); // surrogate
	EXPECT_EQ(quote("\xe2\x82"), "\"\\ufffd\\ufffd\""); // truncated
}

TEST(JsonWriter, CompactNesting)
{
	std::ostringstream os;
	JsonWriter w(os, false);
	w.begin_array();
	w.begin_object();
	w.field("id", 2u);
	w.field("netdev", "veth1");
	w.field("up", true);
	w.key("caps");
	w.begin_array();
	w.value("a");
	w.value("b");
	w.end_array();
	w.key("empty");
	w.begin_object();
	w.end_object();
	w.key("none");
	w.null();
	w.end_object();
	w.begin_object();
	w.field("neg", -3);
	w.end_object();
	w.end_array();
	EXPECT_TRUE(w.done());
	EXPECT_EQ(os.str(), "[{\"id\":2,\"netdev\":\"veth1\",\"up\":true,"
			    "\"caps\":[\"a\",\"b\"],\"empty\":{},\"none\":null},"
			    "{\"neg\":-3}]");
}

TEST(JsonWriter, Pretty)
{
	std::ostringstream os;
	JsonWriter w(os, true);
	w.begin_array();
	w.begin_object();
	w.field("id", 1u);
	w.key("planes");
	w.begin_array();
	w.end_array();
	w.key("l");
	w.begin_array();
	w.value(7u);
	w.end_array();
	w.end_object();
	w.end_array();
	EXPECT_EQ(os.str(), "[\n"
			    "  {\n"
			    "    \"id\": 1,\n"
			    "    \"planes\": [],\n"
			    "    \"l\": [\n"
			    "      7\n"
			    "    ]\n"
			    "  }\n"
			    "]");
}

TEST(JsonWriter, EmptyArray)
{
	std::ostringstream os;
	JsonWriter w(os, true);
	w.begin_array();
	w.end_array();
	EXPECT_EQ(os.str(), "[]");
}

TEST(JsonWriter, Uint64Extremes)
{
	std::ostringstream os;
	JsonWriter w(os, false);
	w.value(std::uint64_t{18446744073709551615u});
	EXPECT_EQ(os.str(), "18446744073709551615");
}

TEST(JsonWriter, RejectsMisuse)
{
	std::ostringstream os;
	JsonWriter w(os, false);
	w.begin_object();
	EXPECT_THROW(w.value(1u), std::logic_error);   // value without key
	EXPECT_THROW(w.end_array(), std::logic_error); // wrong close
	w.key("k");
	EXPECT_THROW(w.key("k2"), std::logic_error);	// two keys
	EXPECT_THROW(w.end_object(), std::logic_error); // dangling key

	std::ostringstream os2;
	JsonWriter w2(os2, false);
	w2.value(1u);
	EXPECT_THROW(w2.value(2u), std::logic_error); // second top-level
}

} // namespace
