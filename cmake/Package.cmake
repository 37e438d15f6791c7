# What `cmake --install` puts beside the binary and the tool (their rules are in
# src/cli/ and src/trace/valgrind/), and the Debian package `cpack -G DEB` makes of it.
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES src/trace/valgrind/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME LICENSE.mlgotrace)

set(CPACK_PACKAGE_NAME mlgo-ra)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "trains and checks ML register-allocation eviction policies for LLVM 22")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(MLGO_RA_PACKAGE_MAINTAINER "mlgo-ra maintainers" CACHE STRING
    "The Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${MLGO_RA_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_LICENSE "Apache-2.0; libexec/mlgo-ra: GPL-2.0-or-later")

# The libraries mlgo-ra links (libllvm22, libzstd1, libzip4, zlib1g, libfmt9, libopenmpi3
# with MPI, libc6, libstdc++6...) come from dpkg-shlibdeps (dpkg-dev); the programs it
# runs are named here. The mlgotrace tool links Valgrind's core statically and loads the
# system's preload libraries: it needs the Valgrind release it was built against.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(MlgoDepends "clang-${LLVM_VERSION_MAJOR}")
find_program(MLGO_DPKG_QUERY dpkg-query)
if(MLGO_HAVE_VALGRIND_TOOL AND MLGO_DPKG_QUERY)
  execute_process(COMMAND ${MLGO_DPKG_QUERY} -W -f=\${Version} valgrind
                  OUTPUT_VARIABLE MlgoValgrindVersion RESULT_VARIABLE MlgoQueryFailed
                  ERROR_QUIET)
endif()
if(MlgoValgrindVersion MATCHES "^([0-9]+:)?([0-9]+)\\.([0-9]+)")
  math(EXPR MlgoNextMinor "${CMAKE_MATCH_3} + 1")
  set(MlgoEpoch "${CMAKE_MATCH_1}")
  string(APPEND MlgoDepends ", valgrind (>= ${MlgoEpoch}${CMAKE_MATCH_2}.${CMAKE_MATCH_3}),"
         " valgrind (<< ${MlgoEpoch}${CMAKE_MATCH_2}.${MlgoNextMinor}~)")
else()
  string(APPEND MlgoDepends ", valgrind")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS ${MlgoDepends})
include(CPack)
