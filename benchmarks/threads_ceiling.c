/* What two threads can gain on this machine at all: the ceiling for threads=.

   Times the same work done by 1 thread and split over N threads (interleaved
   rounds, medians of wall time): a memset and a memcpy of MB megabytes
   (legal_moves_batch writes about 100 MB for 100,000 leads, and copies
   chunks into place), and a pure-register loop (no memory traffic: what
   the cores themselves give; under KVM two vCPUs may share one physical
   core).  Pages are touched before timing, so no page faults are counted.

       cc -O2 -pthread benchmarks/threads_ceiling.c -o /tmp/threads_ceiling
       /tmp/threads_ceiling [MB=100] [rounds=7] [threads=2]
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int kind; char *dst, *src; size_t n; uint64_t seed, result; } Part;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *run(void *arg) {
    Part *p = arg;
    if (p->kind == 0) {
        memset(p->dst, (int)p->seed, p->n);
    } else if (p->kind == 1) {
        memcpy(p->dst, p->src, p->n);
    } else {  /* an xorshift chain: registers only, one dependent step after another */
        uint64_t x = p->seed | 1;
        for (size_t i = 0; i < p->n; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
        p->result = x;
    }
    return NULL;
}

/* kind's work (n bytes, or n loop steps) split over t threads; seconds. */
static double timed(int kind, char *dst, char *src, size_t n, int t, uint64_t seed) {
    pthread_t th[64];
    Part part[64];
    double t0 = now();
    for (int i = 0; i < t; i++) {
        size_t lo = n / t * i, hi = i == t - 1 ? n : n / t * (i + 1);
        part[i] = (Part){kind, dst + (kind < 2 ? lo : 0), src + (kind == 1 ? lo : 0), hi - lo, seed + i, 0};
        if (i) pthread_create(&th[i], NULL, run, &part[i]);
    }
    run(&part[0]);
    for (int i = 1; i < t; i++) pthread_join(th[i], NULL);
    return now() - t0;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    size_t mb = argc > 1 ? strtoul(argv[1], 0, 10) : 100;
    int rounds = argc > 2 ? atoi(argv[2]) : 7, nt = argc > 3 ? atoi(argv[3]) : 2;
    size_t n = mb << 20, steps = 200000000;
    char *a = malloc(n), *b = malloc(n);
    const char *names[3] = {"memset", "memcpy", "register loop"};
    double one[64], many[64];
    if (!a || !b || rounds > 64 || nt < 2 || nt > 64) return 1;
    memset(a, 1, n);
    memset(b, 2, n);
    for (int kind = 0; kind < 3; kind++) {
        size_t size = kind < 2 ? n : steps;
        for (int r = 0; r < rounds; r++) {
            one[r] = timed(kind, b, a, size, 1, r);
            many[r] = timed(kind, b, a, size, nt, r);
        }
        qsort(one, rounds, sizeof(double), cmp);
        qsort(many, rounds, sizeof(double), cmp);
        double o = one[rounds / 2], m = many[rounds / 2];
        if (kind < 2)
            printf("%-14s %zu MB: 1 thread %7.2f ms (%5.1f GB/s), %d threads %7.2f ms (%5.1f GB/s): %.2fx\n",
                   names[kind], mb, 1e3 * o, n / o / 1e9, nt, 1e3 * m, n / m / 1e9, o / m);
        else
            printf("%-14s %zu steps: 1 thread %7.2f ms, %d threads %7.2f ms: %.2fx\n",
                   names[kind], steps, 1e3 * o, nt, 1e3 * m, o / m);
    }
    free(a);
    free(b);
    return 0;
}
