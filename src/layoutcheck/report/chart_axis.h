// One axis of a chart: maps a data value to a pixel coordinate, linear or logarithmic, and picks
// tick values a reader can take in at a glance (1, 2, 5 × 10^k).
#pragma once

#include <vector>

namespace layoutcheck {

class ChartAxis {
 public:
  // Covers [low, high] (both > 0 for a log axis; a degenerate range is widened) and maps it onto
  // the pixel range [pixel_low, pixel_high] (pixel_high may be smaller: y grows downwards).
  // Chooses log when high / low >= 10 and low > 0.
  ChartAxis(double low, double high, double pixel_low, double pixel_high);

  bool logarithmic() const { return logarithmic_; }
  double low() const { return low_; }
  double high() const { return high_; }
  double pixel(double value) const;
  std::vector<double> ticks() const;  // inside [low, high], ascending

 private:
  double transform(double value) const;
  bool logarithmic_ = false;
  double low_ = 0, high_ = 1;
  double pixel_low_ = 0, pixel_high_ = 1;
};

}  // namespace layoutcheck
