// SPDX-License-Identifier: GPL-2.0-only
// mrc_ctl_modify_ev_fmt_profile / mrc_ctl_query_ev_fmt_profile: the
// library's records (EvCtl::fmts) of how one of the kernel's three EV
// formats is cut into fields.  The kernel has one fixed layout per format
// (net/mrc/proto/ev_profile.h), chosen by each EV profile, so an EV
// format profile needs no kernel object: it is the API's name of a format
// and the field widths the context's EV profiles place their fields in
// (ctl_ev_fields.cpp).  The widths must add up to the format's value:
// UDP 16 bits, STEV 32 (the flow label's 20 then the port's 12 would be
// the natural cut), SRV6 128 (a SID) or 256 (SID and SRH segment).
#include "ctl_ev.hpp"

#include <linux/mrc.h>

#include "ctl_ev_kernel.hpp"
#include "ctl_nl.hpp"

using namespace mrc::lib;

namespace mrc::lib {

EvCtl &ev_ctl(mrc_context *ctx)
{
	if (!ctx->ev_ctl)
		ctx->ev_ctl = std::make_shared<EvCtl>();
	return *ctx->ev_ctl;
}

bool ev_fmt_width_ok(uint8_t format, unsigned int bits)
{
	switch (format) {
	case MRC_EV_PROFILE_FORMAT_UDP: return bits == 16;
	case MRC_EV_PROFILE_FORMAT_STEV: return bits == 32;
	case MRC_EV_PROFILE_FORMAT_SRV6: return bits == 128 || bits == 256;
	default: return false;
	}
}

} // namespace mrc::lib

namespace {

constexpr size_t max_fmt_profiles = 256; // ev_max_fmt_profiles
constexpr int modify_mask = MRC_CTL_EV_FMT_PROFILE_STATE |
			    MRC_CTL_EV_FMT_PROFILE_MODE |
			    MRC_CTL_EV_FMT_PROFILE_OP;
constexpr int query_mask = modify_mask | MRC_CTL_EV_FMT_PROFILE_CUR_STATE;

bool valid_state(int s)
{
	return s == MRC_CTL_PROFILE_INIT || s == MRC_CTL_PROFILE_OFFLINE ||
	       s == MRC_CTL_PROFILE_ONLINE;
}

uint8_t format_of(int mode)
{
	switch (mode) {
	case MRC_CTL_EV_FMT_MODE_UDP: return MRC_EV_PROFILE_FORMAT_UDP;
	case MRC_CTL_EV_FMT_MODE_STEV: return MRC_EV_PROFILE_FORMAT_STEV;
	case MRC_CTL_EV_FMT_MODE_SRV6: return MRC_EV_PROFILE_FORMAT_SRV6;
	default: return 0;
	}
}

mrc_ctl_ev_fmt_mode mode_of(uint8_t format)
{
	switch (format) {
	case MRC_EV_PROFILE_FORMAT_STEV: return MRC_CTL_EV_FMT_MODE_STEV;
	case MRC_EV_PROFILE_FORMAT_SRV6: return MRC_CTL_EV_FMT_MODE_SRV6;
	case MRC_EV_PROFILE_FORMAT_UDP: return MRC_CTL_EV_FMT_MODE_UDP;
	default: return static_cast<mrc_ctl_ev_fmt_mode>(0);
	}
}

unsigned int sum(const std::vector<uint8_t> &w)
{
	unsigned int s = 0;
	for (uint8_t x : w)
		s += x;
	return s;
}

// The fields into the caller's array: E2BIG with the count needed if it
// is too short.
int put_fields(const EvFmt *f, mrc_ctl_ev_fmt_profile_attr *attr)
{
	size_t n = f ? f->widths.size() : 0;
	auto &op = attr->ev_fmt_op;
	if (op.fmt_field_count < 0 || (op.fmt_field_count > 0 && !op.fmt_fields))
		return fail(EINVAL);
	if (static_cast<size_t>(op.fmt_field_count) < n) {
		op.fmt_field_count = static_cast<int>(n);
		return fail(E2BIG);
	}
	for (size_t i = 0; i < n; i++)
		op.fmt_fields[i].width = f->widths[i];
	op.fmt_field_count = static_cast<int>(n);
	return 0;
}

// Does an EV profile this context defined on format profile @id run
// ONLINE in the kernel?
bool fmt_in_use(mrc_context *ctx, uint64_t id)
{
	for (const auto &[ev_id, def] : ev_ctl(ctx).meta) {
		mrcctl::EvProfile p;
		if (def.fmt_id == id && ev_k_get(ctx, ev_id, &p) &&
		    *p.state == MRC_EV_PROFILE_STATE_ONLINE)
			return true;
	}
	return false;
}

int modify(mrc_context *ctx, uint64_t id,
	   const mrc_ctl_ev_fmt_profile_attr *attr, int mask)
{
	EvCtl &ctl = ev_ctl(ctx);
	auto it = ctl.fmts.find(id);
	EvFmt f = it == ctl.fmts.end() ? EvFmt{} : it->second;
	mrc_ctl_profile_state cur = f.state;
	auto to = mask & MRC_CTL_EV_FMT_PROFILE_STATE ? attr->profile_state : cur;
	bool fields = (mask & MRC_CTL_EV_FMT_PROFILE_OP) &&
		      attr->ev_fmt_op.op == MRC_CTL_EV_FMT_OP_MODIFY_FIELDS;

	if ((cur == MRC_CTL_PROFILE_INIT && to == MRC_CTL_PROFILE_ONLINE) ||
	    (cur == MRC_CTL_PROFILE_ONLINE && to == MRC_CTL_PROFILE_INIT))
		return fail(EINVAL);
	if (cur == MRC_CTL_PROFILE_ONLINE) {
		if ((mask & MRC_CTL_EV_FMT_PROFILE_MODE) || fields)
			return fail(EBUSY);
		if (to == MRC_CTL_PROFILE_OFFLINE) {
			bool used = false;
			if (ctl_nl_call([&] { used = fmt_in_use(ctx, id); }))
				return -1;
			if (used)
				return fail(EBUSY);
		}
	}
	if (to == MRC_CTL_PROFILE_INIT) {
		ctl.fmts.erase(id);
		return 0;
	}
	if (mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		f.format = format_of(attr->ev_fmt_mode);
	if (fields) {
		const auto &op = attr->ev_fmt_op;
		f.widths.clear();
		for (int i = 0; i < op.fmt_field_count; i++)
			f.widths.push_back(op.fmt_fields[i].width);
		// The widths must cut the format's value exactly.
		if (f.format && !ev_fmt_width_ok(f.format, sum(f.widths)))
			return fail(E2BIG);
	}
	if (cur == MRC_CTL_PROFILE_INIT && to == MRC_CTL_PROFILE_OFFLINE &&
	    !f.format)
		return fail(EINVAL);
	if (to == MRC_CTL_PROFILE_ONLINE &&
	    !ev_fmt_width_ok(f.format, sum(f.widths)))
		return fail(EINVAL);
	if (it == ctl.fmts.end() && ctl.fmts.size() >= max_fmt_profiles)
		return fail(E2BIG);
	f.state = to;
	ctl.fmts[id] = f;
	if ((mask & MRC_CTL_EV_FMT_PROFILE_OP) &&
	    attr->ev_fmt_op.op == MRC_CTL_EV_FMT_OP_QUERY_FIELDS)
		return put_fields(&ctl.fmts[id],
				  const_cast<mrc_ctl_ev_fmt_profile_attr *>(attr));
	return 0;
}

} // namespace

MRC_API int mrc_ctl_modify_ev_fmt_profile(mrc_context *mrc_ctx,
					  uint64_t ev_fmt_profile_id,
					  mrc_ctl_ev_fmt_profile_attr *attr,
					  int attr_mask)
{
	if (!mrc_ctx || !attr || !ev_fmt_profile_id || !attr_mask ||
	    (attr_mask & ~modify_mask))
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_EV_FMT_PROFILE_STATE) &&
	    !valid_state(attr->profile_state))
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_EV_FMT_PROFILE_MODE) &&
	    !format_of(attr->ev_fmt_mode))
		return fail(EINVAL);
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_OP) {
		const auto &op = attr->ev_fmt_op;
		if (op.op != MRC_CTL_EV_FMT_OP_MODIFY_FIELDS &&
		    op.op != MRC_CTL_EV_FMT_OP_QUERY_FIELDS)
			return fail(EINVAL);
		if (op.op == MRC_CTL_EV_FMT_OP_MODIFY_FIELDS) {
			if (op.fmt_field_count <= 0 || !op.fmt_fields)
				return fail(EINVAL);
			for (int i = 0; i < op.fmt_field_count; i++)
				if (!op.fmt_fields[i].width)
					return fail(EINVAL);
		}
	}
	std::lock_guard<std::mutex> g(mrc_ctx->lock);
	return modify(mrc_ctx, ev_fmt_profile_id, attr, attr_mask);
}

MRC_API int mrc_ctl_query_ev_fmt_profile(mrc_context *mrc_ctx,
					 uint64_t ev_fmt_profile_id,
					 mrc_ctl_ev_fmt_profile_attr *attr,
					 int attr_mask)
{
	if (!mrc_ctx || !attr || !attr_mask || (attr_mask & ~query_mask))
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_EV_FMT_PROFILE_OP) &&
	    attr->ev_fmt_op.op != MRC_CTL_EV_FMT_OP_QUERY_FIELDS)
		return fail(EINVAL);
	std::lock_guard<std::mutex> g(mrc_ctx->lock);
	EvCtl &ctl = ev_ctl(mrc_ctx);
	auto it = ctl.fmts.find(ev_fmt_profile_id);
	const EvFmt *f = it == ctl.fmts.end() ? nullptr : &it->second;
	auto state = f ? f->state : MRC_CTL_PROFILE_INIT;
	if ((attr_mask & MRC_CTL_EV_FMT_PROFILE_OP) && put_fields(f, attr))
		return -1;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_STATE)
		attr->profile_state = state;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_CUR_STATE)
		attr->cur_profile_state = state;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		attr->ev_fmt_mode = mode_of(f ? f->format : 0);
	return 0;
}
