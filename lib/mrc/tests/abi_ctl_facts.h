/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ABI of mrc_ctl.h as numbers, like abi_facts.h for mrc.h: sizes,
 * alignments, member offsets and constants with the values of the
 * published OCP controller interface (x86-64 / LP64), checked at compile
 * and run time by abi_c.c and abi_test.cc.
 */
#define MRC_CTL_ABI_FACTS                                                        \
	ABI_FACT(ctl_size_device_attr, sizeof(struct mrc_ctl_device_attr), 72)   \
	ABI_FACT(ctl_align_device_attr, _Alignof(struct mrc_ctl_device_attr), 8) \
	ABI_FACT(ctl_off_device_attr_ev,                                         \
		 offsetof(struct mrc_ctl_device_attr, ev), 4)                    \
	ABI_FACT(ctl_off_device_attr_ev_ev_op_max_entries,                       \
		 offsetof(struct mrc_ctl_device_attr, ev.ev_op_max_entries), 40) \
	ABI_FACT(ctl_off_device_attr_cc,                                         \
		 offsetof(struct mrc_ctl_device_attr, cc), 48)                   \
	ABI_FACT(ctl_off_device_attr_cc_algorithms,                              \
		 offsetof(struct mrc_ctl_device_attr, cc.algorithms), 56)        \
	ABI_FACT(ctl_off_device_attr_phy_port_mask,                              \
		 offsetof(struct mrc_ctl_device_attr, phy_port_mask), 64)        \
	ABI_FACT(ctl_off_device_attr_opt_attr,                                   \
		 offsetof(struct mrc_ctl_device_attr, opt_attr), 68)             \
	ABI_FACT(ctl_size_port_attr, sizeof(struct mrc_ctl_port_attr), 4)        \
	ABI_FACT(ctl_size_ev_fmt_field, sizeof(struct mrc_ctl_ev_fmt_field), 1)  \
	ABI_FACT(ctl_size_ev_fmt_profile_attr,                                   \
		 sizeof(struct mrc_ctl_ev_fmt_profile_attr), 168)                \
	ABI_FACT(ctl_off_ev_fmt_profile_attr_ev_fmt_mode,                        \
		 offsetof(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_mode), 8)   \
	ABI_FACT(ctl_off_ev_fmt_profile_attr_ev_fmt_op,                          \
		 offsetof(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op), 16)    \
	ABI_FACT(ctl_off_ev_fmt_profile_attr_ev_fmt_op_fmt_fields,               \
		 offsetof(struct mrc_ctl_ev_fmt_profile_attr,                    \
			  ev_fmt_op.fmt_fields),                                 \
		 24)                                                             \
	ABI_FACT(ctl_off_ev_fmt_profile_attr_ev_fmt_op_fmt_field_count,          \
		 offsetof(struct mrc_ctl_ev_fmt_profile_attr,                    \
			  ev_fmt_op.fmt_field_count),                            \
		 32)                                                             \
	ABI_FACT(ctl_off_ev_fmt_profile_attr_vendor_cfg,                         \
		 offsetof(struct mrc_ctl_ev_fmt_profile_attr, vendor_cfg), 40)   \
	ABI_FACT(ctl_size_ev_t, sizeof(mrc_ctl_ev_t), 32)                        \
	ABI_FACT(ctl_size_ev, sizeof(struct mrc_ctl_ev), 33)                     \
	ABI_FACT(ctl_off_ev_port, offsetof(struct mrc_ctl_ev, port), 32)         \
	ABI_FACT(ctl_size_ev_field, sizeof(struct mrc_ctl_ev_field), 20)         \
	ABI_FACT(ctl_off_ev_field_mask,                                          \
		 offsetof(struct mrc_ctl_ev_field, mask), 16)                    \
	ABI_FACT(ctl_size_ev_op_entry, sizeof(struct mrc_ctl_ev_op_entry), 76)   \
	ABI_FACT(ctl_off_ev_op_entry_ev_new,                                     \
		 offsetof(struct mrc_ctl_ev_op_entry, ev_new), 33)               \
	ABI_FACT(ctl_off_ev_op_entry_state,                                      \
		 offsetof(struct mrc_ctl_ev_op_entry, state), 68)                \
	ABI_FACT(ctl_off_ev_op_entry_flags,                                      \
		 offsetof(struct mrc_ctl_ev_op_entry, flags), 72)                \
	ABI_FACT(ctl_size_ev_profile_attr,                                       \
		 sizeof(struct mrc_ctl_ev_profile_attr), 216)                    \
	ABI_FACT(ctl_off_ev_profile_attr_ev_fmt_profile_id,                      \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_fmt_profile_id),    \
		 16)                                                             \
	ABI_FACT(ctl_off_ev_profile_attr_ev_count,                               \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_count), 24)         \
	ABI_FACT(ctl_off_ev_profile_attr_ev_min_active,                          \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_min_active), 28)    \
	ABI_FACT(ctl_off_ev_profile_attr_ev_event_mask,                          \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_event_mask), 32)    \
	ABI_FACT(ctl_off_ev_profile_attr_ev_op,                                  \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_op), 40)            \
	ABI_FACT(ctl_off_ev_profile_attr_ev_op_entries,                          \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_op.entries), 48)    \
	ABI_FACT(ctl_off_ev_profile_attr_ev_op_entry_count,                      \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_op.entry_count),    \
		 56)                                                             \
	ABI_FACT(ctl_off_ev_profile_attr_ev_fields_op,                           \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_fields_op), 64)     \
	ABI_FACT(ctl_off_ev_profile_attr_ev_fields_op_fields,                    \
		 offsetof(struct mrc_ctl_ev_profile_attr, ev_fields_op.fields),  \
		 72)                                                             \
	ABI_FACT(ctl_off_ev_profile_attr_ev_fields_op_field_count,               \
		 offsetof(struct mrc_ctl_ev_profile_attr,                        \
			  ev_fields_op.field_count),                             \
		 80)                                                             \
	ABI_FACT(ctl_off_ev_profile_attr_vendor_cfg,                             \
		 offsetof(struct mrc_ctl_ev_profile_attr, vendor_cfg), 88)       \
	ABI_FACT(ctl_size_cc_profile_attr,                                       \
		 sizeof(struct mrc_ctl_cc_profile_attr), 152)                    \
	ABI_FACT(ctl_off_cc_profile_attr_algorithm,                              \
		 offsetof(struct mrc_ctl_cc_profile_attr, algorithm), 8)         \
	ABI_FACT(ctl_off_cc_profile_attr_cc_config,                              \
		 offsetof(struct mrc_ctl_cc_profile_attr, cc_config), 16)        \
	ABI_FACT(ctl_off_cc_profile_attr_vendor_cfg,                             \
		 offsetof(struct mrc_ctl_cc_profile_attr, vendor_cfg), 24)       \
	ABI_FACT(ctl_size_cc_nscc_cfg, sizeof(struct mrc_ctl_cc_nscc_cfg), 52)   \
	ABI_FACT(ctl_off_cc_nscc_cfg_adjust_bytes_threshold,                     \
		 offsetof(struct mrc_ctl_cc_nscc_cfg, adjust_bytes_threshold),   \
		 4)                                                              \
	ABI_FACT(ctl_off_cc_nscc_cfg_eta,                                        \
		 offsetof(struct mrc_ctl_cc_nscc_cfg, eta), 16)                  \
	ABI_FACT(ctl_off_cc_nscc_cfg_max_md_jump,                                \
		 offsetof(struct mrc_ctl_cc_nscc_cfg, max_md_jump), 32)          \
	ABI_FACT(ctl_off_cc_nscc_cfg_max_cwnd,                                   \
		 offsetof(struct mrc_ctl_cc_nscc_cfg, max_cwnd), 36)             \
	ABI_FACT(ctl_off_cc_nscc_cfg_qa_gate,                                    \
		 offsetof(struct mrc_ctl_cc_nscc_cfg, qa_gate), 40)              \
	ABI_FACT(ctl_off_cc_nscc_cfg_qa_threshold,                               \
		 offsetof(struct mrc_ctl_cc_nscc_cfg, qa_threshold), 44)         \
	ABI_FACT(ctl_off_cc_nscc_cfg_target_delay,                               \
		 offsetof(struct mrc_ctl_cc_nscc_cfg, target_delay), 48)         \
	ABI_FACT(ctl_size_ev_event, sizeof(struct mrc_ctl_ev_event), 56)         \
	ABI_FACT(ctl_off_ev_event_ev, offsetof(struct mrc_ctl_ev_event, ev), 8)  \
	ABI_FACT(ctl_off_ev_event_drop_count,                                    \
		 offsetof(struct mrc_ctl_ev_event, drop_count), 44)              \
	ABI_FACT(ctl_off_ev_event_state,                                         \
		 offsetof(struct mrc_ctl_ev_event, state), 48)                   \
	ABI_FACT(ctl_size_ep_req, sizeof(struct mrc_ctl_ep_req), 88)             \
	ABI_FACT(ctl_align_ep_req, _Alignof(struct mrc_ctl_ep_req), 8)           \
	ABI_FACT(ctl_off_ep_req_sgid, offsetof(struct mrc_ctl_ep_req, sgid), 8)  \
	ABI_FACT(ctl_off_ep_req_dgid, offsetof(struct mrc_ctl_ep_req, dgid), 24) \
	ABI_FACT(ctl_off_ep_req_ev_fmt_mode,                                     \
		 offsetof(struct mrc_ctl_ep_req, ev_fmt_mode), 40)               \
	ABI_FACT(ctl_off_ep_req_req_ev,                                          \
		 offsetof(struct mrc_ctl_ep_req, req_ev), 44)                    \
	ABI_FACT(ctl_off_ep_req_op, offsetof(struct mrc_ctl_ep_req, op), 80)     \
	ABI_FACT(ctl_size_ep_rsp, sizeof(struct mrc_ctl_ep_rsp), 12)             \
	ABI_FACT(ctl_off_ep_rsp_port, offsetof(struct mrc_ctl_ep_rsp, port), 2)  \
	ABI_FACT(ctl_off_ep_rsp_rtt, offsetof(struct mrc_ctl_ep_rsp, rtt), 4)    \
	ABI_FACT(ctl_off_ep_rsp_adj_svc_time,                                    \
		 offsetof(struct mrc_ctl_ep_rsp, adj_svc_time), 8)               \
	ABI_FACT(ctl_size_enum_ev_state, sizeof(enum mrc_ctl_ev_state), 4)       \
	ABI_FACT(ctl_ev_unknown, (unsigned int)MRC_CTL_EV_UNKNOWN, 0x80000000u)  \
	ABI_FACT(ctl_ev_fmt_vendor_cfg,                                          \
		 (unsigned int)MRC_CTL_EV_FMT_VENDOR_CFG, 0x80000000u)           \
	ABI_FACT(ctl_ev_profile_vendor_cfg,                                      \
		 (unsigned int)MRC_CTL_EV_PROFILE_VENDOR_CFG, 0x80000000u)       \
	ABI_FACT(ctl_cc_profile_vendor_cfg,                                      \
		 (unsigned int)MRC_CTL_CC_PROFILE_VENDOR_CFG, 0x80000000u)       \
	ABI_FACT(ctl_opt_cap_ep_op_ev_probe, MRC_CTL_OPT_CAP_EP_OP_EV_PROBE, 32) \
	ABI_FACT(ctl_ev_fmt_mode_udp, MRC_CTL_EV_FMT_MODE_UDP, 4)                \
	ABI_FACT(ctl_ev_mode_gen, MRC_CTL_EV_MODE_GEN, 4)                        \
	ABI_FACT(ctl_ev_op_query_ev_array, MRC_CTL_EV_OP_QUERY_EV_ARRAY, 3)      \
	ABI_FACT(ctl_ep_op_port_status_update,                                   \
		 MRC_CTL_EP_OP_PORT_STATUS_UPDATE, 1)                            \
	ABI_FACT(ctl_api_current_version, MRC_CTL_API_CURRENT_VERSION,           \
		 0x1000001u)                                                     \
	ABI_FACT(ctl_vendor_api_current_version,                                 \
		 MRC_CTL_VENDOR_API_CURRENT_VERSION, 0x1000000u)                 \
	ABI_FACT(ctl_api_ver_used, MRC_CTL_API_VER_USED, 0x1000001u)             \
	ABI_FACT(ctl_ev_max_bytes, MRC_CTL_EV_MAX_BYTES, 32)                     \
	ABI_FACT(ctl_max_vendor_cfg_size, MRC_CTL_MAX_VENDOR_CFG_SIZE, 128)      \
	ABI_FACT(ctl_profile_online, MRC_CTL_PROFILE_ONLINE, 2)                  \
	ABI_FACT(ctl_port_admin_enabled, MRC_CTL_PORT_ADMIN_ENABLED, 1)          \
	ABI_FACT(ctl_ev_fields_op_query_fields,                                  \
		 MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS, 1)                           \
	ABI_FACT(ctl_ev_fmt_op_query_fields, MRC_CTL_EV_FMT_OP_QUERY_FIELDS, 1)  \
	ABI_FACT(ctl_ev_op_f_all_copies, MRC_CTL_EV_OP_F_ALL_COPIES, 1)          \
	ABI_FACT(ctl_ver_encode, MRC_CTL_API_VER(1, 2, 3), 0x01020003u)          \
	ABI_FACT(ctl_ver_latest, MRC_CTL_API_VER_LATEST, 0xffffffffu)            \
	ABI_FACT(ctl_ver_last, MRC_CTL_API_LAST_SUPPORTED_VERSION, 0)            \
	ABI_FACT(ctl_vendor_last, MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION, 0)  \
	ABI_FACT(ctl_vendor_used, MRC_CTL_VENDOR_API_VER_USED, 0x01000000u)      \
	ABI_FACT(ctl_enum_profile_state_size,                                    \
		 sizeof(enum mrc_ctl_profile_state), 4)                          \
	ABI_FACT(ctl_enum_fmt_mode_size, sizeof(enum mrc_ctl_ev_fmt_mode), 4)    \
	ABI_FACT(ctl_enum_ep_op_size, sizeof(enum mrc_ctl_ep_op_type), 4)
