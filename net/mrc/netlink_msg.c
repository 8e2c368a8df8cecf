// SPDX-License-Identifier: GPL-2.0-only
/*
 * Extack messages with values in them ("... the route to 10.0.0.2").
 *
 * The kernel copies an extack message into the ACK after the handler has
 * returned and dropped every lock, so the text must outlive the request.
 * 6.1 has no NL_SET_ERR_MSG_FMT (6.2 added a buffer in the extack), so
 * each distinct text is kept here, once, until the module goes away.  The
 * set is bounded: past MRC_NL_MSG_MAX texts the caller falls back to its
 * fixed message.
 */

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "netlink.h"

#define MRC_NL_MSG_MAX		1024
#define MRC_NL_MSG_LEN		128

struct mrc_nl_msg {
	struct list_head node;		/* in mrc_nl_msgs; mrc_nl_msg_lock */
	char text[];
};

static DEFINE_MUTEX(mrc_nl_msg_lock);
static LIST_HEAD(mrc_nl_msgs);		/* mrc_nl_msg_lock */
static unsigned int mrc_nl_nr_msgs;	/* mrc_nl_msg_lock */

/* The kept copy of the formatted text, or NULL (out of memory, too many). */
const char *mrc_nl_msg(const char *fmt, ...)
{
	char buf[MRC_NL_MSG_LEN];
	struct mrc_nl_msg *m;
	const char *ret = NULL;
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	len = strlen(buf) + 1;

	mutex_lock(&mrc_nl_msg_lock);
	list_for_each_entry(m, &mrc_nl_msgs, node) {
		if (!strcmp(m->text, buf)) {
			ret = m->text;
			goto out;
		}
	}
	if (mrc_nl_nr_msgs >= MRC_NL_MSG_MAX)
		goto out;
	m = kmalloc(struct_size(m, text, len), GFP_KERNEL);
	if (!m)
		goto out;
	memcpy(m->text, buf, len);
	list_add(&m->node, &mrc_nl_msgs);
	mrc_nl_nr_msgs++;
	ret = m->text;
out:
	mutex_unlock(&mrc_nl_msg_lock);
	return ret;
}

/* Module exit, after the family is gone: no request can use a text. */
void mrc_nl_msg_free_all(void)
{
	struct mrc_nl_msg *m, *tmp;

	mutex_lock(&mrc_nl_msg_lock);
	list_for_each_entry_safe(m, tmp, &mrc_nl_msgs, node) {
		list_del(&m->node);
		kfree(m);
	}
	mrc_nl_nr_msgs = 0;
	mutex_unlock(&mrc_nl_msg_lock);
}
