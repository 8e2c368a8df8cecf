// SPDX-License-Identifier: GPL-2.0-only
// The EV operations of the controller API (struct mrc_ctl_ev_op_entry)
// on an EV profile's array.  An EV is matched by value and port: the
// value is the format's, big endian from val[0] (UDP 2 bytes, STEV 4,
// SRV6 16 or, with a segment in bytes 16-31, 32) and every byte after it
// zero; the port is the plane.  The kernel refuses two EVs with the same
// value and port in one profile, so a REPLACE_EV that would make one
// fails EINVAL; unpopulated slots (MRC_CTL_EV_UNPOPULATED) are the only
// copies there are, and MRC_CTL_EV_OP_F_ALL_COPIES fills them all.
#include "ctl_ev.hpp"

#include <algorithm>
#include <cstring>
#include <linux/mrc.h>

#include "ctl_nl.hpp"

namespace mrc::lib {

namespace {

bool unpopulated(const mrc_ctl_ev &ev)
{
	static const mrc_ctl_ev_t zero{};
	return !ev.port && !std::memcmp(ev.val, zero, sizeof(zero));
}

} // namespace

bool to_kev(uint8_t format, const mrc_ctl_ev &ev, KEv *out)
{
	size_t len = 0;
	switch (format) {
	case MRC_EV_PROFILE_FORMAT_UDP: len = 2; break;
	case MRC_EV_PROFILE_FORMAT_STEV: len = 4; break;
	case MRC_EV_PROFILE_FORMAT_SRV6: len = 16; break;
	default: return false;
	}
	if (format == MRC_EV_PROFILE_FORMAT_SRV6)
		for (size_t i = 16; i < sizeof(ev.val); i++)
			if (ev.val[i])
				len = 32;
	for (size_t i = len; i < sizeof(ev.val); i++)
		if (ev.val[i])
			return false;
	out->plane = ev.port;
	out->value.assign(ev.val, ev.val + len);
	out->state = MRC_EV_STATE_UNKNOWN;
	return true;
}

namespace {

void to_api(const EvSlot &s, mrc_ctl_ev *ev)
{
	std::memset(ev, 0, sizeof(*ev));
	if (!s.ev)
		return;
	ev->port = s.ev->plane;
	std::memcpy(ev->val, s.ev->value.data(),
		    std::min(s.ev->value.size(), sizeof(ev->val)));
}

mrc_ctl_ev_state api_state(const EvSlot &s)
{
	if (s.denied)
		return MRC_CTL_EV_DENIED;
	switch (s.ev ? s.ev->state : static_cast<uint8_t>(MRC_EV_STATE_UNKNOWN)) {
	case MRC_EV_STATE_GOOD: return MRC_CTL_EV_GOOD;
	case MRC_EV_STATE_ASSUMED_BAD: return MRC_CTL_EV_ASSUMED_BAD;
	case MRC_EV_STATE_DENIED: return MRC_CTL_EV_DENIED;
	default: return MRC_CTL_EV_UNKNOWN;
	}
}

// What a controller may ask an EV to be: denied, or allowed (GOOD and
// UNKNOWN both: the transport judges it again); ASSUMED_BAD is the
// transport's.  -1 if not one of those.
int wants_deny(mrc_ctl_ev_state s)
{
	switch (s) {
	case MRC_CTL_EV_DENIED: return 1;
	case MRC_CTL_EV_GOOD:
	case MRC_CTL_EV_UNKNOWN: return 0;
	default: return -1;
	}
}

// The slots holding @ev (unpopulated: the empty ones).
std::vector<size_t> find(const EvArray &a, const mrc_ctl_ev &ev, int *err)
{
	std::vector<size_t> at;
	KEv want;
	bool empty = unpopulated(ev);
	if (!empty && !to_kev(a.format, ev, &want)) {
		*err = EINVAL;
		return at;
	}
	for (size_t i = 0; i < a.slots->size(); i++) {
		const auto &s = (*a.slots)[i];
		if (empty ? !s.ev : s.ev && *s.ev == want)
			at.push_back(i);
	}
	*err = at.empty() ? ENOENT : 0;
	return at;
}

int set_deny(EvArray &a, size_t i, bool deny)
{
	EvSlot &s = (*a.slots)[i];
	if (a.change &&
	    ctl_nl_call(
		    [&] { a.change(static_cast<uint16_t>(i), nullptr, deny); },
		    ev_errno))
		return -1;
	s.denied = deny;
	if (s.ev)
		s.ev->state = deny ? MRC_EV_STATE_DENIED : MRC_EV_STATE_UNKNOWN;
	return 0;
}

int replace(EvArray &a, const mrc_ctl_ev_op_entry &e)
{
	int err = 0, deny = wants_deny(e.state);
	std::vector<size_t> at = find(a, e.ev, &err);
	KEv nev;
	if (err)
		return fail(err);
	if (deny < 0 || unpopulated(e.ev_new) ||
	    !to_kev(a.format, e.ev_new, &nev))
		return fail(EINVAL);
	if (!(e.flags & MRC_CTL_EV_OP_F_ALL_COPIES))
		at.resize(1);
	// No two slots may hold the same EV (the kernel's rule).
	for (size_t i = 0; i < a.slots->size(); i++) {
		const auto &s = (*a.slots)[i];
		bool target = std::find(at.begin(), at.end(), i) != at.end();
		if (!target && s.ev && *s.ev == nev)
			return fail(EINVAL);
	}
	if (at.size() > 1)
		return fail(EINVAL);
	size_t i = at[0];
	if (a.change &&
	    ctl_nl_call([&] { a.change(static_cast<uint16_t>(i), &nev, false); },
			ev_errno))
		return -1;
	(*a.slots)[i].ev = nev;
	(*a.slots)[i].denied = false;
	return deny ? set_deny(a, i, true) : 0;
}

int one(EvArray &a, int op, mrc_ctl_ev_op_entry &e)
{
	int err = 0;
	switch (op) {
	case MRC_CTL_EV_OP_REPLACE_EV: return replace(a, e);
	case MRC_CTL_EV_OP_MODIFY_EV_STATE: {
		int deny = wants_deny(e.state);
		if (deny < 0 || unpopulated(e.ev))
			return fail(EINVAL);
		std::vector<size_t> at = find(a, e.ev, &err);
		if (err)
			return fail(err);
		for (size_t i : at)
			if (set_deny(a, i, deny))
				return -1;
		return 0;
	}
	default: { // QUERY_EV_STATE
		std::vector<size_t> at = find(a, e.ev, &err);
		if (err)
			return fail(err);
		e.state = api_state((*a.slots)[at[0]]);
		return 0;
	}
	}
}

} // namespace

int ev_errno(int err)
{
	switch (err) {
	case EBUSY: return EBUSY;
	case E2BIG: return E2BIG;
	case EEXIST:
	case EOPNOTSUPP: return EINVAL;
	default: return ctl_nl_errno(err);
	}
}

int ev_run_ops(EvArray &a, int op, mrc_ctl_ev_op_entry *entries,
	       int *entry_count, bool modify)
{
	if (op != MRC_CTL_EV_OP_QUERY_EV_STATE &&
	    op != MRC_CTL_EV_OP_QUERY_EV_ARRAY &&
	    (!modify || (op != MRC_CTL_EV_OP_REPLACE_EV &&
			 op != MRC_CTL_EV_OP_MODIFY_EV_STATE)))
		return fail(EINVAL);
	if (*entry_count < 0 || (*entry_count > 0 && !entries))
		return fail(EINVAL);
	if (op == MRC_CTL_EV_OP_QUERY_EV_ARRAY) {
		size_t n = a.slots->size();
		if (static_cast<size_t>(*entry_count) < n) {
			*entry_count = static_cast<int>(n);
			return fail(E2BIG);
		}
		for (size_t i = 0; i < n; i++) {
			std::memset(&entries[i], 0, sizeof(entries[i]));
			to_api((*a.slots)[i], &entries[i].ev);
			entries[i].state = api_state((*a.slots)[i]);
		}
		*entry_count = static_cast<int>(n);
		return 0;
	}
	for (int i = 0; i < *entry_count; i++)
		if (one(a, op, entries[i]))
			return -1;
	return 0;
}

} // namespace mrc::lib
