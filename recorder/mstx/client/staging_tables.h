#pragma once

#include "recorder/mstx/include/ms_tools_ext.h"

namespace msprof::mstx {

// The function slots a tool writes into while it initialises. They are read
// once afterwards and copied into the live slots, so a tool never races with
// the threads that call mstx functions.
class StagingTables {
 public:
  static constexpr unsigned kCoreSlots = MSTX_API_CORE_FUNC_ID_SIZE - 1;
  static constexpr unsigned kDomainSlots = MSTX_API_CORE2_FUNC_ID_SIZE - 1;
  static constexpr unsigned kMemSlots = MSTX_API_CORE_MEM_FUNC_ID_SIZE - 1;

  // The mstxGetModuleFuncTableFunc handed to the tool.
  static int get_module_func_table(int module, mstxFuncTable* out_table,
                                   unsigned int* out_size) noexcept;

  // What the tool installed in `slot` of `module`, or null.
  static mstxFuncPointer installed(mstxFuncModule module, unsigned slot) noexcept;
};

}  // namespace msprof::mstx
