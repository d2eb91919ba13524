#pragma once

namespace msprof::mstx {

// Finds the tool's InitInjectionMstx (the library named by
// MSTX_INJECTION_PATH, else the process's global scope) and lets it fill in
// the staging tables. True when a tool attached; on false the staging tables
// must be ignored.
bool attach_tool() noexcept;

}  // namespace msprof::mstx
