// A framework's figures for Pangu's operators, as scripts/pangu-framework-bench.py --json writes
// them: the GPU they were measured on, how they were timed and, per operator and shape,
// torch.compile's and eager PyTorch's median µs per call, each captured in a CUDA graph. The bench
// holds the native path to beat them, so figures from another GPU or timed another way are
// refused, not compared, and a compiled figure whose output failed the script's check against
// eager is left out (its target then reads as missed, never as met).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "layoutcheck/bench/operator_report.h"
#include "layoutcheck/contract/contract.h"

namespace layoutcheck::pangu {

inline constexpr const char* kTorchCompile = "torch.compile + CUDA graph";
inline constexpr const char* kEagerGraph = "eager + CUDA graph";

struct FrameworkFigures {
  struct Operator {
    std::string name;   // as the bench names it: "LayerNorm", "window gather", ...
    std::string shape;  // "[1,33120,384]": the bench's shape begins with it
    std::vector<FrameworkFigure> figures;
  };
  std::string file;
  std::string device;  // "NVIDIA H200", as the CUDA runtime names it
  // The timing method: calls captured in one graph, time per call = replay ÷ calls, the calls
  // rotating over input sets of at least rotation_bytes.
  std::int64_t calls_per_graph = 0;
  std::int64_t rotation_bytes = 0;
  // The window partition the framework ran: window sizes (levels, latitude, longitude) and the
  // torch.roll shifts of the shifted blocks.
  std::array<std::int64_t, 3> window{};
  std::array<std::int64_t, 3> roll{};
  std::vector<Operator> operators;
};

// @post throws InputError naming the file for a file that cannot be read, is not JSON, lacks a
//       member, names no device or method, or holds a figure that is not a positive number of µs.
FrameworkFigures load_framework_figures(const std::string& file);

// @post throws InputError when the figures were measured on a GPU not named `device`, or timed
//       with other calls per graph or rotation bytes than the bench's.
void require_comparable(const FrameworkFigures& figures, const std::string& device,
                        std::int64_t calls_per_graph, std::int64_t rotation_bytes);

// @post throws InputError when the figures' partition is not the shifted windows contract's: its
//       window sizes (WZ, WH, WW) and the roll its framework plan applies (framework_window.h).
void require_same_windows(const FrameworkFigures& figures, const Contract& shifted_windows);

// Puts each operator's figures beside the measurement of that name whose shape begins with the
// figures' shape. A measurement left without one misses its framework target (operator_report.h).
void attach_framework_figures(const FrameworkFigures& figures,
                              std::vector<OperatorMeasurement>& operators);

}  // namespace layoutcheck::pangu
