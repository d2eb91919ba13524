// The exported mstx functions. Each one is an acquire load and an indirect
// call through its live slot. A slot starts at a trampoline that attaches
// the tool once and calls again; afterwards it holds the tool's function or
// a no-op.
#include <atomic>
#include <mutex>

#include "recorder/mstx/client/staging_tables.h"
#include "recorder/mstx/client/tool_attach.h"
#include "recorder/mstx/include/ms_tools_ext.h"

#define MSPROF_MSTX_EXPORT extern "C" __attribute__((visibility("default")))

namespace msprof::mstx {
namespace {

// ---- No-ops: what a call does without a tool, or for a slot the tool left.
void noop_mark_a(const char*, aclrtStream) {}
mstxRangeId noop_range_start_a(const char*, aclrtStream) {
  return 0;
}
void noop_range_end(mstxRangeId) {}
void noop_get_tool_id(uint64_t* id) {
  if (id != nullptr) *id = MSTX_TOOL_INVALID_ID;
}
mstxDomainHandle_t noop_domain_create_a(const char*) {
  return nullptr;
}
void noop_domain_destroy(mstxDomainHandle_t) {}
void noop_domain_mark_a(mstxDomainHandle_t, const char*, aclrtStream) {}
mstxRangeId noop_domain_range_start_a(mstxDomainHandle_t, const char*, aclrtStream) {
  return 0;
}
void noop_domain_range_end(mstxDomainHandle_t, mstxRangeId) {}

// ---- Trampolines: the first call of any function attaches the tool.
void first_mark_a(const char*, aclrtStream);
mstxRangeId first_range_start_a(const char*, aclrtStream);
void first_range_end(mstxRangeId);
void first_get_tool_id(uint64_t*);
mstxDomainHandle_t first_domain_create_a(const char*);
void first_domain_destroy(mstxDomainHandle_t);
void first_domain_mark_a(mstxDomainHandle_t, const char*, aclrtStream);
mstxRangeId first_domain_range_start_a(mstxDomainHandle_t, const char*, aclrtStream);
void first_domain_range_end(mstxDomainHandle_t, mstxRangeId);

struct LiveSlots {
  std::atomic<mstxMarkAFunc> mark_a{first_mark_a};
  std::atomic<mstxRangeStartAFunc> range_start_a{first_range_start_a};
  std::atomic<mstxRangeEndFunc> range_end{first_range_end};
  std::atomic<mstxGetToolIdFunc> get_tool_id{first_get_tool_id};
  std::atomic<mstxDomainCreateAFunc> domain_create_a{first_domain_create_a};
  std::atomic<mstxDomainDestroyFunc> domain_destroy{first_domain_destroy};
  std::atomic<mstxDomainMarkAFunc> domain_mark_a{first_domain_mark_a};
  std::atomic<mstxDomainRangeStartAFunc> domain_range_start_a{first_domain_range_start_a};
  std::atomic<mstxDomainRangeEndFunc> domain_range_end{first_domain_range_end};
};

constinit LiveSlots live;

template <typename Fn>
void publish(std::atomic<Fn>& live_slot, bool attached, mstxFuncModule module, unsigned slot,
             Fn noop) {
  mstxFuncPointer installed = attached ? StagingTables::installed(module, slot) : nullptr;
  live_slot.store(installed != nullptr ? reinterpret_cast<Fn>(installed) : noop,
                  std::memory_order_release);
}

void publish_all(bool attached) {
  publish(live.mark_a, attached, MSTX_API_MODULE_CORE, MSTX_API_CORE_MARK_A, &noop_mark_a);
  publish(live.range_start_a, attached, MSTX_API_MODULE_CORE, MSTX_API_CORE_RANGE_START_A,
          &noop_range_start_a);
  publish(live.range_end, attached, MSTX_API_MODULE_CORE, MSTX_API_CORE_RANGE_END, &noop_range_end);
  publish(live.get_tool_id, attached, MSTX_API_MODULE_CORE, MSTX_API_CORE_GET_TOOL_ID,
          &noop_get_tool_id);
  publish(live.domain_create_a, attached, MSTX_API_MODULE_CORE_DOMAIN,
          MSTX_API_CORE2_DOMAIN_CREATE_A, &noop_domain_create_a);
  publish(live.domain_destroy, attached, MSTX_API_MODULE_CORE_DOMAIN, MSTX_API_CORE2_DOMAIN_DESTROY,
          &noop_domain_destroy);
  publish(live.domain_mark_a, attached, MSTX_API_MODULE_CORE_DOMAIN, MSTX_API_CORE2_DOMAIN_MARK_A,
          &noop_domain_mark_a);
  publish(live.domain_range_start_a, attached, MSTX_API_MODULE_CORE_DOMAIN,
          MSTX_API_CORE2_DOMAIN_RANGE_START_A, &noop_domain_range_start_a);
  publish(live.domain_range_end, attached, MSTX_API_MODULE_CORE_DOMAIN,
          MSTX_API_CORE2_DOMAIN_RANGE_END, &noop_domain_range_end);
}

thread_local bool attaching_on_this_thread = false;
std::once_flag attach_once;

// False only when the tool calls mstx from its own initialisation: that call
// is dropped rather than waiting on itself.
bool ensure_attached() noexcept {
  if (attaching_on_this_thread) return false;
  std::call_once(attach_once, [] {
    attaching_on_this_thread = true;
    publish_all(attach_tool());
    attaching_on_this_thread = false;
  });
  return true;
}

void first_mark_a(const char* message, aclrtStream stream) {
  if (ensure_attached()) live.mark_a.load(std::memory_order_acquire)(message, stream);
}
mstxRangeId first_range_start_a(const char* message, aclrtStream stream) {
  if (!ensure_attached()) return 0;
  return live.range_start_a.load(std::memory_order_acquire)(message, stream);
}
void first_range_end(mstxRangeId id) {
  if (ensure_attached()) live.range_end.load(std::memory_order_acquire)(id);
}
void first_get_tool_id(uint64_t* id) {
  if (ensure_attached()) {
    live.get_tool_id.load(std::memory_order_acquire)(id);
  } else {
    noop_get_tool_id(id);
  }
}
mstxDomainHandle_t first_domain_create_a(const char* name) {
  if (!ensure_attached()) return nullptr;
  return live.domain_create_a.load(std::memory_order_acquire)(name);
}
void first_domain_destroy(mstxDomainHandle_t domain) {
  if (ensure_attached()) live.domain_destroy.load(std::memory_order_acquire)(domain);
}
void first_domain_mark_a(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
  if (ensure_attached())
    live.domain_mark_a.load(std::memory_order_acquire)(domain, message, stream);
}
mstxRangeId first_domain_range_start_a(mstxDomainHandle_t domain, const char* message,
                                       aclrtStream stream) {
  if (!ensure_attached()) return 0;
  return live.domain_range_start_a.load(std::memory_order_acquire)(domain, message, stream);
}
void first_domain_range_end(mstxDomainHandle_t domain, mstxRangeId id) {
  if (ensure_attached()) live.domain_range_end.load(std::memory_order_acquire)(domain, id);
}

}  // namespace
}  // namespace msprof::mstx

using msprof::mstx::live;

MSPROF_MSTX_EXPORT void mstxMarkA(const char* message, aclrtStream stream) {
  live.mark_a.load(std::memory_order_acquire)(message, stream);
}
MSPROF_MSTX_EXPORT mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream) {
  return live.range_start_a.load(std::memory_order_acquire)(message, stream);
}
MSPROF_MSTX_EXPORT void mstxRangeEnd(mstxRangeId id) {
  live.range_end.load(std::memory_order_acquire)(id);
}
MSPROF_MSTX_EXPORT void mstxGetToolId(uint64_t* id) {
  live.get_tool_id.load(std::memory_order_acquire)(id);
}
MSPROF_MSTX_EXPORT mstxDomainHandle_t mstxDomainCreateA(const char* name) {
  return live.domain_create_a.load(std::memory_order_acquire)(name);
}
MSPROF_MSTX_EXPORT void mstxDomainDestroy(mstxDomainHandle_t domain) {
  live.domain_destroy.load(std::memory_order_acquire)(domain);
}
MSPROF_MSTX_EXPORT void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message,
                                        aclrtStream stream) {
  live.domain_mark_a.load(std::memory_order_acquire)(domain, message, stream);
}
MSPROF_MSTX_EXPORT mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                                     aclrtStream stream) {
  return live.domain_range_start_a.load(std::memory_order_acquire)(domain, message, stream);
}
MSPROF_MSTX_EXPORT void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  live.domain_range_end.load(std::memory_order_acquire)(domain, id);
}
