#include "layoutcheck/report/format.h"

#include <cmath>
#include <cstdio>

namespace layoutcheck {

namespace {

std::string printf_string(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// value scaled into [1, 1000) with its decimal prefix.
std::string with_prefix(double value, const char* unit) {
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P"};
  int index = 0;
  while (std::fabs(value) >= 999.5 && index < 5) value /= 1000.0, ++index;
  return format_significant(value) + " " + prefixes[index] + unit;
}

}  // namespace

std::string format_general(double value) {
  return printf_string("%.3g", value);
}

std::string format_significant(double value) {
  if (std::isnan(value)) return "nan";
  const double magnitude = std::fabs(value);
  if (magnitude >= 99.95) return printf_string("%.0f", value);
  if (magnitude >= 9.995) return printf_string("%.1f", value);
  if (magnitude >= 0.9995 || magnitude == 0) return printf_string("%.2f", value);
  return printf_string("%.3g", value);
}

std::string format_us(double microseconds) {
  return format_significant(microseconds) + " µs";
}

std::string format_spread(const Summary& us) {
  return format_us(us.median) + " [" + format_significant(us.p10) + "–" +
         format_significant(us.p90) + "]";
}

std::string format_bytes(std::int64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  return with_prefix(static_cast<double>(bytes), "B");
}

std::string format_bytes(const ByteCount& bytes) {
  if (bytes.per_row == 0) return format_bytes(bytes.fixed);
  std::string text = format_bytes(bytes.per_row) + "/row";
  if (bytes.fixed != 0) text += " + " + format_bytes(bytes.fixed);
  return text;
}

std::string format_bandwidth(double bytes_per_second) {
  return with_prefix(bytes_per_second, "B/s");
}

std::string format_percent(double fraction) {
  return printf_string("%.1f", fraction * 100.0) + " %";
}

std::string format_ratio(double ratio) {
  return printf_string("%.2f", ratio) + "×";
}

std::string markdown_cell(std::string text) {
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
    text.replace(at, 1, "\\|");
  return text;
}

}  // namespace layoutcheck
