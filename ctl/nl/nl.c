// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: generic netlink socket, family resolution, requests with
 * extended ack, dumps and notifications.
 *
 * One socket carries requests, their replies and the "events"
 * notifications: the job started on it stops when it closes, and a
 * subscription made before a status check cannot miss the end of a job.
 * Replies are told from notifications by their sequence number
 * (notifications carry 0).
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/clock.h"
#include "nl/attrs.h"
#include "nl/fsload-nl-gen.h"
#include "nl/nl.h"

#define NL_BUF_SIZE		(64 * 1024)
/* Receive buffer asked for: notifications of many jobs, big dumps. */
#define NL_RCVBUF		(1024 * 1024)
/*
 * The kernel answers at once, but a reply that meets a full receive
 * buffer is dropped (silently, if the socket is already congested): give
 * up when a request's messages stop coming for this long.
 */
#define NL_REPLY_TIMEOUT_MS	30000
#define NL_POLL_TIMEOUT_MS	1000

/* Family resolution (CTRL_CMD_GETFAMILY) */

struct family_info {
	const char *grp_name;	/* group looked for, or NULL */
	uint16_t id;
	uint32_t version;
	uint32_t grp_id;
	bool have_id;
};

static int ctrl_grp_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(a);

	if (type == CTRL_ATTR_MCAST_GRP_NAME &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
		tb[type] = a;
	else if (type == CTRL_ATTR_MCAST_GRP_ID &&
		 mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
		tb[type] = a;
	return MNL_CB_OK;
}

static int ctrl_grps_cb(const struct nlattr *grp, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = { NULL };
	struct family_info *fi = data;

	if (mnl_attr_validate(grp, MNL_TYPE_NESTED) < 0)
		return MNL_CB_OK;
	mnl_attr_parse_nested(grp, ctrl_grp_attr_cb, tb);
	if (fi->grp_name && tb[CTRL_ATTR_MCAST_GRP_NAME] &&
	    tb[CTRL_ATTR_MCAST_GRP_ID] &&
	    !strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]),
		    fi->grp_name))
		fi->grp_id = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	return MNL_CB_OK;
}

static int ctrl_attr_cb(const struct nlattr *a, void *data)
{
	struct family_info *fi = data;

	switch (mnl_attr_get_type(a)) {
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(a, MNL_TYPE_U16) >= 0) {
			fi->id = mnl_attr_get_u16(a);
			fi->have_id = true;
		}
		break;
	case CTRL_ATTR_VERSION:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			fi->version = mnl_attr_get_u32(a);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) >= 0)
			mnl_attr_parse_nested(a, ctrl_grps_cb, fi);
		break;
	}
	return MNL_CB_OK;
}

static int ctrl_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	if (mnl_nlmsg_get_payload_len(nlh) >= GENL_HDRLEN)
		mnl_attr_parse(nlh, GENL_HDRLEN, ctrl_attr_cb, data);
	return 0;
}

static struct nlmsghdr *msg_new(struct nl_ctx *nl, uint16_t type,
				uint8_t cmd, uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	nl->sbuf_overflow = false;
	nlh = mnl_nlmsg_put_header(nl->sbuf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	if (++nl->seq == 0)
		nl->seq = 1;
	nlh->nlmsg_seq = nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

/* Returns 0 and fills @fi; EXIT_KERNEL with nl->err set (not printed). */
static int resolve_family(struct nl_ctx *nl, const char *name,
			  struct family_info *fi)
{
	msg_new(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	nl_put_strz(nl, CTRL_ATTR_FAMILY_NAME, name);
	return nl_request(nl, ctrl_reply_cb, fi, NL_QUIET);
}

int nl_open(struct nl_ctx *nl, bool events)
{
	struct family_info fi = { .grp_name = FSLOAD_MCGRP_EVENTS };
	struct family_info ctrl = { .grp_name = "notify" };
	int one = 1, rcvbuf = NL_RCVBUF, fd, ret;
	const char *env;

	memset(nl, 0, sizeof(*nl));
	nl->seq = (uint32_t)time(NULL);
	nl->rbuf_len = NL_BUF_SIZE;
	nl->sbuf_len = NL_BUF_SIZE;
	nl->rbuf = malloc(nl->rbuf_len);
	/* zeroed: attribute padding is sent as is */
	nl->sbuf = calloc(1, nl->sbuf_len);
	if (!nl->rbuf || !nl->sbuf) {
		errsys("allocating buffers");
		goto err;
	}
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk) {
		errsys("opening a generic netlink socket");
		goto err;
	}
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		errsys("binding the netlink socket");
		goto err;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	/* Error messages and the offending attribute; no echoed requests. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	fd = mnl_socket_get_fd(nl->sk);
	/* Testing aid: a small buffer provokes overruns (ENOBUFS). */
	env = getenv("FSLOADCTL_RCVBUF");
	if (env && *env) {
		rcvbuf = atoi(env);
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	} else if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
			      sizeof(rcvbuf)) < 0) {
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	}

	ret = resolve_family(nl, FSLOAD_FAMILY_NAME, &fi);
	if (ret == EXIT_KERNEL && nl->err == ENOENT) {
		errmsg("fsload module not loaded (no generic netlink family \"%s\")",
		       FSLOAD_FAMILY_NAME);
		errmsg("load it: `sudo insmod module/fsload.ko` in the source tree, or `sudo modprobe fsload` after `make install`; `start --engine user` runs without it");
		nl_close(nl);
		return EXIT_NOMODULE;
	}
	if (ret) {
		if (ret == EXIT_KERNEL)
			nl_print_error(nl);
		goto err;
	}
	if (!fi.have_id) {
		errmsg("resolving family \"%s\": no family id in the reply",
		       FSLOAD_FAMILY_NAME);
		goto err;
	}
	nl->family = fi.id;
	nl->family_version = fi.version;
	if (events) {
		if (!fi.grp_id) {
			errmsg("the fsload module has no \"%s\" multicast group",
			       FSLOAD_MCGRP_EVENTS);
			goto err;
		}
		nl->events_grp = fi.grp_id;
		/* Optional: lets a waiter notice the module going away. */
		if (!resolve_family(nl, "nlctrl", &ctrl))
			nl->ctrl_notify_grp = ctrl.grp_id;
	}
	return 0;
err:
	nl_close(nl);
	return EXIT_SYSERR;
}

void nl_close(struct nl_ctx *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->rbuf);
	free(nl->sbuf);
	nl->sk = NULL;
	nl->rbuf = nl->sbuf = NULL;
}

int nl_subscribe(struct nl_ctx *nl)
{
	uint32_t grp = nl->events_grp;

	if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		errsys("joining the \"%s\" multicast group",
		       FSLOAD_MCGRP_EVENTS);
		return EXIT_SYSERR;
	}
	grp = nl->ctrl_notify_grp;
	if (grp)
		mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
				      sizeof(grp));
	return 0;
}

/* Request building; an overflow makes nl_request() fail. */

struct nlmsghdr *nl_msg_new(struct nl_ctx *nl, uint8_t cmd, bool dump)
{
	return msg_new(nl, nl->family, cmd, FSLOAD_FAMILY_VERSION,
		       dump ? NLM_F_DUMP : NLM_F_ACK);
}

static struct nlmsghdr *req_hdr(struct nl_ctx *nl)
{
	return (struct nlmsghdr *)nl->sbuf;
}

void nl_put_u8(struct nl_ctx *nl, uint16_t type, uint8_t v)
{
	if (!mnl_attr_put_u8_check(req_hdr(nl), nl->sbuf_len, type, v))
		nl->sbuf_overflow = true;
}

void nl_put_u32(struct nl_ctx *nl, uint16_t type, uint32_t v)
{
	if (!mnl_attr_put_u32_check(req_hdr(nl), nl->sbuf_len, type, v))
		nl->sbuf_overflow = true;
}

void nl_put_u64(struct nl_ctx *nl, uint16_t type, uint64_t v)
{
	if (!mnl_attr_put_u64_check(req_hdr(nl), nl->sbuf_len, type, v))
		nl->sbuf_overflow = true;
}

void nl_put_strz(struct nl_ctx *nl, uint16_t type, const char *s)
{
	if (!mnl_attr_put_strz_check(req_hdr(nl), nl->sbuf_len, type, s))
		nl->sbuf_overflow = true;
}

void nl_put_bytes(struct nl_ctx *nl, uint16_t type, const void *p,
		  size_t len)
{
	if (!mnl_attr_put_check(req_hdr(nl), nl->sbuf_len, type, len, p))
		nl->sbuf_overflow = true;
}

struct nlattr *nl_nest_start(struct nl_ctx *nl, uint16_t type)
{
	struct nlattr *nest;

	nest = mnl_attr_nest_start_check(req_hdr(nl), nl->sbuf_len, type);
	if (!nest)
		nl->sbuf_overflow = true;
	return nest;
}

void nl_nest_end(struct nl_ctx *nl, struct nlattr *nest)
{
	if (nest)
		mnl_attr_nest_end(req_hdr(nl), nest);
}

/* Receiving */

/* Bytes received, 0 on time out, or -errno. */
static ssize_t nl_recv(struct nl_ctx *nl, int timeout_ms)
{
	struct pollfd pfd = {
		.fd = mnl_socket_get_fd(nl->sk),
		.events = POLLIN,
	};
	ssize_t n;
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return 0;
	n = mnl_socket_recvfrom(nl->sk, nl->rbuf, nl->rbuf_len);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EPIPE;
	return n;
}

static void dispatch_ntf(struct nl_ctx *nl, const struct nlmsghdr *nlh)
{
	if (nl->ntf_cb && nlh->nlmsg_type >= NLMSG_MIN_TYPE &&
	    nlh->nlmsg_seq == 0)
		nl->ntf_cb(nlh, nl->ntf_data);
}

int nl_fsload_cmd(const struct nl_ctx *nl, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl;

	if (nlh->nlmsg_type != nl->family ||
	    mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return -1;
	genl = mnl_nlmsg_get_payload(nlh);
	return genl->cmd;
}

struct delfamily {
	uint16_t family;
	bool match;
};

static int delfamily_cb(const struct nlattr *a, void *data)
{
	struct delfamily *df = data;

	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U16) >= 0 &&
	    mnl_attr_get_u16(a) == df->family)
		df->match = true;
	return MNL_CB_OK;
}

bool nl_family_removed(const struct nl_ctx *nl, const struct nlmsghdr *nlh)
{
	struct delfamily df = { .family = nl->family };
	const struct genlmsghdr *genl;

	if (nlh->nlmsg_type != GENL_ID_CTRL ||
	    mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return false;
	genl = mnl_nlmsg_get_payload(nlh);
	if (genl->cmd != CTRL_CMD_DELFAMILY)
		return false;
	mnl_attr_parse(nlh, GENL_HDRLEN, delfamily_cb, &df);
	return df.match;
}

/* Extended ack: naming the attribute an offset points at */

static void path_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void path_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* The label of a nest instance: its name attribute, or its index. */
static void path_add_label(char *buf, size_t len, const struct nlattr *nest,
			   const struct attr_set *nset, unsigned int index)
{
	const struct nlattr *a;

	if (nset->label_attr) {
		mnl_attr_for_each_nested(a, nest) {
			if (mnl_attr_get_type(a) == nset->label_attr &&
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0) {
				path_add(buf, len, "[%s]",
					 mnl_attr_get_str(a));
				return;
			}
		}
	}
	path_add(buf, len, "[%u]", index);
}

/*
 * Find the attribute at @target (offset from the start of @req) among
 * the attributes in [@start, @start + @size) of set @set, appending its
 * path to @buf.  On success *@found is the set of its contents (NULL if
 * it is no nest known here).
 */
static bool attr_path(const struct nlmsghdr *req, const struct attr_set *set,
		      const void *start, size_t size, size_t target,
		      char *buf, size_t len, const struct attr_set **found)
{
	unsigned int count[64] = { 0 };
	const struct nlattr *a = start;
	int rem = (int)size;
	char nbuf[48];

	for (; mnl_attr_ok(a, rem); a = mnl_attr_next(a)) {
		size_t off = (const char *)a - (const char *)req;
		unsigned int type = mnl_attr_get_type(a);
		const struct attr_set *nset = NULL;
		unsigned int index = type < 64 ? count[type]++ : 0;

		rem -= MNL_ALIGN(a->nla_len);
		if (set->nested && type <= set->max)
			nset = set->nested[type];
		if (target < off || target >= off + a->nla_len)
			continue;
		path_add(buf, len, "%s%s", *buf ? "." : "",
			 attr_name(set, type, nbuf, sizeof(nbuf)));
		if (nset)
			path_add_label(buf, len, a, nset, index);
		if (target == off) {
			*found = nset;
			return true;
		}
		if (!nset)
			return false;
		return attr_path(req, nset, mnl_attr_get_payload(a),
				 mnl_attr_get_payload_len(a), target, buf,
				 len, found);
	}
	return false;
}

static void ext_attr_name(struct nl_ctx *nl, const struct nlmsghdr *req,
			  const struct nlattr *offs,
			  const struct nlattr *miss_type,
			  const struct nlattr *miss_nest)
{
	const struct attr_set *set = &job_attrs, *found = NULL;
	size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;
	const void *start = (const char *)req + hdr;
	size_t size = req->nlmsg_len - hdr;
	char nbuf[48];
	uint32_t target;

	nl->ext_attr[0] = '\0';
	if (req->nlmsg_type != nl->family || req->nlmsg_len < hdr)
		return;
	if (miss_type) {
		if (miss_nest) {
			target = mnl_attr_get_u32(miss_nest);
			if (!attr_path(req, &job_attrs, start, size, target,
				       nl->ext_attr, sizeof(nl->ext_attr),
				       &found) || !found) {
				nl->ext_attr[0] = '\0';
				return;
			}
			set = found;
		}
		path_add(nl->ext_attr, sizeof(nl->ext_attr), "%s%s",
			 nl->ext_attr[0] ? "." : "",
			 attr_name(set, mnl_attr_get_u32(miss_type), nbuf,
				   sizeof(nbuf)));
		nl->ext_missing = true;
		return;
	}
	if (offs) {
		target = mnl_attr_get_u32(offs);
		if (!attr_path(req, &job_attrs, start, size, target,
			       nl->ext_attr, sizeof(nl->ext_attr), &found))
			snprintf(nl->ext_attr, sizeof(nl->ext_attr),
				 "at offset %u", target);
	}
}

static int ext_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(a);

	switch (type) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(a, MNL_TYPE_STRING) >= 0)
			tb[type] = a;
		break;
	case NLMSGERR_ATTR_OFFS:
	case NLMSGERR_ATTR_MISS_TYPE:
	case NLMSGERR_ATTR_MISS_NEST:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			tb[type] = a;
		break;
	}
	return MNL_CB_OK;
}

/* An ack, an error, or the end of a dump. */
static int nl_ack(struct nl_ctx *nl, const struct nlmsghdr *req,
		  const struct nlmsghdr *nlh, bool done, unsigned int flags)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	size_t plen = mnl_nlmsg_get_payload_len(nlh);
	const char *payload = mnl_nlmsg_get_payload(nlh);
	size_t off;
	int error;

	if (done) {
		if (plen < sizeof(int))
			return 0;
		memcpy(&error, payload, sizeof(int));
		off = sizeof(int);
	} else {
		const struct nlmsgerr *e = (const void *)payload;

		if (plen < sizeof(*e)) {
			errmsg("truncated netlink error message");
			return EXIT_SYSERR;
		}
		error = e->error;
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
		    e->msg.nlmsg_len >= sizeof(struct nlmsghdr))
			off += MNL_ALIGN(e->msg.nlmsg_len -
					 sizeof(struct nlmsghdr));
	}
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off < plen)
		mnl_attr_parse_payload(payload + off, plen - off, ext_attr_cb,
				       tb);

	if (!error) {
		if (tb[NLMSGERR_ATTR_MSG] && !(flags & NL_QUIET))
			warnmsg("%.*s",
				(int)strnlen(mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]),
					     mnl_attr_get_payload_len(tb[NLMSGERR_ATTR_MSG])),
				(const char *)mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]));
		return 0;
	}
	nl->err = error < 0 ? -error : error;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(nl->ext_msg, sizeof(nl->ext_msg), "%.*s",
			 (int)mnl_attr_get_payload_len(tb[NLMSGERR_ATTR_MSG]),
			 (const char *)mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]));
	ext_attr_name(nl, req, tb[NLMSGERR_ATTR_OFFS],
		      tb[NLMSGERR_ATTR_MISS_TYPE], tb[NLMSGERR_ATTR_MISS_NEST]);
	if (!(flags & NL_QUIET))
		nl_print_error(nl);
	return EXIT_KERNEL;
}

void nl_print_error(const struct nl_ctx *nl)
{
	fprintf(stderr, "fsloadctl: %s: %s", cmd_name, strerror(nl->err));
	if (nl->ext_msg[0])
		fprintf(stderr, ": %s", nl->ext_msg);
	if (nl->ext_attr[0])
		fprintf(stderr, " (%sattribute: %s)",
			nl->ext_missing ? "missing " : "", nl->ext_attr);
	fputc('\n', stderr);
}

int nl_request(struct nl_ctx *nl, nl_msg_cb cb, void *data,
	       unsigned int flags)
{
	const struct nlmsghdr *req = req_hdr(nl);
	int tmo_ms = flags & NL_POLL ? NL_POLL_TIMEOUT_MS : NL_REPLY_TIMEOUT_MS;
	uint64_t deadline = now_ns() + tmo_ms * 1000000ULL;
	uint32_t seq = req->nlmsg_seq;
	int cb_ret = 0;

	nl->err = 0;
	nl->ext_msg[0] = '\0';
	nl->ext_attr[0] = '\0';
	nl->ext_missing = false;
	if (nl->sbuf_overflow) {
		errmsg("request too large (over %zu bytes)", nl->sbuf_len);
		return EXIT_SYSERR;
	}
	if (mnl_socket_sendto(nl->sk, req, req->nlmsg_len) < 0) {
		errsys("sending a netlink request");
		return EXIT_SYSERR;
	}
	for (;;) {
		const struct nlmsghdr *nlh;
		uint64_t now = now_ns();
		ssize_t n;
		int len;

		if (now >= deadline) {
			if (flags & NL_POLL)
				return -ETIMEDOUT;
			errmsg("no reply from the kernel in %d s%s", tmo_ms / 1000,
			       nl->overrun ? " (lost in a receive buffer overrun?)" : "");
			return EXIT_SYSERR;
		}
		n = nl_recv(nl, (int)((deadline - now) / 1000000) + 1);
		if (n == -EINTR || n == 0)
			continue;
		if (n == -ENOBUFS) {
			nl->overrun = true;
			continue;
		}
		if (n < 0) {
			errno = (int)-n;
			errsys("receiving from netlink");
			return EXIT_SYSERR;
		}
		len = (int)n;
		for (nlh = (const struct nlmsghdr *)nl->rbuf;
		     mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			int ret;

			if (nlh->nlmsg_seq != seq) {
				dispatch_ntf(nl, nlh);
				continue;
			}
			deadline = now_ns() + tmo_ms * 1000000ULL;
			switch (nlh->nlmsg_type) {
			case NLMSG_ERROR:
			case NLMSG_DONE:
				ret = nl_ack(nl, req, nlh,
					     nlh->nlmsg_type == NLMSG_DONE,
					     flags);
				return ret ? ret : cb_ret;
			default:
				if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
					break;
				if (cb && !cb_ret)
					cb_ret = cb(nlh, data);
				break;
			}
		}
	}
}

int nl_wait(struct nl_ctx *nl, int timeout_ms)
{
	const struct nlmsghdr *nlh;
	ssize_t n;
	int len;

	n = nl_recv(nl, timeout_ms);
	if (n == -EINTR)
		return -EINTR;
	if (n == -ENOBUFS) {
		nl->overrun = true;
		return 0;
	}
	if (n < 0) {
		errno = (int)-n;
		errsys("receiving from netlink");
		return EXIT_SYSERR;
	}
	len = (int)n;
	for (nlh = (const struct nlmsghdr *)nl->rbuf; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len))
		dispatch_ntf(nl, nlh);
	return 0;
}
