// SPDX-License-Identifier: GPL-2.0-only
/* TEMPORARY during parallel development: empty ops until each verbs file
 * defines its own.  Removed when the data path is integrated.
 */
#include "mrc.h"
#include "verbs.h"

const struct ib_device_ops mrc_queue_ops __weak = {};
const struct ib_device_ops mrc_cq_ops __weak = {};
const struct ib_device_ops mrc_mr_ops __weak = {};
const struct ib_device_ops mrc_ah_ops __weak = {};
const struct ib_device_ops mrc_qp_ops __weak = {};
