#pragma once

#include <string>
#include <vector>

namespace msprof::analyze {

// Inline SVG charts for the HTML report: plain markup, no scripts, so the
// file renders the same anywhere, offline.

// Text as HTML text or attribute value; control characters become visible
// escapes (`printable`), so none reaches the file raw.
std::string html_escape(const std::string& text);

struct Bar {
  std::string label;
  double value = 0, low = 0, high = 0;  // whisker from low to high
};
// Horizontal bars, one row each, with min-max whiskers.
std::string bar_chart_svg(const std::string& title, const std::vector<Bar>& bars,
                          const std::string& unit);

struct Series {
  std::string name;
  std::vector<double> values;
};
// Horizontal bars grouped per label, one bar per series (series[i].values[label]),
// each with its value in `digits` decimals.
std::string grouped_bar_svg(const std::string& title, const std::vector<std::string>& labels,
                            const std::vector<Series>& series, const std::string& unit,
                            int digits = 3);
// One polyline per series over the index of its values (pass 0, 1, ...).
std::string line_chart_svg(const std::string& title, const std::vector<Series>& series,
                           const std::string& x_label, const std::string& unit);

}  // namespace msprof::analyze
