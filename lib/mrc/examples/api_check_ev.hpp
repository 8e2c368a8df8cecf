// SPDX-License-Identifier: GPL-2.0-only
// mrc_api_check --ev / --ev-unpriv: the controller API's EV format and EV
// profiles (ctl_ev_*.cpp) on a device with planes 1..4.  Included by
// mrc_api_check.cpp (every .cpp here is a program of its own); uses its
// check(), Endpoint and state constants.
#pragma once

#include <vector>

namespace {

using Fields = std::vector<mrc_ctl_ev_field>;

mrc_ctl_ev ev_of(uint8_t port, uint32_t value, int bytes)
{
	mrc_ctl_ev ev{};
	ev.port = port;
	for (int i = 0; i < bytes; i++)
		ev.val[i] = static_cast<uint8_t>(value >> (8 * (bytes - 1 - i)));
	return ev;
}

mrc_ctl_ev udp(uint8_t port, uint16_t v) { return ev_of(port, v, 2); }

bool same_ev(const mrc_ctl_ev &a, const mrc_ctl_ev &b)
{
	return a.port == b.port && !std::memcmp(a.val, b.val, sizeof(a.val));
}

// Format profile @id: @mode cut into @widths, taken ONLINE.
int fmt_up(Endpoint &e, uint64_t id, mrc_ctl_ev_fmt_mode mode,
	   std::vector<uint8_t> widths)
{
	mrc_ctl_ev_fmt_profile_attr a{};
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	a.ev_fmt_mode = mode;
	if (mrc_ctl_modify_ev_fmt_profile(e.ctx.get(), id, &a,
					  MRC_CTL_EV_FMT_PROFILE_STATE |
						  MRC_CTL_EV_FMT_PROFILE_MODE))
		return -1;
	std::vector<mrc_ctl_ev_fmt_field> f;
	for (uint8_t w : widths)
		f.push_back({w});
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	a.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, f.data(),
		       static_cast<int>(f.size())};
	return mrc_ctl_modify_ev_fmt_profile(e.ctx.get(), id, &a,
					     MRC_CTL_EV_FMT_PROFILE_STATE |
						     MRC_CTL_EV_FMT_PROFILE_OP);
}

// An EV op of @op on profile @id (modify or query).
int ev_op(Endpoint &e, uint64_t id, mrc_ctl_ev_op op,
	  std::vector<mrc_ctl_ev_op_entry> &ent, bool query = false,
	  int extra_mask = 0, int *count = nullptr)
{
	mrc_ctl_ev_profile_attr a{};
	a.ev_op = {op, ent.data(), static_cast<int>(ent.size())};
	int rc = query ? mrc_ctl_query_ev_profile(e.ctx.get(), id, &a,
						  MRC_CTL_EV_PROFILE_EV_OP |
							  extra_mask) :
			 mrc_ctl_modify_ev_profile(e.ctx.get(), id, &a,
						   MRC_CTL_EV_PROFILE_EV_OP |
							   extra_mask);
	if (count)
		*count = a.ev_op.entry_count;
	return rc;
}

mrc_ctl_ev_op_entry replace_entry(mrc_ctl_ev from, mrc_ctl_ev to,
				  mrc_ctl_ev_state st = MRC_CTL_EV_UNKNOWN,
				  uint32_t flags = 0)
{
	mrc_ctl_ev_op_entry x{};
	x.ev = from;
	x.ev_new = to;
	x.state = st;
	x.flags = flags;
	return x;
}

// The EV array of @id, or nothing if the query fails.
std::vector<mrc_ctl_ev_op_entry> ev_array(Endpoint &e, uint64_t id)
{
	std::vector<mrc_ctl_ev_op_entry> ent(300);
	int n = 0;
	if (ev_op(e, id, MRC_CTL_EV_OP_QUERY_EV_ARRAY, ent, true, 0, &n))
		return {};
	ent.resize(n);
	return ent;
}

using Want = std::vector<std::pair<mrc_ctl_ev, mrc_ctl_ev_state>>;

bool array_is(Endpoint &e, uint64_t id, const Want &want)
{
	auto got = ev_array(e, id);
	if (got.size() != want.size())
		return false;
	for (size_t i = 0; i < want.size(); i++)
		if (!same_ev(got[i].ev, want[i].first) ||
		    got[i].state != want[i].second)
			return false;
	return true;
}

mrc_ctl_ev_profile_attr ev_query(Endpoint &e, uint64_t id, int *rc = nullptr)
{
	mrc_ctl_ev_profile_attr a{};
	int r = mrc_ctl_query_ev_profile(e.ctx.get(), id, &a,
					 MRC_CTL_EV_PROFILE_STATE |
						 MRC_CTL_EV_PROFILE_CUR_STATE |
						 MRC_CTL_EV_PROFILE_MODE |
						 MRC_CTL_EV_PROFILE_FMT_ID |
						 MRC_CTL_EV_PROFILE_COUNT |
						 MRC_CTL_EV_PROFILE_MIN_ACTIVE |
						 MRC_CTL_EV_PROFILE_EVENT_MASK);
	if (rc)
		*rc = r;
	return a;
}

int ev_state(Endpoint &e, uint64_t id)
{
	int rc = 0;
	auto a = ev_query(e, id, &rc);
	return rc ? -1 : a.cur_profile_state;
}

int ev_set_state(Endpoint &e, uint64_t id, int st)
{
	mrc_ctl_ev_profile_attr a{};
	a.profile_state = static_cast<mrc_ctl_profile_state>(st);
	return mrc_ctl_modify_ev_profile(e.ctx.get(), id, &a,
					 MRC_CTL_EV_PROFILE_STATE);
}

// INIT -> OFFLINE of @id with a definition (fields: GEN).
int ev_define(Endpoint &e, uint64_t id, mrc_ctl_ev_mode mode, uint64_t fmt,
	      uint32_t count, Fields *fields = nullptr)
{
	mrc_ctl_ev_profile_attr a{};
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	a.ev_mode = mode;
	a.ev_fmt_profile_id = fmt;
	a.ev_count = count;
	int mask = MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_MODE |
		   MRC_CTL_EV_PROFILE_FMT_ID | MRC_CTL_EV_PROFILE_COUNT;
	if (fields) {
		a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
				  fields->data(),
				  static_cast<int>(fields->size())};
		mask |= MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
	}
	return mrc_ctl_modify_ev_profile(e.ctx.get(), id, &a, mask);
}

Fields ev_fields(Endpoint &e, uint64_t id, int *rc)
{
	Fields f(16);
	mrc_ctl_ev_profile_attr a{};
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS, f.data(),
			  static_cast<int>(f.size())};
	*rc = mrc_ctl_query_ev_profile(e.ctx.get(), id, &a,
				       MRC_CTL_EV_PROFILE_EV_FIELDS_OP);
	f.resize(*rc ? 0 : static_cast<size_t>(a.ev_fields_op.field_count));
	return f;
}

bool same_fields(const Fields &a, const Fields &b)
{
	if (a.size() != b.size())
		return false;
	for (size_t i = 0; i < a.size(); i++)
		if (std::memcmp(&a[i], &b[i], sizeof(a[i])))
			return false;
	return true;
}

void ctl_ev_fmt(Endpoint &e)
{
	mrc_ctl_ev_fmt_profile_attr a{};
	check(mrc_ctl_query_ev_fmt_profile(e.ctx.get(), 1, &a,
					   MRC_CTL_EV_FMT_PROFILE_CUR_STATE) == 0 &&
		      a.cur_profile_state == INIT,
	      "EV format profile 1 queries INIT");
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	errno = 0;
	check(mrc_ctl_modify_ev_fmt_profile(e.ctx.get(), 1, &a,
					    MRC_CTL_EV_FMT_PROFILE_STATE) == -1 &&
		      errno == EINVAL,
	      "EV format profile INIT -> ONLINE: EINVAL");
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	errno = 0;
	check(mrc_ctl_modify_ev_fmt_profile(e.ctx.get(), 1, &a,
					    MRC_CTL_EV_FMT_PROFILE_STATE) == -1 &&
		      errno == EINVAL,
	      "EV format profile INIT -> OFFLINE without a mode: EINVAL");
	mrc_ctl_ev_fmt_field eight{8};
	a.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	a.ev_fmt_op = {MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, &eight, 1};
	errno = 0;
	check(mrc_ctl_modify_ev_fmt_profile(e.ctx.get(), 1, &a,
					    MRC_CTL_EV_FMT_PROFILE_STATE |
						    MRC_CTL_EV_FMT_PROFILE_MODE |
						    MRC_CTL_EV_FMT_PROFILE_OP) ==
			      -1 &&
		      errno == E2BIG,
	      "UDP fields of 8 bits (not 16): E2BIG");
	check(fmt_up(e, 1, MRC_CTL_EV_FMT_MODE_UDP, {16}) == 0,
	      "EV format profile 1: UDP {16}, ONLINE");
	mrc_ctl_ev_fmt_field got[3]{};
	a = {};
	a.ev_fmt_op = {MRC_CTL_EV_FMT_OP_QUERY_FIELDS, got, 0};
	errno = 0;
	check(mrc_ctl_query_ev_fmt_profile(e.ctx.get(), 1, &a,
					   MRC_CTL_EV_FMT_PROFILE_OP) == -1 &&
		      errno == E2BIG && a.ev_fmt_op.fmt_field_count == 1,
	      "its fields into 0 entries: E2BIG, 1 needed");
	a.ev_fmt_op.fmt_field_count = 3;
	check(mrc_ctl_query_ev_fmt_profile(e.ctx.get(), 1, &a,
					   MRC_CTL_EV_FMT_PROFILE_OP |
						   MRC_CTL_EV_FMT_PROFILE_MODE |
						   MRC_CTL_EV_FMT_PROFILE_STATE) ==
			      0 &&
		      a.ev_fmt_op.fmt_field_count == 1 && got[0].width == 16 &&
		      a.ev_fmt_mode == MRC_CTL_EV_FMT_MODE_UDP &&
		      a.profile_state == ONLINE,
	      "... read back: ONLINE, UDP, one field of 16 bits");
	a.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
	errno = 0;
	check(mrc_ctl_modify_ev_fmt_profile(e.ctx.get(), 1, &a,
					    MRC_CTL_EV_FMT_PROFILE_MODE) == -1 &&
		      errno == EBUSY,
	      "a mode change while ONLINE: EBUSY");
	check(fmt_up(e, 2, MRC_CTL_EV_FMT_MODE_UDP, {8, 4, 4}) == 0,
	      "EV format profile 2: UDP {8, 4, 4}, ONLINE");
	check(fmt_up(e, 3, MRC_CTL_EV_FMT_MODE_STEV, {20, 12}) == 0,
	      "EV format profile 3: STEV {20, 12}, ONLINE");
}

// EXP profile 31 through every state; left ONLINE with 4 EVs for the
// caller to compare with mrcctl.
void ctl_ev_exp(Endpoint &e)
{
	const auto U = MRC_CTL_EV_UNKNOWN, D = MRC_CTL_EV_DENIED;
	mrc_ctl_ev none{};
	check(ev_state(e, 31) == INIT, "EV profile 31 queries INIT");
	errno = 0;
	check(ev_define(e, 31, MRC_CTL_EV_MODE_EXP, 9, 3) == -1 && errno == EINVAL,
	      "INIT -> OFFLINE on a format profile that does not exist: EINVAL");
	errno = 0;
	check(ev_set_state(e, 31, ONLINE) == -1 && errno == EINVAL,
	      "INIT -> ONLINE: EINVAL");
	check(ev_define(e, 31, MRC_CTL_EV_MODE_EXP, 1, 3) == 0 &&
		      ev_state(e, 31) == OFFLINE,
	      "INIT -> OFFLINE: EXP, format profile 1, 3 slots");
	check(array_is(e, 31, {{none, U}, {none, U}, {none, U}}),
	      "... 3 unpopulated slots");
	errno = 0;
	check(ev_set_state(e, 31, ONLINE) == -1 && errno == EINVAL &&
		      ev_state(e, 31) == OFFLINE,
	      "OFFLINE -> ONLINE with unpopulated slots: EINVAL, stays OFFLINE");
	std::vector<mrc_ctl_ev_op_entry> r = {
		replace_entry(none, udp(1, 0xc001)),
		replace_entry(none, udp(2, 0xc002)),
	};
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, r) == 0 &&
		      array_is(e, 31,
			       {{udp(1, 0xc001), U},
				{udp(2, 0xc002), U},
				{none, U}}),
	      "REPLACE_EV of 2 unpopulated slots, in order");
	r = {replace_entry(udp(3, 0x1234), udp(1, 0xc005))};
	errno = 0;
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, r) == -1 && errno == ENOENT,
	      "REPLACE_EV of an EV the profile has not: ENOENT");
	r = {replace_entry(none, udp(2, 0xc002))};
	errno = 0;
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, r) == -1 && errno == EINVAL,
	      "REPLACE_EV making a second copy of an EV: EINVAL");
	r = {replace_entry(none, udp(1, 0xc003), D)};
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, r) == 0 &&
		      array_is(e, 31,
			       {{udp(1, 0xc001), U},
				{udp(2, 0xc002), U},
				{udp(1, 0xc003), D}}),
	      "the last slot filled, DENIED: the kernel holds the profile");
	mrc_ctl_ev_profile_attr a{};
	a.ev_min_active = 2;
	a.ev_event_mask = MRC_CTL_EV_ASSUMED_BAD;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 31, &a,
					MRC_CTL_EV_PROFILE_MIN_ACTIVE |
						MRC_CTL_EV_PROFILE_EVENT_MASK) ==
		      0,
	      "ev_min_active 2, ev_event_mask ASSUMED_BAD while OFFLINE");
	check(ev_set_state(e, 31, ONLINE) == 0, "OFFLINE -> ONLINE");
	int rc = 0;
	a = ev_query(e, 31, &rc);
	check(rc == 0 && a.profile_state == ONLINE &&
		      a.cur_profile_state == ONLINE &&
		      a.ev_mode == MRC_CTL_EV_MODE_EXP &&
		      a.ev_fmt_profile_id == 1 && a.ev_count == 3 &&
		      a.ev_min_active == 2 &&
		      a.ev_event_mask == MRC_CTL_EV_ASSUMED_BAD,
	      "query: ONLINE, EXP, format 1, 3 EVs, min active 2, ASSUMED_BAD");
	a.ev_count = 4;
	errno = 0;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 31, &a,
					MRC_CTL_EV_PROFILE_COUNT) == -1 &&
		      errno == EBUSY,
	      "a count change while ONLINE: EBUSY");
	a.ev_mode = MRC_CTL_EV_MODE_GEN;
	errno = 0;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 31, &a,
					MRC_CTL_EV_PROFILE_MODE) == -1 &&
		      errno == EBUSY,
	      "a mode change while ONLINE: EBUSY");
	r = {replace_entry(udp(1, 0xc001), udp(3, 0xc011))};
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, r) == 0,
	      "REPLACE_EV while ONLINE (the kernel allows it)");
	r = {replace_entry(udp(1, 0xc003), none, MRC_CTL_EV_GOOD),
	     replace_entry(udp(2, 0xc002), none, D)};
	check(ev_op(e, 31, MRC_CTL_EV_OP_MODIFY_EV_STATE, r) == 0 &&
		      array_is(e, 31,
			       {{udp(3, 0xc011), U},
				{udp(2, 0xc002), D},
				{udp(1, 0xc003), U}}),
	      "MODIFY_EV_STATE: allow one, deny another");
	r = {replace_entry(udp(2, 0xc002), none, MRC_CTL_EV_ASSUMED_BAD)};
	errno = 0;
	check(ev_op(e, 31, MRC_CTL_EV_OP_MODIFY_EV_STATE, r) == -1 &&
		      errno == EINVAL,
	      "MODIFY_EV_STATE to ASSUMED_BAD (the transport's): EINVAL");
	r = {replace_entry(udp(2, 0xc002), none, MRC_CTL_EV_GOOD)};
	check(ev_op(e, 31, MRC_CTL_EV_OP_QUERY_EV_STATE, r, true) == 0 &&
		      r[0].state == D,
	      "QUERY_EV_STATE: DENIED");
	std::vector<mrc_ctl_ev_op_entry> small(2);
	int n = 0;
	errno = 0;
	check(ev_op(e, 31, MRC_CTL_EV_OP_QUERY_EV_ARRAY, small, true, 0, &n) ==
			      -1 &&
		      errno == E2BIG && n == 3,
	      "QUERY_EV_ARRAY into 2 entries: E2BIG, 3 needed");
	errno = 0;
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, small, true) == -1 &&
		      errno == EINVAL,
	      "REPLACE_EV in a query: EINVAL");
	check(ev_set_state(e, 31, OFFLINE) == 0 && ev_state(e, 31) == OFFLINE,
	      "ONLINE -> OFFLINE");
	a.ev_count = 4;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 31, &a,
					MRC_CTL_EV_PROFILE_COUNT) == 0 &&
		      array_is(e, 31,
			       {{udp(3, 0xc011), U},
				{udp(2, 0xc002), D},
				{udp(1, 0xc003), U},
				{none, U}}),
	      "4 slots while OFFLINE: the EVs kept, one slot unpopulated");
	r = {replace_entry(none, udp(4, 0xc004))};
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, r) == 0 &&
		      ev_set_state(e, 31, ONLINE) == 0 &&
		      ev_state(e, 31) == ONLINE,
	      "... filled, ONLINE again (left for the caller)");
	a = ev_query(e, 31, &rc);
	check(rc == 0 && a.ev_min_active == 2 &&
		      a.ev_event_mask == MRC_CTL_EV_ASSUMED_BAD &&
		      a.ev_count == 4,
	      "... min active and event mask kept over the redefinition");

	check(ev_define(e, 32, MRC_CTL_EV_MODE_EXP, 1, 2) == 0 &&
		      ev_set_state(e, 32, INIT) == 0 && ev_state(e, 32) == INIT,
	      "EV profile 32: INIT -> OFFLINE -> INIT");
	check(ev_define(e, 32, MRC_CTL_EV_MODE_EXP, 1, 2) == 0,
	      "... OFFLINE again");
	r = {replace_entry(none, udp(1, 0xc0aa), U, MRC_CTL_EV_OP_F_ALL_COPIES)};
	errno = 0;
	check(ev_op(e, 32, MRC_CTL_EV_OP_REPLACE_EV, r) == -1 && errno == EINVAL,
	      "ALL_COPIES of 2 unpopulated slots into one EV: EINVAL");
	Fields ident{{16, 0, 0, 0xffff, 0xffff}};
	a = {};
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, ident.data(), 1};
	r = {replace_entry(none, udp(1, 0xc0aa)),
	     replace_entry(none, udp(1, 0xc0ab))};
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 32, &a,
					MRC_CTL_EV_PROFILE_EV_FIELDS_OP) == 0 &&
		      ev_op(e, 32, MRC_CTL_EV_OP_REPLACE_EV, r) == 0 &&
		      ev_set_state(e, 32, ONLINE) == 0,
	      "EXP with the identity field {16, mask 0xffff}: ONLINE");
	check(ev_set_state(e, 32, OFFLINE) == 0 &&
		      ev_set_state(e, 32, INIT) == 0 && ev_state(e, 32) == INIT,
	      "... OFFLINE, INIT: gone from the kernel");
	Fields half{{8, 0, 0, 0xff, 0xff}};
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, half.data(), 1};
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	a.ev_mode = MRC_CTL_EV_MODE_EXP;
	a.ev_fmt_profile_id = 1;
	a.ev_count = 1;
	r = {replace_entry(none, udp(1, 0xc0aa))};
	errno = 0;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 32, &a,
					MRC_CTL_EV_PROFILE_STATE |
						MRC_CTL_EV_PROFILE_MODE |
						MRC_CTL_EV_PROFILE_FMT_ID |
						MRC_CTL_EV_PROFILE_COUNT |
						MRC_CTL_EV_PROFILE_EV_FIELDS_OP) ==
			      0 &&
		      ev_op(e, 32, MRC_CTL_EV_OP_REPLACE_EV, r) == -1 &&
		      errno == EOPNOTSUPP,
	      "EXP fields other than the format's own: EOPNOTSUPP");
	check(ev_set_state(e, 32, INIT) == 0, "... INIT");
}

// GEN: the worked example of mrc.rst through the API (profile 33, left
// ONLINE), refusals, and mrcctl's profile 34 (the second example) read.
void ctl_ev_gen(Endpoint &e)
{
	const auto U = MRC_CTL_EV_UNKNOWN;
	Fields f{{8, 0xab, 0, 0, 0}, {4, 1, 0, 2, 0xf}, {4, 3, 3, 5, 0xf}};
	errno = 0;
	check(ev_define(e, 33, MRC_CTL_EV_MODE_GEN, 2, 9) == -1 &&
		      errno == EINVAL && ev_state(e, 33) == INIT,
	      "GEN INIT -> OFFLINE without fields: EINVAL");
	errno = 0;
	check(ev_define(e, 33, MRC_CTL_EV_MODE_GEN, 2, 10, &f) == -1 &&
		      errno == EINVAL && ev_state(e, 33) == INIT,
	      "GEN with 10 EVs of 9 values: EINVAL, stays INIT");
	Fields bad{{8, 0x01, 0, 3, 0x30}, {4, 0, 0, 0, 0}, {4, 0, 0, 0, 0}};
	errno = 0;
	check(ev_define(e, 33, MRC_CTL_EV_MODE_GEN, 2, 4, &bad) == -1 &&
		      errno == EOPNOTSUPP,
	      "GEN field with a fixed bit below its mask: EOPNOTSUPP");
	Fields wide{{8, 0x100, 0, 0, 0}};
	mrc_ctl_ev_profile_attr a{};
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, wide.data(), 1};
	errno = 0;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 33, &a,
					MRC_CTL_EV_PROFILE_EV_FIELDS_OP) == -1 &&
		      errno == EINVAL,
	      "GEN field whose init_val is wider than the field: EINVAL");
	check(ev_define(e, 33, MRC_CTL_EV_MODE_GEN, 2, 9, &f) == 0 &&
		      ev_state(e, 33) == OFFLINE,
	      "GEN profile 33, the worked example on format {8, 4, 4}: OFFLINE");
	Want want;
	for (uint16_t v : {0xab13, 0xab14, 0xab15, 0xab23, 0xab24, 0xab25,
			   0xab03, 0xab04, 0xab05})
		want.push_back({udp(1, v), U});
	check(array_is(e, 33, want),
	      "... its 9 EVs are mrc.rst's, in order, on port 1");
	int rc = 0;
	check(same_fields(ev_fields(e, 33, &rc), f) && rc == 0,
	      "... its fields read back as given");
	Fields one(1);
	a = {};
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS, one.data(), 1};
	errno = 0;
	check(mrc_ctl_query_ev_profile(e.ctx.get(), 33, &a,
				       MRC_CTL_EV_PROFILE_EV_FIELDS_OP) == -1 &&
		      errno == E2BIG && a.ev_fields_op.field_count == 3,
	      "... into 1 field: E2BIG, 3 needed");
	check(ev_set_state(e, 33, ONLINE) == 0 && ev_state(e, 33) == ONLINE,
	      "... ONLINE (left for the caller)");
	a.ev_fields_op = {MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, f.data(), 3};
	errno = 0;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 33, &a,
					MRC_CTL_EV_PROFILE_EV_FIELDS_OP) == -1 &&
		      errno == EBUSY,
	      "MODIFY_FIELDS while ONLINE: EBUSY");

	// Profile 34, made by the caller with mrcctl (mrc.rst's second
	// example), in the kernel's state INIT.
	a = ev_query(e, 34, &rc);
	check(rc == 0 && a.cur_profile_state == OFFLINE &&
		      a.ev_mode == MRC_CTL_EV_MODE_GEN && a.ev_count == 8 &&
		      a.ev_fmt_profile_id == 0,
	      "mrcctl's GEN profile 34: OFFLINE, GEN, 8 EVs, no format profile");
	want.clear();
	for (uint16_t v : {0xc020, 0xc080, 0xc0a0, 0xc000})
		for (uint8_t p : {1, 3})
			want.push_back({udp(p, v), U});
	check(array_is(e, 34, want),
	      "... mrc.rst's second example's EVs, in order");
	Fields k{{8, 2, 0, 3, 0x0a}};
	check(same_fields(ev_fields(e, 34, &rc), k) && rc == 0,
	      "... its field as the API's: init 2, min 0, max 3, mask 0x0a");
	check(ev_set_state(e, 34, ONLINE) == 0 && ev_state(e, 34) == ONLINE,
	      "... OFFLINE -> ONLINE");
}

void ctl_ev_args(Endpoint &e)
{
	mrc_ctl_ev_profile_attr a{};
	const std::pair<int, const char *> bad[] = {
		{MRC_CTL_EV_PROFILE_CUR_STATE, "CUR_STATE in a modify"},
		{MRC_CTL_EV_PROFILE_VENDOR_CFG, "VENDOR_CFG"},
		{MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_EV_FIELDS_OP,
		 "EV_OP with EV_FIELDS_OP"},
	};
	for (const auto &[mask, what] : bad) {
		errno = 0;
		check(mrc_ctl_modify_ev_profile(e.ctx.get(), 40, &a, mask) == -1 &&
			      errno == EINVAL,
		      std::string("modify with ") + what + ": EINVAL");
	}
	a.ev_event_mask = MRC_CTL_EV_DENIED;
	errno = 0;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 40, &a,
					MRC_CTL_EV_PROFILE_EVENT_MASK) == -1 &&
		      errno == EINVAL,
	      "ev_event_mask DENIED: EINVAL");
	a.ev_count = 257;
	errno = 0;
	check(mrc_ctl_modify_ev_profile(e.ctx.get(), 40, &a,
					MRC_CTL_EV_PROFILE_COUNT) == -1 &&
		      errno == E2BIG,
	      "ev_count 257: E2BIG");
	errno = 0;
	check(ev_set_state(e, 0, OFFLINE) == -1 && errno == EINVAL,
	      "a modify of the built-in profile 0: EINVAL");
	check(ev_state(e, 0) == ONLINE, "profile 0 queries ONLINE");
}

void ctl_ev(Endpoint &e)
{
	ctl_ev_args(e);
	ctl_ev_fmt(e);
	ctl_ev_exp(e);
	ctl_ev_gen(e);
}

// Without CAP_NET_ADMIN: profile 31 reads, its changes are EPERM.
void ctl_ev_unprivileged(Endpoint &e)
{
	check(ev_state(e, 31) == ONLINE && ev_array(e, 31).size() == 4,
	      "without CAP_NET_ADMIN EV profile 31 reads ONLINE, 4 EVs");
	errno = 0;
	check(ev_set_state(e, 31, OFFLINE) == -1 && errno == EPERM &&
		      ev_state(e, 31) == ONLINE,
	      "without CAP_NET_ADMIN ONLINE -> OFFLINE: EPERM");
	std::vector<mrc_ctl_ev_op_entry> r = {
		replace_entry(udp(4, 0xc004), udp(4, 0xc00f))};
	errno = 0;
	check(ev_op(e, 31, MRC_CTL_EV_OP_REPLACE_EV, r) == -1 && errno == EPERM,
	      "without CAP_NET_ADMIN REPLACE_EV: EPERM");
}

} // namespace
