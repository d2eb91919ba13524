#include <doctest/doctest.h>

#include <map>
#include <string>

#include "recorder/core/recorder_config.h"

using msprof::record::RecorderConfig;

namespace {

RecorderConfig config_of(const std::map<std::string, std::string>& vars) {
  const auto parsed = RecorderConfig::from_variables([&](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
  REQUIRE(parsed.has_value());
  return *parsed;
}

}  // namespace

TEST_CASE("the minimum saving passed by the environment is clamped, and garbage is the default") {
  const auto min_saving = [](const char* value) {
    std::map<std::string, std::string> vars{{RecorderConfig::kOutputVar, "t.fb"}};
    if (value != nullptr) vars[RecorderConfig::kMinSavingVar] = value;
    return config_of(vars).min_saving;
  };
  CHECK(min_saving(nullptr) == RecorderConfig::kDefaultMinSaving);
  CHECK(min_saving("0") == 0);
  CHECK(min_saving("40") == 40);
  CHECK(min_saving("200") == RecorderConfig::kMaxMinSaving);
  CHECK(min_saving("-5") == 0);
  // Not a number: not 0, the setting that costs the most CPU.
  CHECK(min_saving("most") == RecorderConfig::kDefaultMinSaving);
  CHECK(min_saving("25%") == RecorderConfig::kDefaultMinSaving);
}

TEST_CASE("without the output variable the process is not being recorded") {
  CHECK_FALSE(RecorderConfig::from_variables([](const char*) -> const char* { return nullptr; }));
}
