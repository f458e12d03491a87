// A minimal SVG writer for the project's pictures: coordinates with one decimal, escaped text, and
// the document frame. It knows nothing of contracts; svg.h draws rows with it.
//
//   SvgCanvas canvas(400);
//   canvas.rect(10, 10, 50.25, 20, "fill=\"#4e79a7\"");   // <rect x="10" y="10" width="50.3" ...
//   canvas.text(10, 50, "Q & K", 12);                        // ...>Q &amp; K</text>
//   std::string svg = canvas.finish(80, "title");
#pragma once

#include <string>
#include <string_view>

namespace layoutcheck {

std::string xml_escape(std::string_view text);  // & < > " escaped
std::string svg_number(double value);           // one decimal, "12.5", "3", never "-0"

class SvgCanvas {
 public:
  explicit SvgCanvas(double width) : width_(width) {}
  double width() const { return width_; }

  // `attributes` are written as given: fill="..." stroke="..." and so on.
  void rect(double x, double y, double width, double height, const std::string& attributes);
  void line(double x1, double y1, double x2, double y2,
            const std::string& attributes = "stroke=\"#333333\" stroke-width=\"1\"");
  void text(double x, double y, std::string_view content, double font_size,
            const std::string& attributes = "");
  void path(const std::string& d, const std::string& attributes);
  void define(const std::string& definition);  // goes into <defs>: patterns, gradients

  // The document: white background, a <title>, the definitions, then everything drawn so far.
  std::string finish(
      double height, std::string_view title,
      std::string_view font_family = "DejaVu Sans, Helvetica, Arial, sans-serif") const;

 private:
  double width_;
  std::string defs_;
  std::string body_;
};

}  // namespace layoutcheck
