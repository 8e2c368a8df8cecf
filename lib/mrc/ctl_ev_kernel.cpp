// SPDX-License-Identifier: GPL-2.0-only
#include "ctl_ev_kernel.hpp"

#include "attrs.hpp"
#include "profile_attrs.hpp"

namespace mrc::lib {

namespace {

void check(bool ok)
{
	if (!ok)
		throw mrcctl::Failure("message too large");
}

mrcctl::MsgPtr ev_request(const mrcctl::GenlSocket &sk, uint8_t cmd,
			  const mrc_context *ctx, uint32_t id)
{
	mrcctl::MsgPtr req = sk.request(cmd, false);
	check(nla_put_string(req.get(), MRC_A_EV_PROFILE_DEV_NAME,
			     ibv_get_device_name(ctx->vctx->device)) >= 0 &&
	      nla_put_u32(req.get(), MRC_A_EV_PROFILE_ID, id) >= 0);
	return req;
}

void put_ev(nl_msg *m, int type, const mrcctl::Ev &ev, bool with_state)
{
	nlattr *n = nla_nest_start(m, type);
	check(n && nla_put_u8(m, MRC_A_EV_PLANE, ev.plane.value_or(0)) >= 0 &&
	      nla_put(m, MRC_A_EV_VALUE, static_cast<int>(ev.value.size()),
		      ev.value.data()) >= 0);
	if (with_state && ev.state)
		check(nla_put_u8(m, MRC_A_EV_STATE, *ev.state) >= 0);
	nla_nest_end(m, n);
}

void put_field(nl_msg *m, const mrcctl::GenField &f)
{
	nlattr *n = nla_nest_start(m, MRC_A_EV_GEN_FIELD);
	check(n &&
	      nla_put_u8(m, MRC_A_EV_GEN_WIDTH, static_cast<uint8_t>(f.width)) >=
		      0 &&
	      nla_put_u32(m, MRC_A_EV_GEN_INIT, f.init) >= 0 &&
	      nla_put_u32(m, MRC_A_EV_GEN_MIN, f.min) >= 0 &&
	      nla_put_u32(m, MRC_A_EV_GEN_MAX, f.max) >= 0 &&
	      nla_put_u32(m, MRC_A_EV_GEN_MASK, f.mask.value_or(0)) >= 0);
	nla_nest_end(m, n);
}

void run(mrcctl::GenlSocket &sk, nl_msg *m)
{
	sk.transact(m, [](nl_msg *) {});
}

} // namespace

bool ev_k_get(const mrc_context *ctx, uint32_t id, mrcctl::EvProfile *out)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = ev_request(sk, MRC_CMD_EV_PROFILE_GET, ctx, id);
	bool got = false;
	try {
		sk.transact(req.get(), [&](nl_msg *m) {
			*out = mrcctl::decode_ev_profile(m);
			got = true;
		});
	} catch (const mrcctl::KernelError &e) {
		if (e.error() == ENOENT)
			return false;
		throw;
	}
	if (!got || !out->mode || !out->format || !out->state)
		throw mrcctl::Failure("an EV profile reply without its mode");
	return true;
}

void ev_k_add(const mrc_context *ctx, uint32_t id, const mrcctl::EvProfile &p)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = ev_request(sk, MRC_CMD_EV_PROFILE_ADD, ctx, id);
	nl_msg *m = req.get();
	check(nla_put_u8(m, MRC_A_EV_PROFILE_MODE, p.mode.value_or(0)) >= 0 &&
	      nla_put_u8(m, MRC_A_EV_PROFILE_FORMAT, p.format.value_or(0)) >= 0);
	if (p.min_active)
		check(nla_put_u16(m, MRC_A_EV_PROFILE_MIN_ACTIVE,
				  static_cast<uint16_t>(*p.min_active)) >= 0);
	if (p.event_mask)
		check(nla_put_u32(m, MRC_A_EV_PROFILE_EVENT_MASK,
				  *p.event_mask) >= 0);
	if (p.count)
		check(nla_put_u16(m, MRC_A_EV_PROFILE_COUNT,
				  static_cast<uint16_t>(*p.count)) >= 0);
	if (p.plane_mask)
		check(nla_put_u16(m, MRC_A_EV_PROFILE_PLANE_MASK,
				  *p.plane_mask) >= 0);
	if (!p.fields.empty()) {
		nlattr *n = nla_nest_start(m, MRC_A_EV_PROFILE_GEN_FIELDS);
		check(n != nullptr);
		for (const auto &f : p.fields)
			put_field(m, f);
		nla_nest_end(m, n);
		check(nla_put_u8(m, MRC_A_EV_PROFILE_GEN_SHIFT,
				 static_cast<uint8_t>(p.shift.value_or(0))) >= 0);
	}
	if (p.evs) {
		nlattr *n = nla_nest_start(m, MRC_A_EV_PROFILE_EVS);
		check(n != nullptr);
		for (const auto &e : *p.evs)
			put_ev(m, MRC_A_EV, e, true);
		nla_nest_end(m, n);
	}
	run(sk, m);
}

void ev_k_set(const mrc_context *ctx, uint32_t id, std::optional<uint8_t> state,
	      std::optional<uint16_t> min_active,
	      std::optional<uint32_t> event_mask)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = ev_request(sk, MRC_CMD_EV_PROFILE_SET, ctx, id);
	nl_msg *m = req.get();
	if (state)
		check(nla_put_u8(m, MRC_A_EV_PROFILE_STATE, *state) >= 0);
	if (min_active)
		check(nla_put_u16(m, MRC_A_EV_PROFILE_MIN_ACTIVE, *min_active) >=
		      0);
	if (event_mask)
		check(nla_put_u32(m, MRC_A_EV_PROFILE_EVENT_MASK, *event_mask) >=
		      0);
	run(sk, m);
}

void ev_k_replace(const mrc_context *ctx, uint32_t id, uint16_t idx,
		  const mrcctl::Ev &ev)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = ev_request(sk, MRC_CMD_EV_PROFILE_SET, ctx, id);
	nl_msg *m = req.get();
	check(nla_put_u16(m, MRC_A_EV_PROFILE_EV_INDEX, idx) >= 0 &&
	      nla_put_u8(m, MRC_A_EV_PROFILE_EV_PLANE, ev.plane.value_or(0)) >= 0 &&
	      nla_put(m, MRC_A_EV_PROFILE_EV_VALUE,
		      static_cast<int>(ev.value.size()), ev.value.data()) >= 0);
	run(sk, m);
}

void ev_k_deny(const mrc_context *ctx, uint32_t id, uint16_t idx, bool deny)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = ev_request(sk, MRC_CMD_EV_PROFILE_SET, ctx, id);
	nl_msg *m = req.get();
	check(nla_put_u16(m, MRC_A_EV_PROFILE_EV_INDEX, idx) >= 0 &&
	      nla_put_u8(m, MRC_A_EV_PROFILE_EV_DENY, deny) >= 0);
	run(sk, m);
}

void ev_k_del(const mrc_context *ctx, uint32_t id)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = ev_request(sk, MRC_CMD_EV_PROFILE_DEL, ctx, id);
	run(sk, req.get());
}

uint16_t ev_k_planes(const mrc_context *ctx)
{
	const char *dev = ibv_get_device_name(ctx->vctx->device);
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = sk.request(MRC_CMD_PLANE_GET, true);
	check(nla_put_string(req.get(), MRC_A_DEV_NAME, dev) >= 0);
	uint16_t planes = 0;
	sk.transact(req.get(), [&](nl_msg *m) {
		mrcctl::Plane p = mrcctl::decode_plane(m);
		if ((!p.dev || *p.dev == dev) && p.id && *p.id >= 1 && *p.id <= 16)
			planes |= static_cast<uint16_t>(1u << (*p.id - 1));
	});
	return planes;
}

} // namespace mrc::lib
