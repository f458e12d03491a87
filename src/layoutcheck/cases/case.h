// A case is a plug-in: one operator of one model family (GDN decode, a RoPE, a window gather)
// with everything the shared toolkit needs to check a port of it and nothing the toolkit knows
// of the operator itself:
//   - its named buffers (inputs, outputs, in-place state), each a dtype and a default contract;
//   - its reference, reading and writing its buffers through any contracts (the CPU model of a
//     kernel built for layout C is the reference reading through C);
//   - the kernel ABIs a port may implement, and CPU models of deliberately broken kernels;
//   - the probe decoders that apply to it, and the tolerance of its value comparisons.
// The probe engine (probe/), the verdict, `run` and the CLI work on any case through this
// interface; a case registers itself in one line (src/cases/builtin_cases.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/bench/bench_request.h"
#include "layoutcheck/cases/buffers.h"
#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

// The contract of each laid-out buffer, by buffer name.
using CaseLayouts = std::map<std::string, Contract, std::less<>>;

// One finding: its kind ("dependence", "unresolved", "ambiguous", "not-a-copy", "row-stride",
// "output-layout", "routing", "out-of-bounds", ...; "values" is the one soft kind: per-probe value
// deviations, which the random-input check overrules when it ran), the buffer it concerns, and one
// line that names elements and offsets. Probe verdicts list them; runners report their own.
struct ProbeFinding {
  std::string kind;
  std::string buffer;
  std::string message;
};

// Anything that performs the case's operator: its reference, a CPU model of a kernel, a GPU
// kernel or a runtime-compiled port. The probe engine treats it as a black box.
class CaseRunner {
 public:
  virtual ~CaseRunner() = default;
  virtual std::string name() const = 0;
  // Reads the input and in-place buffers of `buffers` and writes the output and in-place ones.
  // @post throws std::runtime_error on a failure it cannot recover from (GPU errors name the call).
  virtual void run(BufferSet& buffers) = 0;
  // What the runner saw itself since the last call: a GPU port's writes past the end of a buffer
  // (its guard zones), counters it left non-zero. Nothing for CPU models.
  virtual std::vector<ProbeFinding> take_findings() { return {}; }
};

// Inputs chosen to expose one numeric fault that random inputs hide (a residual's rounding point,
// a row of large mean and small spread): the probe engine runs the kernel and the reference on
// each, and a difference is a finding of `kind`, never a soft value deviation.
struct ValueProbe {
  std::string kind;         // "rounding-point"
  std::string description;  // what a kernel that differs gets wrong, one line
  BufferSet buffers;        // inputs laid out as the model lays them out; outputs zero
  double tolerance = 0;     // relative L2 of every written buffer against the reference's
};

// A kernel interface a port may implement: how its arguments are packed is the case's business
// (its GPU half); here, what a user needs to write a port.
struct AbiSpec {
  std::string name;         // "rope_apply_v1"
  std::string description;  // one line
  std::string header;       // the header a port includes ("rope_abi.h"), embedded for hipRTC
  std::vector<std::string> buffers;  // the buffers it passes, in argument order
};

// The decoders the toolkit offers (probe/): which apply to a case is the case's choice.
inline constexpr std::string_view kDataMovementDecoder = "data-movement";
inline constexpr std::string_view kDependenceDecoder = "dependence";

class Case {
 public:
  virtual ~Case() = default;
  virtual std::string name() const = 0;     // "rope"
  virtual std::string summary() const = 0;  // one line
  virtual std::vector<BufferSpec> buffers() const = 0;
  virtual std::vector<AbiSpec> abis() const = 0;
  // The decoders `probe --case` may use, the default first.
  virtual std::vector<std::string> decoders() const = 0;
  // The buffer probed when none is named: the one whose layout is the porting question.
  virtual std::string default_probe_buffer() const = 0;
  // The buffers `layoutcheck run` probes in a port: every buffer whose layout a port could get
  // wrong and the probes can see (a table indexed by another buffer, such as RoPE's cos_sin, is
  // checked by the values instead).
  virtual std::vector<std::string> port_probe_buffers() const { return {default_probe_buffer()}; }

  // @pre `layouts` holds a contract for every buffer with one (validate_layouts passed).
  // Buffers for `batch` rows, inputs filled with random values the operator is well conditioned
  // on (seeded), outputs zero.
  virtual BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                                 std::uint64_t seed) const = 0;
  // The reference reading and writing through `layouts`.
  virtual std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const = 0;
  // CPU models of deliberately broken kernels: (name, what is broken).
  virtual std::vector<std::pair<std::string, std::string>> mutants() const { return {}; }
  // @post nullptr when no mutant has that name.
  virtual std::unique_ptr<CaseRunner> mutant(std::string_view /*name*/,
                                             const CaseLayouts& /*layouts*/) const {
    return nullptr;
  }

  // @post throws InputError (rule "case-layout") naming the buffer, contract and what differs
  //       when a contract cannot describe its buffer (fields, shapes, dtype).
  virtual void validate_layout(std::string_view buffer, const Contract& contract) const = 0;

  // The one-hot probe's values for `buffer`: the constant every element holds and the value of
  // the probed one; both exact in the buffer's dtype, far enough apart that a response shows.
  virtual std::pair<double, double> one_hot_values(std::string_view /*buffer*/) const {
    return {0.5, 2.5};
  }

  // @pre as make_buffers. Empty when random inputs show every fault the case knows of.
  virtual std::vector<ValueProbe> value_probes(const CaseLayouts& /*model*/, std::int64_t /*batch*/,
                                               std::uint64_t /*seed*/) const {
    return {};
  }

  // Two runs' outputs agree when every element is within this relative distance of the
  // reference's (plus the output dtype's rounding); bitwise for pure data movement.
  virtual double value_tolerance() const { return 1e-2; }

  // The case's buffer a contract describes: its `buffer:` key, unless the case names that buffer
  // otherwise (GDN's "state" is the contracts' "ssm_state").
  virtual std::string buffer_described_by(const Contract& contract) const {
    return contract.buffer;
  }

  // The case's bench (`layoutcheck bench --case`): its paths, the first the baseline, and what
  // its reports record; nullopt when it has none. Its GPU half registers the run itself
  // (gpu/case_bench.h).
  virtual std::optional<BenchDeclaration> bench() const { return std::nullopt; }
  // @post throws InputError (rule "usage") naming what the case's bench cannot take: a size it
  //       does not have, sizes past its kernels' bounds. Run after validate_bench_request.
  virtual void validate_bench(const BenchRequest& /*request*/) const {}

  // The spec of one buffer; nullopt when the case has none of that name.
  std::optional<BufferSpec> buffer(std::string_view name) const;
};

}  // namespace layoutcheck
