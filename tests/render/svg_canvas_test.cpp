// The SVG writer: numbers, escaping and the document frame.
#include "layoutcheck/render/svg_canvas.h"

#include <gtest/gtest.h>

namespace layoutcheck {
namespace {

TEST(SvgCanvas, NumbersHaveOneDecimalAtMost) {
  EXPECT_EQ(svg_number(3), "3");
  EXPECT_EQ(svg_number(12.25), "12.3");
  EXPECT_EQ(svg_number(0.04), "0");
  EXPECT_EQ(svg_number(-0.04), "0");
  EXPECT_EQ(svg_number(-7.5), "-7.5");
  EXPECT_EQ(svg_number(1400), "1400");
}

TEST(SvgCanvas, EscapesTextAndAttributes) {
  EXPECT_EQ(xml_escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
  // XML must be well-formed UTF-8 without control characters, whatever a file name holds.
  EXPECT_EQ(xml_escape("a\xFF\x01" "b\tc \xC3\xA9"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD" "b\tc \xC3\xA9");
  SvgCanvas canvas(100);
  canvas.text(1, 2, "Q & K", 12, "fill=\"#444444\"");
  canvas.rect(0, 0, 0, 5, "fill=\"red\"");  // zero width stays visible to renderers
  canvas.line(0, 1, 2, 3);
  canvas.path("M0,0 L1,1", "stroke=\"blue\"");
  canvas.define("<pattern id=\"p\"/>");
  EXPECT_EQ(canvas.finish(50, "a < b"),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\" viewBox=\"0 0 "
            "100 50\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
            "<title>a &lt; b</title>\n"
            "<defs>\n<pattern id=\"p\"/>\n</defs>\n"
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
            "<text x=\"1\" y=\"2\" font-size=\"12\" fill=\"#444444\">Q &amp; K</text>\n"
            "<rect x=\"0\" y=\"0\" width=\"0.1\" height=\"5\" fill=\"red\"/>\n"
            "<line x1=\"0\" y1=\"1\" x2=\"2\" y2=\"3\" stroke=\"#333333\" stroke-width=\"1\"/>\n"
            "<path d=\"M0,0 L1,1\" stroke=\"blue\"/>\n"
            "</svg>\n");
}

}  // namespace
}  // namespace layoutcheck
