// The tool side of the mstx protocol: InitInjectionMstx installs these
// functions in the client's slots; they forward to the annotation sink.
#include <cstdint>
#include <string>
#include <string_view>

#include "recorder/core/annotation_sink.h"
#include "recorder/mstx/include/ms_tools_ext.h"
#include "recorder/mstx/injection/message_text.h"
#include "recorder/mstx/injection/name_table.h"

namespace msprof::mstx {
namespace {

using record::annotation_sink;

std::string_view message_of(const char* message) noexcept {
  return bounded_text(message, MSTX_MESSAGE_MAX_BYTES);
}

std::uint64_t stream_of(aclrtStream stream) noexcept {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(stream));
}

// A null handle is the default domain, whose name is empty.
std::string_view domain_of(mstxDomainHandle_t domain) noexcept {
  if (domain == nullptr) return {};
  return *reinterpret_cast<const std::string*>(domain);
}

void mark_a(const char* message, aclrtStream stream) {
  annotation_sink().mark({}, message_of(message), stream_of(stream));
}

mstxRangeId range_start_a(const char* message, aclrtStream stream) {
  return annotation_sink().range_start({}, message_of(message), stream_of(stream));
}

void range_end(mstxRangeId id) {
  annotation_sink().range_end({}, id);
}

void get_tool_id(uint64_t* id) {
  if (id != nullptr) *id = MSTX_TOOL_MSPROF_ID;
}

mstxDomainHandle_t domain_create_a(const char* name) {
  try {
    const std::string* interned = domain_names().intern(message_of(name));
    return reinterpret_cast<mstxDomainHandle_t>(const_cast<std::string*>(interned));
  } catch (...) {
    return nullptr;
  }
}

// Handles stay valid after destroy (see NameTable), so a late use is harmless.
void domain_destroy(mstxDomainHandle_t) {}

void domain_mark_a(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
  annotation_sink().mark(domain_of(domain), message_of(message), stream_of(stream));
}

mstxRangeId domain_range_start_a(mstxDomainHandle_t domain, const char* message,
                                 aclrtStream stream) {
  return annotation_sink().range_start(domain_of(domain), message_of(message), stream_of(stream));
}

void domain_range_end(mstxDomainHandle_t domain, mstxRangeId id) {
  annotation_sink().range_end(domain_of(domain), id);
}

template <typename Fn>
void install(mstxFuncTable table, unsigned int size, unsigned slot, Fn function) {
  if (slot <= size && table[slot] != nullptr) {
    *table[slot] = reinterpret_cast<mstxFuncPointer>(function);
  }
}

bool fetch_table(mstxGetModuleFuncTableFunc get_table, mstxFuncModule module, mstxFuncTable* table,
                 unsigned int* size) {
  *table = nullptr;
  *size = 0;
  return get_table(module, table, size) == MSTX_SUCCESS && *table != nullptr;
}

int init_injection(mstxGetModuleFuncTableFunc get_table) {
  if (get_table == nullptr) return MSTX_FAIL;
  mstxFuncTable table = nullptr;
  unsigned int size = 0;
  if (!fetch_table(get_table, MSTX_API_MODULE_CORE, &table, &size)) return MSTX_FAIL;
  install(table, size, MSTX_API_CORE_MARK_A, &mark_a);
  install(table, size, MSTX_API_CORE_RANGE_START_A, &range_start_a);
  install(table, size, MSTX_API_CORE_RANGE_END, &range_end);
  install(table, size, MSTX_API_CORE_GET_TOOL_ID, &get_tool_id);

  // Domains are optional: an older client without them still gets the core.
  if (fetch_table(get_table, MSTX_API_MODULE_CORE_DOMAIN, &table, &size)) {
    install(table, size, MSTX_API_CORE2_DOMAIN_CREATE_A, &domain_create_a);
    install(table, size, MSTX_API_CORE2_DOMAIN_DESTROY, &domain_destroy);
    install(table, size, MSTX_API_CORE2_DOMAIN_MARK_A, &domain_mark_a);
    install(table, size, MSTX_API_CORE2_DOMAIN_RANGE_START_A, &domain_range_start_a);
    install(table, size, MSTX_API_CORE2_DOMAIN_RANGE_END, &domain_range_end);
  }
  return MSTX_SUCCESS;
}

}  // namespace
}  // namespace msprof::mstx

extern "C" __attribute__((visibility("default"))) int InitInjectionMstx(
    mstxGetModuleFuncTableFunc getFuncTable) {
  try {
    return msprof::mstx::init_injection(getFuncTable);
  } catch (...) {
    return MSTX_FAIL;
  }
}
