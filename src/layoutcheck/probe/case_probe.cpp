#include "layoutcheck/probe/case_probe.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <tuple>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/row_map.h"
#include "layoutcheck/diff/read_map.h"

namespace layoutcheck {
namespace {

[[noreturn]] void refuse(const std::string& message, const std::string& fix) {
  throw InputError(Diagnostic{SourceLocation{"<probe>"}, Severity::error, "probe", message, fix});
}

// How a runner's written buffers are read back: through the contract of each (the model's for the
// reference, the kernel's claim for the kernel), so that a response names logical output
// elements and a kernel that writes its output in the layout it claims is judged on its reads.
struct ObservedLayout {
  std::string name;
  std::optional<RowMap> owners;  // absent: a buffer with no contract, read by raw index
  std::int64_t stride = 0;
};

// One element of a written buffer, logically: (buffer, row, global element id), or, where the
// contract puts no element, (buffer, row, -1 - offset); (buffer, 0, index) without a contract.
using OutputKey = std::tuple<std::size_t, std::int64_t, std::int64_t>;

class Subject {
 public:
  Subject(CaseRunner& runner, const std::vector<std::string>& observed, const CaseLayouts& layouts)
      : runner_(runner) {
    for (const std::string& name : observed) {
      ObservedLayout layout{name, std::nullopt, 0};
      if (const auto found = layouts.find(name); found != layouts.end()) {
        layout.owners = RowMap::build(found->second);
        layout.stride = row_stride(found->second);
      }
      observed_.push_back(std::move(layout));
    }
  }

  // The observed buffers after one run on `inputs` (copied: a runner may write in place).
  std::vector<HostBuffer> run(const BufferSet& inputs) {
    BufferSet work = inputs;
    runner_.run(work);
    ++runs_;
    std::vector<HostBuffer> observed;
    for (const ObservedLayout& layout : observed_) observed.push_back(work.at(layout.name));
    return observed;
  }
  OutputKey key(std::size_t buffer, std::int64_t index) const {
    const ObservedLayout& layout = observed_[buffer];
    if (!layout.owners || layout.stride <= 0) return {buffer, 0, index};
    const std::int64_t row = index / layout.stride, offset = index % layout.stride;
    const std::uint32_t owner =
        offset < layout.owners->size() ? layout.owners->at(offset) : RowMap::kEmpty;
    return {buffer, row, owner < RowMap::kPadding ? std::int64_t{owner} : -1 - offset};
  }
  std::int64_t runs() const { return runs_; }
  std::vector<std::string> observed() const {
    std::vector<std::string> names;
    for (const ObservedLayout& layout : observed_) names.push_back(layout.name);
    return names;
  }
  std::string name() const { return runner_.name(); }

 private:
  CaseRunner& runner_;
  std::vector<ObservedLayout> observed_;
  std::int64_t runs_ = 0;
};

// One unit in the last place of `dtype` at `value`: the step a rounding may move an output by.
// Integers change exactly or not at all.
double ulp_at(DType dtype, double value) {
  int mantissa = 0, min_exponent = 0;
  switch (dtype) {
    case DType::fp16: mantissa = 10, min_exponent = -14; break;
    case DType::bf16: mantissa = 7, min_exponent = -126; break;
    case DType::fp32: mantissa = 23, min_exponent = -126; break;
    case DType::fp64: mantissa = 52, min_exponent = -1022; break;
    default: return 0;
  }
  if (!std::isfinite(value)) return 0;
  const int exponent = value == 0 ? min_exponent : std::max(std::ilogb(value), min_exponent);
  return std::ldexp(1.0, exponent - mantissa);
}

// What one run changed in the buffers a runner writes, against its base run: the logical output
// elements, the differences and each element's rounding step, sorted, so two responses compare
// as sets and as values.
struct Response {
  std::vector<OutputKey> where;
  std::vector<double> delta;
  std::vector<double> ulp;
  bool empty() const { return where.empty(); }
  // The outputs changed by more than a few rounding steps: a kernel that rounds where the
  // reference does not (fp32 statistics, a centred row kept in fp16) moves an output by a step or
  // two in one run and none in the other, and that is not a dependence.
  std::vector<OutputKey> beyond_rounding() const {
    std::vector<OutputKey> keys;
    for (std::size_t i = 0; i < where.size(); ++i)
      if (std::abs(delta[i]) > kRoundingSteps * ulp[i]) keys.push_back(where[i]);
    return keys;
  }
  static constexpr double kRoundingSteps = 4;
};

// Two responses change the same outputs up to rounding: every output one changes beyond
// rounding, the other changes too.
bool same_outputs_up_to_rounding(const Response& a, const Response& b) {
  const auto within = [](const std::vector<OutputKey>& strong, const std::vector<OutputKey>& all) {
    return std::includes(all.begin(), all.end(), strong.begin(), strong.end());
  };
  return within(a.beyond_rounding(), b.where) && within(b.beyond_rounding(), a.where);
}

Response response(const Subject& subject, const std::vector<HostBuffer>& base,
                  const std::vector<HostBuffer>& now) {
  struct Change {
    OutputKey key;
    double delta, ulp;
  };
  std::vector<Change> changed;
  for (std::size_t b = 0; b < base.size(); ++b) {
    if (now[b].bytes.size() != base[b].bytes.size())
      throw std::runtime_error("the runner resized buffer '" + base[b].name + "'");
    const std::int64_t n = base[b].elements();
    for (std::int64_t i = 0; i < n; ++i) {
      if (base[b].bits(i) == now[b].bits(i)) continue;
      const double delta = now[b].value(i) - base[b].value(i);
      changed.push_back({subject.key(b, i), std::isfinite(delta) ? delta : 1e300,
                         ulp_at(base[b].dtype, base[b].value(i))});
    }
  }
  std::sort(changed.begin(), changed.end(),
            [](const Change& a, const Change& b) { return a.key < b.key; });
  Response r;
  for (const Change& change : changed) {
    r.where.push_back(change.key);
    r.delta.push_back(change.delta);
    r.ulp.push_back(change.ulp);
  }
  return r;
}

// max |a - b| / max |b| over the outputs either changes (an output one leaves alone changed by
// 0): how far one response is from another.
double distance(const Response& a, const Response& b) {
  double miss = 0, scale = 0;
  std::size_t i = 0, j = 0;
  while (i < a.where.size() || j < b.where.size()) {
    const bool take_a = j == b.where.size() || (i < a.where.size() && a.where[i] <= b.where[j]);
    const bool take_b = i == a.where.size() || (j < b.where.size() && b.where[j] <= a.where[i]);
    const double da = take_a ? a.delta[i] : 0, db = take_b ? b.delta[j] : 0;
    miss = std::max(miss, std::abs(da - db));
    scale = std::max(scale, std::abs(db));
    i += take_a;
    j += take_b;
  }
  return scale > 0 ? miss / scale : (miss > 0 ? 1e300 : 0);
}

// Relative L2 of every observed buffer of the kernel against the reference; NaN where both are
// NaN agrees (padding the model leaves undefined), NaN on one side only does not.
std::pair<bool, std::string> compare_values(const std::vector<HostBuffer>& kernel,
                                            const std::vector<HostBuffer>& reference,
                                            double tolerance) {
  bool ok = true;
  std::string detail;
  for (std::size_t b = 0; b < kernel.size(); ++b) {
    double diff = 0, norm = 0;
    std::int64_t one_sided_nan = 0;
    for (std::int64_t i = 0; i < kernel[b].elements(); ++i) {
      const double k = kernel[b].value(i), r = reference[b].value(i);
      if (std::isnan(k) || std::isnan(r)) {
        one_sided_nan += std::isnan(k) != std::isnan(r);
        continue;
      }
      diff += (k - r) * (k - r);
      norm += r * r;
    }
    const double relative = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
    const bool agrees = relative <= tolerance && one_sided_nan == 0;
    char text[96];
    std::snprintf(text, sizeof text, "%s rel L2 %.2e", kernel[b].name.c_str(), relative);
    detail += (detail.empty() ? "" : ", ") + std::string(text) +
              (one_sided_nan ? " (" + std::to_string(one_sided_nan) + " NaN on one side)" : "");
    ok = ok && agrees;
  }
  return {ok, detail};
}

std::vector<std::string> observed_buffers(const Case& subject) {
  std::vector<std::string> names;
  for (const BufferSpec& spec : subject.buffers())
    if (spec.writes()) names.push_back(spec.name);
  return names;
}

// The offsets probed: all of the buffer's span, or a seeded sample of max_probes of them that
// always holds row 0's offsets first (the read map comes from row 0).
std::vector<std::int64_t> probe_points(const HostBuffer& buffer, std::int64_t max_probes,
                                       std::uint64_t seed) {
  const std::int64_t span = buffer.elements();
  std::vector<std::int64_t> points(static_cast<std::size_t>(span));
  std::iota(points.begin(), points.end(), 0);
  if (span <= max_probes) return points;
  std::mt19937_64 random(seed);
  std::shuffle(points.begin(), points.end(), random);
  points.resize(static_cast<std::size_t>(max_probes));
  std::sort(points.begin(), points.end());
  return points;
}

// The owner of an offset of a row, or kPadding past its elements (a padded row pitch: the pad
// between rows holds no element).
std::uint32_t owner_at(const RowMap& owners, std::int64_t offset) {
  return offset >= 0 && offset < owners.size() ? owners.at(offset) : RowMap::kPadding;
}

std::string element_text(const Contract& contract, const RowMap& owners, std::int64_t offset) {
  if (offset < 0 || offset >= owners.size()) return "beyond the row";
  const std::uint32_t owner = owners.at(offset);
  if (owner == RowMap::kEmpty) return "nothing";
  if (owner == RowMap::kPadding) return "padding";
  return contract.element_name(contract.element_from_global(owner));
}

struct Setup {
  const Contract& producer;
  const Contract& claimed;
  RowMap producer_owners;
  std::int64_t stride;
};

CaseVerdict start_verdict(const Case& subject, std::string_view decoder,
                          const CaseProbeRequest& request, const Subject& kernel,
                          const Setup& setup) {
  CaseVerdict verdict;
  verdict.case_name = subject.name();
  verdict.decoder = std::string(decoder);
  verdict.runner = kernel.name();
  verdict.buffer = request.buffer;
  verdict.rows = request.rows;
  verdict.static_diff =
      compare_reads(setup.producer, setup.claimed, ReadMap::from_contract(setup.claimed));
  verdict.static_diff.producer_file = setup.producer.file;
  verdict.static_diff.consumer_file = setup.claimed.file;
  return verdict;
}

// Values on random inputs laid out as the model lays them out, then the case's value probes.
// Returns the random inputs: the probes that follow start from them.
BufferSet check_values(const Case& subject, CaseRunner& kernel_runner,
                       const CaseProbeRequest& request, Subject& kernel, Subject& reference,
                       double tolerance, CaseVerdict& verdict) {
  BufferSet random = subject.make_buffers(request.model, request.rows, request.seed);
  const auto [values_ok, values_detail] =
      compare_values(kernel.run(random), reference.run(random), tolerance);
  verdict.values_checked = true;
  verdict.values_ok = values_ok;
  verdict.values_detail = values_detail;
  if (request.value_probes)
    for (ProbeFinding& finding : run_value_probes(subject, kernel_runner, request))
      verdict.add(finding.kind, finding.buffer, finding.message);
  return random;
}

void finish_read_map(CaseVerdict& verdict, const Setup& setup, const ReadMap& reads) {
  verdict.reads = compare_reads(setup.producer, setup.claimed, reads);
  verdict.reads.producer_file = setup.producer.file;
  verdict.reads.consumer_file = setup.claimed.file;
  verdict.reads.consumer = verdict.runner;
  verdict.agrees_with_diff =
      verdict.reads.unresolved == 0 && verdict.unresolved == 0 &&
      verdict.reads.misread_mask == verdict.static_diff.misread_mask &&
      verdict.static_diff.row_mismatches.empty() == (verdict.row_stride_findings == 0);
}

// The buffers not probed: the layouts they were judged on, and where the kernel's claimed layout
// differs from the model's. An output:
// the kernel writes elements where the model reads others (the dependence probes read the
// kernel's responses through its claim, so where they resolve, the claim is what the kernel
// does). An input (asked for by the request): the kernel reads elements where the model put
// others; the probes feed it that buffer as it claims, so only this comparison sees it.
void check_other_layouts(const Case& subject, const CaseProbeRequest& request,
                         CaseVerdict& verdict) {
  for (const BufferSpec& spec : subject.buffers()) {
    if (spec.name == request.buffer) continue;
    const auto model = request.model.find(spec.name);
    const auto claimed = request.claimed.find(spec.name);
    if (model == request.model.end() || claimed == request.claimed.end()) continue;
    verdict.other_layouts.push_back({spec.name, model->second.name, claimed->second.name});
    const bool output = spec.role == BufferRole::output;
    if (!output && !request.check_inputs_not_probed) continue;
    const MisreadReport placed =
        compare_reads(model->second, claimed->second, ReadMap::from_contract(claimed->second));
    if (!placed.has_findings()) continue;
    std::string message =
        "'" + spec.name + "' is " + (output ? "written" : "read") + " as " + claimed->second.name +
        (output ? ", the model reads it as " : ", the model lays it out as ") + model->second.name +
        ": " + std::to_string(placed.misread) + " of " + std::to_string(placed.elements) +
        (output ? " elements land where the model reads another"
                : " elements are read where the model put another");
    for (const std::string& mismatch : placed.row_mismatches) message += "; " + mismatch;
    if (output) verdict.outputs_misplaced += std::max<std::int64_t>(placed.misread, 1);
    verdict.add(output ? "output-layout" : "input-layout", spec.name, message);
  }
}

// ---- dependence ----

// The kernel's inputs for a probe of one buffer: that buffer as the model lays it out, every other
// laid-out buffer as the kernel claims it, with the same logical contents. A kernel that misreads
// the state would otherwise answer every probe of q with other values than the reference's: each
// buffer's reads are judged alone here, and the values on the model's layouts judge them together.
BufferSet kernel_inputs(const BufferSet& model_inputs, const CaseProbeRequest& request) {
  BufferSet inputs = model_inputs;
  for (HostBuffer& buffer : inputs.all()) {
    if (buffer.name == request.buffer) continue;
    const auto model = request.model.find(buffer.name);
    const auto claimed = request.claimed.find(buffer.name);
    if (model == request.model.end() || claimed == request.claimed.end()) continue;
    buffer = relaid_out(buffer, model->second, claimed->second);
  }
  return inputs;
}

CaseVerdict probe_dependence(const Case& subject, CaseRunner& kernel_runner,
                             const CaseProbeRequest& request, const Setup& setup) {
  Subject kernel(kernel_runner, observed_buffers(subject), request.claimed);
  const std::unique_ptr<CaseRunner> reference_runner = subject.reference(request.model);
  Subject reference(*reference_runner, observed_buffers(subject), request.model);
  CaseVerdict verdict = start_verdict(subject, kDependenceDecoder, request, kernel, setup);

  const BufferSet random = check_values(subject, kernel_runner, request, kernel, reference,
                                        subject.value_tolerance(), verdict);

  // The probed buffer holds one value everywhere; each probe sets one offset to another.
  BufferSet base = random;
  HostBuffer& probed = base.at(request.buffer);
  const auto [base_value, hot_value] = subject.one_hot_values(request.buffer);
  for (std::int64_t i = 0; i < probed.elements(); ++i) probed.set_value(i, base_value);
  BufferSet kernel_set = kernel_inputs(base, request);
  HostBuffer& kernel_probed = kernel_set.at(request.buffer);
  const std::vector<HostBuffer> kernel_base = kernel.run(kernel_set);
  const std::vector<HostBuffer> reference_base = reference.run(base);

  const std::vector<std::int64_t> points = probe_points(probed, request.max_probes, request.seed);
  verdict.offsets = probed.elements();
  verdict.probed = static_cast<std::int64_t>(points.size());
  std::vector<Response> kernel_responses, reference_responses;
  kernel_responses.reserve(points.size());
  reference_responses.reserve(points.size());
  const std::uint64_t base_bits = probed.bits(0);
  for (std::size_t p = 0; p < points.size(); ++p) {
    probed.set_value(points[p], hot_value);
    kernel_probed.set_value(points[p], hot_value);
    kernel_responses.push_back(response(kernel, kernel_base, kernel.run(kernel_set)));
    reference_responses.push_back(response(reference, reference_base, reference.run(base)));
    probed.set_bits(points[p], base_bits);
    kernel_probed.set_bits(points[p], base_bits);
    if (request.progress) request.progress(static_cast<std::int64_t>(p + 1), verdict.probed);
  }

  // The reference's responses by the set of outputs they change: the candidates for a kernel's.
  // And by each output they change, for the responses that agree only up to rounding.
  std::map<std::vector<OutputKey>, std::vector<std::size_t>> by_set;
  std::map<OutputKey, std::vector<std::size_t>> by_output;
  for (std::size_t p = 0; p < points.size(); ++p)
    if (!reference_responses[p].empty()) {
      by_set[reference_responses[p].where].push_back(p);
      for (const OutputKey& key : reference_responses[p].where) by_output[key].push_back(p);
    }

  const Contract& producer = setup.producer;
  ReadMap reads;
  reads.offsets.assign(static_cast<std::size_t>(setup.claimed.elements()), ReadMap::kNotRead);
  std::int64_t value_deviations = 0;
  const auto where = [&](std::int64_t point) {
    return "row " + std::to_string(point / setup.stride) + " offset " +
           std::to_string(point % setup.stride);
  };
  for (std::size_t p = 0; p < points.size(); ++p) {
    const Response& seen = kernel_responses[p];
    if (seen.empty()) continue;  // the kernel does not read this offset
    // The reference elements changing the same outputs, or the same up to those a rounding
    // step moved in one run and not in the other.
    const std::vector<std::size_t>* candidates = nullptr;
    std::vector<std::size_t> near;
    if (const auto exact = by_set.find(seen.where); exact != by_set.end()) {
      candidates = &exact->second;
    } else if (const std::vector<OutputKey> beyond = seen.beyond_rounding(); !beyond.empty()) {
      if (const auto sharing = by_output.find(beyond.front()); sharing != by_output.end())
        for (const std::size_t candidate : sharing->second)
          if (same_outputs_up_to_rounding(seen, reference_responses[candidate]))
            near.push_back(candidate);
      if (!near.empty()) candidates = &near;
    }
    if (candidates == nullptr) {
      ++verdict.dependence_mismatches;
      verdict.add("dependence", request.buffer,
                  where(points[p]) + " (" +
                      element_text(producer, setup.producer_owners, points[p] % setup.stride) +
                      ") changes " + std::to_string(seen.where.size()) +
                      " output elements, a set no element changes in the reference");
      continue;
    }
    // Among the elements whose response changes the same outputs, the one within tolerance.
    std::vector<std::size_t> close;
    for (std::size_t candidate : *candidates)
      if (distance(seen, reference_responses[candidate]) <= request.tolerance)
        close.push_back(candidate);
    std::size_t chosen;
    if (close.size() == 1) {
      chosen = close.front();
    } else if (close.empty() && candidates->size() == 1) {
      chosen = candidates->front();  // named by the outputs alone; the values are off
      ++value_deviations;
    } else {
      ++verdict.unresolved;
      verdict.add(close.empty() ? "unresolved" : "ambiguous", request.buffer,
                  where(points[p]) + ": its response " +
                      (close.empty() ? std::string("matches none of ")
                                     : "matches " + std::to_string(close.size()) + " of ") +
                      std::to_string(candidates->size()) +
                      " reference elements changing the same outputs");
      continue;
    }
    const std::int64_t source = points[chosen];  // where the producer keeps what was read
    const std::int64_t row = points[p] / setup.stride, source_row = source / setup.stride;
    const std::int64_t offset = points[p] % setup.stride, source_offset = source % setup.stride;
    const std::uint32_t owner = owner_at(setup.producer_owners, source_offset);
    if (row != source_row) {
      ++verdict.row_stride_findings;
      verdict.add("row-stride", request.buffer,
                  where(points[p]) + " is read as row " + std::to_string(source_row) + "'s " +
                      element_text(producer, setup.producer_owners, source_offset));
      continue;
    }
    if (owner >= RowMap::kPadding) continue;  // not an element of the producer's
    // The read map is row 0's; other rows must read alike.
    const auto element = static_cast<std::size_t>(owner);
    if (row == 0) {
      if (reads.offsets[element] == ReadMap::kNotRead) reads.offsets[element] = offset;
    } else if (reads.offsets[element] >= 0 && reads.offsets[element] != offset) {
      ++verdict.row_stride_findings;
      verdict.add("row-stride", request.buffer,
                  "row " + std::to_string(row) + " reads " +
                      producer.element_name(producer.element_from_global(owner)) + " from offset " +
                      std::to_string(offset) + ", row 0 from offset " +
                      std::to_string(reads.offsets[element]));
    }
  }
  if (value_deviations > 0)
    verdict.add("values", request.buffer,
                std::to_string(value_deviations) +
                    " probes change the outputs of the element they name, with other values "
                    "than the reference's");
  if (value_deviations > 0) verdict.finding_counts["values"] = value_deviations;
  // A sample stands for the row only where it looked: an element whose claimed offset in row 0 was
  // not probed is placed by the claim (and counted); one whose offset was probed and did not
  // answer stays unread.
  if (verdict.probed < verdict.offsets) {
    std::vector<bool> row0_probed(static_cast<std::size_t>(setup.stride), false);
    for (std::int64_t point : points)
      if (point < setup.stride) row0_probed[static_cast<std::size_t>(point)] = true;
    const ReadMap claimed = ReadMap::from_contract(setup.claimed);
    for (std::size_t id = 0; id < reads.offsets.size(); ++id) {
      const std::int64_t offset = claimed.offsets[id];
      if (reads.offsets[id] != ReadMap::kNotRead || offset < 0 ||
          row0_probed[static_cast<std::size_t>(offset)])
        continue;
      reads.offsets[id] = offset;
      ++verdict.placed_by_claim;
    }
  }
  finish_read_map(verdict, setup, reads);
  check_other_layouts(subject, request, verdict);
  verdict.runs = kernel.runs();
  return verdict;
}

// ---- data movement ----

struct BitValues {
  double zero = 1.0, one = -2.0;  // exact in every float dtype; 1 and 2 for integers
};

BitValues bit_values(DType dtype) {
  switch (dtype) {
    case DType::bf16:
    case DType::fp16:
    case DType::fp32:
    case DType::fp64:
      return {1.0, -2.0};
    default:
      return {1.0, 2.0};
  }
}

// Per observed element: the index of the probed buffer's element it copies, kConstant or
// kNotACopy (the markers of SourceMap, data_movement.h).
constexpr std::int64_t kConstant = -1, kNotACopy = -2;

// The number of runs sources() makes for a buffer of n elements: all zero, all one, a bit plane
// for each bit of the largest index.
std::int64_t source_runs(std::int64_t n) {
  std::int64_t runs = 2;
  for (int bit = 0; (std::int64_t{1} << bit) < n; ++bit) ++runs;
  return runs;
}

// `ran` is called after each run, for progress: a bit plane of a large grid is a long run.
std::vector<std::vector<std::int64_t>> sources(Subject& subject, BufferSet inputs,
                                               const std::string& probed_name,
                                               const std::function<void()>& ran) {
  HostBuffer& probed = inputs.at(probed_name);
  const BitValues bits = bit_values(probed.dtype);
  HostBuffer zero_pattern = probed, one_pattern = probed;
  for (std::int64_t i = 0; i < probed.elements(); ++i) {
    zero_pattern.set_value(i, bits.zero);
    one_pattern.set_value(i, bits.one);
  }
  const std::uint64_t zero_bits = zero_pattern.bits(0), one_bits = one_pattern.bits(0);
  probed = zero_pattern;
  const std::vector<HostBuffer> all_zero = subject.run(inputs);
  ran();
  probed = one_pattern;
  const std::vector<HostBuffer> all_one = subject.run(inputs);
  ran();
  std::vector<std::vector<std::int64_t>> source(all_zero.size());
  for (std::size_t b = 0; b < all_zero.size(); ++b) {
    source[b].assign(static_cast<std::size_t>(all_zero[b].elements()), 0);
    for (std::int64_t j = 0; j < all_zero[b].elements(); ++j) {
      const auto index = static_cast<std::size_t>(j);
      if (all_zero[b].bits(j) == all_one[b].bits(j))
        source[b][index] = kConstant;
      else if (all_zero[b].width() != probed.width() || all_zero[b].bits(j) != zero_bits ||
               all_one[b].bits(j) != one_bits)
        source[b][index] = kNotACopy;
    }
  }
  const std::int64_t n = probed.elements();
  for (int bit = 0; (std::int64_t{1} << bit) < n; ++bit) {
    for (std::int64_t i = 0; i < n; ++i) probed.set_bits(i, (i >> bit) & 1 ? one_bits : zero_bits);
    const std::vector<HostBuffer> out = subject.run(inputs);
    ran();
    for (std::size_t b = 0; b < out.size(); ++b)
      for (std::int64_t j = 0; j < out[b].elements(); ++j) {
        std::int64_t& s = source[b][static_cast<std::size_t>(j)];
        if (s < 0) continue;
        const std::uint64_t value = out[b].bits(j);
        if (value == one_bits)
          s |= std::int64_t{1} << bit;
        else if (value != zero_bits)
          s = kNotACopy;
      }
  }
  for (auto& per_buffer : source)
    for (std::int64_t& s : per_buffer)
      if (s >= n) s = kNotACopy;
  return source;
}

CaseVerdict probe_data_movement(const Case& subject, CaseRunner& kernel_runner,
                                const CaseProbeRequest& request, const Setup& setup) {
  Subject kernel(kernel_runner, observed_buffers(subject), {});
  const std::unique_ptr<CaseRunner> reference_runner = subject.reference(request.model);
  Subject reference(*reference_runner, observed_buffers(subject), {});
  CaseVerdict verdict = start_verdict(subject, kDataMovementDecoder, request, kernel, setup);

  const BufferSet random =
      check_values(subject, kernel_runner, request, kernel, reference, 0.0, verdict);

  const std::int64_t total_runs = 2 * source_runs(random.at(request.buffer).elements());
  std::int64_t runs_done = 0;
  const auto ran = [&] {
    if (request.progress) request.progress(++runs_done, total_runs);
  };
  const auto expected = sources(reference, random, request.buffer, ran);
  std::int64_t computed = 0, outputs = 0;
  for (const auto& per_buffer : expected)
    for (std::int64_t s : per_buffer) computed += s == kNotACopy, ++outputs;
  if (computed > 0)
    refuse("the data-movement decoder needs outputs that are copies of '" + request.buffer +
               "' or constants; the reference computes " + std::to_string(computed) + " of " +
               std::to_string(outputs) + " output elements",
           "probe this case with --decoder dependence");
  const auto seen = sources(kernel, random, request.buffer, ran);
  const HostBuffer& probed = random.at(request.buffer);
  verdict.offsets = verdict.probed = probed.elements();

  const Contract& producer = setup.producer;
  ReadMap reads;
  reads.offsets.assign(static_cast<std::size_t>(setup.claimed.elements()), ReadMap::kNotRead);
  const auto input_text = [&](std::int64_t index) {
    return "row " + std::to_string(index / setup.stride) + " " +
           element_text(producer, setup.producer_owners, index % setup.stride);
  };
  for (std::size_t b = 0; b < expected.size(); ++b)
    for (std::size_t j = 0; j < expected[b].size(); ++j) {
      const std::int64_t want = expected[b][j], got = seen[b][j];
      const std::string output = kernel.observed()[b] + "[" + std::to_string(j) + "]";
      if (got == kNotACopy) {
        verdict.add("not-a-copy", kernel.observed()[b],
                    output + " holds a value no element of '" + request.buffer + "' held");
        continue;
      }
      if (want == kConstant || got == kConstant) {
        if (want != got)
          verdict.add(
              "dependence", kernel.observed()[b],
              want == kConstant
                  ? output + " copies " + input_text(got) + " where the reference writes a constant"
                  : output + " is a constant where the reference copies " + input_text(want));
        verdict.dependence_mismatches += want != got;
        continue;
      }
      const std::int64_t want_row = want / setup.stride, got_row = got / setup.stride;
      if (want_row != got_row) {
        ++verdict.row_stride_findings;
        verdict.add("row-stride", kernel.observed()[b],
                    output + " copies " + input_text(got) + ", the reference " + input_text(want));
        continue;
      }
      const std::uint32_t owner = owner_at(setup.producer_owners, want % setup.stride);
      if (owner >= RowMap::kPadding || want_row != 0) continue;
      auto& read = reads.offsets[static_cast<std::size_t>(owner)];
      if (read == ReadMap::kNotRead) read = got % setup.stride;
    }
  finish_read_map(verdict, setup, reads);
  check_other_layouts(subject, request, verdict);
  verdict.runs = kernel.runs();
  return verdict;
}

}  // namespace

std::vector<ProbeFinding> run_value_probes(const Case& subject, CaseRunner& kernel_runner,
                                           const CaseProbeRequest& request) {
  std::vector<ValueProbe> probes = subject.value_probes(request.model, request.rows, request.seed);
  if (probes.empty()) return {};
  Subject kernel(kernel_runner, observed_buffers(subject), {});
  const std::unique_ptr<CaseRunner> reference_runner = subject.reference(request.model);
  Subject reference(*reference_runner, observed_buffers(subject), {});
  std::vector<ProbeFinding> findings;
  for (const ValueProbe& probe : probes) {
    const auto [ok, detail] =
        compare_values(kernel.run(probe.buffers), reference.run(probe.buffers), probe.tolerance);
    if (!ok) findings.push_back({probe.kind, "", probe.description + " (" + detail + ")"});
  }
  return findings;
}

void require_probeable_buffer(const Case& subject, const std::string& buffer) {
  const auto spec = subject.buffer(buffer);
  if (spec && spec->reads()) return;
  std::string readable;
  for (const BufferSpec& each : subject.buffers())
    if (each.reads()) readable += (readable.empty() ? "" : ", ") + each.name;
  refuse("case '" + subject.name() + "' " +
             (spec ? "writes buffer '" + buffer + "' but does not read it"
                   : "has no buffer '" + buffer + "'") +
             ": a probe varies what a kernel reads",
         "probe a buffer it reads (" + readable + ") with contracts of that buffer");
}

CaseVerdict probe_case(const Case& subject, CaseRunner& kernel, std::string_view decoder,
                       const CaseProbeRequest& request) {
  const std::vector<std::string> offered = subject.decoders();
  if (std::find(offered.begin(), offered.end(), decoder) == offered.end()) {
    std::string list;
    for (const std::string& name : offered) list += (list.empty() ? "" : ", ") + name;
    refuse("case '" + subject.name() + "' has no decoder '" + std::string(decoder) + "'",
           "one of: " + list);
  }
  require_probeable_buffer(subject, request.buffer);
  const auto model = request.model.find(request.buffer);
  const auto claimed = request.claimed.find(request.buffer);
  if (model == request.model.end() || claimed == request.claimed.end())
    refuse("no contract for buffer '" + request.buffer + "'", "give --producer and --consumer");
  if (request.rows < 1) refuse("at least one row per run", "--rows 2");
  // Before any work on the contracts: a window contract's validation alone walks every element.
  for (const CaseLayouts* layouts : {&request.model, &request.claimed})
    for (const auto& [name, contract] : *layouts) {
      std::int64_t elements = 0;
      if (__builtin_mul_overflow(contract.row_size, request.rows, &elements) ||
          elements > request.element_cap)
        refuse("buffer '" + name + "' at " + std::to_string(request.rows) + " rows of " +
                   std::to_string(contract.row_size) + " elements is more than the cap of " +
                   std::to_string(request.element_cap) + " elements",
               "fewer --rows, smaller sizes with --set, or a higher --max-elements");
    }
  for (const auto& [name, contract] : request.model) subject.validate_layout(name, contract);
  for (const auto& [name, contract] : request.claimed) subject.validate_layout(name, contract);
  require_same_fields(model->second, claimed->second);
  const Setup setup{model->second, claimed->second, RowMap::build(model->second),
                    row_stride(model->second)};
  if (decoder == kDependenceDecoder) return probe_dependence(subject, kernel, request, setup);
  if (decoder == kDataMovementDecoder) return probe_data_movement(subject, kernel, request, setup);
  refuse("decoder '" + std::string(decoder) + "' is not one of the toolkit's",
         "the case decodes it itself");
}

}  // namespace layoutcheck
