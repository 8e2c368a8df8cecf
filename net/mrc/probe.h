/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A probe run (probe.c, the packet side; netlink_probe.c, the op): the
 * paths toward one peer, the time each probe left and the RTT of each
 * answer.
 */
#ifndef _NET_MRC_PROBE_H
#define _NET_MRC_PROBE_H

#include <linux/list.h>
#include <linux/wait.h>

#include "qp.h"

struct mrc_probe_run {
	struct list_head node;		/* in mn->probes; mn->probe_lock */
	u32 base;			/* probe_id of path 0 */
	u32 n;				/* paths probed */
	u32 answered;			/* mn->probe_lock */
	wait_queue_head_t wq;
	u64 sent[MRC_MAX_EVS];		/* const once sent */
	u64 rtt[MRC_MAX_EVS];		/* ns; 0: no answer; probe_lock */
	struct mrc_qp_ev ev[MRC_MAX_EVS];
	struct mrc_qp_plane plane[MRC_MAX_PLANES + 1];	/* no dst_cache */
	struct mrc_qp_path_prep prep;
};

void mrc_probe_run_start(struct mrc_net *mn, struct mrc_dev *mdev,
			 struct mrc_probe_run *run,
			 const struct sockaddr *peer);
void mrc_probe_run_wait(struct mrc_net *mn, struct mrc_probe_run *run,
			u32 timeout_ms);

#endif /* _NET_MRC_PROBE_H */
