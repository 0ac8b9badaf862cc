// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl-mpi: one rank of a multi-client run over MPI (lib/multi.h).
 *
 * Collectives are the non-blocking ones (MPI_Iallreduce, MPI_Igather*),
 * polled until they complete or their timeout passes: MPI's blocking
 * ones wait forever for a rank that hangs.  A rank that asks the others
 * to stop sends each of them a message on a communicator of its own
 * (alerts), which they poll for while their jobs run.  The workers of
 * the user engine pass a phase's barrier from their own thread, so every
 * MPI call is made under one lock (MPI_THREAD_SERIALIZED).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/multi.h"

#define ALERT_TAG	1

static pthread_mutex_t mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Comm comm = MPI_COMM_NULL;		/* the collectives */
static MPI_Comm alert_comm = MPI_COMM_NULL;	/* stop requests */
static int rank, size = 1;
static int alerted_by = -1;
static bool alert_sent;
static char library[MPI_MAX_LIBRARY_VERSION_STRING];

int multi_init(int *argc, char ***argv)
{
	int provided, len;

	if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) !=
	    MPI_SUCCESS) {
		errmsg("MPI_Init_thread failed");
		return EXIT_SYSERR;
	}
	if (provided < MPI_THREAD_SERIALIZED) {
		errmsg("the MPI library cannot be called from several threads (MPI_THREAD_SERIALIZED)");
		MPI_Finalize();
		return EXIT_SYSERR;
	}
	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	MPI_Comm_dup(MPI_COMM_WORLD, &alert_comm);
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	MPI_Get_library_version(library, &len);
	library[strcspn(library, ",\n")] = '\0';
	return 0;
}

unsigned int multi_rank(void)
{
	return (unsigned int)rank;
}

unsigned int multi_size(void)
{
	return (unsigned int)size;
}

const char *multi_library(void)
{
	return library;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Poll @req until it completes (0) or @timeout_s passes (-ETIMEDOUT). */
static bool (*run_ended)(void);

void multi_set_ended(bool (*ended)(void))
{
	run_ended = ended;
}

static int wait_request(MPI_Request *req, double timeout_s)
{
	struct timespec nap = { 0, 100000 };	/* 0.1 ms, growing to 1 ms */
	double deadline = mono_s() + timeout_s;
	int done = 0, err;

	for (;;) {
		pthread_mutex_lock(&mpi_lock);
		err = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		pthread_mutex_unlock(&mpi_lock);
		if (err != MPI_SUCCESS)
			return -EIO;
		if (done)
			return 0;
		if (mono_s() > deadline)
			return -ETIMEDOUT;
		if (run_ended && run_ended())
			return -EINTR;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 1000000)
			nap.tv_nsec *= 2;
	}
}

int multi_sync(bool stop, bool more, double timeout_s, bool *any_stop,
	       bool *any_more)
{
	int in[2] = { stop, more }, out[2] = { 0, 0 }, err;
	MPI_Request req;

	pthread_mutex_lock(&mpi_lock);
	err = MPI_Iallreduce(in, out, 2, MPI_INT, MPI_MAX, comm, &req);
	pthread_mutex_unlock(&mpi_lock);
	if (err != MPI_SUCCESS)
		return -EIO;
	err = wait_request(&req, timeout_s);
	*any_stop = out[0];
	*any_more = out[1];
	return err;
}

int multi_bcast(void *buf, size_t len, double timeout_s)
{
	MPI_Request req;
	int err;

	if (len > INT32_MAX)
		return -EINVAL;
	pthread_mutex_lock(&mpi_lock);
	err = MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, comm, &req);
	pthread_mutex_unlock(&mpi_lock);
	return err != MPI_SUCCESS ? -EIO : wait_request(&req, timeout_s);
}

int multi_gather(const void *buf, size_t len, double timeout_s,
		 void ***bufs, size_t **lens)
{
	unsigned long long mine = len, *all = NULL;
	int *counts = NULL, *displs = NULL, i, err;
	char *data = NULL;
	MPI_Request req;
	size_t total = 0;

	*bufs = NULL;
	*lens = NULL;
	if (len > INT32_MAX)
		return -EINVAL;
	if (!rank) {
		all = calloc(size, sizeof(*all));
		counts = calloc(size, sizeof(*counts));
		displs = calloc(size, sizeof(*displs));
		if (!all || !counts || !displs) {
			err = -ENOMEM;
			goto out;
		}
	}
	pthread_mutex_lock(&mpi_lock);
	err = MPI_Igather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1,
			  MPI_UNSIGNED_LONG_LONG, 0, comm, &req);
	pthread_mutex_unlock(&mpi_lock);
	err = err != MPI_SUCCESS ? -EIO : wait_request(&req, timeout_s);
	if (err)
		goto out;
	if (!rank) {
		for (i = 0; i < size; i++) {
			if (all[i] > INT32_MAX || total + all[i] > INT32_MAX) {
				err = -E2BIG;
				goto out;
			}
			counts[i] = (int)all[i];
			displs[i] = (int)total;
			total += all[i];
		}
		data = malloc(total ? total : 1);
		if (!data) {
			err = -ENOMEM;
			goto out;
		}
	}
	pthread_mutex_lock(&mpi_lock);
	err = MPI_Igatherv(buf, (int)len, MPI_BYTE, data, counts, displs,
			   MPI_BYTE, 0, comm, &req);
	pthread_mutex_unlock(&mpi_lock);
	err = err != MPI_SUCCESS ? -EIO : wait_request(&req, timeout_s);
	if (err || rank)
		goto out;
	*bufs = calloc(size, sizeof(**bufs));
	*lens = calloc(size, sizeof(**lens));
	if (!*bufs || !*lens) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < size; i++) {
		(*bufs)[i] = malloc(counts[i] ? counts[i] : 1);
		if (!(*bufs)[i]) {
			err = -ENOMEM;
			goto out;
		}
		memcpy((*bufs)[i], data + displs[i], counts[i]);
		(*lens)[i] = counts[i];
	}
out:
	if (err && *bufs) {
		for (i = 0; i < size; i++)
			free((*bufs)[i]);
		free(*bufs);
		free(*lens);
		*bufs = NULL;
		*lens = NULL;
	}
	free(data);
	free(all);
	free(counts);
	free(displs);
	return err;
}

void multi_alert(void)
{
	MPI_Request req;
	int r;

	pthread_mutex_lock(&mpi_lock);
	if (!alert_sent) {
		alert_sent = true;
		for (r = 0; r < size; r++) {
			if (r == rank ||
			    MPI_Isend(&rank, 1, MPI_INT, r, ALERT_TAG,
				      alert_comm, &req) != MPI_SUCCESS)
				continue;
			MPI_Request_free(&req);
		}
	}
	pthread_mutex_unlock(&mpi_lock);
}

/* Receive a waiting alert, if there is one.  Under mpi_lock. */
static bool take_alert(void)
{
	MPI_Status st;
	int flag = 0, from;

	if (MPI_Iprobe(MPI_ANY_SOURCE, ALERT_TAG, alert_comm, &flag, &st) !=
	    MPI_SUCCESS || !flag)
		return false;
	MPI_Recv(&from, 1, MPI_INT, st.MPI_SOURCE, ALERT_TAG, alert_comm,
		 MPI_STATUS_IGNORE);
	if (alerted_by < 0)
		alerted_by = st.MPI_SOURCE;
	return true;
}

int multi_alerted(void)
{
	pthread_mutex_lock(&mpi_lock);
	if (alerted_by < 0)
		take_alert();
	pthread_mutex_unlock(&mpi_lock);
	return alerted_by;
}

void multi_abort(int code)
{
	MPI_Abort(MPI_COMM_WORLD, code);
	exit(code);
}

/*
 * The alerts still on their way are received: the last collective has
 * passed, so every alert was sent before it.
 */
void multi_finish(void)
{
	pthread_mutex_lock(&mpi_lock);
	while (take_alert())
		;
	MPI_Comm_free(&alert_comm);
	MPI_Comm_free(&comm);
	pthread_mutex_unlock(&mpi_lock);
	MPI_Finalize();
}
