// SPDX-License-Identifier: GPL-2.0-only
// The ABI of lib_mrc: the layouts and constants of mrc.h and mrc_ctl.h as
// C++ sees them and as C sees them (abi_c.c), both against the published
// values (abi_facts.h, abi_ctl_facts.h); the functions the headers declare
// against fixed lists; and lib_mrc.so's exported symbols (nm -D
// --defined-only) against those lists.
#include <mrc.h>
#include <mrc_ctl.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <vector>
#include <string>

#define _Alignof(t) alignof(t)
#include "abi_ctl_facts.h"
#include "abi_facts.h"

extern "C" {
extern const abi_fact abi_c_facts[];
extern const unsigned long abi_c_nfacts;
extern const unsigned long abi_c_nfunctions;
}

namespace {

// @call returns @failed and sets errno to @err (cleared before it).
#define EXPECT_ERRNO(call, failed, err)    \
	do {                               \
		errno = 0;                 \
		EXPECT_EQ((call), failed); \
		EXPECT_EQ(errno, err);     \
	} while (0)

#define ABI_FACT(name, expr, expected) \
	static_assert((expr) == (expected), #name ": " #expr " != " #expected);
MRC_ABI_FACTS
MRC_CTL_ABI_FACTS
#undef ABI_FACT

#define ABI_FACT(name, expr, expected)                 \
	{#name, static_cast<unsigned long long>(expr), \
	 static_cast<unsigned long long>(expected)},
const abi_fact cxx_facts[] = {MRC_ABI_FACTS MRC_CTL_ABI_FACTS};
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

// The functions of the OCP controller API (mrc_ctl.h, API 1.0.1).
const std::set<std::string> ctl_functions = {
	"mrc_ctl_create_ev_event_cq",	"mrc_ctl_ep_batch_send_wait",
	"mrc_ctl_modify_cc_profile",	"mrc_ctl_modify_ev_fmt_profile",
	"mrc_ctl_modify_ev_profile",	"mrc_ctl_modify_port",
	"mrc_ctl_poll_ev_event",	"mrc_ctl_query_cc_profile",
	"mrc_ctl_query_device",		"mrc_ctl_query_device_ex",
	"mrc_ctl_query_ev_fmt_profile", "mrc_ctl_query_ev_profile",
	"mrc_ctl_query_port",		"mrc_ctl_query_version",
};

std::set<std::string> all_functions()
{
	std::set<std::string> all = api_functions;
	all.insert(ctl_functions.begin(), ctl_functions.end());
	return all;
}

// The prototypes at the start of a line of a header: "int mrc_x(",
// "void mrc_x(", "struct mrc_y *mrc_x(".
std::set<std::string> declared_functions(const char *path)
{
	std::ifstream h(path);
	const std::regex proto(
		R"(^(int|void|struct mrc_[a-z_]+ \*)\s*(mrc_[a-z0-9_]+)\()");
	std::set<std::string> found;
	std::string line;
	std::smatch m;
	while (std::getline(h, line))
		if (std::regex_search(line, m, proto))
			found.insert(m[2]);
	return found;
}

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
	EXPECT_EQ(abi_c_nfunctions, api_functions.size() + ctl_functions.size());
}

TEST(LibMrcAbi, HeaderDeclaresTheApiFunctions)
{
	ASSERT_TRUE(std::ifstream(MRC_HEADER)) << MRC_HEADER;
	EXPECT_EQ(declared_functions(MRC_HEADER), api_functions);
	ASSERT_TRUE(std::ifstream(MRC_CTL_HEADER)) << MRC_CTL_HEADER;
	EXPECT_EQ(declared_functions(MRC_CTL_HEADER), ctl_functions);
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
	EXPECT_EQ(exported, all_functions()) << "nm -D output:\n" << out;
}

TEST(LibMrcAbi, SonameIsVersioned)
{
	const std::string out = run("objdump -p " LIB_MRC_SO " 2>&1");
	EXPECT_NE(out.find("SONAME               lib_mrc.so.1"), std::string::npos)
		<< out;
}

// A version query's four outputs: 1.0.1, 0.0.0, vendor 1.0.0, 0.0.0 (both
// APIs); null pointers are allowed.
void expect_versions(void (*query)(uint32_t *, uint32_t *, uint32_t *, uint32_t *))
{
	uint32_t v[4] = {0, 1, 0, 1};
	query(&v[0], &v[1], &v[2], &v[3]);
	EXPECT_EQ(v[0], MRC_API_VER(1, 0, 1));
	EXPECT_EQ(v[1], MRC_API_VER(0, 0, 0));
	EXPECT_EQ(v[2], MRC_API_VER(1, 0, 0));
	EXPECT_EQ(v[3], MRC_API_VER(0, 0, 0));
	query(nullptr, nullptr, nullptr, nullptr); // no crash
}

TEST(LibMrcAbi, VersionQuery) { expect_versions(mrc_query_version); }

// What needs no device: the argument checks before any verbs call.
TEST(LibMrcAbi, NullArgumentsAreRefused)
{
	EXPECT_ERRNO(mrc_create_context(nullptr, nullptr), nullptr, EINVAL);
	EXPECT_ERRNO(mrc_destroy_context(nullptr), -1, EINVAL);
	mrc_device_attr a;
	int sup;
	EXPECT_ERRNO(mrc_query_device(nullptr, &a, &sup), -1, EINVAL);
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

TEST(LibMrcAbi, CtlVersionQuery) { expect_versions(mrc_ctl_query_version); }

// Missing arguments: EINVAL, never a crash.
TEST(LibMrcAbi, CtlRefusals)
{
	mrc_ctl_port_attr pa{};
	EXPECT_ERRNO(mrc_ctl_query_port(nullptr, 1, &pa, MRC_CTL_PORT_ADMIN_STATE),
		     -1, EINVAL);
	mrc_ctl_ev_event ev[2];
	EXPECT_EQ(mrc_ctl_poll_ev_event(nullptr, 2, ev), -EINVAL);
	EXPECT_ERRNO(mrc_ctl_create_ev_event_cq(nullptr, 4, nullptr, nullptr, 0),
		     nullptr, EINVAL);
}

// A good EV probe request toward 10.0.0.2: UDP EV 0xc000 on port 1.
static mrc_ctl_ep_req ep_req(uint16_t id)
{
	mrc_ctl_ep_req r{};
	r.req_id = id;
	r.dgid.raw[10] = 0xff;
	r.dgid.raw[11] = 0xff;
	r.dgid.raw[12] = 10;
	r.dgid.raw[15] = 2;
	r.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	r.req_ev.val[0] = 0xc0;
	r.req_ev.port = 1;
	return r;
}

// mrc_ctl_ep_batch_send_wait()'s argument checks, all made before the
// context is touched (a fake one): EINVAL and *num_rsp 0.
TEST(LibMrcAbi, CtlEpBatchArguments)
{
	auto *fake_ctx = reinterpret_cast<mrc_context *>(16);
	std::vector<mrc_ctl_ep_rsp> rsp(300);
	auto send = [&](mrc_context *c, int op, std::vector<mrc_ctl_ep_req> req,
			uint32_t timeout = 1000, bool null_rsp = false) {
		int n = 7;
		errno = 0;
		int rc = mrc_ctl_ep_batch_send_wait(
			c, 0, static_cast<mrc_ctl_ep_op_type>(op),
			req.empty() ? nullptr : req.data(),
			static_cast<int>(req.size()), timeout,
			null_rsp ? nullptr : rsp.data(), &n);
		EXPECT_EQ(n, 0);
		return rc == -1 ? errno : 0;
	};
	const int probe = MRC_CTL_EP_OP_EV_PROBE;
	const int status = MRC_CTL_EP_OP_PORT_STATUS_UPDATE;
	EXPECT_EQ(send(nullptr, probe, {ep_req(1)}), EINVAL);
	EXPECT_EQ(send(fake_ctx, probe, {}), EINVAL);
	EXPECT_EQ(send(fake_ctx, probe, {ep_req(1)}, 1000, true), EINVAL);
	mrc_ctl_ep_req one = ep_req(1);
	EXPECT_ERRNO(mrc_ctl_ep_batch_send_wait(fake_ctx, 0,
						MRC_CTL_EP_OP_EV_PROBE, &one, 1,
						1000, rsp.data(), nullptr),
		     -1, EINVAL);
	std::vector<mrc_ctl_ep_req> many;
	for (int i = 0; i < 257; i++)
		many.push_back(ep_req(static_cast<uint16_t>(i)));
	EXPECT_EQ(send(fake_ctx, probe, many), EINVAL);
	EXPECT_EQ(send(fake_ctx, probe, {ep_req(1), ep_req(2), ep_req(1)}),
		  EINVAL);
	EXPECT_EQ(send(fake_ctx, 2, {ep_req(1)}), EINVAL);
	EXPECT_EQ(send(fake_ctx, probe, {ep_req(1)}, 0), EINVAL);
	auto bad = [&](auto change) {
		mrc_ctl_ep_req r = ep_req(1);
		change(r);
		return send(fake_ctx, probe, {ep_req(2), r});
	};
	EXPECT_EQ(bad([](mrc_ctl_ep_req &r) { r.req_ev.port = 0; }), EINVAL);
	EXPECT_EQ(bad([](mrc_ctl_ep_req &r) { r.req_ev.port = 17; }), EINVAL);
	EXPECT_EQ(bad([](mrc_ctl_ep_req &r) { r.dgid = ibv_gid{}; }), EINVAL);
	EXPECT_EQ(bad([](mrc_ctl_ep_req &r) {
			  r.ev_fmt_mode = static_cast<mrc_ctl_ev_fmt_mode>(0);
		  }),
		  EINVAL);
	EXPECT_EQ(bad([](mrc_ctl_ep_req &r) {
			  r.ev_fmt_mode = static_cast<mrc_ctl_ev_fmt_mode>(
				  MRC_CTL_EV_FMT_MODE_UDP |
				  MRC_CTL_EV_FMT_MODE_STEV);
		  }),
		  EINVAL);
	// Bytes beyond the format's value (UDP: 2, STEV: 4, SRV6: 32).
	EXPECT_EQ(bad([](mrc_ctl_ep_req &r) { r.req_ev.val[2] = 1; }), EINVAL);
	EXPECT_EQ(bad([](mrc_ctl_ep_req &r) {
			  r.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
			  r.req_ev.val[4] = 1;
		  }),
		  EINVAL);
	// A port status: bit 0 and bits above port 16 name no port.
	auto ps = [&](uint32_t bits) {
		mrc_ctl_ep_req r = ep_req(1);
		r.op.port_status_update.port_status = bits;
		return send(fake_ctx, status, {r}, 0);
	};
	EXPECT_EQ(ps(1u), EINVAL);
	EXPECT_EQ(ps(1u << 17), EINVAL);
	EXPECT_EQ(ps(1u << 31), EINVAL);
}

// The EV event calls' argument checks (ctl_ev_event.cpp), made before the
// context is touched (a fake one): EINVAL, the poll's as a negative value.
TEST(LibMrcAbi, CtlEvEventArguments)
{
	auto *fake_ctx = reinterpret_cast<mrc_context *>(16);
	const struct {
		int cqe;
		int comp_vector;
	} bad[] = {{0, 0}, {-1, 0}, {65537, 0}, {1 << 30, 0}, {4, -1}};
	for (const auto &b : bad) {
		SCOPED_TRACE("cqe " + std::to_string(b.cqe) + " comp_vector " +
			     std::to_string(b.comp_vector));
		EXPECT_ERRNO(mrc_ctl_create_ev_event_cq(fake_ctx, b.cqe, nullptr,
							nullptr, b.comp_vector),
			     nullptr, EINVAL);
	}
	mrc_ctl_ev_event ev[2];
	errno = 0;
	EXPECT_EQ(mrc_ctl_poll_ev_event(nullptr, 0, nullptr), -EINVAL);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(mrc_ctl_poll_ev_event(nullptr, -1, ev), -EINVAL);
	// The usual CQ calls on no CQ at all.
	EXPECT_EQ(mrc_req_notify_cq(nullptr, 0), EINVAL);
	mrc_ack_cq_events(nullptr, 1); // no crash
}

// The EV profile calls' argument checks, made before the context or the
// kernel is asked (a fake context is never touched).
TEST(LibMrcAbi, CtlEvProfileArguments)
{
	auto *fake_ctx = reinterpret_cast<mrc_context *>(16);
	const int st = MRC_CTL_EV_PROFILE_STATE;
	mrc_ctl_ev_profile_attr a{};
	auto modify = [&](mrc_context *c, uint64_t id, int mask) {
		errno = 0;
		int rc = mrc_ctl_modify_ev_profile(c, id, &a, mask);
		return rc == -1 ? errno : 0;
	};
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	EXPECT_EQ(modify(nullptr, 1, st), EINVAL);
	EXPECT_ERRNO(mrc_ctl_modify_ev_profile(fake_ctx, 1, nullptr, st), -1,
		     EINVAL);
	EXPECT_EQ(modify(fake_ctx, 0, st), EINVAL) << "the built-in profile";
	EXPECT_EQ(modify(fake_ctx, 65536, st), EINVAL);
	for (int mask :
	     {0, int{MRC_CTL_EV_PROFILE_CUR_STATE},
	      int{MRC_CTL_EV_PROFILE_VENDOR_CFG}, 1 << 9,
	      MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_EV_FIELDS_OP})
		EXPECT_EQ(modify(fake_ctx, 1, mask), EINVAL) << "mask " << mask;
	a.profile_state = static_cast<mrc_ctl_profile_state>(3);
	EXPECT_EQ(modify(fake_ctx, 1, st), EINVAL);
	for (int mode : {0, 3, 8}) {
		a.ev_mode = static_cast<mrc_ctl_ev_mode>(mode);
		EXPECT_EQ(modify(fake_ctx, 1, MRC_CTL_EV_PROFILE_MODE), EINVAL)
			<< "mode " << mode;
	}
	a.ev_count = 0;
	EXPECT_EQ(modify(fake_ctx, 1, MRC_CTL_EV_PROFILE_COUNT), EINVAL);
	a.ev_count = 257;
	EXPECT_EQ(modify(fake_ctx, 1, MRC_CTL_EV_PROFILE_COUNT), E2BIG);
	a.ev_min_active = 257;
	EXPECT_EQ(modify(fake_ctx, 1, MRC_CTL_EV_PROFILE_MIN_ACTIVE), EINVAL);
	for (int m : {int{MRC_CTL_EV_DENIED}, int{MRC_CTL_EV_UNKNOWN}, 8}) {
		a.ev_event_mask = m;
		EXPECT_EQ(modify(fake_ctx, 1, MRC_CTL_EV_PROFILE_EVENT_MASK),
			  EINVAL)
			<< "event mask " << m;
	}
	const int fo = MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
	mrc_ctl_ev_field f{};
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, nullptr, 1};
	EXPECT_EQ(modify(fake_ctx, 1, fo), EINVAL) << "no field array";
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, &f, 0};
	EXPECT_EQ(modify(fake_ctx, 1, fo), EINVAL) << "no fields";
	a.ev_fields_op = {static_cast<mrc_ctl_ev_fields_op>(2), &f, 1};
	EXPECT_EQ(modify(fake_ctx, 1, fo), EINVAL) << "fields op 2";
	struct {
		mrc_ctl_ev_field f;
		int err;
	} fields[] = {
		{{0, 0, 0, 0, 0}, EINVAL},    // no width
		{{33, 0, 0, 1, 1}, E2BIG},    // wider than 32 bits
		{{4, 0x10, 0, 0, 0}, EINVAL}, // init_val wider
		{{4, 0, 0, 1, 0x10}, EINVAL}, // mask wider
		{{4, 0, 0, 4, 0x3}, EINVAL},  // max_val beyond 2 mask bits
		{{4, 0, 2, 1, 0x3}, EINVAL},  // min_val > max_val
		{{4, 5, 1, 1, 0}, EINVAL},    // fixed field with min/max
	};
	for (const auto &x : fields) {
		f = x.f;
		a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, &f, 1};
		EXPECT_EQ(modify(fake_ctx, 1, fo), x.err)
			<< "field width " << x.f.width << " init "
			<< x.f.init_val;
	}

	auto query = [&](uint64_t id, int mask) {
		errno = 0;
		int rc = mrc_ctl_query_ev_profile(fake_ctx, id, &a, mask);
		return rc == -1 ? errno : 0;
	};
	EXPECT_ERRNO(mrc_ctl_query_ev_profile(nullptr, 1, &a, st), -1, EINVAL);
	EXPECT_ERRNO(mrc_ctl_query_ev_profile(fake_ctx, 1, nullptr, st), -1,
		     EINVAL);
	EXPECT_EQ(query(65536, st), EINVAL);
	for (int mask :
	     {0, int{MRC_CTL_EV_PROFILE_VENDOR_CFG}, 1 << 9,
	      MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_EV_FIELDS_OP})
		EXPECT_EQ(query(1, mask), EINVAL) << "mask " << mask;
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, &f, 1};
	EXPECT_EQ(query(1, fo), EINVAL) << "MODIFY_FIELDS in a query";
}

// The EV format profile calls' argument checks (fake context untouched).
TEST(LibMrcAbi, CtlEvFmtProfileArguments)
{
	auto *fake_ctx = reinterpret_cast<mrc_context *>(16);
	const int st = MRC_CTL_EV_FMT_PROFILE_STATE;
	mrc_ctl_ev_fmt_profile_attr a{};
	auto modify = [&](mrc_context *c, uint64_t id, int mask) {
		errno = 0;
		int rc = mrc_ctl_modify_ev_fmt_profile(c, id, &a, mask);
		return rc == -1 ? errno : 0;
	};
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	EXPECT_EQ(modify(nullptr, 1, st), EINVAL);
	EXPECT_ERRNO(mrc_ctl_modify_ev_fmt_profile(fake_ctx, 1, nullptr, st),
		     -1, EINVAL);
	EXPECT_EQ(modify(fake_ctx, 0, st), EINVAL) << "id 0";
	for (int mask : {0, int{MRC_CTL_EV_FMT_PROFILE_CUR_STATE},
			 int{MRC_CTL_EV_FMT_VENDOR_CFG}, 1 << 4})
		EXPECT_EQ(modify(fake_ctx, 1, mask), EINVAL) << "mask " << mask;
	a.profile_state = static_cast<mrc_ctl_profile_state>(3);
	EXPECT_EQ(modify(fake_ctx, 1, st), EINVAL);
	for (int mode : {0, 3, 8}) {
		a.ev_fmt_mode = static_cast<mrc_ctl_ev_fmt_mode>(mode);
		EXPECT_EQ(modify(fake_ctx, 1, MRC_CTL_EV_FMT_PROFILE_MODE), EINVAL)
			<< "mode " << mode;
	}
	const int op = MRC_CTL_EV_FMT_PROFILE_OP;
	mrc_ctl_ev_fmt_field w{0};
	a.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, &w, 1};
	EXPECT_EQ(modify(fake_ctx, 1, op), EINVAL) << "a field of width 0";
	a.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, nullptr, 1};
	EXPECT_EQ(modify(fake_ctx, 1, op), EINVAL) << "no field array";
	a.ev_fmt_op = {static_cast<mrc_ctl_ev_fmt_op>(2), &w, 1};
	EXPECT_EQ(modify(fake_ctx, 1, op), EINVAL) << "op 2";
	EXPECT_ERRNO(mrc_ctl_query_ev_fmt_profile(nullptr, 1, &a, st), -1,
		     EINVAL);
	for (int mask : {0, int{MRC_CTL_EV_FMT_VENDOR_CFG}, 1 << 4})
		EXPECT_ERRNO(mrc_ctl_query_ev_fmt_profile(fake_ctx, 1, &a, mask),
			     -1, EINVAL);
	a.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, &w, 1};
	EXPECT_ERRNO(mrc_ctl_query_ev_fmt_profile(fake_ctx, 1, &a, op), -1,
		     EINVAL);
}

// The CC profile calls' argument checks, made before the context or the
// kernel is asked (a fake context is never touched): EINVAL.
TEST(LibMrcAbi, CtlCcProfileArguments)
{
	auto *fake_ctx = reinterpret_cast<mrc_context *>(16);
	mrc_ctl_cc_nscc_cfg cfg{};
	mrc_ctl_cc_profile_attr a{};
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	a.algorithm = "uet-1.0-nscc";
	a.cc_config = &cfg;
	const int st = MRC_CTL_CC_PROFILE_STATE | MRC_CTL_CC_PROFILE_ALGORITHM;
	struct {
		mrc_context *ctx;
		uint64_t id;
		int mask;
		const char *algo;
		int state;
	} bad[] = {
		{nullptr, 1, st, "uet-1.0-nscc", MRC_CTL_PROFILE_OFFLINE},
		{fake_ctx, 0, st, "uet-1.0-nscc", MRC_CTL_PROFILE_OFFLINE},
		{fake_ctx, 65536, st, "uet-1.0-nscc", MRC_CTL_PROFILE_OFFLINE},
		{fake_ctx, 1, 0, "uet-1.0-nscc", MRC_CTL_PROFILE_OFFLINE},
		{fake_ctx, 1, st | MRC_CTL_CC_PROFILE_CUR_STATE, "uet-1.0-nscc",
		 MRC_CTL_PROFILE_OFFLINE},
		{fake_ctx, 1, st | MRC_CTL_CC_PROFILE_VENDOR_CFG,
		 "uet-1.0-nscc", MRC_CTL_PROFILE_OFFLINE},
		// (a NULL algorithm is valid: no CC; mrc_api_check tries it)
		{fake_ctx, 1, st, "dctcp", MRC_CTL_PROFILE_OFFLINE},
		{fake_ctx, 1, st, "uet-1.0-nscc", 3},
	};
	for (const auto &b : bad) {
		a.algorithm = b.algo;
		a.profile_state = static_cast<mrc_ctl_profile_state>(b.state);
		errno = 0;
		EXPECT_EQ(mrc_ctl_modify_cc_profile(b.ctx, b.id, &a, b.mask), -1);
		EXPECT_EQ(errno, EINVAL) << "id " << b.id << " mask " << b.mask;
	}
	EXPECT_ERRNO(mrc_ctl_modify_cc_profile(fake_ctx, 1, nullptr, st), -1,
		     EINVAL);
	for (int mask : {0, int{MRC_CTL_CC_PROFILE_VENDOR_CFG}, 1 << 4}) {
		EXPECT_ERRNO(mrc_ctl_query_cc_profile(fake_ctx, 1, &a, mask),
			     -1, EINVAL);
	}
	a.cc_config = nullptr;
	EXPECT_ERRNO(mrc_ctl_query_cc_profile(fake_ctx, 1, &a,
					      MRC_CTL_CC_PROFILE_CONFIG),
		     -1, EINVAL);
	EXPECT_ERRNO(mrc_ctl_query_cc_profile(fake_ctx, 65536, &a,
					      MRC_CTL_CC_PROFILE_CUR_STATE),
		     -1, EINVAL);
}
