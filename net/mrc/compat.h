/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one place that knows about kernel API changes after 6.1 (Debian
 * bookworm, the target).  Only wrappers for interfaces this module uses.
 */
#ifndef _NET_MRC_COMPAT_H
#define _NET_MRC_COMPAT_H

#include <linux/mm.h>
#include <linux/version.h>
#include <net/genetlink.h>

/* 6.3 made vma->vm_flags read-only behind vm_flags_set(). */
static inline void mrc_vm_flags_set(struct vm_area_struct *vma,
				    unsigned long flags)
{
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/* 6.6 moved the parsed attributes of a dump request from
 * genl_dumpit_info(cb)->attrs to genl_info_dump(cb)->attrs.
 */
static inline struct nlattr **mrc_genl_dump_attrs(struct netlink_callback *cb)
{
#if KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

#endif /* _NET_MRC_COMPAT_H */
