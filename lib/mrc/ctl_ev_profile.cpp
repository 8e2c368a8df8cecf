// SPDX-License-Identifier: GPL-2.0-only
// mrc_ctl_modify_ev_profile / mrc_ctl_query_ev_profile over the kernel's
// EV profiles (mrc netlink family, ev-profile-*; net/mrc/proto/
// ev_profile.h has the model).
//
// The kernel takes a profile whole (mode, format and its definition in
// one ev-profile-add) and never changes the definition afterwards; its
// states are INIT -> OFFLINE <-> ONLINE.  The API builds a profile up
// (an EXP profile goes OFFLINE with every slot unpopulated) and changes
// its definition while OFFLINE.  So a profile lives in this context
// (EvCtl::drafts) while it is INIT or not complete (EXP: a slot
// unpopulated), and in the kernel from the moment it is OFFLINE and
// complete: added and set OFFLINE there, so that mrcctl shows it and an
// OFFLINE -> ONLINE is the kernel's own, validating step.  A definition
// change (mode, format, count, fields) of an OFFLINE profile the kernel
// holds takes it back into a draft (deleting it from the kernel; EBUSY if
// a route names it) and adds it again once complete.  A kernel profile in
// state INIT (made with mrcctl) is OFFLINE to the API: it is complete.
// Documentation/networking/lib_mrc.rst ("EV profiles") has every rule.
#include "ctl_ev.hpp"

#include <bit>
#include <cstring>
#include <linux/mrc.h>

#include "ctl_ev_fields.hpp"
#include "ctl_ev_kernel.hpp"
#include "ctl_nl.hpp"

using namespace mrc::lib;

namespace {

constexpr uint64_t max_profile_id = 65535;
constexpr uint32_t max_evs = 256; // MRC_EV_PROFILE_MAX_EVS
constexpr int def_mask = MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID |
			 MRC_CTL_EV_PROFILE_COUNT;
constexpr int modify_mask = MRC_CTL_EV_PROFILE_STATE | def_mask |
			    MRC_CTL_EV_PROFILE_MIN_ACTIVE |
			    MRC_CTL_EV_PROFILE_EVENT_MASK |
			    MRC_CTL_EV_PROFILE_EV_OP |
			    MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
constexpr int query_mask = modify_mask | MRC_CTL_EV_PROFILE_CUR_STATE;
constexpr int api_events = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;

uint8_t kmode(int mode)
{
	switch (mode) {
	case MRC_CTL_EV_MODE_AUTO: return MRC_EV_PROFILE_MODE_AUTO;
	case MRC_CTL_EV_MODE_EXP: return MRC_EV_PROFILE_MODE_EXP;
	case MRC_CTL_EV_MODE_GEN: return MRC_EV_PROFILE_MODE_GEN;
	default: return 0;
	}
}

mrc_ctl_ev_mode api_mode(uint8_t mode)
{
	switch (mode) {
	case MRC_EV_PROFILE_MODE_AUTO: return MRC_CTL_EV_MODE_AUTO;
	case MRC_EV_PROFILE_MODE_EXP: return MRC_CTL_EV_MODE_EXP;
	case MRC_EV_PROFILE_MODE_GEN: return MRC_CTL_EV_MODE_GEN;
	default: return static_cast<mrc_ctl_ev_mode>(0);
	}
}

// The API's event mask (GOOD, ASSUMED_BAD) as the kernel's: "an EV
// entered state s" bits only, so the kernel's other events are off.
uint32_t kevents(int mask)
{
	return (mask & MRC_CTL_EV_GOOD ? MRC_EV_EVENT_STATE(MRC_EV_STATE_GOOD) :
					 0) |
	       (mask & MRC_CTL_EV_ASSUMED_BAD ?
			MRC_EV_EVENT_STATE(MRC_EV_STATE_ASSUMED_BAD) :
			0);
}

int api_event_mask(uint32_t k)
{
	return (k & MRC_EV_EVENT_STATE(MRC_EV_STATE_GOOD) ? MRC_CTL_EV_GOOD : 0) |
	       (k & MRC_EV_EVENT_STATE(MRC_EV_STATE_ASSUMED_BAD) ?
			MRC_CTL_EV_ASSUMED_BAD :
			0);
}

// A profile as the API sees it, from the kernel or from a draft.
struct View {
	mrc_ctl_profile_state state = MRC_CTL_PROFILE_INIT;
	bool kernel = false; // the kernel holds it
	uint8_t kstate = 0;  // its kernel state then
	EvDef def;	     // slots: the EV array
};

// Throws like mrcctl's client.
void load(mrc_context *ctx, uint32_t id, View *v)
{
	EvCtl &ctl = ev_ctl(ctx);
	mrcctl::EvProfile k;
	if (!ev_k_get(ctx, id, &k)) {
		ctl.meta.erase(id); // deleted behind our back (mrcctl)
		auto it = ctl.drafts.find(id);
		if (it != ctl.drafts.end()) {
			v->def = it->second;
			v->state = it->second.offline ? MRC_CTL_PROFILE_OFFLINE :
							MRC_CTL_PROFILE_INIT;
		}
		return;
	}
	ctl.drafts.erase(id); // someone added it: the kernel's wins
	auto it = ctl.meta.find(id);
	if (it != ctl.meta.end())
		v->def = it->second;
	EvDef &d = v->def;
	v->kernel = true;
	v->kstate = *k.state;
	v->state = *k.state == MRC_EV_PROFILE_STATE_ONLINE ?
			   MRC_CTL_PROFILE_ONLINE :
			   MRC_CTL_PROFILE_OFFLINE;
	d.offline = true;
	d.mode = *k.mode;
	d.format = *k.format;
	d.min_active = static_cast<uint16_t>(k.min_active.value_or(0));
	d.event_mask = k.event_mask.value_or(0);
	d.has_event_mask = true;
	d.slots.clear();
	for (const auto &e : k.evs.value_or(std::vector<mrcctl::Ev>{})) {
		EvSlot s;
		s.ev = KEv{static_cast<uint8_t>(e.plane.value_or(0)), e.value,
			   e.state.value_or(MRC_EV_STATE_UNKNOWN)};
		s.denied = s.ev->state == MRC_EV_STATE_DENIED;
		d.slots.push_back(s);
	}
	d.count = d.mode == MRC_EV_PROFILE_MODE_AUTO ?
			  k.count.value_or(0) :
			  static_cast<uint32_t>(d.slots.size());
	if (it == ctl.meta.end() && d.mode == MRC_EV_PROFILE_MODE_GEN)
		d.fields = ev_gen_from_kernel(k.fields);
}

// The format profile @d names, ONLINE: nullptr if none.
const EvFmt *fmt_of(mrc_context *ctx, const EvDef &d)
{
	EvCtl &ctl = ev_ctl(ctx);
	auto it = ctl.fmts.find(d.fmt_id);
	if (!d.fmt_id || it == ctl.fmts.end() ||
	    it->second.state != MRC_CTL_PROFILE_ONLINE)
		return nullptr;
	return &it->second;
}

// The lowest @n of the device's planes, or 0 if it has fewer.
uint16_t lowest_planes(uint16_t planes, unsigned int n)
{
	uint16_t out = 0;
	for (unsigned int p = 0; p < 16 && n; p++)
		if (planes & (1u << p)) {
			out |= static_cast<uint16_t>(1u << p);
			n--;
		}
	return n ? 0 : out;
}

// The kernel's ev-profile-add of complete draft @d: 0 or an errno.
int build(mrc_context *ctx, const EvDef &d, mrcctl::EvProfile *k, uint16_t planes)
{
	const EvFmt *f = fmt_of(ctx, d);
	k->mode = d.mode;
	k->format = f ? f->format : d.format;
	if (!f && d.mode != MRC_EV_PROFILE_MODE_AUTO)
		return EINVAL;
	if (!k->format) // AUTO without a format profile: UDP
		k->format = MRC_EV_PROFILE_FORMAT_UDP;
	k->min_active = d.min_active;
	if (d.has_event_mask)
		k->event_mask = d.event_mask;
	switch (d.mode) {
	case MRC_EV_PROFILE_MODE_AUTO:
		k->count = d.count;
		k->plane_mask = planes;
		return 0;
	case MRC_EV_PROFILE_MODE_EXP:
		if (d.fields)
			if (int err = ev_exp_fields_check(*d.fields, f->widths))
				return err;
		k->evs.emplace();
		for (const auto &s : d.slots) {
			mrcctl::Ev e;
			e.plane = s.ev->plane;
			e.value = s.ev->value;
			if (s.denied)
				e.state = MRC_EV_STATE_DENIED;
			k->evs->push_back(e);
		}
		return 0;
	default: {
		uint32_t shift = 0, values = 0;
		if (!d.fields)
			return EINVAL;
		if (int err = ev_gen_to_kernel(*d.fields, f->widths, *k->format,
					       &k->fields, &shift, &values))
			return err;
		// ev_count is the values times the planes they go on: the
		// device's lowest planes.
		if (!values || d.count % values)
			return EINVAL;
		k->plane_mask = lowest_planes(planes, d.count / values);
		k->shift = shift;
		return k->plane_mask ? 0 : EINVAL;
	}
	}
}

bool complete(const EvDef &d)
{
	if (!d.offline || !d.mode)
		return false;
	for (const auto &s : d.slots)
		if (!s.ev)
			return false;
	return true;
}

// Draft @id complete: into the kernel, OFFLINE.  0 or -1 with errno.
int push(mrc_context *ctx, uint32_t id)
{
	EvCtl &ctl = ev_ctl(ctx);
	EvDef d = ctl.drafts.at(id);
	uint16_t planes = 0;
	if (ctl_nl_call([&] { planes = ev_k_planes(ctx); }))
		return -1;
	mrcctl::EvProfile k;
	if (int err = build(ctx, d, &k, planes))
		return fail(err);
	if (ctl_nl_call([&] { ev_k_add(ctx, id, k); }, ev_errno))
		return -1;
	if (ctl_nl_call(
		    [&] {
			    ev_k_set(ctx, id, MRC_EV_PROFILE_STATE_OFFLINE,
				     std::nullopt, std::nullopt);
		    },
		    ev_errno)) {
		int err = errno;
		(void)ctl_nl_call([&] { ev_k_del(ctx, id); });
		return fail(err);
	}
	d.slots.clear();
	ctl.meta[id] = d;
	ctl.drafts.erase(id);
	return 0;
}

// The definition of @attr into draft @d (the values were checked; the
// fields against the format when the draft goes to the kernel).
void define(EvDef *d, const mrc_ctl_ev_profile_attr *attr, int mask)
{
	if (mask & MRC_CTL_EV_PROFILE_MODE)
		d->mode = kmode(attr->ev_mode);
	if (mask & MRC_CTL_EV_PROFILE_FMT_ID)
		d->fmt_id = attr->ev_fmt_profile_id;
	if (mask & MRC_CTL_EV_PROFILE_COUNT)
		d->count = attr->ev_count;
	if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		d->min_active = static_cast<uint16_t>(attr->ev_min_active);
	if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK) {
		d->event_mask = kevents(attr->ev_event_mask);
		d->has_event_mask = true;
	}
	if ((mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
	    attr->ev_fields_op.op == MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS) {
		const auto &op = attr->ev_fields_op;
		d->fields.emplace(op.fields, op.fields + op.field_count);
	}
	// EXP: the slots follow the count (new ones unpopulated).
	if (d->offline && d->mode == MRC_EV_PROFILE_MODE_EXP)
		d->slots.resize(d->count);
	else if (d->mode != MRC_EV_PROFILE_MODE_EXP)
		d->slots.clear();
}

// What going OFFLINE needs: MODE and COUNT; EXP and GEN a format
// profile; GEN its fields.
bool definable(mrc_context *ctx, const EvDef &d)
{
	if (!d.mode || !d.count)
		return false;
	if (d.mode == MRC_EV_PROFILE_MODE_AUTO)
		return !d.fmt_id || fmt_of(ctx, d);
	if (!fmt_of(ctx, d))
		return false;
	return d.mode != MRC_EV_PROFILE_MODE_GEN || d.fields;
}

int run_ops(mrc_context *ctx, uint32_t id, View &v,
	    mrc_ctl_ev_profile_attr *attr, bool modify)
{
	EvArray a;
	const EvFmt *f = fmt_of(ctx, v.def);
	a.format = v.def.format ? v.def.format : f ? f->format : 0;
	// A draft's own slots (changed in place), else the view's copy.
	auto &drafts = ev_ctl(ctx).drafts;
	auto it = drafts.find(id);
	a.slots = v.kernel || it == drafts.end() ? &v.def.slots :
						   &it->second.slots;
	if (v.kernel)
		a.change = [ctx, id](uint16_t i, const KEv *ev, bool deny) {
			if (!ev) {
				ev_k_deny(ctx, id, i, deny);
				return;
			}
			mrcctl::Ev e;
			e.plane = ev->plane;
			e.value = ev->value;
			ev_k_replace(ctx, id, i, e);
		};
	return ev_run_ops(a, attr->ev_op.op, attr->ev_op.entries,
			  &attr->ev_op.entry_count, modify);
}

// The fields into the caller's array (E2BIG with the count needed).
int put_fields(const EvDef &d, mrc_ctl_ev_profile_attr *attr)
{
	auto &op = attr->ev_fields_op;
	size_t n = d.fields ? d.fields->size() : 0;
	if (op.field_count < 0 || (op.field_count > 0 && !op.fields))
		return fail(EINVAL);
	if (static_cast<size_t>(op.field_count) < n) {
		op.field_count = static_cast<int>(n);
		return fail(E2BIG);
	}
	for (size_t i = 0; i < n; i++)
		op.fields[i] = (*d.fields)[i];
	op.field_count = static_cast<int>(n);
	return 0;
}

int modify_online(mrc_context *ctx, uint32_t id, View &v,
		  mrc_ctl_ev_profile_attr *attr, int mask,
		  mrc_ctl_profile_state to)
{
	bool fields_mod = (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
			  attr->ev_fields_op.op ==
				  MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS;
	if ((mask & def_mask) || fields_mod)
		return fail(EBUSY);
	std::optional<uint16_t> min;
	std::optional<uint32_t> events;
	if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		min = static_cast<uint16_t>(attr->ev_min_active);
	if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		events = kevents(attr->ev_event_mask);
	if ((min || events) &&
	    ctl_nl_call([&] { ev_k_set(ctx, id, std::nullopt, min, events); },
			ev_errno))
		return -1;
	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) && run_ops(ctx, id, v, attr, true))
		return -1;
	if ((mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) && put_fields(v.def, attr))
		return -1;
	if (to == MRC_CTL_PROFILE_OFFLINE &&
	    ctl_nl_call(
		    [&] {
			    ev_k_set(ctx, id, MRC_EV_PROFILE_STATE_OFFLINE,
				     std::nullopt, std::nullopt);
		    },
		    ev_errno))
		return -1;
	return 0;
}

int modify(mrc_context *ctx, uint32_t id, mrc_ctl_ev_profile_attr *attr, int mask)
{
	EvCtl &ctl = ev_ctl(ctx);
	View v;
	if (ctl_nl_call([&] { load(ctx, id, &v); }, ev_errno))
		return -1;
	auto cur = v.state;
	auto to = mask & MRC_CTL_EV_PROFILE_STATE ? attr->profile_state : cur;
	bool fields_mod = (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
			  attr->ev_fields_op.op ==
				  MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS;

	if ((cur == MRC_CTL_PROFILE_INIT && to == MRC_CTL_PROFILE_ONLINE) ||
	    (cur == MRC_CTL_PROFILE_ONLINE && to == MRC_CTL_PROFILE_INIT))
		return fail(EINVAL);
	if (cur == MRC_CTL_PROFILE_ONLINE)
		return modify_online(ctx, id, v, attr, mask, to);
	if (cur == MRC_CTL_PROFILE_OFFLINE && to == MRC_CTL_PROFILE_INIT) {
		if (v.kernel && ctl_nl_call([&] { ev_k_del(ctx, id); }, ev_errno))
			return -1;
		ctl.meta.erase(id);
		ctl.drafts.erase(id);
		return 0;
	}
	// A definition change of a profile the kernel holds: back into a
	// draft.
	if (v.kernel && ((mask & def_mask) || fields_mod)) {
		if (ctl_nl_call([&] { ev_k_del(ctx, id); }, ev_errno))
			return -1;
		ctl.meta.erase(id);
		if (v.def.mode != MRC_EV_PROFILE_MODE_EXP)
			v.def.slots.clear();
		ctl.drafts[id] = v.def;
		v.kernel = false;
	}
	if (v.kernel) {
		// OFFLINE in the kernel: what it changes in every state.
		std::optional<uint16_t> min;
		std::optional<uint32_t> events;
		if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
			min = static_cast<uint16_t>(attr->ev_min_active);
		if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
			events = kevents(attr->ev_event_mask);
		if ((min || events) &&
		    ctl_nl_call(
			    [&] { ev_k_set(ctx, id, std::nullopt, min, events); },
			    ev_errno))
			return -1;
		if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
		    run_ops(ctx, id, v, attr, true))
			return -1;
	} else {
		EvDef d = v.def;
		bool going = cur == MRC_CTL_PROFILE_INIT &&
			     to == MRC_CTL_PROFILE_OFFLINE;
		if (going)
			d.offline = true;
		define(&d, attr, mask);
		if (going && !definable(ctx, d))
			return fail(EINVAL);
		if (!d.offline && (mask & MRC_CTL_EV_PROFILE_EV_OP))
			return fail(EINVAL); // INIT has no EVs yet
		ctl.drafts[id] = d;
		if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
		    run_ops(ctx, id, v, attr, true))
			return -1;
		if (complete(ctl.drafts[id]) && push(ctx, id)) {
			if (going)
				ctl.drafts[id].offline = false;
			return -1;
		}
		v.kernel = !ctl.drafts.count(id);
		v.kstate = MRC_EV_PROFILE_STATE_OFFLINE;
	}
	if ((mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) && !fields_mod) {
		View now;
		if (ctl_nl_call([&] { load(ctx, id, &now); }, ev_errno) ||
		    put_fields(now.def, attr))
			return -1;
	}
	if (to != MRC_CTL_PROFILE_ONLINE)
		return 0;
	// OFFLINE -> ONLINE: the kernel's own step (it validates).
	if (!v.kernel)
		return fail(EINVAL); // an EXP slot still unpopulated
	return ctl_nl_call(
		[&] {
			if (v.kstate == MRC_EV_PROFILE_STATE_INIT)
				ev_k_set(ctx, id, MRC_EV_PROFILE_STATE_OFFLINE,
					 std::nullopt, std::nullopt);
			ev_k_set(ctx, id, MRC_EV_PROFILE_STATE_ONLINE,
				 std::nullopt, std::nullopt);
		},
		ev_errno);
}

bool valid_state(int s)
{
	return s == MRC_CTL_PROFILE_INIT || s == MRC_CTL_PROFILE_OFFLINE ||
	       s == MRC_CTL_PROFILE_ONLINE;
}

// The checks of the arguments alone, common to modify and query.
int check_args(const mrc_context *ctx, uint64_t id,
	       const mrc_ctl_ev_profile_attr *attr, int mask, int allowed)
{
	if (!ctx || !attr || id > max_profile_id || !mask || (mask & ~allowed))
		return EINVAL;
	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP))
		return EINVAL;
	return 0;
}

} // namespace

MRC_API int mrc_ctl_modify_ev_profile(mrc_context *mrc_ctx,
				      uint64_t ev_profile_id,
				      mrc_ctl_ev_profile_attr *attr,
				      int attr_mask)
{
	if (int err = check_args(mrc_ctx, ev_profile_id, attr, attr_mask,
				 modify_mask))
		return fail(err);
	if (!ev_profile_id)
		return fail(EINVAL); // the kernel's built-in profile
	if ((attr_mask & MRC_CTL_EV_PROFILE_STATE) &&
	    !valid_state(attr->profile_state))
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_EV_PROFILE_MODE) && !kmode(attr->ev_mode))
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_EV_PROFILE_COUNT) &&
	    (!attr->ev_count || attr->ev_count > max_evs))
		return fail(attr->ev_count ? E2BIG : EINVAL);
	if ((attr_mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE) &&
	    attr->ev_min_active > max_evs)
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_EV_PROFILE_EVENT_MASK) &&
	    (attr->ev_event_mask & ~api_events))
		return fail(EINVAL);
	if (attr_mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) {
		const auto &op = attr->ev_fields_op;
		if (op.op == MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS) {
			if (op.field_count <= 0 || !op.fields)
				return fail(EINVAL);
			for (int i = 0; i < op.field_count; i++)
				if (int err = ev_field_check(op.fields[i]))
					return fail(err);
		} else if (op.op != MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS) {
			return fail(EINVAL);
		}
	}
	std::lock_guard<std::mutex> g(mrc_ctx->lock);
	return modify(mrc_ctx, static_cast<uint32_t>(ev_profile_id), attr,
		      attr_mask);
}

// Profile 0 is the kernel's built-in one (AUTO, ONLINE).
MRC_API int mrc_ctl_query_ev_profile(mrc_context *mrc_ctx, uint64_t ev_profile_id,
				     mrc_ctl_ev_profile_attr *attr, int attr_mask)
{
	if (int err = check_args(mrc_ctx, ev_profile_id, attr, attr_mask,
				 query_mask))
		return fail(err);
	if ((attr_mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
	    attr->ev_fields_op.op != MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS)
		return fail(EINVAL);
	std::lock_guard<std::mutex> g(mrc_ctx->lock);
	uint32_t id = static_cast<uint32_t>(ev_profile_id);
	View v;
	if (ctl_nl_call([&] { load(mrc_ctx, id, &v); }, ev_errno))
		return -1;
	if ((attr_mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    run_ops(mrc_ctx, id, v, attr, false))
		return -1;
	if ((attr_mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
	    put_fields(v.def, attr))
		return -1;
	const EvDef &d = v.def;
	if (attr_mask & MRC_CTL_EV_PROFILE_STATE)
		attr->profile_state = v.state;
	if (attr_mask & MRC_CTL_EV_PROFILE_CUR_STATE)
		attr->cur_profile_state = v.state;
	if (attr_mask & MRC_CTL_EV_PROFILE_MODE)
		attr->ev_mode = api_mode(d.mode);
	if (attr_mask & MRC_CTL_EV_PROFILE_FMT_ID)
		attr->ev_fmt_profile_id = d.fmt_id;
	if (attr_mask & MRC_CTL_EV_PROFILE_COUNT)
		attr->ev_count = d.count;
	if (attr_mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		attr->ev_min_active = d.min_active;
	if (attr_mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		attr->ev_event_mask = api_event_mask(
			d.has_event_mask ? d.event_mask : ~0u);
	return 0;
}
