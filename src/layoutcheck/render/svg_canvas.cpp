#include "layoutcheck/render/svg_canvas.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "layoutcheck/contract/utf8.h"

namespace layoutcheck {

std::string xml_escape(std::string_view raw) {
  // XML is well-formed UTF-8 without C0 controls but tab and newline: anything else a file name or
  // a name in code brought becomes U+FFFD.
  const std::string text = with_invalid_utf8_replaced(raw);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r')
      out += "\xEF\xBF\xBD";
    else if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string svg_number(double value) {
  char buffer[32];
  const double rounded = std::round(value * 10) / 10;
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, rounded, std::chars_format::fixed, 1).ptr;
  std::string text(buffer, end);
  if (text.ends_with(".0")) text.resize(text.size() - 2);
  return text == "-0" ? "0" : text;
}

void SvgCanvas::rect(double x, double y, double width, double height,
                     const std::string& attributes) {
  body_ += "<rect x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\" width=\"" +
           svg_number(std::max(width, 0.1)) + "\" height=\"" + svg_number(height) + "\" " +
           attributes + "/>\n";
}

void SvgCanvas::line(double x1, double y1, double x2, double y2, const std::string& attributes) {
  body_ += "<line x1=\"" + svg_number(x1) + "\" y1=\"" + svg_number(y1) + "\" x2=\"" +
           svg_number(x2) + "\" y2=\"" + svg_number(y2) + "\" " + attributes + "/>\n";
}

void SvgCanvas::text(double x, double y, std::string_view content, double font_size,
                     const std::string& attributes) {
  body_ += "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\" font-size=\"" +
           svg_number(font_size) + "\"" + (attributes.empty() ? "" : " " + attributes) + ">" +
           xml_escape(content) + "</text>\n";
}

void SvgCanvas::path(const std::string& d, const std::string& attributes) {
  body_ += "<path d=\"" + d + "\" " + attributes + "/>\n";
}

void SvgCanvas::define(const std::string& definition) {
  defs_ += definition + "\n";
}

std::string SvgCanvas::finish(double height, std::string_view title,
                              std::string_view font_family) const {
  const std::string w = svg_number(width_), h = svg_number(height);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h +
         "\" viewBox=\"0 0 " + w + " " + h + "\" font-family=\"" + xml_escape(font_family) +
         "\">\n<title>" + xml_escape(title) + "</title>\n" +
         (defs_.empty() ? "" : "<defs>\n" + defs_ + "</defs>\n") +
         "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" + body_ + "</svg>\n";
}

}  // namespace layoutcheck
