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
	/* Endpoint batches (mrc_probe_batch_start()): path i has its own
	 * destination bpl[i] and format fmt[i]; prep.evs[i] is its EV,
	 * prep.oif[] the instance's plane netdevs.
	 */
	bool batch;
	u8 fmt[MRC_MAX_EVS];
	u8 port[MRC_MAX_EVS];		/* plane answered on; probe_lock */
	u32 svc[MRC_MAX_EVS];		/* responder's time, ns; probe_lock */
	u16 order[MRC_MAX_EVS];		/* [k]: path answered k-th; probe_lock */
	struct mrc_qp_plane bpl[MRC_MAX_EVS];	/* no dst_cache */
};

void mrc_probe_run_start(struct mrc_net *mn, struct mrc_dev *mdev,
			 struct mrc_probe_run *run,
			 const struct sockaddr *peer);
void mrc_probe_batch_start(struct mrc_net *mn, struct mrc_dev *mdev,
			   struct mrc_probe_run *run);
void mrc_probe_run_wait(struct mrc_net *mn, struct mrc_probe_run *run,
			u32 timeout_ms);
void mrc_probe_run_wait_ns(struct mrc_net *mn, struct mrc_probe_run *run,
			   u64 timeout_ns);

/* ep_port.c: PORT_STATUS @up_mask on every connection of @mdev to
 * @peer (from @local, when not NULL).  The number of connections.
 */
u32 mrc_ep_port_status(struct mrc_dev *mdev, const struct sockaddr *peer,
		       const struct sockaddr *local, u16 up_mask);

#endif /* _NET_MRC_PROBE_H */
