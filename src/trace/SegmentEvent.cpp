/// \file
/// What a segment sink does unless it says otherwise.
#include "SegmentEvent.h"

namespace mlgo {

SegmentSink::~SegmentSink() = default;

llvm::Error SegmentSink::onCodeChunk(const CodeChunk &) { return llvm::Error::success(); }

llvm::Error SegmentSink::onEvents(uint32_t ThreadId, llvm::ArrayRef<SegmentEvent> Events) {
  for (const SegmentEvent &E : Events)
    if (llvm::Error Err = onEvent(ThreadId, E))
      return Err;
  return llvm::Error::success();
}

} // namespace mlgo
