/* A program that does the client side of the mstx protocol itself, as the
 * vendor's header-only client does: its own slots, its own getFuncTable, and
 * a dlopen of MSTX_INJECTION_PATH. It checks what the tool returns; the log
 * the tool writes is checked by check_mstx_protocol.py.
 *
 *   mstx_protocol_client full        offers the core and domain modules
 *   mstx_protocol_client core-only   refuses the domain module
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms_tools_ext.h"

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

enum { kCoreSlots = 4, kDomainSlots = 5 };

static mstxFuncPointer core_slots[kCoreSlots + 1];
static mstxFuncPointer* core_table[kCoreSlots + 1];
static mstxFuncPointer domain_slots[kDomainSlots + 1];
static mstxFuncPointer* domain_table[kDomainSlots + 1];
static int offer_domains = 1;
static int asked_core = 0;
static int asked_domain = 0;

static int get_func_table(int module, mstxFuncTable* out_table, unsigned int* out_size) {
  if (module == MSTX_API_MODULE_CORE) {
    ++asked_core;
    *out_table = core_table;
    *out_size = kCoreSlots;
    return MSTX_SUCCESS;
  }
  if (module == MSTX_API_MODULE_CORE_DOMAIN && offer_domains) {
    ++asked_domain;
    *out_table = domain_table;
    *out_size = kDomainSlots;
    return MSTX_SUCCESS;
  }
  return MSTX_FAIL;
}

int main(int argc, char** argv) {
  offer_domains = !(argc > 1 && strcmp(argv[1], "core-only") == 0);
  for (int i = 1; i <= kCoreSlots; ++i) core_table[i] = &core_slots[i];
  for (int i = 1; i <= kDomainSlots; ++i) domain_table[i] = &domain_slots[i];

  const char* path = getenv("MSTX_INJECTION_PATH");
  CHECK(path != NULL);
  void* tool = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  CHECK(tool != NULL);
  mstxInitInjectionFunc init = (mstxInitInjectionFunc)dlsym(tool, "InitInjectionMstx");
  CHECK(init != NULL);
  CHECK(init(get_func_table) == 0);
  CHECK(asked_core == 1);
  CHECK(asked_domain == offer_domains);

  for (int i = 1; i <= kCoreSlots; ++i) CHECK(core_slots[i] != NULL);
  mstxMarkAFunc mark = (mstxMarkAFunc)core_slots[MSTX_API_CORE_MARK_A];
  mstxRangeStartAFunc range_start = (mstxRangeStartAFunc)core_slots[MSTX_API_CORE_RANGE_START_A];
  mstxRangeEndFunc range_end = (mstxRangeEndFunc)core_slots[MSTX_API_CORE_RANGE_END];
  mstxGetToolIdFunc get_tool_id = (mstxGetToolIdFunc)core_slots[MSTX_API_CORE_GET_TOOL_ID];

  uint64_t tool_id = 0;
  get_tool_id(&tool_id);
  CHECK(tool_id == MSTX_TOOL_MSPROF_ID);
  get_tool_id(NULL); /* must not crash */

  aclrtStream stream = (aclrtStream)(uintptr_t)0x1234;
  mstxRangeId outer = range_start("outer", stream);
  CHECK(outer == 1);
  mark("tick", NULL);
  mstxRangeId host_only = range_start(NULL, NULL);
  CHECK(host_only == 2);
  range_end(host_only);
  range_end(outer);

  /* Messages are cut at 255 bytes, never inside a UTF-8 character. */
  char long_message[400];
  memset(long_message, 'x', sizeof long_message - 1);
  long_message[sizeof long_message - 1] = '\0';
  mark(long_message, NULL);
  char split_message[300];
  memset(split_message, 'a', 254);
  memcpy(split_message + 254, "\xc3\xa9tail", 6); /* e-acute straddles byte 255 */
  mark(split_message, NULL);

  if (!offer_domains) {
    for (int i = 1; i <= kDomainSlots; ++i) CHECK(domain_slots[i] == NULL);
    return 0;
  }
  for (int i = 1; i <= kDomainSlots; ++i) CHECK(domain_slots[i] != NULL);
  mstxDomainCreateAFunc domain_create =
      (mstxDomainCreateAFunc)domain_slots[MSTX_API_CORE2_DOMAIN_CREATE_A];
  mstxDomainDestroyFunc domain_destroy =
      (mstxDomainDestroyFunc)domain_slots[MSTX_API_CORE2_DOMAIN_DESTROY];
  mstxDomainMarkAFunc domain_mark = (mstxDomainMarkAFunc)domain_slots[MSTX_API_CORE2_DOMAIN_MARK_A];
  mstxDomainRangeStartAFunc domain_range_start =
      (mstxDomainRangeStartAFunc)domain_slots[MSTX_API_CORE2_DOMAIN_RANGE_START_A];
  mstxDomainRangeEndFunc domain_range_end =
      (mstxDomainRangeEndFunc)domain_slots[MSTX_API_CORE2_DOMAIN_RANGE_END];

  mstxDomainHandle_t solver = domain_create("solver");
  CHECK(solver != NULL);
  CHECK(domain_create("solver") == solver); /* same name, same domain */
  mstxDomainHandle_t other = domain_create("io");
  CHECK(other != NULL && other != solver);

  mstxRangeId step = domain_range_start(solver, "step", stream);
  CHECK(step == 3);
  domain_mark(other, "read", NULL);
  domain_range_end(solver, step);
  mstxRangeId plain = domain_range_start(NULL, "default", NULL); /* null = default domain */
  CHECK(plain == 4);
  domain_range_end(NULL, plain);
  domain_destroy(other);
  domain_destroy(solver);
  domain_mark(solver, "after destroy", NULL); /* late use stays harmless */
  return 0;
}
