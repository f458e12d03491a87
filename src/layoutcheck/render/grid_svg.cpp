#include "layoutcheck/render/grid_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "layoutcheck/render/svg_canvas.h"

namespace layoutcheck {
namespace {

constexpr double kMarginLeft = 64, kMarginRight = 110, kPlaneTop = 84;
constexpr double kMaxCell = 24;      // px: a small grid stays a small picture
constexpr double kMinCanvas = 1000;  // px: room for the title and the legend
constexpr const char* kBorder = "#1a1a1a";
constexpr const char* kMinus = "\u2212";
// Nine colours, none grey (grey is padding); a window's is picked by its row and column class.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f"};

double text_width(std::string_view text, double font_size) {
  return 0.6 * font_size * static_cast<double>(text.size());
}

// Three classes cycle along an axis, so neighbouring blocks differ. A shift makes the last block
// the neighbour of block 0 (the roll's seam), so the last takes class 1 where it would repeat 0.
int axis_class(const GridAxis& axis, std::int64_t block) {
  const int cls = static_cast<int>(block % 3);
  return block > 0 && block == axis.blocks() - 1 && cls == 0 ? 1 : cls;
}

std::string window_colour(const GridLevel& grid, std::int64_t row, std::int64_t column) {
  const int r = axis_class(grid.rows, grid.rows.block[static_cast<std::size_t>(row)]);
  const int c = axis_class(grid.columns, grid.columns.block[static_cast<std::size_t>(column)]);
  return kPalette[r * 3 + c];
}

// Runs of cells in one block along an axis: a window cut by the roll's seam has two.
struct Run {
  std::int64_t begin = 0, end = 0;
};

std::vector<Run> block_runs(const GridAxis& axis) {
  std::vector<Run> runs;
  for (std::int64_t u = 0; u < axis.padded; ++u) {
    if (u > 0 &&
        axis.block[static_cast<std::size_t>(u)] == axis.block[static_cast<std::size_t>(u - 1)])
      runs.back().end = u + 1;
    else
      runs.push_back({u, u + 1});
  }
  return runs;
}

// A tick every 1, 2 or 5 times a power of ten, about eight along the axis.
std::int64_t tick_step(std::int64_t size) {
  const double target = static_cast<double>(size) / 8;
  std::int64_t step = 1;
  for (std::int64_t decade = 1; decade <= size; decade *= 10)
    for (const std::int64_t factor : {1, 2, 5})
      if (static_cast<double>(decade * factor) <= target) step = decade * factor;
  return step;
}

std::string join_axes(const GridLevel& grid, const char* separator,
                      std::string (*part)(const GridAxis&)) {
  std::string text;
  std::vector<const GridAxis*> axes;
  for (const GridAxis& axis : grid.level_axes) axes.push_back(&axis);
  axes.push_back(&grid.rows);
  axes.push_back(&grid.columns);
  for (const GridAxis* axis : axes) {
    const std::string piece = part(*axis);
    if (!piece.empty()) text += (text.empty() ? "" : separator) + piece;
  }
  return text;
}

// "shift: z −1, lat −3, lon −6": the roll torch.roll(x, −shift) applies to each padded axis.
std::string shift_line(const GridLevel& grid) {
  const std::string shifts = join_axes(grid, ", ", [](const GridAxis& axis) {
    return axis.shift == 0 ? std::string()
                           : axis.name + " " + (axis.shift > 0 ? kMinus : "+") +
                                 std::to_string(std::llabs(axis.shift));
  });
  if (shifts.empty()) return "no shift: every window is one rectangle";
  return "shift: " + shifts +
         " (torch.roll of the padded grid): a window cut by an edge has one colour and number on "
         "both sides";
}

// Cell size in px: the columns fill the width, in whole pixels where there is room so that
// neighbouring rectangles leave no seams.
double cell_size(double width, const GridLevel& grid) {
  const double fit = (width - kMarginLeft - kMarginRight) /
                     static_cast<double>(std::max<std::int64_t>(1, grid.columns.padded));
  return std::min(kMaxCell, fit >= 2 ? std::floor(fit) : fit);
}

class Plane : public SvgCanvas {
 public:
  // The canvas ends where the plane and its captions do, not at the width asked for.
  Plane(double width, const GridLevel& grid)
      : SvgCanvas(std::min(width,
                           std::max(kMinCanvas, kMarginLeft + kMarginRight +
                                                    cell_size(width, grid) *
                                                        static_cast<double>(grid.columns.padded)))),
        cell_(cell_size(width, grid)) {
    define(
        "<pattern id=\"padding\" patternUnits=\"userSpaceOnUse\" width=\"5\" height=\"5\" "
        "patternTransform=\"rotate(-45)\"><rect width=\"5\" height=\"5\" fill=\"#e6e6e6\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#aaaaaa\" stroke-width=\"1.5\"/>"
        "</pattern>");
  }
  double cell() const { return cell_; }
  double x(std::int64_t column) const { return kMarginLeft + static_cast<double>(column) * cell_; }
  double y(std::int64_t row) const { return kPlaneTop + static_cast<double>(row) * cell_; }

 private:
  double cell_;
};

// One rectangle per run of equal fill in a row: a window's row, or a stretch of padding.
void draw_cells(Plane& plane, const GridLevel& grid) {
  for (std::int64_t r = 0; r < grid.rows.padded; ++r) {
    std::int64_t begin = 0;
    std::string fill;
    auto flush = [&](std::int64_t end) {
      if (end > begin)
        plane.rect(plane.x(begin), plane.y(r), plane.x(end) - plane.x(begin), plane.cell(),
                   "fill=\"" + fill + "\" shape-rendering=\"crispEdges\"");
    };
    for (std::int64_t c = 0; c < grid.columns.padded; ++c) {
      const std::string here =
          grid.window_or_padding(r, c) < 0 ? "url(#padding)" : window_colour(grid, r, c);
      if (c > 0 && here == fill) continue;
      flush(c);
      begin = c;
      fill = here;
    }
    flush(grid.columns.padded);
  }
}

void draw_windows(Plane& plane, const GridLevel& grid) {
  const std::string thick = "stroke=\"" + std::string(kBorder) + "\" stroke-width=\"1.5\"";
  const double left = plane.x(0), right = plane.x(grid.columns.padded);
  const double top = plane.y(0), bottom = plane.y(grid.rows.padded);
  const std::vector<Run> rows = block_runs(grid.rows), columns = block_runs(grid.columns);
  // A window is a block of rows times a block of columns, so its borders run across the plane.
  for (std::size_t k = 1; k < rows.size(); ++k)
    plane.line(left, plane.y(rows[k].begin), right, plane.y(rows[k].begin), thick);
  for (std::size_t k = 1; k < columns.size(); ++k)
    plane.line(plane.x(columns[k].begin), top, plane.x(columns[k].begin), bottom, thick);
  plane.rect(left, top, right - left, bottom - top, "fill=\"none\" " + thick);

  const double font = std::clamp(plane.cell() * 1.1, 6.0, 10.0);
  // A label sits on the piece's real tokens where they leave room, else on its padding: clear of
  // the line around the unpadded grid either way.
  auto span = [&](const Run& run, const GridAxis& axis, double min_px) {
    const Run real{std::max(run.begin, axis.pad_before),
                   std::min(run.end, axis.pad_before + axis.size)};
    if (real.end <= real.begin ||
        static_cast<double>(real.end - real.begin) * plane.cell() >= min_px)
      return real.end <= real.begin ? run : real;
    return real.begin > run.begin ? Run{run.begin, real.begin} : Run{real.end, run.end};
  };
  for (const Run& row : rows) {
    for (const Run& column : columns) {
      const std::int32_t number =
          grid.window[static_cast<std::size_t>(row.begin * grid.columns.padded + column.begin)];
      const std::string label = "w" + std::to_string(number);
      const Run r = span(row, grid.rows, font + 1);
      const Run c = span(column, grid.columns, text_width(label, font) + 2);
      if (text_width(label, font) + 2 > plane.x(c.end) - plane.x(c.begin) ||
          font + 1 > plane.y(r.end) - plane.y(r.begin))
        continue;
      plane.text((plane.x(c.begin) + plane.x(c.end)) / 2,
                 (plane.y(r.begin) + plane.y(r.end)) / 2 + font * 0.35, label, font,
                 "text-anchor=\"middle\" fill=\"" + std::string(kBorder) + "\"");
    }
  }
}

// The grid before padding, dashed, and each padding band named where it lies.
void draw_padding(Plane& plane, const GridLevel& grid) {
  const GridAxis &rows = grid.rows, &columns = grid.columns;
  if (rows.pad_before + rows.pad_after + columns.pad_before + columns.pad_after == 0) return;
  plane.rect(plane.x(columns.pad_before), plane.y(rows.pad_before),
             static_cast<double>(columns.size) * plane.cell(),
             static_cast<double>(rows.size) * plane.cell(),
             "fill=\"none\" stroke=\"#000000\" stroke-width=\"1\" stroke-dasharray=\"4,3\"");
  const double right = plane.x(columns.padded) + 6;
  auto row_band = [&](std::int64_t begin, std::int64_t count, const std::string& what) {
    if (count == 0) return;
    const double middle = plane.y(begin) + static_cast<double>(count) * plane.cell() / 2;
    plane.text(right, middle + 3, "padding: " + std::to_string(count) + " " + what, 9,
               "fill=\"#444444\"");
  };
  row_band(0, rows.pad_before, "before");
  row_band(rows.padded - rows.pad_after, rows.pad_after, "after");
  auto column_band = [&](std::int64_t begin, std::int64_t count, const std::string& what) {
    if (count == 0) return;
    const double middle = plane.x(begin) + static_cast<double>(count) * plane.cell() / 2;
    plane.text(middle, plane.y(0) - 5, "padding: " + std::to_string(count) + " " + what, 9,
               "text-anchor=\"middle\" fill=\"#444444\"");
  };
  column_band(0, columns.pad_before, "before");
  column_band(columns.padded - columns.pad_after, columns.pad_after, "after");
}

// Ticks at the real indices of each axis, named by the contract's dims.
void draw_axes(Plane& plane, const GridLevel& grid) {
  const GridAxis &rows = grid.rows, &columns = grid.columns;
  const double left = plane.x(0), bottom = plane.y(rows.padded);
  for (std::int64_t i = 0; i < rows.size; i += tick_step(rows.size)) {
    const double y = plane.y(rows.pad_before + i) + plane.cell() / 2;
    plane.line(left - 4, y, left, y);
    plane.text(left - 6, y + 3, std::to_string(i), 9, "text-anchor=\"end\"");
  }
  for (std::int64_t i = 0; i < columns.size; i += tick_step(columns.size)) {
    const double x = plane.x(columns.pad_before + i) + plane.cell() / 2;
    plane.line(x, bottom, x, bottom + 4);
    plane.text(x, bottom + 14, std::to_string(i), 9, "text-anchor=\"middle\"");
  }
  const double middle = (plane.y(0) + bottom) / 2;
  plane.text(0, 0, rows.name, 12,
             "font-weight=\"bold\" text-anchor=\"middle\" transform=\"translate(20," +
                 svg_number(middle) + ") rotate(-90)\"");
  plane.text((left + plane.x(columns.padded)) / 2, bottom + 30, columns.name, 12,
             "font-weight=\"bold\" text-anchor=\"middle\"");
}

// Swatches, then the level's counts; returns the y below them.
double draw_legend(Plane& plane, const GridLevel& grid, double y) {
  double x = kMarginLeft;
  for (int k = 0; k < 3; ++k)
    plane.rect(x + 10 * k, y - 10, 10, 12, "fill=\"" + std::string(kPalette[k * 4]) + "\"");
  x += 36;
  const std::string tokens =
      "token, coloured by its window (wN: the window's number in gather order)";
  plane.text(x, y, tokens, 11);
  x += text_width(tokens, 11) + 24;
  plane.rect(x, y - 10, 14, 12, "fill=\"url(#padding)\" stroke=\"#333333\" stroke-width=\"0.5\"");
  plane.text(x + 19, y, "padding slot (the gather writes zero)", 11);
  y += 20;
  x = kMarginLeft;
  plane.line(x, y - 4, x + 24, y - 4,
             "stroke=\"" + std::string(kBorder) + "\" stroke-width=\"1.5\"");
  plane.text(x + 30, y, "window border", 11);
  x += 30 + text_width("window border", 11) + 24;
  if (grid.rows.pad_before + grid.rows.pad_after + grid.columns.pad_before +
          grid.columns.pad_after >
      0) {
    plane.line(x, y - 4, x + 24, y - 4,
               "stroke=\"#000000\" stroke-width=\"1\" stroke-dasharray=\"4,3\"");
    plane.text(x + 30, y, "the grid before padding", 11);
  }
  y += 22;
  const std::string counts =
      std::to_string(grid.real_tokens()) + " real tokens, " + std::to_string(grid.padding_slots()) +
      " padding slots, " + std::to_string(grid.windows) + " windows of " +
      std::to_string(grid.window_slots) + " (" +
      join_axes(grid, " \u00d7 ",
                [](const GridAxis& axis) { return std::to_string(axis.window); }) +
      " over " + join_axes(grid, ", ", [](const GridAxis& axis) { return axis.name; }) + "; " +
      std::to_string(grid.window_cells()) + " on this level)";
  plane.text(kMarginLeft, y, counts, 12, "font-weight=\"bold\"");
  return y + 10;
}

}  // namespace

std::string render_grid_svg(const GridLevel& grid, const SvgOptions& options) {
  check_svg_width(options);
  Plane plane(options.width, grid);
  const std::string title =
      grid.contract + ": " +
      (grid.level_label.empty()
           ? std::string()
           : "level " + grid.level_label + " (of " + std::to_string(grid.levels) + "), ") +
      grid.rows.name + " \u00d7 " + grid.columns.name + " padded to " +
      std::to_string(grid.rows.padded) + " \u00d7 " + std::to_string(grid.columns.padded);
  plane.text(12, 24, title, 16, "font-weight=\"bold\"");
  plane.text(12, 46, shift_line(grid), 12, "fill=\"#444444\"");
  draw_cells(plane, grid);
  draw_windows(plane, grid);
  draw_padding(plane, grid);
  draw_axes(plane, grid);
  const double bottom = draw_legend(plane, grid, plane.y(grid.rows.padded) + 58);
  return plane.finish(bottom + 8, title);
}

std::string render_grid_svg(const Contract& contract, std::int64_t level,
                            const SvgOptions& options) {
  check_svg_width(options);
  return render_grid_svg(grid_level(contract, level), options);
}

}  // namespace layoutcheck
