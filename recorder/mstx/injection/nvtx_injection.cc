// The tool side of the NVTX v3 injection protocol: InitializeInjectionNvtx2
// installs these functions in the program's NVTX slots (core and domain
// modules); they forward to the annotation sink. NVTX events carry no stream.
#include <cstdint>
#include <string>
#include <string_view>

#include <nvtx3/nvToolsExt.h>

#include "recorder/core/annotation_sink.h"
#include "recorder/mstx/injection/message_text.h"
#include "recorder/mstx/injection/name_table.h"
#include "recorder/mstx/injection/nvtx_event_message.h"
#include "recorder/mstx/injection/nvtx_push_stacks.h"

namespace msprof::mstx {
namespace {

using record::annotation_sink;

constexpr std::uint64_t kNoStream = 0;

// A null handle is the default domain, whose name is empty.
std::string_view domain_of(nvtxDomainHandle_t domain) noexcept {
  if (domain == nullptr) return {};
  return *reinterpret_cast<const std::string*>(domain);
}

void mark(nvtxDomainHandle_t domain, std::string_view message) noexcept {
  annotation_sink().mark(domain_of(domain), message, kNoStream);
}

nvtxRangeId_t range_start(nvtxDomainHandle_t domain, std::string_view message) noexcept {
  return annotation_sink().range_start(domain_of(domain), message, kNoStream);
}

void range_end(nvtxDomainHandle_t domain, nvtxRangeId_t id) noexcept {
  annotation_sink().range_end(domain_of(domain), id);
}

// A range the sink refused (id 0) is still pushed, so that pops stay paired.
int range_push(nvtxDomainHandle_t domain, std::string_view message) noexcept {
  try {
    return push_range_id(domain, range_start(domain, message));
  } catch (...) {
    return -1;
  }
}

int range_pop(nvtxDomainHandle_t domain) noexcept {
  std::uint64_t id = 0;
  int level = pop_range_id(domain, id);
  if (level >= 0 && id != 0) range_end(domain, id);
  return level;
}

// The C entry points. Everything that allocates sits inside a try.
void NVTX_API mark_ex(const nvtxEventAttributes_t* attributes) {
  try {
    mark(nullptr, event_message(attributes));
  } catch (...) {
  }
}
void NVTX_API mark_a(const char* message) {
  mark(nullptr, c_text(message));
}
void NVTX_API mark_w(const wchar_t* message) {
  try {
    mark(nullptr, utf8_from_wide(message));
  } catch (...) {
  }
}

nvtxRangeId_t NVTX_API range_start_ex(const nvtxEventAttributes_t* attributes) {
  try {
    return range_start(nullptr, event_message(attributes));
  } catch (...) {
    return 0;
  }
}
nvtxRangeId_t NVTX_API range_start_a(const char* message) {
  return range_start(nullptr, c_text(message));
}
nvtxRangeId_t NVTX_API range_start_w(const wchar_t* message) {
  try {
    return range_start(nullptr, utf8_from_wide(message));
  } catch (...) {
    return 0;
  }
}
void NVTX_API range_end_default(nvtxRangeId_t id) {
  range_end(nullptr, id);
}

int NVTX_API range_push_ex(const nvtxEventAttributes_t* attributes) {
  try {
    return range_push(nullptr, event_message(attributes));
  } catch (...) {
    return -1;
  }
}
int NVTX_API range_push_a(const char* message) {
  return range_push(nullptr, c_text(message));
}
int NVTX_API range_push_w(const wchar_t* message) {
  try {
    return range_push(nullptr, utf8_from_wide(message));
  } catch (...) {
    return -1;
  }
}
int NVTX_API range_pop_default() {
  return range_pop(nullptr);
}

void NVTX_API domain_mark_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  try {
    mark(domain, event_message(attributes));
  } catch (...) {
  }
}
nvtxRangeId_t NVTX_API domain_range_start_ex(nvtxDomainHandle_t domain,
                                             const nvtxEventAttributes_t* attributes) {
  try {
    return range_start(domain, event_message(attributes));
  } catch (...) {
    return 0;
  }
}
void NVTX_API domain_range_end(nvtxDomainHandle_t domain, nvtxRangeId_t id) {
  range_end(domain, id);
}
int NVTX_API domain_range_push_ex(nvtxDomainHandle_t domain,
                                  const nvtxEventAttributes_t* attributes) {
  try {
    return range_push(domain, event_message(attributes));
  } catch (...) {
    return -1;
  }
}
int NVTX_API domain_range_pop(nvtxDomainHandle_t domain) {
  return range_pop(domain);
}

nvtxDomainHandle_t intern_domain(std::string_view name) {
  const std::string* interned = domain_names().intern(name);
  return reinterpret_cast<nvtxDomainHandle_t>(const_cast<std::string*>(interned));
}
nvtxDomainHandle_t NVTX_API domain_create_a(const char* name) {
  try {
    return intern_domain(c_text(name));
  } catch (...) {
    return nullptr;
  }
}
nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t* name) {
  try {
    return intern_domain(utf8_from_wide(name));
  } catch (...) {
    return nullptr;
  }
}
// Handles stay valid after destroy (see NameTable), so a late use is harmless.
void NVTX_API domain_destroy(nvtxDomainHandle_t) {}

nvtxStringHandle_t NVTX_API domain_register_string_a(nvtxDomainHandle_t, const char* text) {
  try {
    return register_string(text != nullptr ? text : "");
  } catch (...) {
    return nullptr;
  }
}
nvtxStringHandle_t NVTX_API domain_register_string_w(nvtxDomainHandle_t, const wchar_t* text) {
  try {
    return register_string(utf8_from_wide(text));
  } catch (...) {
    return nullptr;
  }
}

template <typename Fn>
void install(NvtxFunctionTable table, unsigned int size, unsigned slot, Fn function) {
  // NVTX reports the table's length including slot 0.
  if (slot < size && table[slot] != nullptr) {
    *table[slot] = reinterpret_cast<NvtxFunctionPointer>(function);
  }
}

bool fetch_table(const NvtxExportTableCallbacks* callbacks, NvtxCallbackModule module,
                 NvtxFunctionTable* table, unsigned int* size) {
  *table = nullptr;
  *size = 0;
  return callbacks->GetModuleFunctionTable(module, table, size) != 0 && *table != nullptr;
}

int init_injection(NvtxGetExportTableFunc_t get_export_table) {
  if (get_export_table == nullptr) return 0;
  auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) ||
      callbacks->GetModuleFunctionTable == nullptr) {
    return 0;
  }

  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!fetch_table(callbacks, NVTX_CB_MODULE_CORE, &table, &size)) return 0;
  install(table, size, NVTX_CBID_CORE_MarkEx, &mark_ex);
  install(table, size, NVTX_CBID_CORE_MarkA, &mark_a);
  install(table, size, NVTX_CBID_CORE_MarkW, &mark_w);
  install(table, size, NVTX_CBID_CORE_RangeStartEx, &range_start_ex);
  install(table, size, NVTX_CBID_CORE_RangeStartA, &range_start_a);
  install(table, size, NVTX_CBID_CORE_RangeStartW, &range_start_w);
  install(table, size, NVTX_CBID_CORE_RangeEnd, &range_end_default);
  install(table, size, NVTX_CBID_CORE_RangePushEx, &range_push_ex);
  install(table, size, NVTX_CBID_CORE_RangePushA, &range_push_a);
  install(table, size, NVTX_CBID_CORE_RangePushW, &range_push_w);
  install(table, size, NVTX_CBID_CORE_RangePop, &range_pop_default);

  if (fetch_table(callbacks, NVTX_CB_MODULE_CORE2, &table, &size)) {
    install(table, size, NVTX_CBID_CORE2_DomainMarkEx, &domain_mark_ex);
    install(table, size, NVTX_CBID_CORE2_DomainRangeStartEx, &domain_range_start_ex);
    install(table, size, NVTX_CBID_CORE2_DomainRangeEnd, &domain_range_end);
    install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, &domain_range_push_ex);
    install(table, size, NVTX_CBID_CORE2_DomainRangePop, &domain_range_pop);
    install(table, size, NVTX_CBID_CORE2_DomainRegisterStringA, &domain_register_string_a);
    install(table, size, NVTX_CBID_CORE2_DomainRegisterStringW, &domain_register_string_w);
    install(table, size, NVTX_CBID_CORE2_DomainCreateA, &domain_create_a);
    install(table, size, NVTX_CBID_CORE2_DomainCreateW, &domain_create_w);
    install(table, size, NVTX_CBID_CORE2_DomainDestroy, &domain_destroy);
  }

  // The protocol asks a tool to report the NVTX version it was built for.
  auto* version =
      static_cast<const NvtxExportTableVersionInfo*>(get_export_table(NVTX_ETID_VERSIONINFO));
  if (version != nullptr && version->struct_size >= sizeof(NvtxExportTableVersionInfo) &&
      version->SetInjectionNvtxVersion != nullptr) {
    version->SetInjectionNvtxVersion(NVTX_VERSION);
  }
  return 1;
}

}  // namespace
}  // namespace msprof::mstx

extern "C" __attribute__((visibility("default"))) int NVTX_API
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
  try {
    return msprof::mstx::init_injection(getExportTable);
  } catch (...) {
    return 0;
  }
}
