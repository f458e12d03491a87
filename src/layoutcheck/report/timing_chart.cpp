#include "layoutcheck/report/timing_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "layoutcheck/report/chart_axis.h"
#include "layoutcheck/report/format.h"

namespace layoutcheck {

namespace {

constexpr double kWidth = 900, kHeight = 740;
constexpr double kLeft = 80, kRight = 620;  // both panels share the batch axis
constexpr double kLegendX = 645;
// Colour-blind-safe (Okabe–Ito); markers differ too, so the chart survives greyscale printing.
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"};
constexpr int kColourCount = 6;

struct Panel {
  double top, bottom;
  std::string y_label;
};
const Panel kTimePanel{78, 420, "time per layer, µs"};
const Panel kFractionPanel{500, 680, "% of copy bandwidth"};

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
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
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string tick_label(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

void marker(std::ostream& out, int shape, double x, double y, const char* colour) {
  const std::string style =
      " fill=\"" + std::string(colour) + "\" stroke=\"white\" stroke-width=\"1\"";
  switch (shape % 4) {
    case 0:
      out << "<circle cx=\"" << number(x) << "\" cy=\"" << number(y) << "\" r=\"4.5\"" << style
          << "/>";
      break;
    case 1:
      out << "<rect x=\"" << number(x - 4.5) << "\" y=\"" << number(y - 4.5)
          << "\" width=\"9\" height=\"9\"" << style << "/>";
      break;
    case 2:
      out << "<polygon points=\"" << number(x) << "," << number(y - 5.5) << " " << number(x + 5.5)
          << "," << number(y + 4) << " " << number(x - 5.5) << "," << number(y + 4) << "\"" << style
          << "/>";
      break;
    default:
      out << "<polygon points=\"" << number(x) << "," << number(y - 6) << " " << number(x + 6)
          << "," << number(y) << " " << number(x) << "," << number(y + 6) << " " << number(x - 6)
          << "," << number(y) << "\"" << style << "/>";
  }
  out << "\n";
}

struct Range {
  double low = std::numeric_limits<double>::infinity();
  double high = 0;
  void add(double value) {
    if (std::isfinite(value) && value > 0) low = std::min(low, value), high = std::max(high, value);
  }
};

void draw_frame(std::ostream& out, const Panel& panel, const ChartAxis& x, const ChartAxis& y,
                const std::vector<std::int64_t>& batches) {
  out << "<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n";
  for (double tick : y.ticks())
    out << "<line x1=\"" << kLeft << "\" x2=\"" << kRight << "\" y1=\"" << number(y.pixel(tick))
        << "\" y2=\"" << number(y.pixel(tick)) << "\"/>\n";
  for (std::int64_t batch : batches)
    out << "<line y1=\"" << panel.top << "\" y2=\"" << panel.bottom << "\" x1=\""
        << number(x.pixel(batch)) << "\" x2=\"" << number(x.pixel(batch)) << "\"/>\n";
  out << "</g>\n<rect x=\"" << kLeft << "\" y=\"" << panel.top << "\" width=\"" << kRight - kLeft
      << "\" height=\"" << panel.bottom - panel.top << "\" fill=\"none\" stroke=\"#444\"/>\n";
  out << "<g class=\"axis-labels\" font-size=\"12\" fill=\"#333\">\n";
  for (double tick : y.ticks())
    out << "<text x=\"" << kLeft - 8 << "\" y=\"" << number(y.pixel(tick) + 4)
        << "\" text-anchor=\"end\">" << tick_label(tick) << "</text>\n";
  for (std::int64_t batch : batches)
    out << "<text x=\"" << number(x.pixel(batch)) << "\" y=\"" << panel.bottom + 18
        << "\" text-anchor=\"middle\">" << batch << "</text>\n";
  out << "<text x=\"" << (kLeft + kRight) / 2 << "\" y=\"" << panel.bottom + 38
      << "\" text-anchor=\"middle\" font-size=\"13\">batch (sequences per step)"
      << (x.logarithmic() ? ", log scale" : "") << "</text>\n";
  out << "<text transform=\"translate(24," << (panel.top + panel.bottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">" << panel.y_label
      << (y.logarithmic() ? " (log scale)" : "") << "</text>\n</g>\n";
}

void draw_floor(std::ostream& out, const BenchReport& report, const ChartAxis& x,
                const ChartAxis& y) {
  out << "<polyline class=\"floor\" fill=\"none\" stroke=\"#555\" stroke-width=\"1.5\" "
         "stroke-dasharray=\"6,4\" points=\"";
  for (std::int64_t batch : report.batches)
    out << number(x.pixel(batch)) << "," << number(y.pixel(minimum_floor_us(report, batch))) << " ";
  out << "\"/>\n";
}

void draw_times(std::ostream& out, const PathResult& path, int index, const ChartAxis& x,
                const ChartAxis& y) {
  const char* colour = kColours[index % kColourCount];
  out << "<g class=\"path\" data-path=\"" << escaped(path.name) << "\">\n";
  out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
  for (const BatchTiming& timing : path.timings)
    out << number(x.pixel(timing.batch)) << "," << number(y.pixel(timing.per_layer.median)) << " ";
  out << "\"/>\n";
  for (const BatchTiming& timing : path.timings) {
    const double px = x.pixel(timing.batch);
    const double low = y.pixel(timing.per_layer.p10), high = y.pixel(timing.per_layer.p90);
    out << "<path d=\"M" << number(px) << "," << number(low) << "V" << number(high) << "M"
        << number(px - 4) << "," << number(low) << "h8M" << number(px - 4) << "," << number(high)
        << "h8\" stroke=\"" << colour << "\" stroke-width=\"1.2\"/>\n";
    marker(out, index, px, y.pixel(timing.per_layer.median), colour);
  }
  out << "</g>\n";
}

double fraction_of_copy(const BenchReport& report, const PathResult& path,
                        const BatchTiming& timing) {
  return bandwidth_fraction(total_bytes(path.stages).at(timing.batch), timing.per_layer.median,
                            report.copy_bandwidth.bytes_per_second());
}

void draw_fractions(std::ostream& out, const BenchReport& report, const PathResult& path, int index,
                    const ChartAxis& x, const ChartAxis& y) {
  const char* colour = kColours[index % kColourCount];
  auto percent = [&](const BatchTiming& timing) {
    return 100.0 * fraction_of_copy(report, path, timing);
  };
  out << "<g class=\"fraction\" data-path=\"" << escaped(path.name) << "\">\n";
  out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
  for (const BatchTiming& timing : path.timings)
    out << number(x.pixel(timing.batch)) << "," << number(y.pixel(percent(timing))) << " ";
  out << "\"/>\n";
  for (const BatchTiming& timing : path.timings)
    marker(out, index, x.pixel(timing.batch), y.pixel(percent(timing)), colour);
  out << "</g>\n";
}

void draw_legend(std::ostream& out, const BenchReport& report,
                 const std::vector<const PathResult*>& drawn) {
  double row = kTimePanel.top + 8;
  out << "<g class=\"legend\" font-size=\"12\">\n";
  for (std::size_t i = 0; i < drawn.size(); ++i, row += 22) {
    const char* colour = kColours[i % kColourCount];
    out << "<line x1=\"" << kLegendX << "\" x2=\"" << kLegendX + 26 << "\" y1=\"" << row
        << "\" y2=\"" << row << "\" stroke=\"" << colour << "\" stroke-width=\"2\"/>\n";
    marker(out, static_cast<int>(i), kLegendX + 13, row, colour);
    out << "<text x=\"" << kLegendX + 34 << "\" y=\"" << row + 4 << "\">" << escaped(drawn[i]->name)
        << "</text>\n";
  }
  out << "<line x1=\"" << kLegendX << "\" x2=\"" << kLegendX + 26 << "\" y1=\"" << row << "\" y2=\""
      << row << "\" stroke=\"#555\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n";
  out << "<text x=\"" << kLegendX + 34 << "\" y=\"" << row + 4
      << "\">floor: minimum traffic</text>\n";
  out << "<text x=\"" << kLegendX + 34 << "\" y=\"" << row + 19 << "\">÷ copy bandwidth</text>\n";
  row += 48;
  for (const PathResult& path : report.paths) {
    if (path.validity.valid) continue;
    out << "<text class=\"invalid\" x=\"" << kLegendX << "\" y=\"" << row << "\" fill=\"#B00020\">"
        << escaped(path.name) << ": INVALID</text>\n";
    out << "<text x=\"" << kLegendX << "\" y=\"" << row + 15
        << "\" fill=\"#B00020\" font-size=\"11\">not timed, never compared</text>\n";
    row += 36;
  }
  out << "</g>\n";
}

}  // namespace

std::string render_timing_chart(const BenchReport& report) {
  std::vector<const PathResult*> drawn;
  Range times, batches;
  for (std::int64_t batch : report.batches) {
    batches.add(static_cast<double>(batch));
    times.add(minimum_floor_us(report, batch));
  }
  for (const PathResult& path : report.paths) {
    if (!path.validity.valid || path.timings.empty()) continue;
    drawn.push_back(&path);
    for (const BatchTiming& timing : path.timings) {
      times.add(timing.per_layer.p10);
      times.add(timing.per_layer.p90);
    }
  }
  // Pad the batch axis so the end points do not sit on the frame.
  const ChartAxis x(batches.low / 1.5, batches.high * 1.5, kLeft, kRight);
  const ChartAxis time_axis(times.low, times.high, kTimePanel.bottom, kTimePanel.top);
  // Up to 100 %, unless a path beats the copy (a hot cache can): then high enough to show it.
  double highest_percent = 100;
  for (const PathResult* path : drawn)
    for (const BatchTiming& timing : path->timings)
      highest_percent = std::max(highest_percent, 100 * fraction_of_copy(report, *path, timing));
  const ChartAxis fraction_axis(0, highest_percent, kFractionPanel.bottom, kFractionPanel.top);

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out << "<text x=\"" << kLeft << "\" y=\"28\" font-size=\"17\" font-weight=\"bold\">"
      << escaped(report.case_name) << ": time per layer vs batch</text>\n";
  out << "<text x=\"" << kLeft << "\" y=\"50\" font-size=\"12\" fill=\"#444\">"
      << escaped(report.device) << " · " << report.layers
      << "-layer graph · median with p10–p90 · copy BW "
      << format_bandwidth(report.copy_bandwidth.bytes_per_second()) << " (this run)</text>\n";
  draw_frame(out, kTimePanel, x, time_axis, report.batches);
  draw_floor(out, report, x, time_axis);
  for (std::size_t i = 0; i < drawn.size(); ++i)
    draw_times(out, *drawn[i], static_cast<int>(i), x, time_axis);

  out << "<text x=\"" << kLeft << "\" y=\"" << kFractionPanel.top - 12
      << "\" font-size=\"13\" font-weight=\"bold\">bandwidth reached: declared bytes ÷ median "
         "time, "
         "as % of the copy</text>\n";
  draw_frame(out, kFractionPanel, x, fraction_axis, report.batches);
  for (std::size_t i = 0; i < drawn.size(); ++i)
    draw_fractions(out, report, *drawn[i], static_cast<int>(i), x, fraction_axis);
  draw_legend(out, report, drawn);
  out << "</svg>\n";
  return out.str();
}

}  // namespace layoutcheck
