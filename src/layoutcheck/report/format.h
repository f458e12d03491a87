// Number formatting shared by the report renderers, so a figure reads the same in the Markdown
// table and the chart: three significant digits, decimal units (bandwidth is decimal: TB/s).
#pragma once

#include <cstdint>
#include <string>

#include "layoutcheck/bench/statistics.h"
#include "layoutcheck/bench/traffic.h"

namespace layoutcheck {

// Three significant digits without exponent: 3.23, 17.0, 153, 1234.
std::string format_significant(double value);
// Three significant digits as printf's %g writes them, for limits and errors: 0.02, 1e-05.
std::string format_general(double value);

// A Markdown table cell: every bare '|' escaped.
std::string markdown_cell(std::string text);

std::string format_us(double microseconds);             // "3.23 µs"
std::string format_spread(const Summary& us);           // "3.23 µs [3.20–3.31]"
std::string format_bytes(std::int64_t bytes);           // "192 B", "80.6 kB", "6.45 MB"
std::string format_bytes(const ByteCount& bytes);       // "6.45 MB/row + 80.6 kB"
std::string format_bandwidth(double bytes_per_second);  // "4.26 TB/s"
std::string format_percent(double fraction);            // "87.3 %"
std::string format_ratio(double ratio);                 // "1.19×"

}  // namespace layoutcheck
