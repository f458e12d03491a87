// A correct port: the decode kernel reading Qwen3.5's flat buffers in place, its addressing the
// generated contract headers. `layoutcheck run correct_native.yaml` reports it clean.
#include "flat_addressing.h"

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::FlatAddressing>(args);
}
