// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counters of an instance as users see them, under one set of names:
 * the "mrc" netlink family (MRC_A_DEV_STATS, netlink.c) and the RDMA
 * core's hardware counters ("rdma statistic show link mrcN/1", and
 * /sys/class/infiniband/mrcN/ports/1/hw_counters/).
 *
 * Index i < MRC_CNT_NR is enum mrc_dev_counter, of this instance; the
 * MRC_NCNT_NR indices after it are enum mrc_net_counter, the drops of the
 * instance's network namespace before a packet names a QP (the same
 * values in every instance of the namespace).
 * Documentation/admin-guide/mrc.rst ("Counters") describes each.
 */

#include <rdma/ib_verbs.h>

#include "mrc.h"

#define MRC_NSTAT(c)	(MRC_CNT_NR + (c))

static const struct rdma_stat_desc mrc_stat_descs[MRC_STATS_NR] = {
	[MRC_CNT_TX_PKTS].name			= "tx_pkts",
	[MRC_CNT_TX_BYTES].name			= "tx_bytes",
	[MRC_CNT_RX_PKTS].name			= "rx_pkts",
	[MRC_CNT_RX_BYTES].name			= "rx_bytes",
	[MRC_CNT_RETX].name			= "retx_pkts",
	[MRC_CNT_DUP].name			= "rx_dup",
	[MRC_CNT_OOW].name			= "rx_oow",
	[MRC_CNT_NACK_TX].name			= "nack_tx",
	[MRC_CNT_NACK_RX].name			= "nack_rx",
	[MRC_CNT_BAD_RKEY].name			= "rx_bad_rkey",
	[MRC_CNT_SPOOFED].name			= "rx_spoofed",
	[MRC_CNT_BAD_STATE].name		= "rx_bad_state",
	[MRC_CNT_TX_DROP].name			= "tx_drop",
	[MRC_CNT_PROTO_ERR].name		= "rx_proto_err",
	[MRC_CNT_CTRL_INVALID].name		= "rx_ctrl_invalid",
	[MRC_CNT_BAD_RESP].name			= "rx_bad_resp",
	[MRC_CNT_UC_DROP].name			= "rx_uc_drop",
	[MRC_CNT_UD_DROP].name			= "rx_ud_drop",
	[MRC_CNT_RX_TRIMMED].name		= "rx_trimmed",
	[MRC_NSTAT(MRC_NCNT_MALFORMED)].name	= "rx_malformed",
	[MRC_NSTAT(MRC_NCNT_BAD_ICRC)].name	= "rx_bad_icrc",
	[MRC_NSTAT(MRC_NCNT_NO_QP)].name	= "rx_no_qp",
	[MRC_NSTAT(MRC_NCNT_PROBE_LIMITED)].name = "probe_limited",
	[MRC_NSTAT(MRC_NCNT_PROBE_STRAY)].name	= "rx_probe_stray",
};

/* The netlink attribute of each counter (include/uapi/linux/mrc.h). */
const u16 mrc_stat_attr[MRC_STATS_NR] = {
	[MRC_CNT_TX_PKTS]			= MRC_A_STAT_TX_PKTS,
	[MRC_CNT_TX_BYTES]			= MRC_A_STAT_TX_BYTES,
	[MRC_CNT_RX_PKTS]			= MRC_A_STAT_RX_PKTS,
	[MRC_CNT_RX_BYTES]			= MRC_A_STAT_RX_BYTES,
	[MRC_CNT_RETX]				= MRC_A_STAT_RETX_PKTS,
	[MRC_CNT_DUP]				= MRC_A_STAT_RX_DUP,
	[MRC_CNT_OOW]				= MRC_A_STAT_RX_OOW,
	[MRC_CNT_NACK_TX]			= MRC_A_STAT_NACK_TX,
	[MRC_CNT_NACK_RX]			= MRC_A_STAT_NACK_RX,
	[MRC_CNT_BAD_RKEY]			= MRC_A_STAT_RX_BAD_RKEY,
	[MRC_CNT_SPOOFED]			= MRC_A_STAT_RX_SPOOFED,
	[MRC_CNT_BAD_STATE]			= MRC_A_STAT_RX_BAD_STATE,
	[MRC_CNT_TX_DROP]			= MRC_A_STAT_TX_DROP,
	[MRC_CNT_PROTO_ERR]			= MRC_A_STAT_RX_PROTO_ERR,
	[MRC_CNT_CTRL_INVALID]			= MRC_A_STAT_RX_CTRL_INVALID,
	[MRC_CNT_BAD_RESP]			= MRC_A_STAT_RX_BAD_RESP,
	[MRC_CNT_UC_DROP]			= MRC_A_STAT_RX_UC_DROP,
	[MRC_CNT_UD_DROP]			= MRC_A_STAT_RX_UD_DROP,
	[MRC_CNT_RX_TRIMMED]			= MRC_A_STAT_RX_TRIMMED,
	[MRC_NSTAT(MRC_NCNT_MALFORMED)]		= MRC_A_STAT_RX_MALFORMED,
	[MRC_NSTAT(MRC_NCNT_BAD_ICRC)]		= MRC_A_STAT_RX_BAD_ICRC,
	[MRC_NSTAT(MRC_NCNT_NO_QP)]		= MRC_A_STAT_RX_NO_QP,
	[MRC_NSTAT(MRC_NCNT_PROBE_LIMITED)]	= MRC_A_STAT_PROBE_LIMITED,
	[MRC_NSTAT(MRC_NCNT_PROBE_STRAY)]	= MRC_A_STAT_RX_PROBE_STRAY,
};

/* Counter @i (0..MRC_STATS_NR - 1) of @mdev. */
u64 mrc_stat_read(const struct mrc_dev *mdev, unsigned int i)
{
	if (i < MRC_CNT_NR)
		return atomic64_read(&mdev->cnt[i]);
	return atomic64_read(&mdev->mnet->rx_drop[i - MRC_CNT_NR]);
}

static struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
						     u32 port_num)
{
	return rdma_alloc_hw_stats_struct(mrc_stat_descs,
					  ARRAY_SIZE(mrc_stat_descs),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/* The instance has one port; its counters are the instance's. */
static int mrc_get_hw_stats(struct ib_device *ibdev,
			    struct rdma_hw_stats *stats, u32 port, int index)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	unsigned int i;

	if (!port || !stats)
		return -EINVAL;
	for (i = 0; i < MRC_STATS_NR; i++)
		stats->value[i] = mrc_stat_read(mdev, i);
	return MRC_STATS_NR;
}

const struct ib_device_ops mrc_counter_ops = {
	.alloc_hw_port_stats = mrc_alloc_hw_port_stats,
	.get_hw_stats = mrc_get_hw_stats,
};
