// SPDX-License-Identifier: GPL-2.0-only
// mrc_ctl_modify_cc_profile / mrc_ctl_query_cc_profile over the kernel's
// CC profiles (mrc netlink family, cc-profile-add/-set/-del/-get; the
// values checked in net/mrc/netlink_cc_profile.c).
//
// The kernel's profiles have no state: one that exists can be named by a
// route at once.  So the API's states map as: ONLINE is a profile the
// kernel holds (whoever added it); OFFLINE is this context's own record
// (mrc_context::cc_offline), configured but unknown to the kernel; INIT
// is neither.  Going ONLINE adds the profile, going OFFLINE deletes it
// from the kernel (EBUSY while a route names it) and keeps its values.
// The API's NULL algorithm (no CC) is the kernel's "none".
// A CONFIG while ONLINE is a cc-profile-set (it applies at once to the
// live connections that run the profile and to those set up afterwards:
// MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE).
#include <mrc_ctl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "ctl_nl.hpp"
#include "profile_attrs.hpp"

using namespace mrc::lib;

namespace {

constexpr char nscc[] = "uet-1.0-nscc"; // MRC_CC_ALGO_NSCC
constexpr char none[] = "none";		// MRC_CC_ALGO_NONE: the API's NULL
constexpr uint32_t max_profile_id = 65535;
constexpr int modify_mask = MRC_CTL_CC_PROFILE_STATE |
			    MRC_CTL_CC_PROFILE_ALGORITHM |
			    MRC_CTL_CC_PROFILE_CONFIG;
constexpr int query_mask = modify_mask | MRC_CTL_CC_PROFILE_CUR_STATE;

// The kernel's values, index i is attribute MRC_A_CC_BASE_RTT + i.
using Values = std::array<uint32_t, 15>;

constexpr size_t idx(int attr) { return attr - MRC_A_CC_BASE_RTT; }

// A float of the API as the kernel's integer: @x * @scale rounded, in
// [@lo, @hi]; false if it is not (NaN, infinite, negative, too large).
bool to_u32(float x, double scale, uint32_t lo, uint32_t hi, uint32_t *out)
{
	double v = std::nearbyint(static_cast<double>(x) * scale);

	if (!std::isfinite(v) || v < lo || v > hi)
		return false;
	*out = static_cast<uint32_t>(v);
	return true;
}

// @cfg over @base (the values the API does not have: min and init cwnd,
// kept but never above max_cwnd).  gamma and max_md_jump are fractions
// of the window (the kernel's / 1024, 1..1024); eta, fi and fi_scale are
// the kernel's integers.  The kernel checks the rest (EINVAL).
bool to_values(const mrc_ctl_cc_nscc_cfg &cfg, Values base, Values *out)
{
	constexpr uint32_t u32max = std::numeric_limits<uint32_t>::max();
	Values v = base;

	v[idx(MRC_A_CC_BASE_RTT)] = cfg.base_rtt;
	v[idx(MRC_A_CC_TARGET_DELAY)] = cfg.target_delay;
	v[idx(MRC_A_CC_QA_THRESHOLD)] = cfg.qa_threshold;
	v[idx(MRC_A_CC_ADJUST_BYTES)] = cfg.adjust_bytes_threshold;
	v[idx(MRC_A_CC_ADJUST_PERIOD)] = cfg.adjust_period_threshold;
	v[idx(MRC_A_CC_MAX_CWND)] = cfg.max_cwnd;
	v[idx(MRC_A_CC_QA_GATE)] = cfg.qa_gate;
	v[idx(MRC_A_CC_DISABLE_QA)] = cfg.disable_qa != 0;
	if (!to_u32(cfg.eta, 1, 0, u32max, &v[idx(MRC_A_CC_ETA)]) ||
	    !to_u32(cfg.fi, 1, 0, u32max, &v[idx(MRC_A_CC_FI)]) ||
	    !to_u32(cfg.fi_scale, 1, 1, u32max, &v[idx(MRC_A_CC_FI_SCALE)]) ||
	    !to_u32(cfg.gamma, 1024, 1, 1024, &v[idx(MRC_A_CC_GAMMA)]) ||
	    !to_u32(cfg.max_md_jump, 1024, 1, 1024, &v[idx(MRC_A_CC_MAX_MD_JUMP)]))
		return false;
	uint32_t &init = v[idx(MRC_A_CC_INIT_CWND)];
	uint32_t &min = v[idx(MRC_A_CC_MIN_CWND)];
	init = std::min(init, cfg.max_cwnd);
	min = std::min(min, init);
	*out = v;
	return true;
}

void to_cfg(const Values &v, mrc_ctl_cc_nscc_cfg *cfg)
{
	std::memset(cfg, 0, sizeof(*cfg));
	cfg->base_rtt = v[idx(MRC_A_CC_BASE_RTT)];
	cfg->target_delay = v[idx(MRC_A_CC_TARGET_DELAY)];
	cfg->qa_threshold = v[idx(MRC_A_CC_QA_THRESHOLD)];
	cfg->adjust_bytes_threshold = v[idx(MRC_A_CC_ADJUST_BYTES)];
	cfg->adjust_period_threshold = v[idx(MRC_A_CC_ADJUST_PERIOD)];
	cfg->max_cwnd = v[idx(MRC_A_CC_MAX_CWND)];
	cfg->qa_gate = static_cast<uint8_t>(v[idx(MRC_A_CC_QA_GATE)]);
	cfg->disable_qa = static_cast<uint8_t>(v[idx(MRC_A_CC_DISABLE_QA)]);
	cfg->eta = static_cast<float>(v[idx(MRC_A_CC_ETA)]);
	cfg->fi = static_cast<float>(v[idx(MRC_A_CC_FI)]);
	cfg->fi_scale = static_cast<float>(v[idx(MRC_A_CC_FI_SCALE)]);
	cfg->gamma = static_cast<float>(v[idx(MRC_A_CC_GAMMA)] / 1024.0);
	cfg->max_md_jump = static_cast<float>(v[idx(MRC_A_CC_MAX_MD_JUMP)] /
					      1024.0);
}

// The API's errors for a refusal of the kernel: a value it cannot use or
// an unknown algorithm is EINVAL, a route naming the profile EBUSY.
int cc_errno(int err)
{
	switch (err) {
	case EBUSY: return EBUSY;
	case EOPNOTSUPP: return EINVAL;
	default: return ctl_nl_errno(err);
	}
}

// Run @fn: 0, or -1 with errno as cc_errno() has it.
template <typename F> int cc_call(F &&fn) { return ctl_nl_call(fn, cc_errno); }

mrcctl::MsgPtr cc_request(const mrcctl::GenlSocket &sk, uint8_t cmd,
			  const mrc_context *ctx, uint32_t id)
{
	mrcctl::MsgPtr req = sk.request(cmd, false);
	if (nla_put_string(req.get(), MRC_A_CC_DEV_NAME,
			   ibv_get_device_name(ctx->vctx->device)) < 0 ||
	    nla_put_u32(req.get(), MRC_A_CC_PROFILE_ID, id) < 0)
		throw mrcctl::Failure("message too large");
	return req;
}

// The kernel's profile @id (*@no_cc: its algorithm is "none"): false if
// it has none.
bool kernel_get(const mrc_context *ctx, uint32_t id, Values *out,
		bool *no_cc = nullptr)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = cc_request(sk, MRC_CMD_CC_PROFILE_GET, ctx, id);
	unsigned int seen = 0;
	try {
		sk.transact(req.get(), [&](nl_msg *m) {
			mrcctl::CcProfile p = mrcctl::decode_cc_profile(m);
			if (no_cc)
				*no_cc = p.algo && *p.algo == none;
			for (const auto &[attr, v] : p.values)
				if (attr >= MRC_A_CC_BASE_RTT &&
				    attr <= MRC_A_CC_DISABLE_QA) {
					(*out)[idx(attr)] = v;
					seen |= 1u << idx(attr);
				}
		});
	} catch (const mrcctl::KernelError &e) {
		if (e.error() == ENOENT)
			return false;
		throw;
	}
	if (seen != (1u << out->size()) - 1)
		throw mrcctl::Failure("a CC value missing in the reply");
	return true;
}

// cc-profile-add (@add) or -set of the algorithm and every value.
void kernel_put(const mrc_context *ctx, uint32_t id, bool add, bool no_cc,
		const Values &v)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = cc_request(sk,
					add ? MRC_CMD_CC_PROFILE_ADD :
					      MRC_CMD_CC_PROFILE_SET,
					ctx, id);
	nl_msg *m = req.get();
	bool ok = nla_put_string(m, MRC_A_CC_ALGO, no_cc ? none : nscc) >= 0;
	for (size_t i = 0; ok && i < v.size(); i++) {
		int attr = MRC_A_CC_BASE_RTT + static_cast<int>(i);
		ok = attr == MRC_A_CC_QA_GATE || attr == MRC_A_CC_DISABLE_QA ?
			     nla_put_u8(m, attr, static_cast<uint8_t>(v[i])) >= 0 :
			     nla_put_u32(m, attr, v[i]) >= 0;
	}
	if (!ok)
		throw mrcctl::Failure("message too large");
	sk.transact(m, [](nl_msg *) {});
}

void kernel_del(const mrc_context *ctx, uint32_t id)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = cc_request(sk, MRC_CMD_CC_PROFILE_DEL, ctx, id);
	sk.transact(req.get(), [](nl_msg *) {});
}

// The state of profile @id, its algorithm (*@no_cc) and, when it has
// them, its values.
int current(mrc_context *ctx, uint32_t id, mrc_ctl_profile_state *state,
	    bool *no_cc, std::optional<Values> *values)
{
	Values v{};
	bool online = false;
	*no_cc = false;
	if (cc_call([&] { online = kernel_get(ctx, id, &v, no_cc); }))
		return -1;
	if (online) {
		*state = MRC_CTL_PROFILE_ONLINE;
		*values = v;
		return 0;
	}
	auto it = ctx->cc_offline.find(id);
	if (it == ctx->cc_offline.end()) {
		*state = MRC_CTL_PROFILE_INIT;
		*values = std::nullopt;
		return 0;
	}
	*state = MRC_CTL_PROFILE_OFFLINE;
	*no_cc = it->second.no_cc;
	*values = it->second.values;
	return 0;
}

// The values a CONFIG of @attr gives over @base: EINVAL if unusable.
int config_values(const mrc_ctl_cc_profile_attr *attr, const Values &base,
		  Values *out)
{
	if (!attr->cc_config ||
	    !to_values(*static_cast<const mrc_ctl_cc_nscc_cfg *>(attr->cc_config),
		       base, out))
		return fail(EINVAL);
	return 0;
}

// The built-in profile 0's values: what an added profile's values that
// the API has not are.
int builtin(mrc_context *ctx, Values *out)
{
	bool got = false;
	if (cc_call([&] { got = kernel_get(ctx, 0, out); }))
		return -1;
	return got ? 0 : fail(EIO);
}

int modify(mrc_context *ctx, uint32_t id, const mrc_ctl_cc_profile_attr *attr,
	   int mask)
{
	mrc_ctl_profile_state cur;
	std::optional<Values> have;
	bool no_cc;
	if (current(ctx, id, &cur, &no_cc, &have))
		return -1;
	auto to = mask & MRC_CTL_CC_PROFILE_STATE ? attr->profile_state : cur;
	bool config = mask & MRC_CTL_CC_PROFILE_CONFIG;
	bool algo = mask & MRC_CTL_CC_PROFILE_ALGORITHM;
	Values base{}, v{};

	// INIT <-> OFFLINE <-> ONLINE, one step at a time.
	if ((cur == MRC_CTL_PROFILE_INIT && to == MRC_CTL_PROFILE_ONLINE) ||
	    (cur == MRC_CTL_PROFILE_ONLINE && to == MRC_CTL_PROFILE_INIT))
		return fail(EINVAL);
	if (to == MRC_CTL_PROFILE_INIT) {
		ctx->cc_offline.erase(id);
		return 0;
	}
	// Going OFFLINE needs the algorithm (NULL: no CC).  An ONLINE
	// profile keeps its own (only its CONFIG changes there).
	if (cur == MRC_CTL_PROFILE_INIT && !algo)
		return fail(EINVAL);
	if (algo && cur != MRC_CTL_PROFILE_ONLINE)
		no_cc = !attr->algorithm;
	if (config) {
		if (!have && builtin(ctx, &base))
			return -1;
		if (config_values(attr, have ? *have : base, &v))
			return -1;
		have = v;
	}
	if (to == MRC_CTL_PROFILE_OFFLINE) {
		if (cur == MRC_CTL_PROFILE_ONLINE &&
		    cc_call([&] { kernel_del(ctx, id); }))
			return -1;
		ctx->cc_offline[id] = {no_cc, have};
		return 0;
	}
	// ONLINE: from OFFLINE with the values given now or before (no CC
	// needs none: the built-in profile's max_cwnd is its window).
	if (cur == MRC_CTL_PROFILE_ONLINE && !config)
		return 0;
	if (!have && no_cc) {
		if (builtin(ctx, &base))
			return -1;
		have = base;
	}
	if (!have)
		return fail(EINVAL);
	if (cc_call([&] {
		    kernel_put(ctx, id, cur != MRC_CTL_PROFILE_ONLINE, no_cc,
			       *have);
	    }))
		return -1;
	ctx->cc_offline.erase(id);
	return 0;
}

} // namespace

MRC_API int mrc_ctl_modify_cc_profile(mrc_context *mrc_ctx,
				      uint64_t cc_profile_id,
				      mrc_ctl_cc_profile_attr *attr,
				      int attr_mask)
{
	if (!mrc_ctx || !attr || !cc_profile_id ||
	    cc_profile_id > max_profile_id || !attr_mask ||
	    (attr_mask & ~modify_mask))
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_CC_PROFILE_STATE) &&
	    attr->profile_state != MRC_CTL_PROFILE_INIT &&
	    attr->profile_state != MRC_CTL_PROFILE_OFFLINE &&
	    attr->profile_state != MRC_CTL_PROFILE_ONLINE)
		return fail(EINVAL);
	// NULL: no congestion control.
	if ((attr_mask & MRC_CTL_CC_PROFILE_ALGORITHM) && attr->algorithm &&
	    std::strcmp(attr->algorithm, nscc))
		return fail(EINVAL);
	std::lock_guard<std::mutex> g(mrc_ctx->lock);
	return modify(mrc_ctx, static_cast<uint32_t>(cc_profile_id), attr,
		      attr_mask);
}

// Profile 0 is the kernel's built-in one, ONLINE.  The values go to the
// struct mrc_ctl_cc_nscc_cfg that attr->cc_config points at.
MRC_API int mrc_ctl_query_cc_profile(mrc_context *mrc_ctx, uint64_t cc_profile_id,
				     mrc_ctl_cc_profile_attr *attr, int attr_mask)
{
	if (!mrc_ctx || !attr || cc_profile_id > max_profile_id || !attr_mask ||
	    (attr_mask & ~query_mask))
		return fail(EINVAL);
	if ((attr_mask & MRC_CTL_CC_PROFILE_CONFIG) && !attr->cc_config)
		return fail(EINVAL);
	mrc_ctl_profile_state cur;
	std::optional<Values> have;
	bool no_cc;
	{
		std::lock_guard<std::mutex> g(mrc_ctx->lock);
		if (current(mrc_ctx, static_cast<uint32_t>(cc_profile_id), &cur,
			    &no_cc, &have))
			return -1;
	}
	if (attr_mask & MRC_CTL_CC_PROFILE_STATE)
		attr->profile_state = cur;
	if (attr_mask & MRC_CTL_CC_PROFILE_CUR_STATE)
		attr->cur_profile_state = cur;
	if (attr_mask & MRC_CTL_CC_PROFILE_ALGORITHM) {
		bool named = cur != MRC_CTL_PROFILE_INIT && !no_cc;
		attr->algorithm = named ? nscc : nullptr;
	}
	if (attr_mask & MRC_CTL_CC_PROFILE_CONFIG) {
		auto *cfg = static_cast<mrc_ctl_cc_nscc_cfg *>(
			const_cast<void *>(attr->cc_config));
		if (have)
			to_cfg(*have, cfg);
		else
			std::memset(cfg, 0, sizeof(*cfg));
	}
	return 0;
}
