# What tare gives other projects, and how it is installed and packaged (docs/install.md).
#
#   tare::tare           the benchmark library: include/tare/*.hpp and libtare_bench.a (a binary
#                        writes TARE_MAIN(), or links tare::main)
#   tare::main           main() for binaries that do not write TARE_MAIN()
#   tare::gbench_compat  Google Benchmark sources, unchanged but for the include line
#                        (<tare/gbench_compat.hpp>), built as tare benchmarks
# The same names exist under add_subdirectory(tare) (aliases) and after find_package(tare) (the
# installed CMake package), and as pkg-config modules: tare, tare-main, tare-gbench-compat.
#
# Installed layout (<prefix> is CMAKE_INSTALL_PREFIX; /usr in the Debian package):
#   <prefix>/bin/tare                         the CLI
#   <prefix>/lib/tare/tare-spawn-helper       found by tare at <its directory>/../lib/tare/
#   <prefix>/lib/tare/libtare_alloc.so        (src/proc/spawner.cc, src/target/measure.cc), so an
#                                             installed tare works from any prefix
#   <prefix>/lib/tare/libtare_heap_shift.so   the same way (tare ab --layouts)
#   <prefix>/include/tare/*.hpp, alloc_shim.h
#   <prefix>/<libdir>/libtare_bench.a, libtare_bench_main.a
#   <prefix>/<libdir>/cmake/tare/             tareConfig.cmake, tareConfigVersion.cmake, targets
#   <prefix>/<libdir>/pkgconfig/tare*.pc      relocatable (${pcfiledir})
#   <prefix>/share/doc/tare/                  README.md and docs/*.md
# The helper and the shim stay in lib/tare/ whatever <libdir> is (lib/x86_64-linux-gnu for a /usr
# prefix): tare finds them relative to bin/, not through the linker.

include(GNUInstallDirs)

add_library(tare_gbench_compat INTERFACE)
target_link_libraries(tare_gbench_compat INTERFACE tare_bench)

# The public headers are C++17 (checked by tests/install: the consumer builds with -std=c++17).
target_compile_features(tare_bench INTERFACE cxx_std_17)

add_library(tare::tare ALIAS tare_bench)
add_library(tare::main ALIAS tare_bench_main)
add_library(tare::gbench_compat ALIAS tare_gbench_compat)
set_target_properties(tare_bench PROPERTIES EXPORT_NAME tare)
set_target_properties(tare_bench_main PROPERTIES EXPORT_NAME main)
set_target_properties(tare_gbench_compat PROPERTIES EXPORT_NAME gbench_compat)

# Without the tests, everything but what is installed (and the examples or bench/ when asked for)
# stays out of `all`: the modules' test fixtures are still configured, since their tests name them,
# but never built (those that link Google Benchmark get an empty stand-in when it is absent: see
# CMakeLists.txt).
if(NOT TARE_BUILD_TESTS)
  function(tare_exclude_unrequested)
    tare_collect_targets(${PROJECT_SOURCE_DIR} targets)
    set(keep tare tare-spawn-helper tare_bench tare_bench_main tare_alloc tare_heap_shift)
    if(TARE_BUILD_EXAMPLES)
      tare_collect_targets(${PROJECT_SOURCE_DIR}/examples example_targets)
      list(APPEND keep ${example_targets})
    endif()
    if(TARE_BUILD_BENCH)
      tare_collect_targets(${PROJECT_SOURCE_DIR}/bench bench_targets)
      list(APPEND keep ${bench_targets})
    endif()
    foreach(t ${targets})
      get_target_property(type ${t} TYPE)
      if(NOT t IN_LIST keep AND type MATCHES "EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY")
        set_target_properties(${t} PROPERTIES EXCLUDE_FROM_ALL TRUE)
      endif()
    endforeach()
  endfunction()
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL tare_exclude_unrequested)
endif()

if(NOT TARE_INSTALL)
  return()
endif()

if(NOT CMAKE_INSTALL_BINDIR STREQUAL "bin")
  message(WARNING "tare: CMAKE_INSTALL_BINDIR is '${CMAKE_INSTALL_BINDIR}', but an installed tare "
                  "looks for its spawn helper and allocation shim in <its directory>/../lib/tare/; "
                  "keep it 'bin' or set TARE_SPAWN_HELPER and TARE_ALLOC_SHIM where tare runs")
endif()
set(tare_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tare)

install(TARGETS tare RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tare-spawn-helper RUNTIME DESTINATION lib/tare)
install(TARGETS tare_alloc LIBRARY DESTINATION lib/tare)
install(TARGETS tare_heap_shift LIBRARY DESTINATION lib/tare)
install(TARGETS tare_bench tare_bench_main tare_gbench_compat EXPORT tareTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tare DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT tareTargets NAMESPACE tare:: FILE tareTargets.cmake DESTINATION ${tare_cmake_dir})

include(CMakePackageConfigHelpers)
# No find_dependency: the library needs only the C++ standard library and libdl.
file(WRITE ${PROJECT_BINARY_DIR}/package/tareConfig.cmake
     "# find_package(tare): tare::tare, tare::main, tare::gbench_compat (docs/install.md)\n"
     "include(\"\${CMAKE_CURRENT_LIST_DIR}/tareTargets.cmake\")\n")
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/tareConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/tareConfig.cmake
              ${PROJECT_BINARY_DIR}/package/tareConfigVersion.cmake
        DESTINATION ${tare_cmake_dir})

# pkg-config: relocatable, the prefix found from the .pc file's own place.
file(RELATIVE_PATH tare_pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" tare_pc_to_prefix "${tare_pc_to_prefix}")
set(tare_pc_head "prefix=\${pcfiledir}/${tare_pc_to_prefix}\nincludedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}\nlibdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}\n\n")
file(WRITE ${PROJECT_BINARY_DIR}/package/tare.pc "${tare_pc_head}"
     "Name: tare\n"
     "Description: tare benchmark library (write TARE_MAIN(), or also use tare-main)\n"
     "Version: ${PROJECT_VERSION}\n"
     "Cflags: -I\${includedir}\n"
     "Libs: -L\${libdir} -ltare_bench -ldl -Wl,-z,now\n")
file(WRITE ${PROJECT_BINARY_DIR}/package/tare-main.pc "${tare_pc_head}"
     "Name: tare-main\n"
     "Description: main() for tare benchmark binaries that do not write TARE_MAIN()\n"
     "Version: ${PROJECT_VERSION}\n"
     "Requires: tare = ${PROJECT_VERSION}\n"
     "Libs: -L\${libdir} -ltare_bench_main\n")
file(WRITE ${PROJECT_BINARY_DIR}/package/tare-gbench-compat.pc "${tare_pc_head}"
     "Name: tare-gbench-compat\n"
     "Description: Google Benchmark sources built as tare benchmarks (#include <tare/gbench_compat.hpp>)\n"
     "Version: ${PROJECT_VERSION}\n"
     "Requires: tare = ${PROJECT_VERSION}\n")
install(FILES ${PROJECT_BINARY_DIR}/package/tare.pc ${PROJECT_BINARY_DIR}/package/tare-main.pc
              ${PROJECT_BINARY_DIR}/package/tare-gbench-compat.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

file(GLOB tare_docs ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${tare_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package: `cpack -G DEB` in the build directory (docs/install.md). Its dependencies
# are read from the binaries by dpkg-shlibdeps (package dpkg-dev), so they name exactly the
# libraries this build links, at the versions it was built against; the two it opens on demand are
# named below.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tare)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "tare")
set(CPACK_PACKAGE_CONTACT "tare maintainers <tare@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "benchmark harness and performance-regression gate for native code")
set(CPACK_PACKAGE_DESCRIPTION
    "tare measures C++ benchmark binaries (its own library, unmodified Google Benchmark binaries, or any\ncommand) in fresh processes, keeps every sample in SQLite, and compares base and head builds\npaired and interleaved against a null A/A arm: PASS / INCONCLUSIVE / FAIL. Includes the\nbenchmark library, its CMake package and pkg-config files.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # executables and the shim; never the static libraries
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Opened with dlopen when a command needs them (base/shared_library.h), so dpkg-shlibdeps cannot
# see them: PostgreSQL stores (libpq) and evidence bundles (libarchive).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libpq5, libarchive13")
# valgrind: --instrument sim and tare attribute; binutils: attribute's symbol tables and --asm.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "valgrind, binutils")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "g++, cmake, pkg-config, linux-perf")
include(CPack)
