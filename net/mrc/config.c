// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every layer of the glue shares: the control-plane lock and the
 * module parameters.  Kept apart from main.c, which calls every layer's
 * init, so that using them is no call up into the module entry.
 */

#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "mrc.h"

/* Serialises every control-plane change; see mrc.h for what it covers. */
DEFINE_MUTEX(mrc_cfg_lock);

unsigned short mrc_udp_port = MRC_UDP_PORT_DEFAULT;
module_param_named(udp_port, mrc_udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "UDP destination port of MRC packets (default 4791)");
