// SPDX-License-Identifier: GPL-2.0-only
// EV formats and the EV profile state machine: INIT -> OFFLINE <-> ONLINE,
// validity rules for going ONLINE, which changes are allowed when.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "ev_profile.h"
}

namespace {

std::vector<u8> port(u16 p) { return {(u8)(p >> 8), (u8)p}; }

std::vector<u8> sid(u8 first, u8 last)
{
	std::vector<u8> v(16, 0);
	v[0] = first;
	v[15] = last;
	return v;
}

mrc_ev make_ev(u8 plane, const std::vector<u8> &v)
{
	mrc_ev e{};
	e.plane = plane;
	e.len = (u8)v.size();
	std::memcpy(e.value, v.data(), v.size());
	return e;
}

struct Prof {
	std::vector<mrc_ev> store;
	mrc_ev_profile p{};
	Prof(u8 mode, u8 fmt, u16 cap = 16) : store(cap)
	{
		EXPECT_EQ(mrc_ev_profile_init(&p, mode, fmt, store.data(), cap),
			  0);
	}
	int add(u8 plane, const std::vector<u8> &v, bool denied = false)
	{
		return mrc_ev_profile_add(&p, plane, v.data(), (u8)v.size(),
					  denied);
	}
	int state(u8 s) { return mrc_ev_profile_set_state(&p, s); }
};

TEST(EvFormat, UdpValues)
{
	auto e = make_ev(1, port(0xc001));
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_UDP, &e), 0);
	mrc_ev_outer o;
	ASSERT_EQ(mrc_ev_to_outer(MRC_EV_FMT_UDP, &e, &o), 0);
	EXPECT_EQ(o.udp_sport, 0xc001);
	EXPECT_EQ(o.flow_label, 0u);
	EXPECT_EQ(o.sid, nullptr);
	e = make_ev(1, port(0));
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_UDP, &e), -MRC_EV_EVALUE);
	e = make_ev(1, {1, 2, 3});
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_UDP, &e), -MRC_EV_ELEN);
	EXPECT_EQ(mrc_ev_to_outer(MRC_EV_FMT_UDP, &e, &o), -MRC_EV_ELEN);
}

TEST(EvFormat, PlaneRange)
{
	for (int plane : {0, MRC_MAX_PLANES + 1, 255}) {
		auto e = make_ev((u8)plane, port(1));
		EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_UDP, &e), -MRC_EV_EPLANE);
	}
	for (int plane = 1; plane <= MRC_MAX_PLANES; plane++) {
		auto e = make_ev((u8)plane, port(1));
		EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_UDP, &e), 0);
	}
}

TEST(EvFormat, StevSplitsFlowLabelAndPort)
{
	auto e = make_ev(2, {0xab, 0xcd, 0xe1, 0x23});
	mrc_ev_outer o;
	ASSERT_EQ(mrc_ev_to_outer(MRC_EV_FMT_STEV, &e, &o), 0);
	EXPECT_EQ(o.flow_label, 0xabcdeu);
	EXPECT_EQ(o.udp_sport, 0xf123);
	auto zero = make_ev(2, {0, 0, 0, 0});
	ASSERT_EQ(mrc_ev_to_outer(MRC_EV_FMT_STEV, &zero, &o), 0);
	EXPECT_EQ(o.udp_sport, 0xf000); // never port 0
	e = make_ev(2, port(1));
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_STEV, &e), -MRC_EV_ELEN);
}

TEST(EvFormat, Srv6SidAndSegment)
{
	auto one = make_ev(1, sid(0xfc, 7));
	mrc_ev_outer o;
	ASSERT_EQ(mrc_ev_to_outer(MRC_EV_FMT_SRV6, &one, &o), 0);
	EXPECT_EQ(o.sid, one.value);
	EXPECT_EQ(o.segment, nullptr);
	EXPECT_EQ(o.udp_sport, 0);

	auto v = sid(0xfc, 7);
	auto s2 = sid(0x20, 1);
	v.insert(v.end(), s2.begin(), s2.end());
	auto two = make_ev(1, v);
	ASSERT_EQ(mrc_ev_to_outer(MRC_EV_FMT_SRV6, &two, &o), 0);
	EXPECT_EQ(o.sid, two.value);
	EXPECT_EQ(o.segment, two.value + 16);

	auto bad = make_ev(1, std::vector<u8>(20, 0x20));
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_SRV6, &bad), -MRC_EV_ELEN);
	for (auto s : {sid(0, 0), sid(0, 1), sid(0xff, 1)}) {
		auto e = make_ev(1, s);
		EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_SRV6, &e), -MRC_EV_EVALUE);
	}
	// ::2 is neither :: nor ::1: accepted.  A bad second segment is not.
	auto ok = make_ev(1, sid(0, 2));
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_SRV6, &ok), 0);
	auto v2 = sid(0xfc, 7);
	auto m = sid(0xff, 2);
	v2.insert(v2.end(), m.begin(), m.end());
	auto badseg = make_ev(1, v2);
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_SRV6, &badseg), -MRC_EV_EVALUE);
}

TEST(EvFormat, UnknownFormatAndState)
{
	auto e = make_ev(1, port(5));
	EXPECT_EQ(mrc_ev_check(0, &e), -MRC_EV_EFORMAT);
	EXPECT_EQ(mrc_ev_check(4, &e), -MRC_EV_EFORMAT);
	e.state = MRC_EV_DENIED + 1;
	EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_UDP, &e), -MRC_EV_EEVSTATE);
	EXPECT_EQ(mrc_ev_format_len(MRC_EV_FMT_UDP), 2);
	EXPECT_EQ(mrc_ev_format_len(MRC_EV_FMT_STEV), 4);
	EXPECT_EQ(mrc_ev_format_len(MRC_EV_FMT_SRV6), 16);
	EXPECT_EQ(mrc_ev_format_len(7), 0);
}

TEST(EvProfile, InitRejectsUnknownModeAndFormat)
{
	mrc_ev_profile p;
	EXPECT_EQ(mrc_ev_profile_init(&p, 0, MRC_EV_FMT_UDP, nullptr, 0),
		  -MRC_EV_EMODE);
	EXPECT_EQ(mrc_ev_profile_init(&p, 4, MRC_EV_FMT_UDP, nullptr, 0),
		  -MRC_EV_EMODE);
	EXPECT_EQ(mrc_ev_profile_init(&p, MRC_EV_MODE_EXP, 0, nullptr, 0),
		  -MRC_EV_EFORMAT);
	ASSERT_EQ(mrc_ev_profile_init(&p, MRC_EV_MODE_AUTO, MRC_EV_FMT_UDP,
				      nullptr, 0),
		  0);
	EXPECT_EQ(p.state, MRC_EV_PROF_INIT);
	EXPECT_EQ(p.event_mask, (u32)MRC_EV_EVT_ALL);
}

TEST(EvProfile, ExpLifecycle)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	// INIT cannot go straight ONLINE.
	EXPECT_EQ(f.state(MRC_EV_PROF_ONLINE), -MRC_EV_ESTATE);
	ASSERT_EQ(f.add(1, port(1000)), 0);
	ASSERT_EQ(f.add(2, port(1000)), 0); // same port, other plane: fine
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(f.add(1, port(1001)), 0); // OFFLINE may still change
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	EXPECT_EQ(f.p.state, MRC_EV_PROF_ONLINE);
	EXPECT_EQ(f.p.n_evs, 3);
	EXPECT_EQ(f.state(MRC_EV_PROF_ONLINE), 0); // no-op
	EXPECT_EQ(f.state(MRC_EV_PROF_INIT), -MRC_EV_ESTATE);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	EXPECT_EQ(f.state(MRC_EV_PROF_INIT), -MRC_EV_ESTATE);
	EXPECT_EQ(f.state(3), -MRC_EV_ESTATE);
	EXPECT_EQ(f.p.state, MRC_EV_PROF_OFFLINE);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
}

TEST(EvProfile, OnlineNeedsEvs)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_STEV);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	EXPECT_EQ(f.state(MRC_EV_PROF_ONLINE), -MRC_EV_EEMPTY);
	EXPECT_EQ(f.p.state, MRC_EV_PROF_OFFLINE);
}

TEST(EvProfile, AddChecksEachEv)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP, 2);
	EXPECT_EQ(f.add(0, port(1)), -MRC_EV_EPLANE);
	EXPECT_EQ(f.add(1, port(0)), -MRC_EV_EVALUE);
	EXPECT_EQ(f.add(1, {1, 2, 3, 4}), -MRC_EV_ELEN);
	std::vector<u8> huge(MRC_EV_MAX_LEN + 1, 1);
	EXPECT_EQ(f.add(1, huge), -MRC_EV_ELEN);
	ASSERT_EQ(f.add(1, port(1)), 0);
	EXPECT_EQ(f.add(1, port(1)), -MRC_EV_EDUP);
	ASSERT_EQ(f.add(1, port(2), true), 0);
	EXPECT_EQ(f.p.evs[1].state, MRC_EV_DENIED);
	EXPECT_EQ(f.add(1, port(3)), -MRC_EV_ETOOMANY);
	EXPECT_EQ(f.p.n_evs, 2);
}

TEST(EvProfile, OnlineRefusesDefinitionChanges)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	ASSERT_EQ(f.add(1, port(1)), 0);
	ASSERT_EQ(f.add(1, port(2)), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	EXPECT_EQ(f.add(1, port(3)), -MRC_EV_EBUSY);
	EXPECT_EQ(mrc_ev_profile_clear(&f.p), -MRC_EV_EBUSY);
	EXPECT_EQ(f.p.n_evs, 2);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	EXPECT_EQ(mrc_ev_profile_clear(&f.p), 0);
	EXPECT_EQ(f.p.n_evs, 0);
}

// The checks a connection's own EV replacement goes through (the kernel's
// per-QP "ev-profile ev replace ... qpn N"): the profile's rules, and the
// profile itself unchanged.
TEST(EvProfile, CheckReplaceValidatesWithoutChanging)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	ASSERT_EQ(f.add(1, port(1)), 0);
	ASSERT_EQ(f.add(2, port(2)), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	mrc_ev out{};
	auto v = port(9);
	ASSERT_EQ(mrc_ev_profile_check_replace(&f.p, 0, 1, v.data(), 2, &out), 0);
	EXPECT_EQ(out.plane, 1);
	EXPECT_EQ(out.len, 2);
	EXPECT_EQ(out.value[1], 9);
	EXPECT_EQ(out.state, MRC_EV_UNKNOWN);
	EXPECT_EQ(f.p.evs[0].value[1], 1); // a check, not a change
	auto zero = port(0);
	EXPECT_EQ(mrc_ev_profile_check_replace(&f.p, 0, 1, zero.data(), 2, &out),
		  -MRC_EV_EVALUE);
	EXPECT_EQ(mrc_ev_profile_check_replace(&f.p, 0, 1, v.data(), 1, &out),
		  -MRC_EV_ELEN);
	EXPECT_EQ(mrc_ev_profile_check_replace(&f.p, 0, 0, v.data(), 2, &out),
		  -MRC_EV_EPLANE);
	auto dup = port(2);
	EXPECT_EQ(mrc_ev_profile_check_replace(&f.p, 0, 2, dup.data(), 2, &out),
		  -MRC_EV_EDUP);
	EXPECT_EQ(mrc_ev_profile_check_replace(&f.p, 2, 1, v.data(), 2, &out),
		  -MRC_EV_ENOENT);

	Prof a(MRC_EV_MODE_AUTO, MRC_EV_FMT_UDP);
	EXPECT_EQ(mrc_ev_profile_check_replace(&a.p, 0, 1, v.data(), 2, &out),
		  -MRC_EV_EMODE);
}

TEST(EvProfile, ReplaceAndDenyAllowedOnline)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	ASSERT_EQ(f.add(1, port(1)), 0);
	ASSERT_EQ(f.add(2, port(2)), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	auto v = port(9);
	ASSERT_EQ(mrc_ev_profile_replace(&f.p, 0, 3, v.data(), 2), 0);
	EXPECT_EQ(f.p.evs[0].plane, 3);
	EXPECT_EQ(f.p.evs[0].value[1], 9);
	// Replacing with the same EV in place is fine; with another's is not.
	EXPECT_EQ(mrc_ev_profile_replace(&f.p, 0, 3, v.data(), 2), 0);
	auto dup = port(2);
	EXPECT_EQ(mrc_ev_profile_replace(&f.p, 0, 2, dup.data(), 2),
		  -MRC_EV_EDUP);
	auto zero = port(0);
	EXPECT_EQ(mrc_ev_profile_replace(&f.p, 0, 2, zero.data(), 2),
		  -MRC_EV_EVALUE);
	EXPECT_EQ(mrc_ev_profile_replace(&f.p, 2, 2, v.data(), 2),
		  -MRC_EV_ENOENT);
	EXPECT_EQ(f.p.evs[0].plane, 3); // failed replacements change nothing

	ASSERT_EQ(mrc_ev_profile_deny(&f.p, 1, true), 0);
	EXPECT_EQ(f.p.evs[1].state, MRC_EV_DENIED);
	ASSERT_EQ(mrc_ev_profile_deny(&f.p, 1, false), 0);
	EXPECT_EQ(f.p.evs[1].state, MRC_EV_UNKNOWN);
	EXPECT_EQ(mrc_ev_profile_deny(&f.p, 2, true), -MRC_EV_ENOENT);
	EXPECT_EQ(f.p.state, MRC_EV_PROF_ONLINE);
}

TEST(EvProfile, MinActive)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	ASSERT_EQ(f.add(1, port(1)), 0);
	ASSERT_EQ(f.add(1, port(2)), 0);
	ASSERT_EQ(mrc_ev_profile_set_min_active(&f.p, 3), 0); // not yet checked
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	EXPECT_EQ(f.state(MRC_EV_PROF_ONLINE), -MRC_EV_EMINACTIVE);
	ASSERT_EQ(mrc_ev_profile_set_min_active(&f.p, 2), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	EXPECT_EQ(mrc_ev_profile_set_min_active(&f.p, 3), -MRC_EV_EMINACTIVE);
	EXPECT_EQ(f.p.ev_min_active, 2);
	EXPECT_EQ(mrc_ev_profile_set_min_active(&f.p, 1), 0);
	EXPECT_EQ(f.p.ev_min_active, 1);
}

TEST(EvProfile, ValidateCatchesDuplicatesWrittenBehindItsBack)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	ASSERT_EQ(f.add(1, port(1)), 0);
	ASSERT_EQ(f.add(1, port(2)), 0);
	ASSERT_EQ(f.add(1, port(3)), 0);
	EXPECT_EQ(mrc_ev_profile_validate(&f.p), 0);
	f.p.evs[2] = f.p.evs[0];
	EXPECT_EQ(mrc_ev_profile_validate(&f.p), -MRC_EV_EDUP);
	f.p.evs[2].plane = 0;
	EXPECT_EQ(mrc_ev_profile_validate(&f.p), -MRC_EV_EPLANE);
	f.p.n_evs = 17; // more than the storage
	EXPECT_EQ(mrc_ev_profile_validate(&f.p), -MRC_EV_ETOOMANY);
}

TEST(EvProfile, EventMask)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	EXPECT_TRUE(mrc_ev_profile_wants(&f.p, MRC_EV_ASSUMED_BAD));
	ASSERT_EQ(mrc_ev_profile_set_event_mask(&f.p, MRC_EV_EVT_STATE(
							      MRC_EV_ASSUMED_BAD)),
		  0);
	EXPECT_TRUE(mrc_ev_profile_wants(&f.p, MRC_EV_ASSUMED_BAD));
	EXPECT_FALSE(mrc_ev_profile_wants(&f.p, MRC_EV_GOOD));
	EXPECT_FALSE(mrc_ev_profile_wants(&f.p, 200));
	EXPECT_EQ(mrc_ev_profile_set_event_mask(&f.p, 1u << 9), -MRC_EV_EEVMASK);
	EXPECT_EQ(f.p.event_mask, MRC_EV_EVT_STATE(MRC_EV_ASSUMED_BAD));
}

TEST(EvProfile, ModeSpecificOperations)
{
	Prof e(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	EXPECT_EQ(mrc_ev_profile_set_auto(&e.p, 4, 1), -MRC_EV_EMODE);
	mrc_ev_gen g{};
	EXPECT_EQ(mrc_ev_profile_set_gen(&e.p, &g), -MRC_EV_EMODE);
	Prof a(MRC_EV_MODE_AUTO, MRC_EV_FMT_UDP);
	EXPECT_EQ(a.add(1, port(1)), -MRC_EV_EMODE);
	EXPECT_EQ(mrc_ev_profile_deny(&a.p, 0, true), -MRC_EV_EMODE);
	auto v = port(1);
	EXPECT_EQ(mrc_ev_profile_replace(&a.p, 0, 1, v.data(), 2), -MRC_EV_EMODE);
}

TEST(EvProfile, AutoLifecycle)
{
	Prof a(MRC_EV_MODE_AUTO, MRC_EV_FMT_UDP, 0);
	ASSERT_EQ(a.state(MRC_EV_PROF_OFFLINE), 0);
	EXPECT_EQ(a.state(MRC_EV_PROF_ONLINE), -MRC_EV_EAUTO); // no count
	EXPECT_EQ(mrc_ev_profile_set_auto(&a.p, 0, 1), -MRC_EV_EAUTO);
	EXPECT_EQ(mrc_ev_profile_set_auto(&a.p, MRC_EV_PROFILE_MAX_EVS + 1, 1),
		  -MRC_EV_EAUTO);
	EXPECT_EQ(mrc_ev_profile_set_auto(&a.p, 8, 0), -MRC_EV_EPLANEMASK);
	ASSERT_EQ(mrc_ev_profile_set_auto(&a.p, 8, 0xff), 0);
	ASSERT_EQ(mrc_ev_profile_set_min_active(&a.p, 9), 0);
	EXPECT_EQ(a.state(MRC_EV_PROF_ONLINE), -MRC_EV_EMINACTIVE);
	ASSERT_EQ(mrc_ev_profile_set_min_active(&a.p, 8), 0);
	ASSERT_EQ(a.state(MRC_EV_PROF_ONLINE), 0);
	EXPECT_EQ(mrc_ev_profile_set_auto(&a.p, 4, 1), -MRC_EV_EBUSY);

	Prof s(MRC_EV_MODE_AUTO, MRC_EV_FMT_SRV6, 0);
	EXPECT_EQ(mrc_ev_profile_set_auto(&s.p, 8, 1), -MRC_EV_EAUTO);
}

TEST(EvProfile, GenExpandsWhenGoingOnlineAndKeepsDenials)
{
	Prof f(MRC_EV_MODE_GEN, MRC_EV_FMT_UDP, 64);
	mrc_ev_gen g{};
	g.n_fields = 1;
	g.fields[0] = {8, 1, 1, 4, 0xff};
	g.base[0] = 0xc0;
	g.plane_mask = 0x3;
	ASSERT_EQ(mrc_ev_profile_set_gen(&f.p, &g), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	ASSERT_EQ(f.p.n_evs, 8);
	EXPECT_EQ(f.p.evs[0].plane, 1);
	EXPECT_EQ(f.p.evs[1].plane, 2);
	EXPECT_EQ(f.p.evs[7].value[1], 4);
	EXPECT_EQ(mrc_ev_profile_set_gen(&f.p, &g), -MRC_EV_EBUSY);
	ASSERT_EQ(mrc_ev_profile_deny(&f.p, 5, true), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	EXPECT_EQ(f.p.evs[5].state, MRC_EV_DENIED);
	// A new definition is expanded afresh.
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	g.fields[0].max = 2;
	ASSERT_EQ(mrc_ev_profile_set_gen(&f.p, &g), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	EXPECT_EQ(f.p.n_evs, 4);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(f.p.evs[i].state, MRC_EV_UNKNOWN);
}

TEST(EvProfile, GenBadDefinitionRefusedAtOnce)
{
	Prof f(MRC_EV_MODE_GEN, MRC_EV_FMT_UDP, 4);
	mrc_ev_gen g{};
	g.n_fields = 1;
	g.fields[0] = {8, 5, 1, 4, 0xff};
	g.plane_mask = 1;
	EXPECT_EQ(mrc_ev_profile_set_gen(&f.p, &g), -MRC_EV_EGEN_RANGE);
	g.fields[0] = {8, 1, 1, 10, 0xff};
	g.base[0] = 0xc0;
	ASSERT_EQ(mrc_ev_profile_set_gen(&f.p, &g), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	// 10 EVs do not fit the 4 entries of storage.
	EXPECT_EQ(f.state(MRC_EV_PROF_ONLINE), -MRC_EV_ETOOMANY);
	EXPECT_EQ(f.p.state, MRC_EV_PROF_OFFLINE);
}

TEST(EvProfile, ErrorTextsAndNames)
{
	std::set<std::string> seen;
	for (int e = 0; e < MRC_EV_NR_ERR; e++) {
		const char *s = mrc_ev_strerror(-e);
		ASSERT_NE(s, nullptr) << e;
		EXPECT_TRUE(seen.insert(s).second) << s;
	}
	EXPECT_STREQ(mrc_ev_strerror(MRC_EV_NR_ERR), "unknown EV profile error");
	EXPECT_STREQ(mrc_ev_format_name(MRC_EV_FMT_STEV), "stev");
	EXPECT_STREQ(mrc_ev_mode_name(MRC_EV_MODE_GEN), "gen");
	EXPECT_STREQ(mrc_ev_prof_state_name(MRC_EV_PROF_ONLINE), "online");
	EXPECT_STREQ(mrc_ev_format_name(0), "unknown");
}

} // namespace

namespace {

TEST(EvProfileConn, ExpProfileGivesItsEvsWithDenials)
{
	Prof f(MRC_EV_MODE_EXP, MRC_EV_FMT_UDP);
	ASSERT_EQ(f.add(1, port(10)), 0);
	ASSERT_EQ(f.add(2, port(11), true), 0);
	ASSERT_EQ(f.add(3, port(12)), 0);
	std::vector<mrc_ev> evs(8);
	std::vector<mrc_ev_cfg> cfg(8);
	// Only an ONLINE profile may feed connections.
	EXPECT_EQ(mrc_ev_profile_conn_evs(&f.p, 5, evs.data(), cfg.data(), 8),
		  -MRC_EV_ESTATE);
	ASSERT_EQ(f.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(f.state(MRC_EV_PROF_ONLINE), 0);
	ASSERT_EQ(mrc_ev_profile_conn_evs(&f.p, 5, evs.data(), cfg.data(), 8), 3);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(cfg[i].plane, i + 1);
		EXPECT_EQ(cfg[i].denied, i == 1);
		EXPECT_EQ(evs[i].value[1], 10 + i);
	}
	EXPECT_EQ(mrc_ev_profile_conn_evs(&f.p, 5, evs.data(), cfg.data(), 2),
		  -MRC_EV_ETOOMANY);
}

TEST(EvProfileConn, AutoProfileDerivesFromQpn)
{
	Prof a(MRC_EV_MODE_AUTO, MRC_EV_FMT_UDP, 0);
	ASSERT_EQ(mrc_ev_profile_set_auto(&a.p, 4, 0x3), 0);
	ASSERT_EQ(a.state(MRC_EV_PROF_OFFLINE), 0);
	ASSERT_EQ(a.state(MRC_EV_PROF_ONLINE), 0);
	std::vector<mrc_ev> evs(4), ref(4);
	std::vector<mrc_ev_cfg> cfg(4);
	ASSERT_EQ(mrc_ev_profile_conn_evs(&a.p, 77, evs.data(), cfg.data(), 4),
		  4);
	ASSERT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_UDP, 4, 0x3, 77, ref.data(), 4),
		  4);
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(std::memcmp(evs[i].value, ref[i].value, 2), 0);
		EXPECT_EQ(cfg[i].plane, ref[i].plane);
		EXPECT_EQ(cfg[i].denied, 0);
	}
}

} // namespace
