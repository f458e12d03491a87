#include "layoutcheck/report/chart_axis.h"

#include <cmath>

namespace layoutcheck {

namespace {

// The 1-2-5 step closest above span / target_ticks.
double nice_step(double span, int target_ticks) {
  const double raw = span / target_ticks;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double multiple : {1.0, 2.0, 5.0, 10.0})
    if (multiple * decade >= raw) return multiple * decade;
  return 10.0 * decade;
}

}  // namespace

ChartAxis::ChartAxis(double low, double high, double pixel_low, double pixel_high)
    : pixel_low_(pixel_low), pixel_high_(pixel_high) {
  if (!(high > low)) {  // one value, or none usable: widen around it
    const double centre = std::isfinite(low) && low > 0 ? low : 1.0;
    low = centre / 2;
    high = centre * 2;
  }
  logarithmic_ = low > 0 && high / low >= 10.0;
  if (logarithmic_) {
    // Snap to 1-2-5 values so the frame starts and ends on a tick.
    const double low_decade = std::pow(10.0, std::floor(std::log10(low)));
    low_ = low >= 5 * low_decade   ? 5 * low_decade
           : low >= 2 * low_decade ? 2 * low_decade
                                   : low_decade;
    const double high_decade = std::pow(10.0, std::floor(std::log10(high)));
    high_ = high <= high_decade       ? high_decade
            : high <= 2 * high_decade ? 2 * high_decade
            : high <= 5 * high_decade ? 5 * high_decade
                                      : 10 * high_decade;
  } else {
    const double step = nice_step(high - (low > 0 ? 0 : low), 6);
    low_ = low >= 0 ? 0.0 : std::floor(low / step) * step;  // times start from zero
    high_ = std::ceil(high / step) * step;
  }
}

double ChartAxis::transform(double value) const {
  return logarithmic_ ? std::log10(value) : value;
}

double ChartAxis::pixel(double value) const {
  const double fraction =
      (transform(value) - transform(low_)) / (transform(high_) - transform(low_));
  return pixel_low_ + fraction * (pixel_high_ - pixel_low_);
}

std::vector<double> ChartAxis::ticks() const {
  std::vector<double> values;
  const double tolerance = 1e-9;
  if (logarithmic_) {
    const int first = static_cast<int>(std::floor(std::log10(low_)));
    const int last = static_cast<int>(std::ceil(std::log10(high_)));
    const double decades = last - first;
    for (int exponent = first; exponent <= last; ++exponent)
      for (double multiple : {1.0, 2.0, 5.0}) {
        if (decades > 3 && multiple != 1.0) continue;  // keep wide ranges readable
        const double value = multiple * std::pow(10.0, exponent);
        if (value >= low_ * (1 - tolerance) && value <= high_ * (1 + tolerance))
          values.push_back(value);
      }
  } else {
    const double step = nice_step(high_ - low_, 6);
    for (double value = low_; value <= high_ + step * tolerance; value += step)
      values.push_back(value);
  }
  return values;
}

}  // namespace layoutcheck
