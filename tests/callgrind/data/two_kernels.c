/* Source of the callgrind dumps in this folder: two "kernels" named as
   PoCL names its work-group functions, attributed with callgrind's client
   requests the way replayer/callgrind/callgrind_client.cc does. The cache
   model of the run (README.md) is small so that the arrays miss it: 8 KiB
   arrays against a 4 KiB D1 and a 16 KiB last level. */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>

enum { kCount = 2048 }; /* ints: 8 KiB per array */

static int odd(int v) {
  return v * 3;
}
static int even(int v) {
  return v / 2;
}
static int (*const kPick[2])(int) = {even, odd};

/* Reads `in` twice: the first sweep misses D1 and the last level, the
   second misses D1 but hits the last level (8 KiB fits 16 KiB). The
   data-dependent branch and the call through kPick give the branch
   simulator conditional and indirect branches to mispredict. */
__attribute__((noinline)) long _pocl_kernel_gather_workgroup(const int* in, int n) {
  long sum = 0;
  for (int sweep = 0; sweep < 2; ++sweep) {
    for (int i = 0; i < n; ++i) {
      if (in[i] & 1) sum += kPick[(in[i] >> 1) & 1](in[i]);
    }
  }
  return sum;
}

/* Writes `out` (cold: write misses in D1 and the last level) from `in`
   (left in the last level by the gather kernel). */
__attribute__((noinline)) void _pocl_kernel_scale_workgroup(const int* in, int* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[i] * 3 + 1;
}

int main(void) {
  int* in = malloc(kCount * sizeof(int));
  int* out = malloc(kCount * sizeof(int));
  if (in == NULL || out == NULL) return 1;
  unsigned state = 12345u;
  for (int i = 0; i < kCount; ++i) {
    state = state * 1103515245u + 12345u;
    in[i] = (int)(state >> 16);
  }
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_ZERO_STATS;
  long sum = _pocl_kernel_gather_workgroup(in, kCount);
  CALLGRIND_DUMP_STATS_AT("msprof range=0 pass=0 seq=5");
  CALLGRIND_ZERO_STATS;
  _pocl_kernel_scale_workgroup(in, out, kCount);
  CALLGRIND_DUMP_STATS_AT("msprof range=0 pass=0 seq=6");
  printf("%ld %d\n", sum, out[kCount - 1]);
  free(out);
  free(in);
  return 0;
}
