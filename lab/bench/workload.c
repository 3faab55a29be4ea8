// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark workloads, run in the guest: each loops a system-call
 * pattern on a file in DIR, first N/4 untimed iterations that warm the
 * caches, then BATCHES timed batches of N/BATCHES iterations, and prints
 * "NAME NANOSECONDS": the fastest batch scaled to N iterations. Time is
 * CLOCK_MONOTONIC, which under QEMU's -icount counts instructions. The
 * fastest batch is the one no timer or kernel thread interrupted: in a
 * guest that does nothing else, a few batches in each run take 15-40%
 * longer than the others because some periodic kernel work landed in
 * them, which would make a median depend on where the work landed; the
 * fastest batches of two runs of one kernel agree to 0.03%.
 *
 *   workload DIR N
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define BATCHES 25

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* open(2) + close(2) of a file opened for writing: close's new check. */
static void open_close(const char *path, long n)
{
	for (long i = 0; i < n; i++) {
		int fd = open(path, O_WRONLY);

		if (fd < 0 || close(fd))
			die("open_close");
	}
}

/*
 * A pipe: created, written, closed. close(2) must cost nothing more for a
 * file that has no writeback; the write marks the description once.
 */
static void pipe_write_close(const char *path, long n)
{
	(void)path;
	for (long i = 0; i < n; i++) {
		int p[2];

		if (pipe(p) || write(p[1], "x", 1) != 1 || close(p[1]) || close(p[0]))
			die("pipe_write_close");
	}
}

/* open + a 4 KiB buffered write + close. */
static void open_write_close(const char *path, long n)
{
	static char buf[4096];

	for (long i = 0; i < n; i++) {
		int fd = open(path, O_WRONLY);

		if (fd < 0 || pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf) || close(fd))
			die("open_write_close");
	}
}

/* fsync(2) of a clean file: the error check with nothing to write. */
static void fsync_clean(const char *path, long n)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || fsync(fd))
		die("fsync_clean");
	for (long i = 0; i < n; i++)
		if (fsync(fd))
			die("fsync_clean");
	close(fd);
}

/*
 * The internal waiters that issue 6 converted to errseq_t: each loop makes
 * the kernel write back and wait on the file for its own purposes.
 */

/* A 4 KiB write, then @then on the same file, @n times. */
static void write_then(const char *path, long n, const char *what,
		       int (*then)(int fd))
{
	static char buf[4096];
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(what);
	for (long i = 0; i < n; i++)
		if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf) || then(fd))
			die(what);
	close(fd);
}

/* ftruncate(2) to a size inside the block just written. */
static int shrink_into_block(int fd)
{
	return ftruncate(fd, 2048);
}

/* fallocate(2) punching the block just written out: writes and waits. */
static int punch_block(int fd)
{
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096);
}

static void write_ftruncate(const char *path, long n)
{
	write_then(path, n, "write_ftruncate", shrink_into_block);
}

static void write_punch_hole(const char *path, long n)
{
	write_then(path, n, "write_punch_hole", punch_block);
}

/*
 * O_DIRECT reads of a block that is also in the page cache (clean): each
 * read writes back and waits on the cached range first.
 */
static void direct_read_cached(const char *path, long n)
{
	static char cached[4096];
	void *buf;
	int fd = open(path, O_RDWR);
	int dfd = open(path, O_RDONLY | O_DIRECT);

	if (fd < 0 || dfd < 0 || posix_memalign(&buf, 4096, 4096) ||
	    pwrite(fd, cached, sizeof(cached), 0) != sizeof(cached) ||
	    fsync(fd) || pread(fd, cached, sizeof(cached), 0) != sizeof(cached))
		die("direct_read_cached");
	for (long i = 0; i < n; i++)
		if (pread(dfd, buf, 4096, 0) != 4096)
			die("direct_read_cached");
	free(buf);
	close(dfd);
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(const char *path, long n);
	} w[] = {
		{ "open_close", open_close },
		{ "open_write_close", open_write_close },
		{ "pipe_write_close", pipe_write_close },
		{ "fsync_clean", fsync_clean },
		{ "write_ftruncate", write_ftruncate },
		{ "write_punch_hole", write_punch_hole },
		{ "direct_read_cached", direct_read_cached },
	};
	char path[4096];
	long n;
	int fd;

	if (argc != 3)
		return fprintf(stderr, "usage: workload DIR N\n"), 2;
	n = atol(argv[2]);
	snprintf(path, sizeof(path), "%s/bench-file", argv[1]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 4096) || fsync(fd) || close(fd))
		die(path);
	if (n < BATCHES)
		return fprintf(stderr, "workload: N must be at least %d\n", BATCHES), 2;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		long long t[BATCHES];

		w[i].fn(path, n / 4);
		for (int b = 0; b < BATCHES; b++) {
			t[b] = now_ns();
			w[i].fn(path, n / BATCHES);
			t[b] = now_ns() - t[b];
		}
		qsort(t, BATCHES, sizeof(t[0]), cmp_ll);
		printf("%s %lld\n", w[i].name, t[0] * n / (n / BATCHES));
		fflush(stdout);
	}
	return 0;
}
