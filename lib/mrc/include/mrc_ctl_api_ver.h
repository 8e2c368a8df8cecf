/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * lib_mrc: API version numbers of the OCP MRC controller interface
 * (mrc_ctl.h), which is versioned apart from the application interface.
 *
 * Names and values are those of the published interface; the encoding is
 * the one of mrc_api_ver.h (major in bits 24-31, minor 16-23, sub-minor
 * 0-15).  A controller may define MRC_CTL_API_VER_USED (and
 * MRC_CTL_VENDOR_API_VER_USED) before including this header;
 * MRC_CTL_API_VER_LATEST means "whatever this header is".  Declarations of
 * later versions are then hidden (mrc_ctl_query_device_ex, the state of an
 * EV event).
 */
#ifndef _MRC_CTL_API_VER_H_
#define _MRC_CTL_API_VER_H_

#define MRC_CTL_API_VER_MAJOR_OFFSET 24
#define MRC_CTL_API_VER_MINOR_OFFSET 16
#define MRC_CTL_API_VER_SUBMINOR_OFFSET 0

/* Unsigned arithmetic, as MRC_API_VER (a major >= 0x80 stays positive). */
#define MRC_CTL_API_VER(_major, _minor, _sub_minor)          \
	((((_major) + 0U) << MRC_CTL_API_VER_MAJOR_OFFSET) | \
	 (((_minor) + 0U) << MRC_CTL_API_VER_MINOR_OFFSET) | \
	 (((_sub_minor) + 0U) << MRC_CTL_API_VER_SUBMINOR_OFFSET))

#define MRC_CTL_API_VER_LATEST MRC_CTL_API_VER(0xFF, 0xFF, 0xFFFF)

/* The controller API this header describes, and the oldest served. */
#define MRC_CTL_API_CURRENT_VERSION MRC_CTL_API_VER(1, 0, 1)
#define MRC_CTL_API_LAST_SUPPORTED_VERSION MRC_CTL_API_VER(0, 0, 0)

#ifndef MRC_CTL_API_VER_USED
#define MRC_CTL_API_VER_USED MRC_CTL_API_CURRENT_VERSION
#elif MRC_CTL_API_VER_USED == MRC_CTL_API_VER_LATEST
#undef MRC_CTL_API_VER_USED
#define MRC_CTL_API_VER_USED MRC_CTL_API_CURRENT_VERSION
#endif

#if MRC_CTL_API_VER_USED > MRC_CTL_API_CURRENT_VERSION
#error "MRC_CTL_API_VER_USED is newer than MRC_CTL_API_CURRENT_VERSION"
#elif MRC_CTL_API_VER_USED < MRC_CTL_API_LAST_SUPPORTED_VERSION
#error "MRC_CTL_API_VER_USED is older than MRC_CTL_API_LAST_SUPPORTED_VERSION"
#elif MRC_CTL_API_VER_USED == MRC_CTL_API_LAST_SUPPORTED_VERSION
#warning "MRC_CTL_API_VER_USED is the oldest supported version and may be dropped"
#endif

/* The provider's own controller surface; the software MRC has none. */
#define MRC_CTL_VENDOR_API_CURRENT_VERSION MRC_CTL_API_VER(1, 0, 0)
#define MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION MRC_CTL_API_VER(0, 0, 0)

#ifndef MRC_CTL_VENDOR_API_VER_USED
#define MRC_CTL_VENDOR_API_VER_USED MRC_CTL_VENDOR_API_CURRENT_VERSION
#elif MRC_CTL_VENDOR_API_VER_USED == MRC_CTL_API_VER_LATEST
#undef MRC_CTL_VENDOR_API_VER_USED
#define MRC_CTL_VENDOR_API_VER_USED MRC_CTL_VENDOR_API_CURRENT_VERSION
#endif

#if MRC_CTL_VENDOR_API_VER_USED > MRC_CTL_VENDOR_API_CURRENT_VERSION
#error "MRC_CTL_VENDOR_API_VER_USED is newer than MRC_CTL_VENDOR_API_CURRENT_VERSION"
#elif MRC_CTL_VENDOR_API_VER_USED < MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION
#error "MRC_CTL_VENDOR_API_VER_USED is older than MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION"
#elif MRC_CTL_VENDOR_API_VER_USED == MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION
#warning "MRC_CTL_VENDOR_API_VER_USED is the oldest supported version and may be dropped"
#endif

#endif /* _MRC_CTL_API_VER_H_ */
