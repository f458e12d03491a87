// Which state walk (gdn_state_tile.h) each StateSplit names on the fast path (K = kFastKeyDim,
// V = kFastValueDim), shared by the fused and the baseline launchers so both run the same shapes.
#pragma once

#include "gdn_decode_common.h"
#include "gdn_kernels.h"
#include "gdn_state_tile.h"

namespace layoutcheck::kernels {

// Columns per streamed chunk: 16 KB of state, 4 loads a thread.
inline constexpr int kStreamChunk = 32;

// The whole head in one block: the walk of whole, whole_deferred and whole_early.
template <class State, StateCaching kCaching = StateCaching::normal>
using WholeHead = StateTile<State, kFastKeyDim, kFastValueDim, 16, kCaching>;

template <class Walk>
struct WalkTag {
  using type = Walk;
};

// Calls visit(WalkTag<Walk>{}) with the walk for split. The whole head in one block is the
// batch-1 kernel, latency bound: 256 threads with 16 loads each equal 512 with 8 at batch 1 and
// beat them at batch 8 and 64 (kernels/gdn/DESIGN.md); the smaller tiles hold 8 loads a thread.
template <class State, class Visitor>
void visit_state_walk(StateSplit split, Visitor&& visit) {
  switch (split) {
    case StateSplit::whole:
      return visit(WalkTag<WholeHead<State>>{});
    case StateSplit::halves:
      return visit(WalkTag<StateTile<State, kFastKeyDim, kFastValueDim / 2, 8>>{});
    case StateSplit::quarters:
      return visit(WalkTag<StateTile<State, kFastKeyDim, kFastValueDim / 4, 8>>{});
    case StateSplit::streamed:
      return visit(WalkTag<StreamedState<State, kFastKeyDim, kFastValueDim, kStreamChunk>>{});
    case StateSplit::whole_deferred:
      return visit(WalkTag<LoadsAfterStaging<WholeHead<State, StateCaching::streaming>>>{});
    case StateSplit::whole_early:
      return visit(WalkTag<LoadsBeforeWait<WholeHead<State, StateCaching::streaming>>>{});
  }
}

}  // namespace layoutcheck::kernels
