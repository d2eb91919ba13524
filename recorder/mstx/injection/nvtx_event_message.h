#pragma once

#include <string>

#include <nvtx3/nvToolsExt.h>

namespace msprof::mstx {

// The text of an NVTX event: ASCII, wide (as UTF-8) or a registered string
// handle made by this library. Empty for a null, unknown or too-old
// attribute structure.
std::string event_message(const nvtxEventAttributes_t* attributes);

// The handle nvtxDomainRegisterString hands out for `text`, and back.
nvtxStringHandle_t register_string(const std::string& text);
const std::string* registered_text(nvtxStringHandle_t handle) noexcept;

}  // namespace msprof::mstx
