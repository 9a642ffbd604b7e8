/*
 * Native side of the warm replay benchmark (bench/replay-bench.ts): libpcp replaying an
 * archive in PM_MODE_INTERP, the loop pmval runs, timed inside the process so start-up is
 * left out. Built at bench time in a temporary directory (gcc ... -lpcp, from libpcp3-dev).
 *
 * usage: libpcp-interp-loop ARCHIVE DELTA_MS PASSES METRIC...
 *   Each pass: pmSetMode(PM_MODE_INTERP, archive start, DELTA_MS), then pmFetch until
 *   PM_ERR_EOL. Times each pass on the monotonic clock and in process CPU time (the load of
 *   a shared machine moves the first far more than the second).
 * stdout: {"samples": n, "values": v, "pass_ms": [...], "pass_cpu_ms": [...]}
 *   (n fetches per pass, v values in them)
 */
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what, int sts)
{
    fprintf(stderr, "libpcp-interp-loop: %s: %s\n", what, pmErrStr(sts));
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s ARCHIVE DELTA_MS PASSES METRIC...\n", argv[0]);
        return 2;
    }
    const char *archive = argv[1];
    int delta = atoi(argv[2]);
    int passes = atoi(argv[3]);
    int nmetrics = argc - 4;
    char **names = argv + 4;
    pmID *pmids = calloc(nmetrics, sizeof(pmID));
    double *pass_ms = calloc(passes, sizeof(double));
    double *pass_cpu_ms = calloc(passes, sizeof(double));
    pmLogLabel label;
    long samples = -1, values = 0;
    int sts;

    if ((sts = pmNewContext(PM_CONTEXT_ARCHIVE, archive)) < 0)
        die(archive, sts);
    if ((sts = pmLookupName(nmetrics, (const char **)names, pmids)) != nmetrics)
        die("pmLookupName", sts < 0 ? sts : PM_ERR_NAME);
    if ((sts = pmGetArchiveLabel(&label)) < 0)
        die("pmGetArchiveLabel", sts);

    for (int p = 0; p < passes; p++) {
        long n = 0, v = 0;
        double t0 = clock_ms(CLOCK_MONOTONIC);
        double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        if ((sts = pmSetMode(PM_MODE_INTERP, &label.ll_start, delta)) < 0)
            die("pmSetMode", sts);
        for (;;) {
            pmResult *rp;
            if ((sts = pmFetch(nmetrics, pmids, &rp)) < 0)
                break;
            for (int i = 0; i < rp->numpmid; i++)
                if (rp->vset[i]->numval > 0)
                    v += rp->vset[i]->numval;
            pmFreeResult(rp);
            n++;
        }
        pass_ms[p] = clock_ms(CLOCK_MONOTONIC) - t0;
        pass_cpu_ms[p] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (sts != PM_ERR_EOL)
            die("pmFetch", sts);
        if (samples >= 0 && (n != samples || v != values)) {
            fprintf(stderr, "libpcp-interp-loop: pass %d differs: %ld samples, %ld values\n", p, n, v);
            return 1;
        }
        samples = n;
        values = v;
    }

    printf("{\"samples\": %ld, \"values\": %ld, \"pass_ms\": [", samples, values);
    for (int p = 0; p < passes; p++)
        printf("%s%.6f", p ? ", " : "", pass_ms[p]);
    printf("], \"pass_cpu_ms\": [");
    for (int p = 0; p < passes; p++)
        printf("%s%.6f", p ? ", " : "", pass_cpu_ms[p]);
    printf("]}\n");
    return 0;
}
