// Included first in every C++ file that clang compiles (CMakeLists.txt). libstdc++ 12's
// std::stable_sort calls std::get_temporary_buffer, deprecated since C++17, and clang
// reports that deprecation inside the system header (llvm/llvm-project#76515). Reading
// that one header with the warning off keeps -Wdeprecated-declarations on for our code.
#pragma once
#if defined(__clang__) && __has_include(<bits/stl_tempbuf.h>)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <bits/stl_tempbuf.h>
#pragma clang diagnostic pop
#endif
