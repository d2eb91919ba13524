#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprof::replay {

// A minimal streaming JSON writer: enough for the result summary, with
// strings escaped so names from the trace cannot break the document, and
// non-finite numbers written as null.
class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  const std::string& text() const { return out_; }

 private:
  void separate();

  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written yet
  bool after_key_ = false;
};

std::string json_escape(std::string_view text);

}  // namespace msprof::replay
