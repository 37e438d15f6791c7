/// \file
/// A traced function whose code a variant could not provide (VariantCode.h), as replay
/// results report it.
#pragma once

#include <string>

namespace mlgo {

struct FunctionMismatch {
  std::string Function; ///< CodeFunction::key()
  std::string Reason;
};

} // namespace mlgo
