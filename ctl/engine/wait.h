/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: waiting for the end of a job, with live progress.
 */
#ifndef FSLOADCTL_WAIT_H
#define FSLOADCTL_WAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/progress.h"
#include "nl/job.h"

struct nl_ctx;

#define WAIT_EARLY_MAX	64

/**
 * struct waiter - waits for FSLOAD_CMD_JOB_DONE_NTF of one job
 * @nl: the socket, subscribed to "events" before the job's state is known
 * @id: the job; valid once @id_known
 * @id_known: false between sending JOB_START and reading its reply
 * @done: the job has ended; @final holds its last status
 * @final: status from the DONE notification (or the polled JOB_GET)
 * @pr: the progress shown on stderr (lib/progress.h)
 * @limit_s: each phase's time limit, for the progress (0: none)
 * @x: phase names of the program, for the progress line (may be NULL)
 * @family_gone: the module went away while waiting
 * @early: ids of jobs whose DONE came before @id was known
 * @nearly: how many
 * @on_stall: called with the status of a JOB_STALL_NTF of the job
 * @stall_arg: its argument
 * @held: the phase + 1 the job holds before (JOB_HELD_NTF or a polled
 *	status), 0 when it is not held or @on_held has been called
 * @held_done: the phase + 1 of the last hold given to @on_held: a job holds
 *	before each phase at most once, in order, so a status that still
 *	shows that hold (a notification queued before the resume) is stale
 * @on_held: called from waiter_run() (not from a notification) for a held
 *	job: it acts between the phases and resumes the job; its non-zero
 *	return ends waiter_run() with it
 * @held_arg: its argument
 */
struct waiter {
	struct nl_ctx *nl;
	uint32_t id;
	bool id_known;
	bool done;
	struct job_status final;
	struct progress pr;
	double limit_s[FSLOAD_PHASES_MAX];
	const struct job_extra *x;
	bool family_gone;
	uint32_t early[WAIT_EARLY_MAX];
	unsigned int nearly;
	void (*on_stall)(void *arg, const struct job_status *js);
	void *stall_arg;
	uint32_t held;
	uint32_t held_done;
	int (*on_held)(void *arg, struct nl_ctx *nl, uint32_t id,
		       uint32_t phase);
	void *held_arg;
	bool stop_sent;		/* JOB_STOP sent on a signal: said once */
};

/* Take over @nl's notifications. */
void waiter_init(struct waiter *w, struct nl_ctx *nl,
		 enum progress_mode progress, const struct job_extra *x);
/* The job to wait for (checks DONE notifications seen before). */
void waiter_set_id(struct waiter *w, uint32_t id);
/* Take a status (from JOB_GET) into account; marks done when final. */
void waiter_status(struct waiter *w, struct job_status *js);
/*
 * Once the id is set: the job's status now (JOB_GET), for what it said
 * before its id was known (a HELD notification of a job that holds
 * before its first phase may come before the start's reply, and is not
 * sent again).  A failure leaves it to the notifications.
 */
void waiter_refresh(struct waiter *w);

/*
 * Wait for the job to end, or @timeout_s (< 0: forever).  With
 * @stop_on_signal, the first SIGINT/SIGTERM sends JOB_STOP (a second one
 * kills the process, see wait_signals_install()).
 * Returns 0 when w->done, EXIT_TIMEOUT, or an error's exit code.
 */
int waiter_run(struct waiter *w, double timeout_s, bool stop_on_signal);
/* Clear the progress line, release @nl. */
void waiter_fini(struct waiter *w);

/* SIGINT/SIGTERM: the first is noted, the second kills us. */
void wait_signals_install(void);
/*
 * Whether a SIGTERM came (the engines' handlers note it): mpirun's
 * word that it is ending the run, a rank having died, and that every
 * rank is killed a moment later.
 */
bool wait_sigterm_seen(void);
void wait_sigterm_note(int sig);

#endif /* FSLOADCTL_WAIT_H */
