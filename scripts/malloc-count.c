// Counts a process's malloc calls and bytes (LD_PRELOAD), for scripts/count-allocations.
// With MALLOC_COUNT_SIZES set, also writes each allocation's size to standard error, one per
// line, for a histogram. Linux (glibc) only; not part of the package.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_long allocations;
static atomic_long bytes;
static int writeSizes = -1;
static void *(*systemMalloc)(size_t);

void *malloc(size_t size) {
  if (!systemMalloc) systemMalloc = dlsym(RTLD_NEXT, "malloc");
  atomic_fetch_add(&allocations, 1);
  atomic_fetch_add(&bytes, (long)size);
  if (writeSizes < 0) writeSizes = getenv("MALLOC_COUNT_SIZES") != NULL;
  if (writeSizes) {
    char line[32];
    int length = snprintf(line, sizeof line, "%zu\n", size);
    write(2, line, (size_t)length);
  }
  return systemMalloc(size);
}

__attribute__((destructor)) static void report(void) {
  char line[96];
  int length = snprintf(line, sizeof line, "malloc-count: %ld allocations, %ld bytes\n",
                        (long)allocations, (long)bytes);
  write(2, line, (size_t)length);
}
