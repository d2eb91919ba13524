/* A program annotated with the header-only NVTX v3 library, run with
 * NVTX_INJECTION64_PATH naming the log injection library. It checks the
 * levels and ids NVTX returns; check_nvtx_injection.py checks the log.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <nvtx3/nvToolsExt.h>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static nvtxEventAttributes_t ascii_event(const char* message) {
  nvtxEventAttributes_t event;
  memset(&event, 0, sizeof event);
  event.version = NVTX_VERSION;
  event.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  event.messageType = NVTX_MESSAGE_TYPE_ASCII;
  event.message.ascii = message;
  return event;
}

static nvtxEventAttributes_t unicode_event(const wchar_t* message) {
  nvtxEventAttributes_t event = ascii_event(NULL);
  event.messageType = NVTX_MESSAGE_TYPE_UNICODE;
  event.message.unicode = message;
  return event;
}

/* Another thread's pushes live on their own stack. */
static void* other_thread(void* arg) {
  (void)arg;
  CHECK(nvtxRangePop() == -1);
  CHECK(nvtxRangePushA("worker") == 0);
  CHECK(nvtxRangePop() == 0);
  return NULL;
}

int main(void) {
  /* Default domain: push/pop nest and report their levels. */
  CHECK(nvtxRangePushA("outer") == 0);
  CHECK(nvtxRangePushW(L"inner-caf\u00e9") == 1);
  nvtxEventAttributes_t pushed = ascii_event("third");
  CHECK(nvtxRangePushEx(&pushed) == 2);
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, other_thread, NULL) == 0);
  pthread_join(thread, NULL);
  nvtxMarkA("mark-a");
  nvtxMarkW(L"mark-\u00fc");
  CHECK(nvtxRangePop() == 2);
  CHECK(nvtxRangePop() == 1);
  CHECK(nvtxRangePop() == 0);
  CHECK(nvtxRangePop() == -1); /* unbalanced pop is refused */

  /* Start/end ranges carry ids and may overlap. */
  nvtxRangeId_t a = nvtxRangeStartA("start-a");
  nvtxRangeId_t w = nvtxRangeStartW(L"start-\u03c9");
  nvtxEventAttributes_t started = unicode_event(L"start-ex-\u4e2d");
  nvtxRangeId_t ex = nvtxRangeStartEx(&started);
  CHECK(a != 0 && w != 0 && ex != 0 && a != w && w != ex);
  nvtxRangeEnd(a);
  nvtxRangeEnd(ex);
  nvtxRangeEnd(w);
  nvtxEventAttributes_t marked = ascii_event("mark-ex");
  nvtxMarkEx(&marked);

  /* Domains: own names, own push stacks, registered strings. */
  nvtxDomainHandle_t solver = nvtxDomainCreateA("solver");
  nvtxDomainHandle_t wide = nvtxDomainCreateW(L"wide-\u00e5");
  CHECK(solver != NULL && wide != NULL && solver != wide);
  nvtxEventAttributes_t step = ascii_event("step");
  CHECK(nvtxDomainRangePushEx(solver, &step) == 0);
  nvtxEventAttributes_t wide_step = unicode_event(L"wide-step");
  CHECK(nvtxDomainRangePushEx(wide, &wide_step) == 0); /* other domain, level 0 */
  CHECK(nvtxRangePushA("default-again") == 0);
  nvtxEventAttributes_t registered = ascii_event(NULL);
  registered.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  registered.message.registered = nvtxDomainRegisterStringA(solver, "registered-range");
  CHECK(registered.message.registered != NULL);
  nvtxRangeId_t solver_range = nvtxDomainRangeStartEx(solver, &registered);
  CHECK(solver_range != 0);
  nvtxEventAttributes_t solver_mark = unicode_event(L"solver-mark");
  nvtxDomainMarkEx(solver, &solver_mark);
  nvtxDomainRangeEnd(solver, solver_range);
  CHECK(nvtxRangePop() == 0);
  CHECK(nvtxDomainRangePop(wide) == 0);
  CHECK(nvtxDomainRangePop(solver) == 0);
  CHECK(nvtxDomainRangePop(solver) == -1);
  nvtxDomainDestroy(wide);
  nvtxDomainDestroy(solver);
  return 0;
}
