#pragma once

#include <string>

namespace msprof::test {

// Compares `actual` with tests/analyzer/golden/<name>; with
// MSPROF_UPDATE_GOLDEN=1 in the environment, writes it there instead.
// Callers mask fields that differ between runs before calling.
void check_golden(const std::string& name, const std::string& actual);

}  // namespace msprof::test
