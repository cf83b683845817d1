# Sanitizer and fuzzer builds (docs/testing.md).
#
#   -DTARE_SANITIZE=address,undefined   every target compiled and linked with
#       -fsanitize=<list> -fno-omit-frame-pointer -fno-sanitize-recover=undefined
#       (scripts/test.sh --sanitize builds build-asan this way and runs the unit and e2e tests;
#       scripts/test.sh, i.e. CI, builds and runs only the `asan-ci` subset below).
#   -DTARE_FUZZ=ON                       clang only: builds tests/fuzz/*_fuzz.cc as libFuzzer
#       binaries (-fsanitize=fuzzer,address,undefined); every library gets
#       -fsanitize=fuzzer-no-link,address,undefined so the parsers are coverage-instrumented.
#
# Whatever the build, tests/fuzz registers a replay test per harness (label unit): the harness's
# LLVMFuzzerTestOneInput run over its seed corpus and its saved crashes, with a plain main().
#
# What is sanitized: tare itself — every library of src/, the tare executable, the tests. What is
# not: the programs tare *measures*, which are built the way users build theirs:
#   - the allocation shim libtare_alloc.so. It is LD_PRELOADed in front of the measured program,
#     and ASan cannot run behind it: the shim's first malloc reaches ASan's interceptor before
#     ASan is initialised ("CHECK failed: asan_posix.cpp: tsd_key_inited"), and an ASan-built shim
#     preloaded into an uninstrumented program aborts ("ASan runtime does not come first");
#   - the benchmark-author library tare_bench (tare_bench_main), linked into measured programs;
#   - every executable that links no sanitized library of this project and no GoogleTest: the
#     test fixtures and examples tare spawns and measures (their peak RSS, exit signals and CPU
#     time are what the tests assert; ASan's runtime adds ~15 MB of RSS and ~50 ms of start-up,
#     and turns SIGSEGV into exit 1), and tare-spawn-helper, whose own high-water mark a forked
#     child inherits at exec (docs/measurement.md, "the peak-RSS trap"). Its wire format is
#     fuzzed instead (tests/fuzz/spawn_wire_fuzz.cc).
# (The fuzz build makes no exemption: it builds the harnesses and the libraries they link.)

set(TARE_SANITIZE "" CACHE STRING
    "Comma-separated -fsanitize= list for every target (e.g. address,undefined); empty: none")
option(TARE_FUZZ "Build the libFuzzer harnesses of tests/fuzz (needs clang)" OFF)

set(tare_sanitizer_flags "")
if(TARE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TARE_FUZZ=ON needs clang (libFuzzer): configure with "
                        "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(tare_sanitizer_flags -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                           -fno-sanitize-recover=undefined)
elseif(TARE_SANITIZE)
  set(tare_sanitizer_flags -fsanitize=${TARE_SANITIZE} -fno-omit-frame-pointer
                           -fno-sanitize-recover=undefined)
endif()

if(tare_sanitizer_flags)
  message(STATUS "tare: sanitizer flags ${tare_sanitizer_flags}")
  add_compile_options(${tare_sanitizer_flags})
  # fuzzer-no-link is a compile-time request; linking it adds nothing, linking the others adds
  # their runtimes.
  string(REPLACE "fuzzer-no-link," "" tare_sanitizer_link_flags "${tare_sanitizer_flags}")
  add_link_options(${tare_sanitizer_link_flags})
endif()
if(TARE_FUZZ)
  # The spawn helper is linked -static where the toolchain can (src/proc); the sanitizer runtimes
  # cannot be ("cannot specify -static with -fsanitize=address"), so it is linked as usual. (In a
  # sanitizer build the helper is exempt, below, and stays static.)
  set(TARE_SPAWN_HELPER_STATIC OFF)
endif()

set(kTareSanitizerExemptLibraries tare_alloc tare_bench tare_bench_main)

function(tare_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    tare_collect_targets(${sub} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(tare_remove_sanitizer_flags target)
  foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
    get_target_property(opts ${target} ${prop})
    if(opts)
      list(REMOVE_ITEM opts ${tare_sanitizer_flags} ${tare_sanitizer_link_flags})
      set_target_properties(${target} PROPERTIES ${prop} "${opts}")
    endif()
  endforeach()
endfunction()

# Runs once every directory is added (cmake_language DEFER below).
function(tare_apply_sanitizer_exemptions)
  tare_collect_targets(${PROJECT_SOURCE_DIR} targets)
  set(sanitized_libraries "")
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type MATCHES "LIBRARY$" AND NOT t IN_LIST kTareSanitizerExemptLibraries)
      list(APPEND sanitized_libraries ${t})
    endif()
  endforeach()
  set(exempt ${kTareSanitizerExemptLibraries})
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(NOT type STREQUAL "EXECUTABLE")
      continue()
    endif()
    get_target_property(links ${t} LINK_LIBRARIES)
    set(measured TRUE)
    foreach(l ${links})
      if(l IN_LIST sanitized_libraries OR l MATCHES "^GTest::")
        set(measured FALSE)
      endif()
    endforeach()
    if(measured)
      list(APPEND exempt ${t})
    endif()
  endforeach()
  foreach(t ${exempt})
    if(TARGET ${t})
      tare_remove_sanitizer_flags(${t})
      # Optimised as users build theirs (and as the normal build does), not at the -O0 that
      # scripts/sanitize.sh gives tare's own code: below -O2 gbench_cases' empty loop survives
      # (0.3 ns per iteration at -O1) and target_test's "measured no work" warning cannot fire.
      target_compile_options(${t} PRIVATE -O2)
    endif()
  endforeach()
  list(JOIN exempt " " shown)
  message(STATUS "tare: built without sanitizers (measured programs): ${shown}")
endfunction()
if(tare_sanitizer_flags AND NOT TARE_FUZZ)
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL tare_apply_sanitizer_exemptions)
endif()

# CI's sanitizer stage (scripts/sanitize.sh --ci, run by scripts/test.sh after the normal tests):
# the whole sanitizer build does not fit CI's budget (docs/testing.md, "What CI runs"), so CI
# builds the target tare_asan_ci — these tests and what they need, nothing else — and runs
# `ctest -L asan-ci`. Chosen where input tare did not write enters: the parsers and the escaping
# of it. tare_test() adds the label `asan-ci` to each test listed here; tests/fuzz adds it to the
# replay of each harness listed (its seeds and saved crashes, under ASan and UBSan). What is left
# out, and what each part costs: docs/testing.md, "What CI runs".
set(kTareSanitizerCiTests
  base_test              # units, files, regex (RE2 on user patterns)
  terminal_text_test     # escaping for the terminal
  json_text_test         # bytes that are not UTF-8, in JSON
  json_read_test         # malformed JSON from outside: parse and read errors
  bytes_text_test
  callgrind_profile_test # the callgrind profile parser (a directory the benchmark writes)
  target_test            # Google Benchmark JSON and --benchmark_list_tests output
  compare_test           # tare.toml [compare], history, thresholds
  env_test               # /proc, cpuinfo, cgroups, ELF facts, the host fingerprint's JSON
  report_test            # Markdown/CSV escaping, run tables
  ab_report_test         # the ledger (campaign, cell and benchmark names in Markdown)
  html_test)             # HTML escaping, the pages
# The fuzz harnesses whose replay CI's stage runs: those whose library does not need
# tare_campaign (which brings session and store; tare_bundle is built on it): docs/testing.md.
set(kTareSanitizerCiFuzzHarnesses
  callgrind gbench child_protocol spawn_wire oracle cpuinfo cgroup elf host_facts compare_config)

# CI's ThreadSanitizer stage (scripts/tsan.sh, run by scripts/test.sh after the ASan stage): build-tsan/
# configured with -DTARE_SANITIZE=thread, the target tare_tsan_ci built — these tests and what they
# need — and `ctest -L tsan-ci` run. Chosen where tare runs a second thread (docs/architecture.md,
# "Threads"); what is left out and what the stage costs: docs/testing.md, "What CI runs".
set(kTareTsanCiTests
  session_test    # the store written behind the next sample (session/write_behind.h); the host
                  # fingerprint read by std::async (session/plain_run.cc)
  transfer_test   # store::CopyRuns: the reader one batch ahead of the writer (store/run_copy.h)
  env_test        # git's provenance on a thread of its own (StartGitProvenance, env/provenance.h)
  base_test)      # FileHashCache hashed from four threads at once (base/hash_cache.h)

function(tare_define_sanitizer_ci_target)
  set(deps "")
  foreach(t ${kTareSanitizerCiTests})
    if(TARGET ${t})
      list(APPEND deps ${t})
    endif()
  endforeach()
  get_property(fuzz_replays GLOBAL PROPERTY tare_fuzz_replay_targets)
  add_custom_target(tare_asan_ci DEPENDS ${deps} ${fuzz_replays})
  set(deps "")
  foreach(t ${kTareTsanCiTests})
    if(TARGET ${t})
      list(APPEND deps ${t})
    endif()
  endforeach()
  add_custom_target(tare_tsan_ci DEPENDS ${deps})
endfunction()
if(TARE_BUILD_TESTS)
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL tare_define_sanitizer_ci_target)
endif()
