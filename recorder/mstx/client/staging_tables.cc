#include "recorder/mstx/client/staging_tables.h"

namespace msprof::mstx {
namespace {

// Slot 0 is unused; the table has one null entry past the last slot so that
// a tool reading one too far finds null instead of a neighbour's slot.
template <unsigned kSlots>
struct ModuleTable {
  mstxFuncPointer slots[kSlots + 1] = {};
  mstxFuncPointer* table[kSlots + 2] = {};

  constexpr ModuleTable() {
    for (unsigned i = 1; i <= kSlots; ++i) table[i] = &slots[i];
  }
};

constinit ModuleTable<StagingTables::kCoreSlots> core_table;
constinit ModuleTable<StagingTables::kDomainSlots> domain_table;
constinit ModuleTable<StagingTables::kMemSlots> mem_table;

template <unsigned kSlots>
int hand_out(ModuleTable<kSlots>& module, mstxFuncTable* out_table, unsigned int* out_size) {
  if (out_table != nullptr) *out_table = module.table;
  if (out_size != nullptr) *out_size = kSlots;
  return MSTX_SUCCESS;
}

template <unsigned kSlots>
mstxFuncPointer slot_of(const ModuleTable<kSlots>& module, unsigned slot) {
  return slot >= 1 && slot <= kSlots ? module.slots[slot] : nullptr;
}

}  // namespace

int StagingTables::get_module_func_table(int module, mstxFuncTable* out_table,
                                         unsigned int* out_size) noexcept {
  switch (module) {
    case MSTX_API_MODULE_CORE:
      return hand_out(core_table, out_table, out_size);
    case MSTX_API_MODULE_CORE_DOMAIN:
      return hand_out(domain_table, out_table, out_size);
    case MSTX_API_MODULE_CORE_MEM:
      return hand_out(mem_table, out_table, out_size);
    default:
      return MSTX_FAIL;
  }
}

mstxFuncPointer StagingTables::installed(mstxFuncModule module, unsigned slot) noexcept {
  switch (module) {
    case MSTX_API_MODULE_CORE:
      return slot_of(core_table, slot);
    case MSTX_API_MODULE_CORE_DOMAIN:
      return slot_of(domain_table, slot);
    case MSTX_API_MODULE_CORE_MEM:
      return slot_of(mem_table, slot);
    default:
      return nullptr;
  }
}

}  // namespace msprof::mstx
