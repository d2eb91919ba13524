#include "analyzer/core/svg_chart.h"

#include <algorithm>
#include <cmath>

#include "analyzer/core/number_format.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {
namespace {

constexpr double kWidth = 900;
constexpr double kLabelWidth = 220;
constexpr double kRight = 90;  // room for the value text
constexpr const char* kColors[] = {"#3b75af", "#ef8636", "#519e3e", "#c53a32", "#8d69b8",
                                   "#84584e", "#d57dbf", "#7f7f7f", "#bcbc35", "#42bbcc"};

std::string num(double v) {
  return fixed(v, 2);
}

// The axis end: a little above the largest value; 1 when there is nothing
// finite to show, so tick loops always end.
double scale_max(double max, double headroom) {
  const double m = max * headroom;
  return std::isfinite(m) && m > 0 ? m : 1;
}

// A round step so that ticks read well: 1, 2 or 5 times a power of ten.
double nice_step(double max, int ticks) {
  if (max <= 0) return 1;
  const double raw = max / ticks;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * power) return m * power;
  }
  return 10 * power;
}

std::string axis(double x0, double x1, double y, double max, const std::string& unit) {
  std::string out;
  const double step = nice_step(max, 5);
  for (double v = 0; v <= max * 1.0001; v += step) {
    const double x = x0 + (x1 - x0) * v / max;
    out += "<line x1=\"" + num(x) + "\" y1=\"30\" x2=\"" + num(x) + "\" y2=\"" + num(y) +
           "\" stroke=\"#e4e4e4\"/><text x=\"" + num(x) + "\" y=\"" + num(y + 14) +
           "\" font-size=\"11\" text-anchor=\"middle\">" + fixed(v, step < 1 ? 2 : 0) + "</text>";
  }
  out += "<text x=\"" + num((x0 + x1) / 2) + "\" y=\"" + num(y + 30) +
         "\" font-size=\"12\" text-anchor=\"middle\">" + html_escape(unit) + "</text>";
  return out;
}

std::string open_svg(const std::string& cls, double height, const std::string& title) {
  return "<svg class=\"" + cls + "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) +
         "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) +
         "\" font-family=\"sans-serif\"><title>" + html_escape(title) +
         "</title><text x=\"4\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" +
         html_escape(title) + "</text>";
}

// Geometry of missing (NaN) values: none.
double clean(double v) {
  return std::isfinite(v) ? v : 0.0;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  // Control characters (a name's ANSI escapes or newlines, from the trace)
  // become visible escapes first, as every tool shows them.
  for (const char c : printable(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string bar_chart_svg(const std::string& title, const std::vector<Bar>& bars,
                          const std::string& unit) {
  const double row = 24;
  const double top = 30;
  const double plot_bottom = top + row * static_cast<double>(bars.size());
  double max = 0;
  for (const auto& b : bars) max = std::max({max, b.value, b.high});
  max = scale_max(max, 1.05);
  const double x0 = kLabelWidth, x1 = kWidth - kRight;
  std::string out =
      open_svg("chart bars", plot_bottom + 40, title) + axis(x0, x1, plot_bottom, max, unit);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    const double y = top + row * static_cast<double>(i);
    const auto x = [&](double v) { return x0 + (x1 - x0) * std::max(v, 0.0) / max; };
    out += "<text x=\"" + num(x0 - 6) + "\" y=\"" + num(y + 16) +
           "\" font-size=\"12\" text-anchor=\"end\">" + html_escape(b.label) + "</text>";
    out += "<rect class=\"bar\" x=\"" + num(x0) + "\" y=\"" + num(y + 4) + "\" width=\"" +
           num(x(b.value) - x0) + "\" height=\"" + num(row - 8) + "\" fill=\"" + kColors[0] +
           "\"><title>" + html_escape(b.label) + ": " + fixed(b.value, 3) + " " +
           html_escape(unit) + " (min " + fixed(b.low, 3) + ", max " + fixed(b.high, 3) +
           ")</title></rect>";
    const double ym = y + row / 2;
    out += "<g class=\"whisker\" stroke=\"#222\"><line x1=\"" + num(x(b.low)) + "\" y1=\"" +
           num(ym) + "\" x2=\"" + num(x(b.high)) + "\" y2=\"" + num(ym) + "\"/><line x1=\"" +
           num(x(b.low)) + "\" y1=\"" + num(ym - 5) + "\" x2=\"" + num(x(b.low)) + "\" y2=\"" +
           num(ym + 5) + "\"/><line x1=\"" + num(x(b.high)) + "\" y1=\"" + num(ym - 5) +
           "\" x2=\"" + num(x(b.high)) + "\" y2=\"" + num(ym + 5) + "\"/></g>";
    out += "<text x=\"" + num(std::max(x(b.high), x(b.value)) + 6) + "\" y=\"" + num(y + 16) +
           "\" font-size=\"11\">" + fixed(b.value, 3) + "</text>";
  }
  return out + "</svg>";
}

std::string grouped_bar_svg(const std::string& title, const std::vector<std::string>& labels,
                            const std::vector<Series>& given, const std::string& unit, int digits) {
  std::vector<Series> series = given;
  for (auto& s : series) {
    for (auto& v : s.values) v = clean(v);
  }
  const double bar = 14;
  const double group = bar * static_cast<double>(series.size()) + 10;
  const double top = 30 + 18 * static_cast<double>(series.size());
  const double plot_bottom = top + group * static_cast<double>(labels.size());
  double max = 0;
  for (const auto& s : series) {
    for (const double v : s.values) max = std::max(max, v);
  }
  max = scale_max(max, 1.05);
  const double x0 = kLabelWidth, x1 = kWidth - kRight;
  std::string out =
      open_svg("chart grouped", plot_bottom + 40, title) + axis(x0, x1, plot_bottom, max, unit);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double y = 26 + 18 * static_cast<double>(s);
    out += "<rect x=\"" + num(x0) + "\" y=\"" + num(y) + "\" width=\"12\" height=\"12\" fill=\"" +
           kColors[s % 10] + "\"/><text x=\"" + num(x0 + 18) + "\" y=\"" + num(y + 11) +
           "\" font-size=\"12\">" + html_escape(series[s].name) + "</text>";
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const double y = top + group * static_cast<double>(i);
    out += "<text x=\"" + num(x0 - 6) + "\" y=\"" + num(y + group / 2) +
           "\" font-size=\"12\" text-anchor=\"end\">" + html_escape(labels[i]) + "</text>";
    for (std::size_t s = 0; s < series.size(); ++s) {
      const double v = i < series[s].values.size() ? series[s].values[i] : 0;
      const double by = y + 5 + bar * static_cast<double>(s);
      const double w = (x1 - x0) * std::max(v, 0.0) / max;
      out += "<rect class=\"bar\" x=\"" + num(x0) + "\" y=\"" + num(by) + "\" width=\"" + num(w) +
             "\" height=\"" + num(bar - 2) + "\" fill=\"" + kColors[s % 10] + "\"><title>" +
             html_escape(series[s].name) + ": " + fixed(v, digits) + "</title></rect><text x=\"" +
             num(x0 + w + 6) + "\" y=\"" + num(by + 11) + "\" font-size=\"11\">" +
             fixed(v, digits) + "</text>";
    }
  }
  return out + "</svg>";
}

std::string line_chart_svg(const std::string& title, const std::vector<Series>& series,
                           const std::string& x_label, const std::string& unit) {
  const double height = 300, top = 30 + 18 * static_cast<double>((series.size() + 3) / 4),
               bottom = height - 50;
  const double x0 = 70, x1 = kWidth - 20;
  std::size_t points = 0;
  double max = 0;
  for (const auto& s : series) {
    points = std::max(points, s.values.size());
    for (const double v : s.values) max = std::max(max, v);
  }
  max = scale_max(max, 1.1);
  std::string out = open_svg("chart lines", height, title);
  const double step = nice_step(max, 4);
  for (double v = 0; v <= max * 1.0001; v += step) {
    const double y = bottom - (bottom - top) * v / max;
    out += "<line x1=\"" + num(x0) + "\" y1=\"" + num(y) + "\" x2=\"" + num(x1) + "\" y2=\"" +
           num(y) + "\" stroke=\"#e4e4e4\"/><text x=\"" + num(x0 - 6) + "\" y=\"" + num(y + 4) +
           "\" font-size=\"11\" text-anchor=\"end\">" + fixed(v, step < 1 ? 2 : 0) + "</text>";
  }
  out += "<text x=\"14\" y=\"" + num((top + bottom) / 2) +
         "\" font-size=\"12\" transform=\"rotate(-90 14 " + num((top + bottom) / 2) +
         ")\" text-anchor=\"middle\">" + html_escape(unit) + "</text>";
  out += "<text x=\"" + num((x0 + x1) / 2) + "\" y=\"" + num(height - 12) +
         "\" font-size=\"12\" text-anchor=\"middle\">" + html_escape(x_label) + "</text>";
  const auto px = [&](std::size_t i) {
    return points <= 1 ? (x0 + x1) / 2
                       : x0 + (x1 - x0) * static_cast<double>(i) / static_cast<double>(points - 1);
  };
  for (std::size_t i = 0; i < points; ++i) {
    if (points <= 20 || i % ((points + 19) / 20) == 0) {
      out += "<text x=\"" + num(px(i)) + "\" y=\"" + num(bottom + 14) +
             "\" font-size=\"11\" text-anchor=\"middle\">" + std::to_string(i) + "</text>";
    }
  }
  for (std::size_t s = 0; s < series.size(); ++s) {
    const char* color = kColors[s % 10];
    const double ly = 24 + 18 * static_cast<double>(s / 4);
    const double lx = x0 + 200 * static_cast<double>(s % 4);
    out += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly) + "\" width=\"12\" height=\"3\" fill=\"" +
           color + "\"/><text x=\"" + num(lx + 16) + "\" y=\"" + num(ly + 5) +
           "\" font-size=\"12\">" + html_escape(series[s].name) + "</text>";
    std::string pts;
    for (std::size_t i = 0; i < series[s].values.size(); ++i) {
      pts += num(px(i)) + "," + num(bottom - (bottom - top) * series[s].values[i] / max) + " ";
    }
    out += "<polyline class=\"series\" fill=\"none\" stroke=\"" + std::string(color) +
           "\" stroke-width=\"1.5\" points=\"" + pts + "\"/>";
    for (std::size_t i = 0; i < series[s].values.size(); ++i) {
      out += "<circle cx=\"" + num(px(i)) + "\" cy=\"" +
             num(bottom - (bottom - top) * series[s].values[i] / max) + "\" r=\"2.5\" fill=\"" +
             color + "\"/>";
    }
  }
  return out + "</svg>";
}

}  // namespace msprof::analyze
