#include "recorder/mstx/injection/nvtx_event_message.h"

#include <cstddef>

#include "recorder/mstx/injection/message_text.h"
#include "recorder/mstx/injection/name_table.h"

namespace msprof::mstx {

nvtxStringHandle_t register_string(const std::string& text) {
  const std::string* interned = registered_strings().intern(text);
  return reinterpret_cast<nvtxStringHandle_t>(const_cast<std::string*>(interned));
}

const std::string* registered_text(nvtxStringHandle_t handle) noexcept {
  return reinterpret_cast<const std::string*>(handle);
}

std::string event_message(const nvtxEventAttributes_t* attributes) {
  constexpr std::size_t kNeeded =
      offsetof(nvtxEventAttributes_t, message) + sizeof(attributes->message);
  if (attributes == nullptr || attributes->size < kNeeded) return {};
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      return attributes->message.ascii != nullptr ? attributes->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE:
      return utf8_from_wide(attributes->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED: {
      const std::string* text = registered_text(attributes->message.registered);
      return text != nullptr ? *text : std::string();
    }
    default:
      return {};
  }
}

}  // namespace msprof::mstx
