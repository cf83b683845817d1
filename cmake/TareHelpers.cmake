# tare's own code (the module libraries, the tare binary, the tests) carries line tables only (-g1)
# under RelWithDebInfo: backtraces, gdb's `bt` and ASan reports keep file:line, and a cold build
# compiles in about 35% less time (-g's type and variable information is most of the object code of
# fmt, nlohmann-json and CLI11 templates; docs/testing.md has the figures). The programs tare
# measures (examples/, the test fixtures, the benchmark library and the allocation shim) keep full
# -g: attribution reads their inlining. -DTARE_FULL_DEBUG_INFO=ON gives tare's own code full -g too.
option(TARE_FULL_DEBUG_INFO "Full -g for tare's own code under RelWithDebInfo (default: line tables, -g1)" OFF)
function(tare_own_code_debug_info target)
  if(NOT TARE_FULL_DEBUG_INFO)
    target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo>:-g1>)
  endif()
endfunction()

# tare's own executables (tare, its tests, the fuzz replays) link with gold where the toolchain has
# it (binutils ships it beside ld.bfd): `tare` links in 0.7 s instead of 1.6, and a cold build links
# some 80 executables. What tare spawns and measures (examples, fixtures, the benchmark library's
# users) links with the default linker, as users' programs do. -DTARE_GOLD_LINKER=OFF: the default.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=gold" TARE_HAVE_GOLD)
option(TARE_GOLD_LINKER "Link tare's own executables with gold where the toolchain has it" ON)
function(tare_own_code_linker target)
  if(TARE_HAVE_GOLD AND TARE_GOLD_LINKER)
    target_link_options(${target} PRIVATE -fuse-ld=gold)
  endif()
endfunction()

# tare's own libraries and tests are unity builds: CMake compiles each target's sources in batches
# of 8 per translation unit, so nlohmann-json, fmt, CLI11 and GoogleTest are parsed and their
# templates instantiated once a batch instead of once a file (a cold build takes about 40% less
# CPU; docs/testing.md, "Build time"). What tare spawns and measures — the examples, the test
# fixtures, the benchmark library, the allocation shim, the spawn helper — is built file by file,
# the way users build theirs. The price: two sources of one target may not both define the same
# name at namespace scope, even in anonymous namespaces (they may share a translation unit);
# tests/module_rules checks it for every target, whichever batch each file lands in.
# -DTARE_UNITY_BUILD=OFF builds every file alone.
option(TARE_UNITY_BUILD "Build tare's own libraries and tests as unity builds (batches of 8 sources)" ON)
function(tare_own_code_unity_build target)
  if(TARE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  # The target's sources, for the check (module_rules.unity_names); written whether or not this
  # build is a unity build, so turning it on never meets a clash.
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/unity_sources/${target}.txt
       CONTENT "${target}\n$<TARGET_PROPERTY:${target},SOURCE_DIR>\n$<JOIN:$<TARGET_PROPERTY:${target},SOURCES>,\n>\n")
endfunction()

# The tests' own sources (the drivers, not the code they test: that is in the module libraries, built
# with the build's flags) compile without optimisation: -O0 takes ~40% less time than -O2 for a
# GoogleTest file (docs/testing.md, "Build time"), and what a test body does itself is a few calls
# and comparisons. A test binary whose bodies compute (seeded simulations of thousands of
# campaigns) says OPTIMIZED and keeps the build's level. TARE_TEST_OPTIMIZE="" gives every test the
# build's own level.
set(TARE_TEST_OPTIMIZE "-O0" CACHE STRING "Optimisation flag for the tests' own sources (\"\": the build's)")

# tare_test(NAME name SOURCES a_test.cc ... LIBS tare_x ... [OPTIMIZED] [SERIAL [BESIDE_OTHERS Suite.Test ...]])
# A GoogleTest binary registered with ctest (each TEST becomes its own ctest entry). SERIAL: its
# tests judge timings (a 3% change must show), so ctest runs each alone instead of beside others
# on the same cores. BESIDE_OTHERS: the tests of a SERIAL binary that judge no time (counts under
# valgrind, the length of a sample) and may run beside others; a name that is not a TEST of the
# sources fails the configure, so a renamed test cannot silently fall back.
include(GoogleTest)
function(tare_test)
  cmake_parse_arguments(T "SERIAL;OPTIMIZED" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;BESIDE_OTHERS" ${ARGN})
  # Without the tests (-DTARE_BUILD_TESTS=OFF, the default under add_subdirectory) the same
  # placeholder as below: the caller's target_* lines still apply, nothing is built or registered,
  # and GoogleTest is not needed.
  if(NOT TARE_BUILD_TESTS)
    add_executable(${T_NAME} EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/cmake/placeholder_main.cc)
    return()
  endif()
  # Several sessions share one working tree: a test whose sources are still being written is
  # skipped with a warning instead of breaking everyone's configure.
  foreach(src ${T_SOURCES})
    if(NOT IS_ABSOLUTE ${src} AND NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${src})
      message(WARNING "test ${T_NAME} skipped: ${src} does not exist yet")
      # A placeholder target, so the caller's target_* lines still apply; never registered.
      add_executable(${T_NAME} EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/cmake/placeholder_main.cc)
      return()
    endif()
  endforeach()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  tare_own_code_debug_info(${T_NAME})
  tare_own_code_unity_build(${T_NAME})
  tare_own_code_linker(${T_NAME})
  if(TARE_TEST_OPTIMIZE AND NOT T_OPTIMIZED)
    target_compile_options(${T_NAME} PRIVATE ${TARE_TEST_OPTIMIZE})
  endif()
  # A test beside a module's code may read that module's internal headers.
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  if(rel MATCHES "^src/([^/]+)")
    tare_module_private(${T_NAME} ${CMAKE_MATCH_1})
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  set(serial FALSE)
  if(T_SERIAL)
    set(serial TRUE)
  endif()
  gtest_discover_tests(${T_NAME}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
    DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${T_TIMEOUT})
  # The list-valued properties are not given to gtest_discover_tests: its PROPERTIES flattens
  # lists, so "LABELS e2e;valgrind" read as LABELS e2e plus a property named valgrind, and the
  # RUN_SERIAL and ENVIRONMENT after it were lost with it (until 2026-12-04 every binary with two
  # labels ran beside others and without its environment, and only TARE_SOURCE_DIR of the two
  # variables reached the rest). A file ctest reads after the discovered tests sets them; a binary
  # not built yet defines no <name>_TESTS and gets nothing. CI's sanitizer stage
  # (cmake/TareSanitizers.cmake) adds the label asan-ci here too, the thread stage tsan-ci.
  set(labels ${T_LABELS})
  if(T_NAME IN_LIST kTareSanitizerCiTests)
    list(APPEND labels asan-ci)
  endif()
  if(T_NAME IN_LIST kTareTsanCiTests)
    list(APPEND labels tsan-ci)
  endif()
  # One string (a list's items would lose the semicolons inside them).
  string(CONCAT props "if(DEFINED ${T_NAME}_TESTS)\n"
                "  set_tests_properties(\${${T_NAME}_TESTS} PROPERTIES\n"
                "    LABELS [==[${labels}]==] RUN_SERIAL ${serial}\n"
                "    ENVIRONMENT [==[TARE_SOURCE_DIR=${PROJECT_SOURCE_DIR};TARE_BINARY_DIR=${PROJECT_BINARY_DIR}]==])\n")
  if(T_BESIDE_OTHERS)
    if(NOT T_SERIAL)
      message(FATAL_ERROR "tare_test(${T_NAME}): BESIDE_OTHERS applies to a SERIAL binary")
    endif()
    set(text "")
    foreach(src ${T_SOURCES})
      file(READ ${CMAKE_CURRENT_SOURCE_DIR}/${src} content)
      string(APPEND text "${content}")
    endforeach()
    foreach(t ${T_BESIDE_OTHERS})
      string(REPLACE "." ";" parts ${t})
      list(GET parts 0 suite)
      list(GET parts 1 case)
      if(NOT text MATCHES "TEST(_F)?\\(${suite}, ${case}\\)")
        message(FATAL_ERROR "tare_test(${T_NAME}): BESIDE_OTHERS names ${t}, which is not a test of ${T_SOURCES}")
      endif()
    endforeach()
    list(JOIN T_BESIDE_OTHERS " " beside)
    string(APPEND props "  set_tests_properties(${beside} PROPERTIES RUN_SERIAL FALSE)\n")
  endif()
  string(APPEND props "endif()\n")
  set(props_file ${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}_properties.cmake)
  file(WRITE ${props_file} "${props}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${props_file})
endfunction()
