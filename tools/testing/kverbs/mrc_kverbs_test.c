// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kernel verbs consumer for the selftests (test_84_rdma_cm.sh): loaded
 * with "insmod mrc_kverbs_test.ko dev=NAME", it runs its checks on the
 * RDMA device NAME in its init function, prints one TAP-like line per
 * check ("mrc_kverbs_test: ok N - ..." / "not ok N - ...") and fails
 * the load (-EIO) when any check failed; rmmod it afterwards.
 *
 * A UD QP sends to itself through an AH of the port's first IPv4 GID:
 * a good SEND arrives behind the 40-byte GRH with the sender's QPN; a
 * SEND with a bad lkey completes IB_WC_LOC_PROT_ERR, a WRITE on a UD QP
 * IB_WC_LOC_QP_OP_ERR (the doorbell checks a kernel WQE as a user's); too
 * many SGEs are refused at post time.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *dev = "mrc0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "the RDMA device to test");

#define KV_QKEY		0x1234
#define KV_LEN		64
#define KV_GRH		40
#define KV_MAX_SGE	32

struct kv {
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_ah *ah;
	u8 *buf;			/* [0, 256): send; [256, 512): receive */
	u32 max_send_sge;		/* what create_qp granted */
	int n, failed;
};

static void kv_check(struct kv *kv, bool ok, const char *desc)
{
	kv->n++;
	if (!ok)
		kv->failed++;
	pr_info("%sok %d - %s\n", ok ? "" : "not ", kv->n, desc);
}

/* The next completion (within 2 to 4 s), or false. */
static bool kv_poll(struct kv *kv, struct ib_wc *wc)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (ib_poll_cq(kv->cq, 1, wc) == 1)
			return true;
		usleep_range(10000, 20000);
	}
	return false;
}

static int kv_find_ipv4_gid(struct kv *kv)
{
	const struct ib_gid_attr *attr;
	int i;

	for (i = 0; i < 16; i++) {
		attr = rdma_get_gid_attr(kv->ibdev, 1, i);
		if (IS_ERR(attr))
			continue;
		if (ipv6_addr_v4mapped((const struct in6_addr *)attr->gid.raw) &&
		    attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
			rdma_put_gid_attr(attr);
			return i;
		}
		rdma_put_gid_attr(attr);
	}
	return -ENOENT;
}

static int kv_setup(struct kv *kv)
{
	struct ib_qp_init_attr init = {};
	struct rdma_ah_attr ah = {};
	struct ib_qp_attr a = {};
	union ib_gid gid;
	int idx, err;

	kv->pd = ib_alloc_pd(kv->ibdev, 0);
	if (IS_ERR(kv->pd))
		return PTR_ERR(kv->pd);
	kv->cq = ib_alloc_cq(kv->ibdev, NULL, 64, 0, IB_POLL_DIRECT);
	if (IS_ERR(kv->cq))
		return PTR_ERR(kv->cq);
	init.qp_type = IB_QPT_UD;
	init.send_cq = kv->cq;
	init.recv_cq = kv->cq;
	init.sq_sig_type = IB_SIGNAL_ALL_WR;
	init.cap.max_send_wr = 16;
	init.cap.max_recv_wr = 16;
	init.cap.max_send_sge = 2;
	init.cap.max_recv_sge = 1;
	init.port_num = 1;
	kv->qp = ib_create_qp(kv->pd, &init);
	if (IS_ERR(kv->qp))
		return PTR_ERR(kv->qp);
	kv->max_send_sge = init.cap.max_send_sge;
	if (kv->max_send_sge >= KV_MAX_SGE)
		return -E2BIG;

	a.qp_state = IB_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qkey = KV_QKEY;
	err = ib_modify_qp(kv->qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	a.qp_state = IB_QPS_RTR;
	if (!err)
		err = ib_modify_qp(kv->qp, &a, IB_QP_STATE);
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 0;
	if (!err)
		err = ib_modify_qp(kv->qp, &a, IB_QP_STATE | IB_QP_SQ_PSN);
	if (err)
		return err;

	idx = kv_find_ipv4_gid(kv);
	if (idx < 0)
		return idx;
	err = rdma_query_gid(kv->ibdev, 1, idx, &gid);
	if (err)
		return err;
	ah.type = rdma_ah_find_type(kv->ibdev, 1);
	rdma_ah_set_port_num(&ah, 1);
	rdma_ah_set_grh(&ah, &gid, 0, idx, 64, 0);
	kv->ah = rdma_create_ah(kv->pd, &ah, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(kv->ah))
		return PTR_ERR(kv->ah);
	kv->buf = kzalloc(512, GFP_KERNEL);
	return kv->buf ? 0 : -ENOMEM;
}

static void kv_teardown(struct kv *kv)
{
	kfree(kv->buf);
	if (!IS_ERR_OR_NULL(kv->ah))
		rdma_destroy_ah(kv->ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (!IS_ERR_OR_NULL(kv->qp))
		ib_destroy_qp(kv->qp);
	if (!IS_ERR_OR_NULL(kv->cq))
		ib_free_cq(kv->cq);
	if (!IS_ERR_OR_NULL(kv->pd))
		ib_dealloc_pd(kv->pd);
}

/* Post one UD SEND of @len bytes from kv->buf with @lkey and @opcode. */
static int kv_send(struct kv *kv, u32 lkey, enum ib_wr_opcode opcode,
		   int num_sge, u64 wr_id)
{
	const struct ib_send_wr *bad = NULL;
	struct ib_sge sge[KV_MAX_SGE];
	struct ib_ud_wr wr = {};
	int i, err;

	for (i = 0; i < ARRAY_SIZE(sge); i++) {
		sge[i].addr = (uintptr_t)kv->buf;
		sge[i].length = i ? 0 : KV_LEN;
		sge[i].lkey = lkey;
	}
	wr.wr.wr_id = wr_id;
	wr.wr.opcode = opcode;
	wr.wr.sg_list = sge;
	wr.wr.num_sge = num_sge;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.ah = kv->ah;
	wr.remote_qpn = kv->qp->qp_num;
	wr.remote_qkey = KV_QKEY;
	err = ib_post_send(kv->qp, &wr.wr, &bad);
	if (err && bad != &wr.wr)
		return -EFAULT;		/* bad_wr must name the refused WR */
	return err;
}

static void kv_run(struct kv *kv)
{
	const struct ib_recv_wr *rbad;
	struct ib_recv_wr rwr = {};
	struct ib_qp_attr a = {};
	struct ib_sge rsge;
	struct ib_wc wc, rwc;
	bool got;
	int i, err;

	for (i = 0; i < KV_LEN; i++)
		kv->buf[i] = 0x5a ^ i;
	rsge.addr = (uintptr_t)(kv->buf + 256);
	rsge.length = KV_GRH + KV_LEN;
	rsge.lkey = kv->pd->local_dma_lkey;
	rwr.wr_id = 2;
	rwr.sg_list = &rsge;
	rwr.num_sge = 1;
	err = ib_post_recv(kv->qp, &rwr, &rbad);
	kv_check(kv, !err, "post_recv of a kernel UD QP");

	err = kv_send(kv, kv->pd->local_dma_lkey, IB_WR_SEND, 1, 1);
	kv_check(kv, !err, "post_send of a UD SEND to itself");
	/* The send completes at the doorbell, the receive on arrival. */
	got = kv_poll(kv, &wc) && kv_poll(kv, &rwc);
	if (got && wc.wr_id == 2)
		swap(wc, rwc);
	kv_check(kv, got && wc.wr_id == 1 && wc.status == IB_WC_SUCCESS &&
		 wc.opcode == IB_WC_SEND && wc.qp == kv->qp,
		 "send completion: success, its wr_id and QP");
	kv_check(kv, got && rwc.wr_id == 2 && rwc.status == IB_WC_SUCCESS &&
		 rwc.opcode == IB_WC_RECV && rwc.byte_len == KV_GRH + KV_LEN &&
		 (rwc.wc_flags & IB_WC_GRH) &&
		 rwc.src_qp == kv->qp->qp_num,
		 "receive completion: GRH + 64 bytes from our own QPN");
	kv_check(kv, got && !memcmp(kv->buf, kv->buf + 256 + KV_GRH, KV_LEN),
		 "the 64 bytes arrived behind the GRH");

	err = kv_send(kv, kv->pd->local_dma_lkey ^ 0x100, IB_WR_SEND, 1, 3);
	kv_check(kv, !err && kv_poll(kv, &wc) && wc.wr_id == 3 &&
		 wc.status == IB_WC_LOC_PROT_ERR,
		 "a SEND with a bad lkey completes IB_WC_LOC_PROT_ERR");
	a.qp_state = IB_QPS_RTS;
	a.cur_qp_state = IB_QPS_SQE;
	err = ib_modify_qp(kv->qp, &a, IB_QP_STATE | IB_QP_CUR_STATE);
	kv_check(kv, !err, "SQE -> RTS");

	err = kv_send(kv, kv->pd->local_dma_lkey, IB_WR_RDMA_WRITE, 1, 4);
	kv_check(kv, !err && kv_poll(kv, &wc) && wc.wr_id == 4 &&
		 wc.status == IB_WC_LOC_QP_OP_ERR,
		 "a WRITE on a UD QP completes IB_WC_LOC_QP_OP_ERR");
	err = ib_modify_qp(kv->qp, &a, IB_QP_STATE | IB_QP_CUR_STATE);
	kv_check(kv, !err, "SQE -> RTS");

	err = kv_send(kv, kv->pd->local_dma_lkey, IB_WR_SEND,
		      kv->max_send_sge + 1, 5);
	kv_check(kv, err == -EINVAL,
		 "more SGEs than max_send_sge: EINVAL at post, bad_wr set");
	kv_check(kv, !kv_poll(kv, &wc) || wc.wr_id != 5,
		 "... and no completion for it");
}

static int __init mrc_kverbs_test_init(void)
{
	struct kv kv = {};
	int err;

	kv.ibdev = ib_device_get_by_name(dev, RDMA_DRIVER_UNKNOWN);
	if (!kv.ibdev) {
		pr_err("no RDMA device %s\n", dev);
		return -ENODEV;
	}
	err = kv_setup(&kv);
	kv_check(&kv, !err, "kernel PD, CQ, UD QP to RTS, AH of an IPv4 GID");
	if (!err)
		kv_run(&kv);
	kv_teardown(&kv);
	ib_device_put(kv.ibdev);
	pr_info("%d passed, %d failed\n", kv.n - kv.failed, kv.failed);
	return kv.failed ? -EIO : 0;
}
module_init(mrc_kverbs_test_init);

static void __exit mrc_kverbs_test_exit(void)
{
}
module_exit(mrc_kverbs_test_exit);

MODULE_DESCRIPTION("kernel verbs checks of an mrc device (selftests)");
MODULE_LICENSE("GPL");
