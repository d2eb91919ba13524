/* A program linked against libms_tools_ext.so.
 *
 *   mstx_linked_client noop   no tool: every call is a no-op, and cheap
 *   mstx_linked_client tool   a tool is attached (by path or preloaded)
 *
 * In both modes eight threads race to make the first mstx call, so the
 * one-time attachment is exercised concurrently.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ms_tools_ext.h"

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

enum { kThreads = 8 };

static pthread_barrier_t start_line;
static mstxRangeId thread_ids[kThreads];

static void* race_first_call(void* arg) {
  int index = (int)(intptr_t)arg;
  char message[32];
  snprintf(message, sizeof message, "thread-%d", index);
  pthread_barrier_wait(&start_line);
  thread_ids[index] = mstxRangeStartA(message, NULL);
  mstxRangeEnd(thread_ids[index]);
  return NULL;
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  CHECK(argc == 2);
  int with_tool = strcmp(argv[1], "tool") == 0;

  pthread_t threads[kThreads];
  pthread_barrier_init(&start_line, NULL, kThreads);
  for (int i = 0; i < kThreads; ++i) {
    CHECK(pthread_create(&threads[i], NULL, race_first_call, (void*)(intptr_t)i) == 0);
  }
  for (int i = 0; i < kThreads; ++i) pthread_join(threads[i], NULL);
  pthread_barrier_destroy(&start_line);
  for (int i = 0; i < kThreads; ++i) {
    if (!with_tool) {
      CHECK(thread_ids[i] == 0);
      continue;
    }
    CHECK(thread_ids[i] >= 1 && thread_ids[i] <= kThreads);
    for (int j = 0; j < i; ++j) CHECK(thread_ids[i] != thread_ids[j]);
  }

  uint64_t tool_id = 12345;
  mstxGetToolId(&tool_id);
  CHECK(tool_id == (with_tool ? MSTX_TOOL_MSPROF_ID : MSTX_TOOL_INVALID_ID));

  aclrtStream stream = (aclrtStream)(uintptr_t)0xabc;
  mstxRangeId main_range = mstxRangeStartA("main", stream);
  CHECK(with_tool ? main_range == kThreads + 1 : main_range == 0);
  mstxMarkA("point", stream);
  mstxDomainHandle_t domain = mstxDomainCreateA("linked");
  CHECK(with_tool ? domain != NULL : domain == NULL);
  mstxRangeId inner = mstxDomainRangeStartA(domain, "inner", NULL);
  CHECK(with_tool ? inner == kThreads + 2 : inner == 0);
  mstxDomainMarkA(domain, "inside", NULL);
  mstxDomainRangeEnd(domain, inner);
  mstxDomainDestroy(domain);
  mstxRangeEnd(main_range);

  if (!with_tool) {
    /* The no-op path is a load and an indirect call; allow a wide margin
     * for loaded machines and sanitizer builds. */
    enum { kCalls = 2000000 };
    double best = 1e9;
    for (int round = 0; round < 5; ++round) {
      double begin = now_seconds();
      for (int i = 0; i < kCalls; ++i) mstxRangeEnd(mstxRangeStartA("hot", NULL));
      double per_call_ns = (now_seconds() - begin) / (2.0 * kCalls) * 1e9;
      if (per_call_ns < best) best = per_call_ns;
    }
    printf("no-op mstx call: %.2f ns\n", best);
    CHECK(best < 50.0);
  }
  return 0;
}
