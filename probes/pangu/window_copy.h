// Shared by the window gather and reverse ports in this folder (ABIs pangu_window_gather_v1 and
// pangu_window_reverse_v1, kernels/pangu/pangu_abi.h): token j of every batch row of `to` copies
// token source(j) of the same row of `from`, or zeros where source(j) < 0. Each port supplies
// `source`: the map, or its own index arithmetic (window_index.h). Grid-stride over words (x)
// and batch rows (y), so any launch geometry covers everything and nothing depends on the wave
// size. Tokens move in __half2-wide words when every token and row starts on one, else in fp16
// elements.
#pragma once

#include "layoutcheck/platform/gpu_runtime.h"  // the device builtins offline; nothing to add at run time
#include "pangu_abi.h"

namespace port {

using layoutcheck::PanguWindowArgs;

template <class Word, class Source>
__device__ inline void copy_words(const PanguWindowArgs& args, long long to_tokens,
                                  long long words_per_token, const Source& source) {
  const long long words = to_tokens * words_per_token;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (long long row = blockIdx.y; row < args.batch; row += gridDim.y) {
    const Word* from = reinterpret_cast<const Word*>(args.from + row * args.from_row_stride);
    Word* to = reinterpret_cast<Word*>(args.to + row * args.to_row_stride);
    for (long long i = first; i < words; i += step) {
      const long long token = i / words_per_token;
      const long long source_token = source(token);
      to[i] =
          source_token < 0 ? Word(0) : from[source_token * words_per_token + i % words_per_token];
    }
  }
}

// @pre source(j) is -1 or a token of `from` for every j < to_tokens.
template <class Source>
__device__ inline void copy_tokens(const PanguWindowArgs& args, long long to_tokens,
                                   const Source& source) {
  const bool paired =
      args.channels % 2 == 0 && args.from_row_stride % 2 == 0 && args.to_row_stride % 2 == 0;
  if (paired)
    copy_words<unsigned int>(args, to_tokens, args.channels / 2, source);
  else
    copy_words<unsigned short>(args, to_tokens, args.channels, source);
}

}  // namespace port
