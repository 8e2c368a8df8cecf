// SPDX-License-Identifier: GPL-2.0-only
// mrc_create_context / mrc_destroy_context: a library instance on one
// verbs context, the parent of every other object.
#include "device.hpp"

#include <new>

using namespace mrc::lib;

namespace {

// A version a program says it uses: 0 (unspecified) or one this library
// implements; the newest when unspecified.
bool version_ok(uint32_t used, uint32_t oldest, uint32_t current)
{
	return used == 0 || (used >= oldest && used <= current);
}

} // namespace

MRC_API mrc_context *mrc_create_context(ibv_context *vcontext,
					mrc_context_attr *context_attr)
{
	if (!vcontext)
		return fail_null<mrc_context>(EINVAL);

	mrc_context_attr attr{};
	if (context_attr)
		attr = *context_attr;
	if (!version_ok(attr.mrc_api_version_used,
			MRC_API_LAST_SUPPORTED_VERSION, MRC_API_CURRENT_VERSION) ||
	    !version_ok(attr.mrc_vendor_api_version_used,
			MRC_VENDOR_API_LAST_SUPPORTED_VERSION,
			MRC_VENDOR_API_CURRENT_VERSION))
		return fail_null<mrc_context>(EINVAL);
	if (!attr.mrc_api_version_used)
		attr.mrc_api_version_used = MRC_API_CURRENT_VERSION;
	if (!attr.mrc_vendor_api_version_used)
		attr.mrc_vendor_api_version_used = MRC_VENDOR_API_CURRENT_VERSION;

	auto ctx = std::unique_ptr<mrc_context>(new (std::nothrow) mrc_context{});
	if (!ctx)
		return fail_null<mrc_context>(ENOMEM);
	ctx->vctx = vcontext;
	ctx->attr = attr;
	int rc = device_query(vcontext, &ctx->dev, &ctx->supported);
	if (rc)
		return fail_null<mrc_context>(kabi_err(rc));
	return ctx.release();
}

MRC_API int mrc_destroy_context(mrc_context *mrc_ctx)
{
	if (!mrc_ctx)
		return fail(EINVAL);
	{
		std::lock_guard l(mrc_ctx->lock);
		if (!mrc_ctx->channels.empty() || !mrc_ctx->cqs.empty() ||
		    !mrc_ctx->hints.empty() || !mrc_ctx->qps.empty())
			return fail(EBUSY);
	}
	delete mrc_ctx;
	return 0;
}
