/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the progress of a running job on stderr, as a bar redrawn
 * in place on a terminal or as a plain line every few seconds elsewhere
 * (a log, a serial console, scripts/vm-run): phase k/n, the share of the
 * phase's items and of the job done, ops/s and the time left.  Never on
 * stdout, where the results (and --json's document) go.
 */
#ifndef FSLOADCTL_PROGRESS_H
#define FSLOADCTL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

enum progress_mode {
	PROGRESS_AUTO,		/* not chosen: progress_resolve() picks */
	PROGRESS_NONE,
	PROGRESS_LINE,
	PROGRESS_BAR,
};

/*
 * A plain line every PROGRESS_LINE_EVERY progress intervals of the job
 * (--progress-ms: every 5 s by default).
 */
#define PROGRESS_LINE_EVERY	5

/* --progress NAME into *@mode; a usage error naming the option. */
int progress_parse(const char *name, enum progress_mode *mode);
/*
 * The mode to use: @mode if chosen, else none under --json (@json) or
 * --quiet, a bar when stderr is a terminal that redraws a line
 * (progress_wanted()), else a line.
 */
enum progress_mode progress_resolve(enum progress_mode mode, bool json,
				    bool quiet);

/* What a job says of itself now. */
struct progress_sample {
	const char *state;	/* "running", ...; NULL: not said */
	int phase;		/* from 0; < 0: before the first */
	unsigned int nphases;
	const char *name;	/* the phase's; NULL: not known */
	uint64_t items;		/* the phase's, all workers; 0: not known */
	uint64_t done;		/* of @items, begun */
	uint64_t ops;		/* all phases */
	double elapsed_s;	/* since the job started */
	double interval_s;	/* between two samples (--progress-ms) */
	double limit_s;		/* the phase's time limit; 0: none */
};

struct progress {
	enum progress_mode mode;
	char who[32];		/* "job 3", "user engine" */
	bool drawn;		/* a bar is on the screen */
	double next_line_s;	/* the job's time of the next line; 0: the
				 * first sample sets it
				 */
	uint64_t prev_ops;	/* at prev_s: ops/s over the interval */
	double prev_s;
	double rate;		/* ops/s of the last interval */
	int phase;		/* of the last sample */
	double phase_s;		/* when it was first seen in a sample */
};

void progress_init(struct progress *pr, enum progress_mode mode,
		   const char *who);
/* Show @s as pr->mode says (a line only once its interval has passed). */
void progress_show(struct progress *pr, const struct progress_sample *s);
/* Take the bar off the screen (before other output, at the end). */
void progress_clear(struct progress *pr);

#endif /* FSLOADCTL_PROGRESS_H */
