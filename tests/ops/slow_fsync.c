/* A slow disk for redis-server, by LD_PRELOAD: fsync and fdatasync wait SLOW_FSYNC_MS
 * milliseconds before doing their work. Built by tests/ops/slow_disk.py. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

static void wait_for_the_disk(void) {
    const char *setting = getenv("SLOW_FSYNC_MS");
    long ms = setting ? atol(setting) : 0;
    struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&left, &left) == -1 && errno == EINTR) {
    }
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_for_the_disk();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_for_the_disk();
    return real(fd);
}
