#include "layoutcheck/render/svg.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "layoutcheck/contract/row_map.h"
#include "layoutcheck/render/moved_runs.h"
#include "layoutcheck/render/misread_text.h"
#include "layoutcheck/render/svg_canvas.h"

namespace layoutcheck {
namespace {

constexpr std::size_t kMaxSegments = 4000;      // rectangles per row before heads are merged
constexpr std::size_t kMaxBands = 2000;         // past this the moved runs are counted, not drawn
constexpr std::size_t kMaxFoldedRuns = 100000;  // runs kept to fold into moves
constexpr int kPaddingField = -1;
constexpr int kGapField = -2;
constexpr int kMixedField = -3;  // a pixel column holding several fields
constexpr const char* kMixedColour = "#9e9e9e";
constexpr double kMarginLeft = 150, kMarginRight = 36;
constexpr double kMarginRightDiff = 130;  // room for each field's misread fraction
constexpr double kStripHeight = 54;
constexpr double kFontSize = 12;
constexpr double kMinLabelSize = 7, kMaxLabelSize = 13;  // a label's font follows its cell
constexpr double kMarkHeight = 9;  // the red bar under misread consumer offsets
constexpr const char* kMisreadRed = "#d62728";
constexpr const char* kPalette[] = {"#4e79a7", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2",
                                    "#9c755f", "#edc948", "#ff9da7", "#bab0ac"};

double text_width(std::string_view text, double font_size) {
  return 0.6 * font_size * static_cast<double>(text.size());
}

// "#4e79a7" mixed with white; heads alternate between the colour and a lighter shade.
std::string lighten(const std::string& colour, double amount) {
  unsigned rgb = 0;
  std::from_chars(colour.data() + 1, colour.data() + colour.size(), rgb, 16);
  char out[8];
  auto mix = [&](int shift) {
    const double channel = static_cast<double>((rgb >> shift) & 0xFF);
    return static_cast<unsigned>(std::lround(channel + (255 - channel) * amount));
  };
  std::snprintf(out, sizeof out, "#%02x%02x%02x", mix(16), mix(8), mix(0));
  return out;
}

// Field colours by name, so a field has the same colour in both rows.
class Colours {
 public:
  void add(const Contract& contract) {
    for (const Field& field : contract.fields)
      if (!by_name_.count(field.name))
        by_name_[field.name] = kPalette[by_name_.size() % std::size(kPalette)];
  }
  const std::string& of(const std::string& field) const { return by_name_.at(field); }

 private:
  std::map<std::string, std::string> by_name_;
};

// One rectangle: consecutive offsets holding one head of one field (or padding, or a gap).
struct Segment {
  std::int64_t begin = 0, end = 0;  // offsets, end exclusive
  int field = kGapField;            // field index, kPaddingField, kGapField or kMixedField
  std::int64_t head = -1;           // outermost logical index; -1 once heads are merged
};

std::vector<Segment> row_segments(const Contract& contract, double px_per_offset) {
  const RowMap rows = RowMap::build(contract);
  std::vector<std::int64_t> head_size;  // elements per outermost index, per field
  for (const Field& field : contract.fields)
    head_size.push_back(field.dims.empty() ? 1 : field.elements() / field.dims[0].size());
  auto segment_at = [&](std::int64_t offset, bool with_heads) {
    Segment here{offset, offset + 1, kGapField, -1};
    const std::uint32_t owner = rows.at(offset);
    if (owner == RowMap::kPadding) {
      here.field = kPaddingField;
    } else if (owner != RowMap::kEmpty) {
      const ElementRef element = contract.element_from_global(owner);
      here.field = static_cast<int>(element.field);
      if (with_heads) here.head = element.linear / head_size[element.field];
    }
    return here;
  };
  auto append = [](std::vector<Segment>& segments, const Segment& here) {
    if (!segments.empty() && segments.back().field == here.field &&
        segments.back().head == here.head)
      segments.back().end = here.end;
    else
      segments.push_back(here);
  };
  for (const bool with_heads : {true, false}) {
    std::vector<Segment> segments;
    for (std::int64_t offset = 0; offset < rows.size() && segments.size() <= kMaxSegments; ++offset)
      append(segments, segment_at(offset, with_heads));
    if (segments.size() <= kMaxSegments) return segments;
  }
  // Fields interleaved finer than the pixels: one rectangle per pixel column, grey where the
  // column holds more than one field (colouring it by one of them would draw a false pattern).
  std::vector<Segment> columns;
  const auto count =
      static_cast<std::int64_t>(std::ceil(static_cast<double>(rows.size()) * px_per_offset));
  for (std::int64_t column = 0; column < count; ++column) {
    const std::int64_t begin = column * rows.size() / count,
                       end = (column + 1) * rows.size() / count;
    if (end <= begin) continue;
    int field = segment_at(begin, false).field;
    for (std::int64_t offset = begin + 1; offset < end && field != kMixedField; ++offset)
      if (segment_at(offset, false).field != field) field = kMixedField;
    append(columns, {begin, end, field, -1});
  }
  return columns;
}

// The canvas in row coordinates: offset -> x, with margins for the captions. A zoomed picture
// draws offsets [view.begin, view.end) across the width; what lies outside is clipped.
class Picture : public SvgCanvas {
 public:
  Picture(double width, OffsetRange view, std::int64_t row_size, double margin_right)
      : SvgCanvas(width),
        view_(view),
        margin_right_(margin_right),
        zoomed_(view.begin > 0 || view.end < row_size) {
    scale_ = (width - kMarginLeft - margin_right) /
             static_cast<double>(std::max<std::int64_t>(1, view.end - view.begin));
    define(
        "<pattern id=\"misread\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#ffffff\" "
        "fill-opacity=\"0.35\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"" +
        std::string(kMisreadRed) + "\" stroke-width=\"2.5\"/></pattern>");
    define(
        "<pattern id=\"padding\" patternUnits=\"userSpaceOnUse\" width=\"5\" height=\"5\" "
        "patternTransform=\"rotate(-45)\"><rect width=\"5\" height=\"5\" fill=\"#e6e6e6\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#aaaaaa\" stroke-width=\"1.5\"/>"
        "</pattern>");
    if (zoomed_)
      define("<clipPath id=\"view\"><rect x=\"" + svg_number(left()) + "\" y=\"0\" width=\"" +
             svg_number(right() - left()) + "\" height=\"100000\"/></clipPath>");
  }
  double x(std::int64_t offset) const {
    return kMarginLeft + static_cast<double>(offset - view_.begin) * scale_;
  }
  double scale() const { return scale_; }
  double left() const { return kMarginLeft; }
  double right() const { return width() - margin_right_; }
  const OffsetRange& view() const { return view_; }
  bool zoomed() const { return zoomed_; }
  // Attributes that keep a shape reaching outside the view inside it.
  std::string clipped() const { return zoomed_ ? " clip-path=\"url(#view)\"" : ""; }

 private:
  OffsetRange view_;
  double margin_right_;
  bool zoomed_;
  double scale_;
};

// The first label that fits the cell is drawn, across at the largest font up to kMaxLabelSize,
// else upwards; none when not even the shortest fits at kMinLabelSize.
bool draw_label(Picture& picture, double x0, double w, double y,
                const std::vector<std::string>& labels) {
  const std::string anchor = "text-anchor=\"middle\" fill=\"#ffffff\"";
  for (const std::string& label : labels) {
    const double size = std::min(kMaxLabelSize, (w - 4) / text_width(label, 1));
    if (size >= kMinLabelSize) {
      picture.text(x0 + w / 2, y + kStripHeight / 2 + size * 0.35, label, std::floor(size * 2) / 2,
                   anchor);
      return true;
    }
  }
  for (const std::string& label : labels) {
    const double size = std::min({kMaxLabelSize, w - 3, (kStripHeight - 6) / text_width(label, 1)});
    if (size >= kMinLabelSize) {
      const double cx = x0 + w / 2 + size * 0.35, cy = y + kStripHeight / 2;
      picture.text(0, 0, label, std::floor(size * 2) / 2,
                   anchor + " transform=\"translate(" + svg_number(cx) + "," + svg_number(cy) +
                       ") rotate(-90)\"");
      return true;
    }
  }
  return false;
}

std::string symbols_line(const Contract& contract) {
  std::string text;
  for (const Symbol& symbol : contract.symbols)
    text += (text.empty() ? "" : "  ") + symbol.name + "=" + std::to_string(symbol.value);
  return text;
}

void draw_row(Picture& picture, const Contract& contract, const std::vector<Segment>& segments,
              const Colours& colours, double y, const std::string& role) {
  picture.text(12, y + kStripHeight / 2 - 4, role, kFontSize, "font-weight=\"bold\"");
  picture.text(12, y + kStripHeight / 2 + 12, contract.name, kFontSize - 1, "fill=\"#444444\"");
  const OffsetRange& view = picture.view();
  struct Stretch {
    int field = kGapField;
    std::int64_t begin = 0, end = 0, first_head = -1, last_head = -1;
    bool empty() const { return end <= begin; }
  } unlabelled;
  auto label_stretch = [&](const Stretch& stretch) {
    if (stretch.empty() || stretch.field < 0) return;
    const Field& field = contract.fields[static_cast<std::size_t>(stretch.field)];
    std::vector<std::string> labels{field.name};
    if (stretch.first_head >= 0 && !field.dims.empty() && stretch.last_head > stretch.first_head)
      labels.insert(labels.begin(), field.name + " " + field.dims[0].name +
                                        std::to_string(stretch.first_head) + "-" +
                                        std::to_string(stretch.last_head));
    const double x0 = picture.x(stretch.begin);
    draw_label(picture, x0, picture.x(stretch.end) - x0, y, labels);
  };
  for (const Segment& segment : segments) {
    const std::int64_t begin = std::max(segment.begin, view.begin);
    const std::int64_t end = std::min(segment.end, view.end);
    if (begin >= end) continue;
    const double x0 = picture.x(begin), w = picture.x(end) - x0;
    if (segment.field < 0) {  // gaps, padding and mixed columns end a stretch of one field
      label_stretch(unlabelled);
      unlabelled = {};
    }
    if (segment.field == kGapField) {
      picture.rect(x0, y, w, kStripHeight,
                   "fill=\"#ffffff\" stroke=\"#999999\" stroke-dasharray=\"3,2\"");
      continue;
    }
    if (segment.field == kMixedField) {
      picture.rect(x0, y, w, kStripHeight, "fill=\"" + std::string(kMixedColour) + "\"");
      continue;
    }
    if (segment.field == kPaddingField) {
      picture.rect(x0, y, w, kStripHeight, "fill=\"url(#padding)\"");
      continue;
    }
    const Field& field = contract.fields[static_cast<std::size_t>(segment.field)];
    const std::string& base = colours.of(field.name);
    const std::string fill = segment.head % 2 == 1 ? lighten(base, 0.3) : base;
    picture.rect(
        x0, y, w, kStripHeight,
        "fill=\"" + fill + "\"" + (w >= 4 ? " stroke=\"#ffffff\" stroke-width=\"0.6\"" : ""));
    // Named by the contract's own outermost dim: "K t3" for a cache's tokens, "V hv7".
    std::vector<std::string> labels{field.name};
    if (segment.head >= 0 && !field.dims.empty()) {
      const std::string index = field.dims[0].name + std::to_string(segment.head);
      labels = {field.name + " " + index, index};
    }
    const bool labelled = draw_label(picture, x0, w, y, labels);
    // Cells too narrow for their own labels: the stretch of one field gets one, "Q h0-15".
    if (!labelled &&
        (unlabelled.empty() || unlabelled.field != segment.field || unlabelled.end != begin)) {
      label_stretch(unlabelled);
      unlabelled = {segment.field, begin, end, segment.head, segment.head};
    } else if (!labelled) {
      unlabelled.end = end;
      unlabelled.last_head = segment.head;
    } else {
      label_stretch(unlabelled);
      unlabelled = {};
    }
  }
  label_stretch(unlabelled);
  const double x0 = picture.x(std::max<std::int64_t>(0, view.begin));
  const double x1 = picture.x(std::min(contract.row_size, view.end));
  picture.rect(x0, y, x1 - x0, kStripHeight, "fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"");
}

// Ticks at a power of two when that divides the span evenly, else at 1-2-5 steps.
void draw_axis(Picture& picture, DType dtype, double y) {
  const OffsetRange& view = picture.view();
  const std::int64_t span = view.end - view.begin;
  const double target = static_cast<double>(span) / 10;
  std::int64_t step = 1;
  while (static_cast<double>(step) * 2 <= target) step *= 2;
  if (span % step != 0) {
    step = 1;
    for (std::int64_t decade = 1; step == 1 || static_cast<double>(step) < target / 2; decade *= 10)
      for (std::int64_t factor : {1, 2, 5})
        if (static_cast<double>(decade * factor) <= target) step = decade * factor;
  }
  picture.line(picture.x(view.begin), y, picture.x(view.end), y);
  for (std::int64_t tick = (view.begin + step - 1) / step * step; tick <= view.end; tick += step) {
    picture.line(picture.x(tick), y, picture.x(tick), y + 5);
    picture.text(picture.x(tick), y + 17, std::to_string(tick), 10, "text-anchor=\"middle\"");
  }
  picture.text(12, y + 17, "offset (" + std::string(dtype_name(dtype)) + ")", 10,
               "fill=\"#444444\"");
}

// What the legend lists besides the fields.
struct LegendExtras {
  bool padding = false, mixed = false, misread = false;
};

bool has_mixed(const std::vector<Segment>& segments) {
  return std::any_of(segments.begin(), segments.end(),
                     [](const Segment& s) { return s.field == kMixedField; });
}

// Legend entries laid out left to right, wrapping; returns the y below them.
double draw_legend(Picture& picture, const Contract& contract, const Colours& colours, double y,
                   const LegendExtras& extras) {
  double x = kMarginLeft;
  auto entry = [&](const std::string& style, const std::string& label) {
    const double width = 19 + text_width(label, 11);
    if (x > kMarginLeft && x + width > picture.right()) {  // wrap
      x = kMarginLeft;
      y += 20;
    }
    const bool outlined = style.find("stroke=") != std::string::npos;
    picture.rect(x, y - 10, 14, 12,
                 style + (outlined ? "" : " stroke=\"#333333\" stroke-width=\"0.5\""));
    picture.text(x + 19, y, label, 11);
    x += width + 18;
  };
  for (const Field& field : contract.fields) {
    std::string shape;
    for (const std::int64_t size : field.shape())
      shape += (shape.empty() ? "" : ",") + std::to_string(size);
    entry("fill=\"" + colours.of(field.name) + "\"", field.name + " [" + shape + "]");
  }
  if (extras.padding) entry("fill=\"url(#padding)\"", "padding");
  if (extras.mixed)
    entry("fill=\"" + std::string(kMixedColour) + "\"", "fields interleaved finer than a pixel");
  if (extras.misread) {
    entry("fill=\"url(#misread)\" stroke=\"" + std::string(kMisreadRed) + "\"",
          "misread: the consumer gets another element");
    entry("fill=\"#888888\" fill-opacity=\"0.35\"",
          "band: where the producer holds those elements");
  }
  return y + 14;
}

// Too many runs to draw one by one (a transposed state): one band per pair of rectangles (field
// heads) that elements move between, e.g. "every element of S h7 moves within S h7".
std::vector<Band> bands_per_rectangle(const MovedRuns& runs,
                                      const std::vector<Segment>& consumer_rects,
                                      const std::vector<Segment>& producer_rects) {
  auto rect_of = [](const std::vector<Segment>& rects, std::int64_t offset) {
    return static_cast<std::size_t>(
        std::upper_bound(rects.begin(), rects.end(), offset,
                         [](std::int64_t o, const Segment& r) { return o < r.end; }) -
        rects.begin());
  };
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> pairs;
  std::pair<std::size_t, std::size_t> last{SIZE_MAX, SIZE_MAX};  // neighbours mostly share a pair
  runs.for_each([&](const Band& run) {
    for (std::int64_t i = 0; i < run.consumer_end - run.consumer_begin; ++i) {
      const std::pair pair{rect_of(consumer_rects, run.consumer_begin + i),
                           rect_of(producer_rects, run.producer_begin + i)};
      if (pair != last) pairs.emplace(pair, run.field);
      last = pair;
    }
  });
  std::vector<Band> bands;
  for (const auto& [pair, field] : pairs) {
    if (pair.first >= consumer_rects.size() || pair.second >= producer_rects.size()) continue;
    const Segment& c = consumer_rects[pair.first];
    const Segment& p = producer_rects[pair.second];
    bands.push_back({c.begin, c.end, p.begin, p.end, field});
  }
  return bands;
}

// Stretches of marked offsets, those less than `gap` apart merged: one mark per visible stretch.
std::vector<std::pair<std::int64_t, std::int64_t>> marked_stretches(const std::vector<bool>& marked,
                                                                    std::int64_t gap) {
  std::vector<std::pair<std::int64_t, std::int64_t>> stretches;
  const auto size = static_cast<std::int64_t>(marked.size());
  for (std::int64_t offset = 0; offset < size;) {
    if (!marked[static_cast<std::size_t>(offset)]) {
      ++offset;
      continue;
    }
    std::int64_t end = offset;
    while (end < size && marked[static_cast<std::size_t>(end)]) ++end;
    if (!stretches.empty() && offset <= stretches.back().second + gap)
      stretches.back().second = end;
    else
      stretches.emplace_back(offset, end);
    offset = end;
  }
  return stretches;
}

// A band from the consumer's range (bottom) up to the producer's (top), with curved sides.
void draw_band(Picture& picture, const Band& band, const std::string& colour, double top,
               double bottom, double opacity) {
  auto point = [](double x, double y) { return svg_number(x) + "," + svg_number(y); };
  const double c0 = picture.x(band.consumer_begin), c1 = picture.x(band.consumer_end);
  const double p0 = picture.x(band.producer_begin), p1 = picture.x(band.producer_end);
  const double middle = (top + bottom) / 2;
  const std::string d = "M" + point(c0, bottom) + " C" + point(c0, middle) + " " +
                        point(p0, middle) + " " + point(p0, top) + " L" + point(p1, top) + " C" +
                        point(p1, middle) + " " + point(c1, middle) + " " + point(c1, bottom) +
                        " Z";
  picture.path(d, "fill=\"" + colour + "\" fill-opacity=\"" + svg_number(opacity) + "\" stroke=\"" +
                      colour + "\" stroke-opacity=\"0.6\" stroke-width=\"0.5\"" +
                      picture.clipped());
}

// "Q x15" in the field's colour where a move's band crosses the middle between the rows; labels
// of moves whose middles fall close together are stacked rather than drawn over each other.
void draw_move_counts(Picture& picture, const Contract& consumer, const Colours& colours,
                      const std::vector<Move>& moves, double top, double bottom) {
  std::vector<std::pair<double, double>> placed;  // x, y of the labels drawn
  for (const Move& move : moves) {
    if (move.count < 2) continue;
    const Band hull = move.hull();
    const double x = (picture.x(hull.consumer_begin) + picture.x(hull.consumer_end) +
                      picture.x(hull.producer_begin) + picture.x(hull.producer_end)) /
                     4;
    if (x < picture.left() || x > picture.right()) continue;
    double y = (top + bottom) / 2 + 4;
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& [px, py] : placed)
        if (std::abs(px - x) < 50 && std::abs(py - y) < 13) {
          y = py + 14;
          moved = true;
        }
    }
    placed.emplace_back(x, y);
    const std::string& field = consumer.fields[move.first.field].name;
    picture.text(x, y, field + " \u00d7" + std::to_string(move.count), 11,
                 "text-anchor=\"middle\" font-weight=\"bold\" fill=\"" + colours.of(field) +
                     "\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"");
  }
}

// Each field's misread share of its elements, beside the consumer's row.
void draw_misread_margin(Picture& picture, const MisreadReport& report, const Colours& colours,
                         double y) {
  const double x = picture.right() + 12;
  picture.text(x, y + 10, "misread", 11, "font-weight=\"bold\"");
  for (std::size_t f = 0; f < report.fields.size(); ++f) {
    const FieldReport& field = report.fields[f];
    const double line = y + 25 + 14 * static_cast<double>(f);
    picture.rect(x, line - 9, 10, 10, "fill=\"" + colours.of(field.name) + "\"");
    picture.text(x + 14, line, field.name + " " + percent_of(field.misread, field.elements), 11);
  }
}

OffsetRange view_of(const SvgOptions& options, std::int64_t row_size) {
  check_svg_range(options, row_size);
  return options.range.value_or(OffsetRange{0, row_size});
}

std::string view_caption(const Picture& picture, std::int64_t row_size) {
  if (!picture.zoomed()) return "";
  return " (offsets " + std::to_string(picture.view().begin) + "-" +
         std::to_string(picture.view().end - 1) + " of " + std::to_string(row_size) + ")";
}

}  // namespace

void check_svg_width(const SvgOptions& options) {
  if (!std::isfinite(options.width) || options.width < kMinSvgWidth || options.width > kMaxSvgWidth)
    throw std::invalid_argument("SVG width " + std::to_string(options.width) + " is not from " +
                                std::to_string(kMinSvgWidth) + " to " +
                                std::to_string(kMaxSvgWidth) + " px");
}

void check_svg_range(const SvgOptions& options, std::int64_t row_size) {
  if (!options.range) return;
  const OffsetRange& range = *options.range;
  if (range.begin < 0 || range.begin >= range.end || range.end > row_size)
    throw std::invalid_argument("range " + std::to_string(range.begin) + ":" +
                                std::to_string(range.end) + " is not within the row's " +
                                std::to_string(row_size) +
                                " offsets (BEGIN:END, 0 <= BEGIN < END)");
}

std::string render_row_svg(const Contract& contract, const SvgOptions& options) {
  check_svg_width(options);
  Picture picture(options.width, view_of(options, contract.row_size), contract.row_size,
                  kMarginRight);
  Colours colours;
  colours.add(contract);
  const std::string title = contract.name + ": one row, " + std::to_string(contract.row_size) +
                            " offsets, " + std::to_string(contract.elements()) + " " +
                            std::string(dtype_name(contract.dtype)) + " elements" +
                            view_caption(picture, contract.row_size);
  picture.text(12, 24, title, 16, "font-weight=\"bold\"");
  picture.text(12, 44, symbols_line(contract), kFontSize, "fill=\"#444444\"");
  const double strip = 64;
  const std::vector<Segment> rects = row_segments(contract, picture.scale());
  draw_row(picture, contract, rects, colours, strip, "row");
  draw_axis(picture, contract.dtype, strip + kStripHeight + 6);
  const LegendExtras extras{!contract.padding.empty(), has_mixed(rects), false};
  const double bottom = draw_legend(picture, contract, colours, strip + kStripHeight + 52, extras);
  return picture.finish(bottom + 8, title);
}

std::string render_diff_svg(const Contract& producer, const Contract& consumer,
                            const MisreadReport& report, const SvgOptions& options) {
  check_svg_width(options);
  const std::int64_t row_size = std::max(producer.row_size, consumer.row_size);
  Picture picture(options.width, view_of(options, row_size), row_size, kMarginRightDiff);
  Colours colours;
  colours.add(producer);
  colours.add(consumer);
  const std::string title = producer.name + " (producer) -> " + consumer.name +
                            " (consumer): " + std::to_string(report.misread) + " of " +
                            std::to_string(report.elements) + " elements misread" +
                            (report.row_mismatches.empty() ? "" : ", rows stepped differently") +
                            view_caption(picture, row_size);
  picture.text(12, 24, title, 16, "font-weight=\"bold\"");

  const double producer_y = 64, consumer_y = 300;
  const std::vector<Segment> producer_rects = row_segments(producer, picture.scale());
  const std::vector<Segment> consumer_rects = row_segments(consumer, picture.scale());
  const MovedRuns runs(producer, consumer);
  std::size_t run_count = 0;
  std::vector<bool> misread(static_cast<std::size_t>(row_size), false);  // by consumer offset
  runs.for_each([&](const Band& run) {
    ++run_count;
    for (std::int64_t offset = run.consumer_begin; offset < run.consumer_end; ++offset)
      if (offset >= 0 && offset < row_size) misread[static_cast<std::size_t>(offset)] = true;
  });
  std::string subtitle = symbols_line(consumer);
  std::optional<std::vector<Move>> folded = picture.zoomed()
                                                ? each_run_a_move(runs, kMaxBands)
                                                : fold_moves(runs, kMaxBands, kMaxFoldedRuns);
  std::vector<Move> moves;
  if (folded) {
    moves = std::move(*folded);
    if (moves.size() < run_count)
      subtitle += "   (" + std::to_string(run_count) + " moved runs in " +
                  std::to_string(moves.size()) + " bands: the runs of one move share a band, " +
                  "their count marked)";
  } else {
    for (const Band& band : bands_per_rectangle(runs, consumer_rects, producer_rects))
      moves.push_back(Move{band, band, 1});
    subtitle += "   (" + std::to_string(run_count) +
                " moved runs, too many to draw: " + std::to_string(moves.size()) +
                (moves.size() == 1 ? " band joins" : " bands join") +
                " the rectangles they move between)";
    if (moves.size() > kMaxBands) moves.clear();
  }
  picture.text(12, 44, subtitle, kFontSize, "fill=\"#444444\"");
  draw_row(picture, producer, producer_rects, colours, producer_y, "producer");
  draw_row(picture, consumer, consumer_rects, colours, consumer_y, "consumer");
  for (const Move& move : moves)
    draw_band(picture, move.hull(), colours.of(consumer.fields[move.first.field].name),
              producer_y + kStripHeight, consumer_y, move.count > 1 ? 0.22 : 0.3);
  draw_move_counts(picture, consumer, colours, moves, producer_y + kStripHeight, consumer_y);

  // A consumer offset is misread exactly when the producer holds its element elsewhere. Marked
  // by an outline in the row and a hatched bar under it, so the row's colours stay readable.
  const auto offsets_per_px = static_cast<std::int64_t>(1 / picture.scale());
  for (auto [begin, end] : marked_stretches(misread, offsets_per_px)) {
    begin = std::max(begin, picture.view().begin);
    end = std::min(end, picture.view().end);
    if (begin >= end) continue;
    const double x0 = picture.x(begin), w = std::max(1.0, picture.x(end) - x0);
    const std::string red = "stroke=\"" + std::string(kMisreadRed) + "\"";
    picture.rect(x0, consumer_y, w, kStripHeight, "fill=\"none\" " + red + " stroke-width=\"1.5\"");
    picture.rect(x0, consumer_y + kStripHeight + 2, w, kMarkHeight,
                 "fill=\"url(#misread)\" " + red + " stroke-width=\"1\"");
  }
  draw_misread_margin(picture, report, colours, consumer_y);
  draw_axis(picture, consumer.dtype, consumer_y + kStripHeight + kMarkHeight + 8);
  const LegendExtras extras{!producer.padding.empty() || !consumer.padding.empty(),
                            has_mixed(producer_rects) || has_mixed(consumer_rects),
                            report.misread > 0};
  const double bottom =
      draw_legend(picture, consumer, colours, consumer_y + kStripHeight + kMarkHeight + 56, extras);
  return picture.finish(bottom + 8, title);
}

}  // namespace layoutcheck
