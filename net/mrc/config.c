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

/* The DSCP a trimming switch sets on a packet whose payload it cut
 * (Documentation/networking/mrc.rst, "Trimmed packets"); -1: none, a
 * truncated packet is malformed.  Read once per received packet.
 */
int mrc_trim_dscp = MRC_TRIM_DSCP_DEFAULT;

static int mrc_trim_dscp_set(const char *val, const struct kernel_param *kp)
{
	int v, err;

	err = kstrtoint(val, 0, &v);
	if (err)
		return err;
	if (v < -1 || v > 63)
		return -ERANGE;
	WRITE_ONCE(mrc_trim_dscp, v);
	return 0;
}

static const struct kernel_param_ops mrc_trim_dscp_ops = {
	.set = mrc_trim_dscp_set,
	.get = param_get_int,
};

module_param_cb(trim_dscp, &mrc_trim_dscp_ops, &mrc_trim_dscp, 0644);
MODULE_PARM_DESC(trim_dscp,
		 "DSCP (0-63) that marks a packet trimmed by a switch, -1 for none (default 7)");
