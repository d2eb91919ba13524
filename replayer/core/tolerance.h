#pragma once

namespace msprof::replay {

// --tolerance ATOL[,RTOL]: a floating-point element is accepted when
// |actual - expected| <= atol + rtol * |expected| (numpy's isclose). NaN
// matches NaN only in the same bit pattern; integers and bytes must match.
struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

}  // namespace msprof::replay
