/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * lib_mrc: API version numbers of the OCP MRC application interface, as
 * implemented by the software MRC (Documentation/networking/lib_mrc.rst).
 *
 * The names and values here are those of the published interface, so
 * that a program built against either header works with either library.
 * A version is one 32-bit number: major in bits 24-31, minor in bits
 * 16-23, sub-minor in bits 0-15.  A new major breaks the ABI; a new minor
 * adds to it; a new sub-minor changes nothing a program can see.
 *
 * A program may define MRC_API_VER_USED (and MRC_VENDOR_API_VER_USED)
 * before including this header to say which version it is written for;
 * MRC_API_VER_LATEST means "whatever this header is".  Declarations that
 * appeared in later versions are then hidden (see mrc_query_device_ex).
 */
#ifndef _MRC_API_VER_H_
#define _MRC_API_VER_H_

#define MRC_API_VER_MAJOR_OFFSET 24
#define MRC_API_VER_MINOR_OFFSET 16
#define MRC_API_VER_SUBMINOR_OFFSET 0

/*
 * "+ 0U" makes the arithmetic unsigned, in C code (a major of 0x80 or more
 * would otherwise shift into the sign bit of an int) as well as in #if.
 */
#define MRC_API_VER(_major, _minor, _sub_minor)          \
	((((_major) + 0U) << MRC_API_VER_MAJOR_OFFSET) | \
	 (((_minor) + 0U) << MRC_API_VER_MINOR_OFFSET) | \
	 (((_sub_minor) + 0U) << MRC_API_VER_SUBMINOR_OFFSET))

/* Every field at its maximum: "the newest this header knows". */
#define MRC_API_VER_LATEST MRC_API_VER(0xFF, 0xFF, 0xFFFF)

/* The core API this header describes, and the oldest the library serves. */
#define MRC_API_CURRENT_VERSION MRC_API_VER(1, 0, 1)
#define MRC_API_LAST_SUPPORTED_VERSION MRC_API_VER(0, 0, 0)

#ifndef MRC_API_VER_USED
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#elif MRC_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_API_VER_USED
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#endif

#if MRC_API_VER_USED > MRC_API_CURRENT_VERSION
#error "MRC_API_VER_USED is newer than this header (MRC_API_CURRENT_VERSION)"
#elif MRC_API_VER_USED < MRC_API_LAST_SUPPORTED_VERSION
#error "MRC_API_VER_USED is older than MRC_API_LAST_SUPPORTED_VERSION"
#elif MRC_API_VER_USED == MRC_API_LAST_SUPPORTED_VERSION
#warning "MRC_API_VER_USED is the oldest supported version and may be dropped"
#endif

/*
 * The provider's own ("vendor") API surface, versioned the same way.  The
 * software MRC has no vendor extension beyond what mrc.h declares; it
 * reports these numbers so that version checks written for a NIC's
 * library pass.
 */
#define MRC_VENDOR_API_CURRENT_VERSION MRC_API_VER(1, 0, 0)
#define MRC_VENDOR_API_LAST_SUPPORTED_VERSION MRC_API_VER(0, 0, 0)

#ifndef MRC_VENDOR_API_VER_USED
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#elif MRC_VENDOR_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_VENDOR_API_VER_USED
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#endif

#if MRC_VENDOR_API_VER_USED > MRC_VENDOR_API_CURRENT_VERSION
#error "MRC_VENDOR_API_VER_USED is newer than MRC_VENDOR_API_CURRENT_VERSION"
#elif MRC_VENDOR_API_VER_USED < MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#error "MRC_VENDOR_API_VER_USED is older than MRC_VENDOR_API_LAST_SUPPORTED_VERSION"
#elif MRC_VENDOR_API_VER_USED == MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#warning "MRC_VENDOR_API_VER_USED is the oldest supported version and may be dropped"
#endif

#endif /* _MRC_API_VER_H_ */
