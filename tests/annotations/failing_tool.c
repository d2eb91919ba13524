/* A tool whose initialisation fails after writing a slot: the client must
 * then ignore everything it installed. */
#include "ms_tools_ext.h"

static mstxRangeId bogus_range_start(const char* message, aclrtStream stream) {
  (void)message;
  (void)stream;
  return 99;
}

__attribute__((visibility("default"))) int InitInjectionMstx(
    mstxGetModuleFuncTableFunc getFuncTable) {
  mstxFuncTable table = 0;
  unsigned int size = 0;
  if (getFuncTable(MSTX_API_MODULE_CORE, &table, &size) == MSTX_SUCCESS && size >= 2) {
    *table[MSTX_API_CORE_RANGE_START_A] = (mstxFuncPointer)bogus_range_start;
  }
  return MSTX_FAIL;
}
