/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: generic netlink socket, family resolution, requests with
 * extended ack, dumps and notifications.
 */
#ifndef FSLOADCTL_NL_H
#define FSLOADCTL_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlmsghdr;
struct nlattr;

/*
 * Called for each message of a reply (return 0, or an exit code to fail
 * the request once it has been read to its end), and for each
 * notification (return value ignored).
 */
typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *data);

/**
 * struct nl_ctx - a generic netlink socket talking to fsload
 * @sk: the socket
 * @portid: its port id
 * @seq: sequence number of the last request
 * @family: id of the fsload family
 * @family_version: the module's protocol version
 * @events_grp: id of the "events" multicast group
 * @ctrl_notify_grp: id of nlctrl's "notify" group (family removal)
 * @rbuf: receive buffer
 * @rbuf_len: its size
 * @sbuf: request buffer
 * @sbuf_len: its size
 * @sbuf_overflow: the request did not fit
 * @ntf_cb: handler for notifications (messages that answer no request)
 * @ntf_data: its argument
 * @overrun: the socket lost messages (ENOBUFS); the user clears it
 * @err: positive errno of the last request the kernel refused
 * @ext_msg: the kernel's extack message, or ""
 * @ext_attr: name of the attribute it pointed at, or ""
 * @ext_missing: @ext_attr names a missing attribute
 */
struct nl_ctx {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	uint32_t family_version;
	uint32_t events_grp;
	uint32_t ctrl_notify_grp;
	char *rbuf;
	size_t rbuf_len;
	char *sbuf;
	size_t sbuf_len;
	bool sbuf_overflow;
	nl_msg_cb ntf_cb;
	void *ntf_data;
	bool overrun;
	int err;
	char ext_msg[256];
	char ext_attr[128];
	bool ext_missing;
};

/* Flags of nl_request(). */
#define NL_QUIET	(1U << 0)	/* don't print the kernel's refusal */
#define NL_POLL		(1U << 1)	/* short reply timeout: -ETIMEDOUT */

/*
 * Open the socket and resolve the fsload family (and its "events" group
 * when @events).  Returns 0, EXIT_NOMODULE (message printed) or
 * EXIT_SYSERR.
 */
int nl_open(struct nl_ctx *nl, bool events);
void nl_close(struct nl_ctx *nl);

/* Join the "events" group and nlctrl's "notify" group. */
int nl_subscribe(struct nl_ctx *nl);

/*
 * Start a fsload request in nl->sbuf: @cmd, NLM_F_REQUEST | NLM_F_ACK
 * (| NLM_F_DUMP when @dump).  Add attributes with the nl_put_*()
 * helpers, which record overflow and make nl_request() fail.
 */
struct nlmsghdr *nl_msg_new(struct nl_ctx *nl, uint8_t cmd, bool dump);
void nl_put_u8(struct nl_ctx *nl, uint16_t type, uint8_t v);
void nl_put_u32(struct nl_ctx *nl, uint16_t type, uint32_t v);
void nl_put_u64(struct nl_ctx *nl, uint16_t type, uint64_t v);
void nl_put_strz(struct nl_ctx *nl, uint16_t type, const char *s);
void nl_put_bytes(struct nl_ctx *nl, uint16_t type, const void *p,
		  size_t len);
struct nlattr *nl_nest_start(struct nl_ctx *nl, uint16_t type);
void nl_nest_end(struct nl_ctx *nl, struct nlattr *nest);

/*
 * Send the request in nl->sbuf and read its replies up to the ack (do)
 * or NLMSG_DONE (dump), passing each reply message to @cb (may be NULL)
 * and notifications to nl->ntf_cb.  Returns 0; EXIT_KERNEL when the
 * kernel refused (nl->err, nl->ext_*; printed unless NL_QUIET); the
 * callback's exit code; EXIT_SYSERR; or, with NL_POLL, -ETIMEDOUT when
 * the reply did not come within a second (lost in an overrun: retry).
 */
int nl_request(struct nl_ctx *nl, nl_msg_cb cb, void *data,
	       unsigned int flags);

/* Print the last refusal: "fsloadctl: <cmd>: <strerror>: <msg> (...)" */
void nl_print_error(const struct nl_ctx *nl);

/*
 * Wait up to @timeout_ms (-1: forever) for messages and pass them to
 * nl->ntf_cb.  Returns 0 (messages handled, time out, or overrun noted
 * in nl->overrun), -EINTR on a signal, or EXIT_SYSERR.
 */
int nl_wait(struct nl_ctx *nl, int timeout_ms);

/* Genl command of a fsload message, or -1 when it is none. */
int nl_fsload_cmd(const struct nl_ctx *nl, const struct nlmsghdr *nlh);
/* Was the fsload family removed (nlctrl notification)? */
bool nl_family_removed(const struct nl_ctx *nl, const struct nlmsghdr *nlh);

#endif /* FSLOADCTL_NL_H */
