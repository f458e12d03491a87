#include "layoutcheck/codegen/adapter_source.h"

#include <cstring>
#include <numeric>
#include <sstream>
#include <vector>

#include "layoutcheck/codegen/cpp_text.h"
#include "layoutcheck/diff/read_map.h"
#include "layoutcheck/platform/bf16.h"

namespace layoutcheck::codegen {
namespace {

const char* element_type(int bytes) {
  switch (bytes) {
    case 1:
      return "unsigned char";
    case 2:
      return "unsigned short";
    case 4:
      return "unsigned int";
    default:
      return "unsigned long long";
  }
}

// The bit pattern a producer writes for a padding fill value, as an unsigned literal.
std::string fill_bits(DType dtype, double fill, const Padding& padding) {
  switch (dtype) {
    case DType::bf16:
      return std::to_string(float_to_bf16(static_cast<float>(fill))) + "u";
    case DType::fp32:
      return std::to_string(float_bits(static_cast<float>(fill))) + "u";
    case DType::fp64: {
      std::uint64_t bits;
      std::memcpy(&bits, &fill, sizeof bits);
      return std::to_string(bits) + "ull";
    }
    case DType::fp16:
      throw InputError(Diagnostic{padding.where, Severity::error, "adapter",
                                  "padding '" + padding.name +
                                      "': fill values of fp16 buffers are not supported by "
                                      "generated adapters",
                                  "drop the fill or convert the buffer in another step"});
    default: {
      const auto value = static_cast<long long>(fill);
      const int bits = dtype_bytes(dtype) * 8;
      const unsigned long long mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
      return std::to_string(static_cast<unsigned long long>(value) & mask) + "ull";
    }
  }
}

// C++ statements computing `result` = offset of logical element `e` (a local named e) of field.
// Every size and stride is a literal.
std::string offset_expression(const Field& field, const std::string& result,
                              const std::string& prefix) {
  std::ostringstream code;
  code << "    long long " << prefix << "rest = e;\n";
  std::vector<std::string> dim_index(field.dims.size());
  for (std::size_t d = field.dims.size(); d-- > 0;) {
    dim_index[d] = prefix + "d" + std::to_string(d);
    if (d == 0) {
      code << "    const long long " << dim_index[d] << " = " << prefix << "rest;\n";
    } else {
      code << "    const long long " << dim_index[d] << " = " << prefix << "rest % "
           << field.dims[d].size() << "LL;\n"
           << "    " << prefix << "rest /= " << field.dims[d].size() << "LL;\n";
    }
  }
  code << "    " << result << " = " << field.offset << "LL";
  for (std::size_t d = 0; d < field.dims.size(); ++d) {
    const Dim& dim = field.dims[d];
    if (dim.modes.size() == 1) {
      code << " + " << dim_index[d] << " * " << dim.modes[0].stride << "LL";
      continue;
    }
    std::string rest = dim_index[d];
    for (std::size_t m = 0; m < dim.modes.size(); ++m) {
      const bool last = m + 1 == dim.modes.size();
      const std::string mode_index =
          last ? "(" + rest + ")"
               : "((" + rest + ") % " + std::to_string(dim.modes[m].size) + "LL)";
      code << " + " << mode_index << " * " << dim.modes[m].stride << "LL";
      rest = "(" + rest + ") / " + std::to_string(dim.modes[m].size) + "LL";
    }
  }
  code << ";\n";
  return code.str();
}

struct FieldPlan {
  const Field* from = nullptr;
  const Field* to = nullptr;
  std::int64_t elements = 0;
  std::int64_t run = 1;  // elements contiguous in both rows, starting at multiples of run
  bool wide = false;     // runs are whole, aligned 16-byte chunks in both rows
};

FieldPlan plan_field(const Field& from, const Field& to, int vector_elements) {
  FieldPlan plan{&from, &to, from.elements()};
  const std::vector<std::int64_t> source = from.offsets(), target = to.offsets();
  std::int64_t run = plan.elements;
  for (std::size_t e = 1; e < source.size(); ++e)
    if (source[e] != source[e - 1] + 1 || target[e] != target[e - 1] + 1)
      run = std::gcd(run, static_cast<std::int64_t>(e));
  plan.run = std::max<std::int64_t>(run, 1);
  plan.wide = plan.run % vector_elements == 0;
  for (std::size_t e = 0; plan.wide && e < source.size(); e += static_cast<std::size_t>(plan.run))
    plan.wide = source[e] % vector_elements == 0 && target[e] % vector_elements == 0;
  return plan;
}

}  // namespace

AdapterSource generate_adapter_source(const Contract& from, const Contract& to,
                                      const std::string& entry_name) {
  require_same_fields(from, to);
  AdapterSource adapter;
  adapter.element_bytes = dtype_bytes(from.dtype);
  adapter.vector_elements = 16 / adapter.element_bytes;
  adapter.wide_entry = entry_name + "_wide";
  adapter.scalar_entry = entry_name + "_scalar";
  adapter.from_row_size = from.row_size;
  adapter.to_row_size = to.row_size;

  std::vector<FieldPlan> plans;
  for (const Field& field : from.fields)
    plans.push_back(plan_field(field, *to.find_field(field.name), adapter.vector_elements));
  std::vector<const Padding*> fills;
  for (const Padding& padding : to.padding)
    if (padding.fill) fills.push_back(&padding);
  adapter.wide_possible = true;
  for (const FieldPlan& plan : plans) adapter.wide_possible = adapter.wide_possible && plan.wide;

  std::ostringstream code;
  // Contract names are free text: made safe for a comment line (a newline would end it).
  const std::string from_name = cpp_comment_text(from.name), to_name = cpp_comment_text(to.name);
  code << "// Generated by layoutcheck codegen: adapter " << from_name << " -> " << to_name
       << ", dtype " << dtype_name(from.dtype) << ".\n"
       << "// Every logical element moves from where " << from_name << " puts it to where "
       << to_name << " wants it.\n"
       << "typedef " << element_type(adapter.element_bytes) << " lc_element;\n"
       << "struct __attribute__((aligned(16))) lc_chunk { unsigned int x, y, z, w; };\n\n";

  std::ostringstream description;
  for (std::size_t f = 0; f < plans.size(); ++f) {
    const FieldPlan& plan = plans[f];
    description << plan.from->name << ": " << plan.elements << " elements in runs of " << plan.run
                << (plan.wide ? ", copied 16 bytes at a time" : ", copied element by element")
                << "\n";
    code << "// " << plan.from->name << ": " << plan.from->layout_string() << " @ "
         << plan.from->offset << "  ->  " << plan.to->layout_string() << " @ " << plan.to->offset
         << "\n"
         << "__device__ inline void lc_field_" << f
         << "(long long e, long long& from, long long& to) {\n"
         << "  {\n"
         << offset_expression(*plan.from, "from", "s_") << "  }\n"
         << "  {\n"
         << offset_expression(*plan.to, "to", "t_") << "  }\n"
         << "}\n\n";
  }
  for (const Padding* fill : fills)
    description << "padding '" << fill->name << "': " << fill->size << " elements filled\n";
  adapter.description = description.str();

  // One kernel body per entry: items of field 0, then field 1, ..., then padding fills.
  const auto write_kernel = [&](bool wide) {
    const std::string name = wide ? adapter.wide_entry : adapter.scalar_entry;
    code << "extern \"C\" __global__ void __launch_bounds__(" << kAdapterThreads << ") " << name
         << "(const void* source_rows, long long source_row_stride, void* target_rows, "
            "long long target_row_stride) {\n"
         << "  const long long item = (long long)blockIdx.x * " << kAdapterThreads
         << " + threadIdx.x;\n"
         << "  const long long row = blockIdx.y;\n"
         << "  const lc_element* source = (const lc_element*)source_rows + row * "
            "source_row_stride;\n"
         << "  lc_element* target = (lc_element*)target_rows + row * target_row_stride;\n"
         << "  long long from, to;\n";
    std::int64_t begin = 0;
    for (std::size_t f = 0; f < plans.size(); ++f) {
      const std::int64_t step = wide ? adapter.vector_elements : 1;
      const std::int64_t items = plans[f].elements / step;
      code << "  if (item < " << begin + items << "LL) {\n"
           << "    lc_field_" << f << "((item - " << begin << "LL) * " << step << ", from, to);\n";
      if (wide)
        code << "    *(lc_chunk*)(target + to) = *(const lc_chunk*)(source + from);\n";
      else
        code << "    target[to] = source[from];\n";
      code << "    return;\n  }\n";
      begin += items;
    }
    for (const Padding* fill : fills) {
      code << "  if (item < " << begin + fill->size << "LL) {\n"
           << "    target[" << fill->offset << "LL + (item - " << begin << "LL)] = (lc_element)"
           << fill_bits(to.dtype, *fill->fill, *fill) << ";\n"
           << "    return;\n  }\n";
      begin += fill->size;
    }
    code << "}\n\n";
    return begin;
  };
  if (adapter.wide_possible) adapter.wide_items = write_kernel(true);
  adapter.scalar_items = write_kernel(false);
  adapter.text = code.str();
  return adapter;
}

}  // namespace layoutcheck::codegen
