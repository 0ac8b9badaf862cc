// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: waiting for the end of a job.
 *
 * The waiter's socket is subscribed to "events" before anything tells it
 * the job's state, so the DONE notification cannot be missed: it is
 * either seen, or the job's state was already final when asked.  If the
 * socket overruns (ENOBUFS) notifications may be lost; the waiter then
 * polls JOB_GET until the job ends.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/clock.h"
#include "nl/nl.h"
#include "nl/results.h"
#include "nl/job.h"
#include "nl/names.h"
#include "nl/request.h"
#include "engine/wait.h"
#include "lib/progress.h"

/* JOB_GET interval after an overrun. */
#define POLL_MS		500

static volatile sig_atomic_t signals;
static volatile sig_atomic_t sigterm_seen;

void wait_sigterm_note(int sig)
{
	if (sig == SIGTERM)
		sigterm_seen = 1;
}

bool wait_sigterm_seen(void)
{
	return sigterm_seen;
}

static void on_signal(int sig)
{
	wait_sigterm_note(sig);
	if (++signals >= 2) {
		/* second Ctrl-C: die; the kernel stops the job we own */
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

void wait_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: poll() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void progress_draw(struct waiter *w, const struct job_status *js)
{
	struct progress_sample s = {
		.state = JS_HAS(js, FSLOAD_A_JOB_STATE) ?
			 state_name(js->state) : NULL,
		.phase = JS_HAS(js, FSLOAD_A_JOB_PHASE_INDEX) ?
			 (int)js->phase_index : -1,
		.nphases = js->phases,
		.ops = js->ops,
		.elapsed_s = js->elapsed_ns / 1e9,
		.interval_s = js->progress_ms / 1e3,
	};

	if (w->pr.mode == PROGRESS_NONE)
		return;
	if (w->x && s.phase >= 0 && js->phase_index < w->x->nphases)
		s.name = w->x->phase_names[js->phase_index];
	if (s.phase >= 0 && js->phase_index < FSLOAD_PHASES_MAX)
		s.limit_s = w->limit_s[js->phase_index];
	/* 0 from an older module: the job's share by its phases only */
	s.items = js->phase_items;
	s.done = js->phase_items_done;
	if (!w->id_known)
		return;
	if (!w->pr.who[0])
		snprintf(w->pr.who, sizeof(w->pr.who), "job %" PRIu32, w->id);
	progress_show(&w->pr, &s);
}

/* The job says it holds before phase js->held, if it does. */
static void waiter_held(struct waiter *w, const struct job_status *js)
{
	if (JS_HAS(js, FSLOAD_A_JOB_HELD) && js->held + 1 > w->held_done)
		w->held = js->held + 1;
}

void waiter_status(struct waiter *w, struct job_status *js)
{
	waiter_held(w, js);
	if (JS_HAS(js, FSLOAD_A_JOB_STATE) && state_is_final(js->state)) {
		w->done = true;
		job_status_move(&w->final, js);
		return;
	}
	progress_draw(w, js);
}

static int waiter_ntf(const struct nlmsghdr *nlh, void *data)
{
	struct waiter *w = data;
	struct job_status js = { 0 };
	int cmd;

	if (nl_family_removed(w->nl, nlh)) {
		w->family_gone = true;
		return 0;
	}
	cmd = nl_fsload_cmd(w->nl, nlh);
	if (cmd != FSLOAD_CMD_JOB_DONE_NTF && cmd != FSLOAD_CMD_JOB_PROGRESS_NTF &&
	    cmd != FSLOAD_CMD_JOB_STALL_NTF && cmd != FSLOAD_CMD_JOB_HELD_NTF)
		return 0;
	if (job_status_parse(nlh, &js) || !JS_HAS(&js, FSLOAD_A_JOB_ID))
		goto out;
	if (cmd == FSLOAD_CMD_JOB_STALL_NTF) {
		if (w->id_known && js.id == w->id && w->on_stall) {
			progress_clear(&w->pr);
			w->on_stall(w->stall_arg, &js);
		}
		goto out;
	}
	if (!w->id_known) {
		/* our job's id is not known yet: remember which ended */
		if (cmd == FSLOAD_CMD_JOB_DONE_NTF && w->nearly < WAIT_EARLY_MAX)
			w->early[w->nearly++] = js.id;
		goto out;
	}
	if (js.id != w->id || w->done)
		goto out;
	if (cmd == FSLOAD_CMD_JOB_HELD_NTF) {
		waiter_held(w, &js);
	} else if (cmd == FSLOAD_CMD_JOB_DONE_NTF) {
		w->done = true;
		job_status_move(&w->final, &js);
	} else {
		progress_draw(w, &js);
	}
out:
	job_status_free(&js);
	return 0;
}

void waiter_init(struct waiter *w, struct nl_ctx *nl,
		 enum progress_mode progress, const struct job_extra *x)
{
	memset(w, 0, sizeof(*w));
	w->nl = nl;
	progress_init(&w->pr, progress, "");
	w->x = x;
	nl->ntf_cb = waiter_ntf;
	nl->ntf_data = w;
}

void waiter_set_id(struct waiter *w, uint32_t id)
{
	unsigned int i;

	w->id = id;
	w->id_known = true;
	for (i = 0; i < w->nearly; i++)
		if (w->early[i] == id)
			w->done = true;	/* final status: ask JOB_GET */
}

void waiter_fini(struct waiter *w)
{
	progress_clear(&w->pr);
	job_status_free(&w->final);
	w->nl->ntf_cb = NULL;
	w->nl->ntf_data = NULL;
}

static int waiter_poll(struct waiter *w)
{
	struct job_status js = { 0 };
	int ret;

	ret = job_get(w->nl, w->id, &js, NL_POLL);
	/* a reply lost to the overrun: try again at the next tick */
	if (ret == -ETIMEDOUT || (!ret && !JS_HAS(&js, FSLOAD_A_JOB_ID)))
		ret = 0;
	else if (!ret)
		waiter_status(w, &js);
	job_status_free(&js);
	return ret;
}

void waiter_refresh(struct waiter *w)
{
	if (!w->done)
		waiter_poll(w);
}

int waiter_run(struct waiter *w, double timeout_s, bool stop_on_signal)
{
	uint64_t deadline = 0, next_poll = 0, now;
	bool polling = false;
	int ret, tmo;

	if (timeout_s >= 0)
		deadline = now_ns() + (uint64_t)(timeout_s * 1e9);
	while (!w->done) {
		if (w->family_gone) {
			progress_clear(&w->pr);
			errmsg("the fsload module was unloaded");
			return EXIT_SYSERR;
		}
		/* once per job: run_wait() calls again every second */
		if (stop_on_signal && signals && !w->stop_sent) {
			w->stop_sent = true;
			progress_clear(&w->pr);
			fprintf(stderr, "fsloadctl: stopping job %" PRIu32
				" (interrupt again to quit at once)\n", w->id);
			ret = job_stop(w->nl, w->id, NL_QUIET);
			/* a job that just ended cannot be stopped: fine */
			if (ret && ret != EXIT_KERNEL)
				return ret;
			continue;
		}
		if (w->held && w->on_held && !w->stop_sent) {
			uint32_t phase = w->held - 1;

			w->held_done = w->held;
			w->held = 0;
			progress_clear(&w->pr);
			ret = w->on_held(w->held_arg, w->nl, w->id, phase);
			if (ret)
				return ret;
			continue;
		}
		if (w->nl->overrun) {
			w->nl->overrun = false;
			if (!polling)
				warnmsg("notifications lost (receive buffer overrun): polling the job's status");
			polling = true;
			next_poll = 0;
		}
		now = now_ns();
		if (polling && now >= next_poll) {
			ret = waiter_poll(w);
			if (ret)
				return ret;
			next_poll = now + POLL_MS * 1000000ULL;
			continue;
		}
		if (deadline && now >= deadline) {
			progress_clear(&w->pr);
			return EXIT_TIMEOUT;
		}
		tmo = -1;
		if (polling)
			tmo = (int)((next_poll - now) / 1000000) + 1;
		if (deadline) {
			uint64_t left_ms = (deadline - now) / 1000000 + 1;
			int left = left_ms > 60000 ? 60000 : (int)left_ms;

			if (tmo < 0 || left < tmo)
				tmo = left;
		}
		ret = nl_wait(w->nl, tmo);
		if (ret > 0)
			return ret;
	}
	progress_clear(&w->pr);
	return 0;
}
