/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ABI of mrc.h as numbers: every structure's size, alignment and
 * member offsets, every enum's size and every constant, with the value
 * the published OCP interface has (x86-64 / LP64).  abi_c.c checks them
 * with the C compiler, abi_test.cc with the C++ one, each at compile time
 * and again at run time (the C values through abi_c_facts[]).
 *
 * ABI_FACT(NAME, EXPRESSION, EXPECTED)
 */
#define MRC_ABI_FACTS                                                             \
	ABI_FACT(dev_attr_size, sizeof(struct mrc_device_attr), 20)               \
	ABI_FACT(dev_attr_align, _Alignof(struct mrc_device_attr), 4)             \
	ABI_FACT(dev_attr_proto,                                                  \
		 offsetof(struct mrc_device_attr, mrc_protocol_version), 0)       \
	ABI_FACT(dev_attr_wimm, offsetof(struct mrc_device_attr, wimm_attr), 4)   \
	ABI_FACT(dev_attr_max_wimm,                                               \
		 offsetof(struct mrc_device_attr, wimm_attr.max_wimm), 4)         \
	ABI_FACT(dev_attr_max_wimm_dest,                                          \
		 offsetof(struct mrc_device_attr, wimm_attr.max_wimm_dest), 6)    \
	ABI_FACT(dev_attr_mpr, offsetof(struct mrc_device_attr, mpr_attr), 8)     \
	ABI_FACT(dev_attr_max_mpr,                                                \
		 offsetof(struct mrc_device_attr, mpr_attr.max_mpr), 8)           \
	ABI_FACT(dev_attr_mpr_res,                                                \
		 offsetof(struct mrc_device_attr, mpr_attr.mpr_resolution), 9)    \
	ABI_FACT(dev_attr_qp, offsetof(struct mrc_device_attr, qp_attr), 12)      \
	ABI_FACT(dev_attr_max_qp_hint,                                            \
		 offsetof(struct mrc_device_attr, qp_attr.max_qp_hint), 12)       \
	ABI_FACT(dev_attr_cap, offsetof(struct mrc_device_attr, cap), 16)         \
	ABI_FACT(ctx_attr_size, sizeof(struct mrc_context_attr), 8)               \
	ABI_FACT(ctx_attr_api,                                                    \
		 offsetof(struct mrc_context_attr, mrc_api_version_used), 0)      \
	ABI_FACT(ctx_attr_vendor,                                                 \
		 offsetof(struct mrc_context_attr, mrc_vendor_api_version_used),  \
		 4)                                                               \
	ABI_FACT(hint_attr_size, sizeof(struct mrc_qp_hint_attr), 140)            \
	ABI_FACT(hint_attr_align, _Alignof(struct mrc_qp_hint_attr), 4)           \
	ABI_FACT(hint_attr_qps,                                                   \
		 offsetof(struct mrc_qp_hint_attr, num_qps_per_peer), 0)          \
	ABI_FACT(hint_attr_send,                                                  \
		 offsetof(struct mrc_qp_hint_attr, num_send_peers), 4)            \
	ABI_FACT(hint_attr_recv,                                                  \
		 offsetof(struct mrc_qp_hint_attr, num_remote_recv_peers), 8)     \
	ABI_FACT(hint_attr_vendor,                                                \
		 offsetof(struct mrc_qp_hint_attr, vendor_cfg), 12)               \
	ABI_FACT(hint_attr_vendor_size,                                           \
		 sizeof(((struct mrc_qp_hint_attr *)0)->vendor_cfg), 128)         \
	ABI_FACT(hint_init_size, sizeof(struct mrc_qp_hint_init_attr), 140)       \
	ABI_FACT(hint_init_attr, offsetof(struct mrc_qp_hint_init_attr, attr), 0) \
	ABI_FACT(qp_init_size, sizeof(struct mrc_qp_init_attr), 72)               \
	ABI_FACT(qp_init_align, _Alignof(struct mrc_qp_init_attr), 8)             \
	ABI_FACT(qp_init_context,                                                 \
		 offsetof(struct mrc_qp_init_attr, qp_context), 0)                \
	ABI_FACT(qp_init_send_cq, offsetof(struct mrc_qp_init_attr, send_cq), 8)  \
	ABI_FACT(qp_init_recv_cq, offsetof(struct mrc_qp_init_attr, recv_cq), 16) \
	ABI_FACT(qp_init_cap, offsetof(struct mrc_qp_init_attr, cap), 24)         \
	ABI_FACT(qp_init_sig_all,                                                 \
		 offsetof(struct mrc_qp_init_attr, sq_sig_all), 44)               \
	ABI_FACT(qp_init_pd, offsetof(struct mrc_qp_init_attr, pd), 48)           \
	ABI_FACT(qp_init_send_ops,                                                \
		 offsetof(struct mrc_qp_init_attr, send_ops_flags), 56)           \
	ABI_FACT(qp_init_proto,                                                   \
		 offsetof(struct mrc_qp_init_attr, protocol_version), 64)         \
	ABI_FACT(qp_attr_size, sizeof(struct mrc_qp_attr), 176)                   \
	ABI_FACT(qp_attr_align, _Alignof(struct mrc_qp_attr), 8)                  \
	ABI_FACT(qp_attr_mpr, offsetof(struct mrc_qp_attr, mpr.mpr), 0)           \
	ABI_FACT(qp_attr_mpr_dest, offsetof(struct mrc_qp_attr, mpr.mpr_dest), 1) \
	ABI_FACT(qp_attr_wimm, offsetof(struct mrc_qp_attr, wimm), 2)             \
	ABI_FACT(qp_attr_max_wimm,                                                \
		 offsetof(struct mrc_qp_attr, wimm.max_wimm), 2)                  \
	ABI_FACT(qp_attr_max_wimm_dest,                                           \
		 offsetof(struct mrc_qp_attr, wimm.max_wimm_dest), 4)             \
	ABI_FACT(qp_attr_timeout, offsetof(struct mrc_qp_attr, timeout), 6)       \
	ABI_FACT(qp_attr_profile, offsetof(struct mrc_qp_attr, profile), 8)       \
	ABI_FACT(qp_attr_ev,                                                      \
		 offsetof(struct mrc_qp_attr, profile.ev_profile_id), 8)          \
	ABI_FACT(qp_attr_cc,                                                      \
		 offsetof(struct mrc_qp_attr, profile.cc_profile_id), 16)         \
	ABI_FACT(qp_attr_retry, offsetof(struct mrc_qp_attr, retry), 24)          \
	ABI_FACT(qp_attr_linear,                                                  \
		 offsetof(struct mrc_qp_attr, retry.linear_cnt), 24)              \
	ABI_FACT(qp_attr_exp, offsetof(struct mrc_qp_attr, retry.exp_cnt), 25)    \
	ABI_FACT(qp_attr_hint, offsetof(struct mrc_qp_attr, qp_hint), 32)         \
	ABI_FACT(qp_attr_cap, offsetof(struct mrc_qp_attr, cap), 40)              \
	ABI_FACT(qp_attr_vendor, offsetof(struct mrc_qp_attr, vendor_cfg), 44)    \
	ABI_FACT(event_size, sizeof(struct mrc_async_event), 16)                  \
	ABI_FACT(event_element, offsetof(struct mrc_async_event, element), 0)     \
	ABI_FACT(event_element_size,                                              \
		 sizeof(((struct mrc_async_event *)0)->element), 8)               \
	ABI_FACT(event_type, offsetof(struct mrc_async_event, event_type), 8)     \
	ABI_FACT(enum_proto_size, sizeof(enum mrc_protocol_version), 4)           \
	ABI_FACT(enum_dev_cap_size, sizeof(enum mrc_device_cap), 4)               \
	ABI_FACT(enum_hint_mask_size, sizeof(enum mrc_qp_hint_attr_mask), 4)      \
	ABI_FACT(enum_qp_mask_size, sizeof(enum mrc_qp_attr_mask), 4)             \
	ABI_FACT(enum_qp_cap_size, sizeof(enum mrc_qp_cap), 4)                    \
	ABI_FACT(vendor_cfg_size, MRC_MAX_VENDOR_CFG_SIZE, 128)                   \
	ABI_FACT(proto_0, MRC_PROTOCOL_VERSION_0, 0)                              \
	ABI_FACT(proto_1, MRC_PROTOCOL_VERSION_1, 1)                              \
	ABI_FACT(dev_cap_trim, MRC_DEVICE_CAP_TRIM_NACK, 1)                       \
	ABI_FACT(dev_cap_dmpr, MRC_DEVICE_CAP_DYNAMIC_MPR, 2)                     \
	ABI_FACT(dev_cap_svc, MRC_DEVICE_CAP_SVC_TIME, 4)                         \
	ABI_FACT(hint_qps, MRC_QP_HINT_NUM_QPS_PER_PEER, 1)                       \
	ABI_FACT(hint_send, MRC_QP_HINT_NUM_SEND_PEERS, 2)                        \
	ABI_FACT(hint_recv, MRC_QP_HINT_NUM_REMOTE_RECV_PEERS, 4)                 \
	ABI_FACT(hint_vendor, (unsigned int)MRC_QP_HINT_VENDOR_CFG, 0x80000000u)  \
	ABI_FACT(hint_vendor_neg, MRC_QP_HINT_VENDOR_CFG < 0, 1)                  \
	ABI_FACT(qp_max_wimm, MRC_QP_MAX_WIMM, 1)                                 \
	ABI_FACT(qp_max_wimm_dest, MRC_QP_MAX_WIMM_DEST, 2)                       \
	ABI_FACT(qp_mpr, MRC_QP_MPR, 4)                                           \
	ABI_FACT(qp_mpr_dest, MRC_QP_MPR_DEST, 8)                                 \
	ABI_FACT(qp_timeout, MRC_QP_TIMEOUT, 16)                                  \
	ABI_FACT(qp_ev, MRC_QP_EV_PROFILE_ID, 32)                                 \
	ABI_FACT(qp_cc, MRC_QP_CC_PROFILE_ID, 64)                                 \
	ABI_FACT(qp_hint, MRC_QP_HINT, 128)                                       \
	ABI_FACT(qp_retry, MRC_QP_RETRY_CNT, 256)                                 \
	ABI_FACT(qp_cap, MRC_QP_CAP, 512)                                         \
	ABI_FACT(qp_vendor, (unsigned int)MRC_QP_VENDOR_CFG, 0x80000000u)         \
	ABI_FACT(qp_vendor_neg, MRC_QP_VENDOR_CFG < 0, 1)                         \
	ABI_FACT(qp_cap_trim, MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED, 1)           \
	ABI_FACT(qp_cap_dmpr, MRC_QP_CAP_DYNAMIC_MPR, 2)                          \
	ABI_FACT(qp_cap_svc, MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED, 4)             \
	ABI_FACT(ver_major_off, MRC_API_VER_MAJOR_OFFSET, 24)                     \
	ABI_FACT(ver_minor_off, MRC_API_VER_MINOR_OFFSET, 16)                     \
	ABI_FACT(ver_sub_off, MRC_API_VER_SUBMINOR_OFFSET, 0)                     \
	ABI_FACT(ver_encode, MRC_API_VER(1, 2, 3), 0x01020003u)                   \
	ABI_FACT(ver_latest, MRC_API_VER_LATEST, 0xffffffffu)                     \
	ABI_FACT(ver_current, MRC_API_CURRENT_VERSION, 0x01000001u)               \
	ABI_FACT(ver_last, MRC_API_LAST_SUPPORTED_VERSION, 0)                     \
	ABI_FACT(ver_used, MRC_API_VER_USED, 0x01000001u)                         \
	ABI_FACT(vendor_current, MRC_VENDOR_API_CURRENT_VERSION, 0x01000000u)     \
	ABI_FACT(vendor_last, MRC_VENDOR_API_LAST_SUPPORTED_VERSION, 0)           \
	ABI_FACT(vendor_used, MRC_VENDOR_API_VER_USED, 0x01000000u)

struct abi_fact {
	const char *name;
	unsigned long long value; /* as the compiler computed it */
	unsigned long long expected;
};
