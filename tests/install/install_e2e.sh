#!/usr/bin/env bash
# Install and packaging end to end (tests/install/CMakeLists.txt registers the three modes):
#   install_e2e.sh --source DIR --build DIR --cmake CMAKE --cpack CPACK --cxx CXX --generator GEN
#                  [--launcher CCACHE] --example TARE_BASIC --tare BUILT_TARE  prefix|deb|subdirectory
# Works in a fresh directory under $TMPDIR (never inside the build tree: a tare there may fall back
# on the build's helper and shim, which would hide a broken install) and removes it on success;
# on failure it is kept and named. Needs: cmake, g++, pkg-config, perl, dpkg-deb (deb mode).
set -euo pipefail

launcher=""
while [ $# -gt 1 ]; do
  case "$1" in
    --source) src=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --cmake) cmake=$2; shift 2 ;;
    --cpack) cpack=$2; shift 2 ;;
    --cxx) cxx=$2; shift 2 ;;
    --generator) generator=$2; shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    --launcher=*) launcher=${1#--launcher=}; shift ;;  # may be empty: CMake drops an empty separate argument
    --example) example=$2; shift 2 ;;
    --tare) built_tare=$2; shift 2 ;;
    *) echo "install_e2e.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mode=${1:?mode: prefix, deb or subdirectory}

work=$(mktemp -d "${TMPDIR:-/tmp}/tare-install-XXXXXX")
passed=0
trap 'if [ $passed = 1 ]; then rm -rf "$work"; else echo "kept for inspection: $work" >&2; fi' EXIT
consumer_src=$(cd "$(dirname "$0")" && pwd)/consumer
export NO_COLOR=1

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }
# contains FILE TEXT: FILE holds TEXT (fixed string)
contains() { grep -qF -- "$2" "$1" || { echo "--- $1:" >&2; cat "$1" >&2; fail "$1 lacks '$2'"; }; }
# median FILE METRIC BENCHMARK: the median of METRIC for BENCHMARK in a tare.run/1 JSON file
median() {
  perl -0777 -e '
    my ($file, $metric, $bench) = @ARGV; local $/; open(my $f, "<", $file) or die; my $t = <$f>;
    $t =~ /"name"\s*:\s*"\Q$bench\E".*?"\Q$metric\E"\s*:\s*\{[^}]*?"median"\s*:\s*([-0-9.eE+]+)/s
      or die "no median of $metric for $bench in $file\n";
    print $1;' "$1" "$2" "$3"
}
configure_flags=(-G "$generator" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx")
[ -n "$launcher" ] && configure_flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_C_COMPILER_LAUNCHER="$launcher")

# run_benchmarks TARE BIN NAME [--instrument mem]: `TARE run` of BIN in a scratch store; checks the
# benchmark NAME was measured (and, under mem, one 4000-byte allocation per iteration).
run_benchmarks() {
  local tare=$1 bin=$2 name=$3; shift 3
  local dir; dir=$(mktemp -d "$work/run-XXXX")
  (cd "$dir" && "$tare" run --samples 3 --json run.json "$@" "$bin" >out 2>err) ||
    { cat "$dir/out" "$dir/err" >&2; fail "$tare run $* $bin exited $?"; }
  contains "$dir/run.json" "\"name\": \"$name\""
  if [ "${1:-}" = "--instrument" ] && [ "${2:-}" = "mem" ]; then
    local allocs bytes
    allocs=$(median "$dir/run.json" mem.allocs "$name")
    bytes=$(median "$dir/run.json" mem.bytes_allocated "$name")
    awk -v a="$allocs" -v b="$bytes" 'BEGIN { exit !(a == 1 && b == 4000) }' ||
      fail "--instrument mem on $name: mem.allocs $allocs, mem.bytes_allocated $bytes; expected 1 and 4000"
  fi
  echo "   $tare run $* $(basename "$bin"): $name measured"
}

# build_consumers PREFIX_OR_EMPTY OUT: the CMake consumer against an install (find_package) or,
# with an empty prefix, through add_subdirectory(tare); the other arguments go to cmake.
build_cmake_consumer() {
  local out=$1; shift
  "$cmake" -S "$consumer_src" -B "$out" "${configure_flags[@]}" "$@" >"$out.configure.log" 2>&1 ||
    { cat "$out.configure.log" >&2; fail "configuring the consumer ($*) failed"; }
  "$cmake" --build "$out" --target alloc_bench gbench_style alloc_bench_main >"$out.build.log" 2>&1 ||
    { cat "$out.build.log" >&2; fail "building the consumer ($*) failed"; }
}

# build_pkg_config_consumers PKG_CONFIG_PATH OUT: plain g++, flags from pkg-config only.
build_pkg_config_consumers() {
  local pcpath=$1 out=$2
  mkdir -p "$out"
  local flags
  flags=$(PKG_CONFIG_PATH=$pcpath pkg-config --cflags --libs tare) || fail "pkg-config tare"
  # shellcheck disable=SC2086
  "$cxx" -std=c++17 -O2 -o "$out/alloc_bench" "$consumer_src/alloc_bench.cc" $flags ||
    fail "g++ alloc_bench.cc \$(pkg-config --cflags --libs tare) failed: $flags"
  flags=$(PKG_CONFIG_PATH=$pcpath pkg-config --cflags --libs tare-gbench-compat) || fail "pkg-config tare-gbench-compat"
  # shellcheck disable=SC2086
  "$cxx" -std=c++17 -O2 -o "$out/gbench_style" "$consumer_src/gbench_style.cc" $flags ||
    fail "g++ gbench_style.cc \$(pkg-config --cflags --libs tare-gbench-compat) failed: $flags"
  flags=$(PKG_CONFIG_PATH=$pcpath pkg-config --cflags --libs tare-main) || fail "pkg-config tare-main"
  # shellcheck disable=SC2086
  "$cxx" -std=c++17 -O2 -DNO_TARE_MAIN -o "$out/alloc_bench_main" "$consumer_src/alloc_bench.cc" $flags ||
    fail "g++ -DNO_TARE_MAIN alloc_bench.cc \$(pkg-config --cflags --libs tare-main) failed: $flags"
}

# run_consumers TARE DIR: the three consumer binaries of DIR measured by TARE.
run_consumers() {
  local tare=$1 dir=$2
  run_benchmarks "$tare" "$dir/alloc_bench" alloc_4000
  run_benchmarks "$tare" "$dir/alloc_bench" alloc_4000 --instrument mem
  run_benchmarks "$tare" "$dir/alloc_bench_main" alloc_4000
  run_benchmarks "$tare" "$dir/gbench_style" BM_StringCopy
}

installed_files=(
  bin/tare lib/tare/tare-spawn-helper lib/tare/libtare_alloc.so lib/tare/libtare_heap_shift.so include/tare/tare.hpp
  include/tare/gbench_compat.hpp include/tare/alloc_shim.h
)

case "$mode" in
prefix)
  step "cmake --install into $work/prefix"
  "$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "cmake --install failed"; }
  for f in "${installed_files[@]}"; do [ -e "$work/prefix/$f" ] || fail "not installed: $f"; done
  cfg=$(find "$work/prefix" -name tareConfig.cmake) && [ -n "$cfg" ] || fail "no tareConfig.cmake installed"
  pcdir=$(dirname "$(find "$work/prefix" -name tare.pc)")
  tare="$work/prefix/bin/tare"
  "$tare" --version | grep -q '^tare ' || fail "installed tare --version"
  # --help points at the installed docs, not at a source tree the user may not have.
  "$tare" --help | grep -qE "Docs: /.*/prefix/share/doc/tare/" || fail "installed tare --help does not name share/doc/tare"

  step "CMake consumer: find_package(tare), tare::tare, tare::main and tare::gbench_compat"
  build_cmake_consumer "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix"
  run_consumers "$tare" "$work/cmake"
  step "plain g++ with pkg-config: tare, tare-main, tare-gbench-compat"
  build_pkg_config_consumers "$pcdir" "$work/pc"
  run_consumers "$tare" "$work/pc"

  step "the installed tree moved elsewhere still works (nothing absolute inside)"
  mv "$work/prefix" "$work/moved"
  run_benchmarks "$work/moved/bin/tare" "$work/cmake/alloc_bench" alloc_4000 --instrument mem
  build_pkg_config_consumers "$(dirname "$(find "$work/moved" -name tare.pc)")" "$work/pc-moved"
  run_benchmarks "$work/moved/bin/tare" "$work/pc-moved/gbench_style" BM_StringCopy

  step "without its helper or shim an installed tare says so, naming where it looked"
  mv "$work/moved/lib/tare/tare-spawn-helper" "$work/helper"
  (cd "$work" && ! "$work/moved/bin/tare" run --samples 1 "$work/cmake/alloc_bench" >"$work/nohelper.out" 2>&1) ||
    fail "tare ran without its spawn helper"
  contains "$work/nohelper.out" "$work/moved/lib/tare/tare-spawn-helper"
  mv "$work/helper" "$work/moved/lib/tare/tare-spawn-helper"
  mv "$work/moved/lib/tare/libtare_alloc.so" "$work/shim.so"
  (cd "$work" && ! "$work/moved/bin/tare" run --samples 1 --instrument mem "$work/cmake/alloc_bench" >"$work/noshim.out" 2>&1) ||
    fail "tare --instrument mem ran without its allocation shim"
  contains "$work/noshim.out" "$work/moved/lib/tare/libtare_alloc.so"
  ;;

deb)
  step "cpack -G DEB"
  (cd "$work" && "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1) ||
    { cat "$work/cpack.log" >&2; fail "cpack -G DEB failed"; }
  deb=$(find "$work/deb" -maxdepth 1 -name 'tare_*.deb')
  [ -n "$deb" ] || { cat "$work/cpack.log" >&2; fail "cpack made no tare_*.deb"; }
  echo "   $(basename "$deb"): $(du -h "$deb" | cut -f1)"

  step "dpkg-deb -I: name, version, architecture, dependencies"
  dpkg-deb -I "$deb" >"$work/info"
  contains "$work/info" "Package: tare"
  contains "$work/info" "Architecture: $(dpkg --print-architecture)"
  contains "$work/info" "Recommends: valgrind"
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "   Depends: $depends"
  for lib in libc6 libstdc++6 libsqlite3 libfmt libnettle libre2; do
    [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
  done
  # Every declared dependency is satisfied on this machine (so the package would install here):
  # for each comma-separated group, one alternative installed at an allowed version.
  IFS=',' read -ra groups <<<"$depends"
  for group in "${groups[@]}"; do
    ok=0
    IFS='|' read -ra alts <<<"$group"
    for alt in "${alts[@]}"; do
      if [[ "$alt" =~ ^[[:space:]]*([^[:space:](]+)[[:space:]]*(\(([<>=]+)[[:space:]]*([^)]+)\))? ]]; then
        pkg=${BASH_REMATCH[1]} op=${BASH_REMATCH[3]} want=${BASH_REMATCH[4]}
        have=$(dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null | sed -n 's/^install ok installed //p')
        [ -n "$have" ] || continue
        if [ -z "$op" ]; then ok=1; break; fi
        case "$op" in '>>') op=gt ;; '<<') op=lt ;; '>=') op=ge ;; '<=') op=le ;; '=') op=eq ;; esac
        if dpkg --compare-versions "$have" "$op" "$want"; then ok=1; break; fi
      fi
    done
    [ $ok = 1 ] || fail "dependency not satisfied on this machine: $group"
  done

  step "dpkg-deb -c: the files"
  dpkg-deb -c "$deb" >"$work/contents"
  for f in "${installed_files[@]}"; do contains "$work/contents" "./usr/$f"; done
  contains "$work/contents" "/tareConfig.cmake"
  contains "$work/contents" "/pkgconfig/tare.pc"
  contains "$work/contents" "/libtare_bench.a"

  # Unpacked with dpkg-deb -x into a scratch root, not installed with dpkg: -x touches neither
  # dpkg's database nor /usr and needs no root, so the CI machine is left as it was. (dpkg --root
  # wants a whole admin directory in the root and fails there on dependencies; --instdir records
  # the package in this machine's database.) What dpkg -i would add on top is CPack's postinst and
  # postrm, which only run ldconfig (the shim is a shared object; tare preloads it by path).
  step "dpkg-deb -x into a scratch root; tare run of an example from there"
  dpkg-deb -x "$deb" "$work/root"
  tare="$work/root/usr/bin/tare"
  run_benchmarks "$tare" "$example" "sort_ints/64"
  build_pkg_config_consumers "$work/root/usr/lib/pkgconfig" "$work/pc"
  run_benchmarks "$tare" "$work/pc/alloc_bench" alloc_4000 --instrument mem
  run_benchmarks "$tare" "$work/pc/gbench_style" BM_StringCopy
  ;;

subdirectory)
  step "add_subdirectory(tare) with GoogleTest and Google Benchmark unfindable"
  build_cmake_consumer "$work/sub" -DTARE_SOURCE_DIR="$src" \
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
  ctest --test-dir "$work/sub" -N >"$work/ctest.txt"
  contains "$work/ctest.txt" "Total Tests: 0"
  # The consumer's `all` links tare, its helper and shim, and the consumer's own programs: none of
  # tare's tests, fixtures or examples (Ninja only: read from `ninja -t commands`).
  if [ "$generator" = Ninja ]; then
    "$cmake" --build "$work/sub" -- -t commands all | grep -oE ' -o [^ ]+' | sed 's/^ -o //' |
      grep -vE '\.o$' | xargs -n1 basename | sort >"$work/linked.txt"
    printf '%s\n' alloc_bench alloc_bench_main gbench_style libtare_alloc.so libtare_heap_shift.so tare tare-spawn-helper |
      sort >"$work/expected.txt"
    diff "$work/expected.txt" "$work/linked.txt" >&2 || fail "the consumer's all links more or less than expected (diff above)"
  fi
  # The consumer builds the tare CLI like any of its targets; here the build's tare measures.
  run_consumers "$built_tare" "$work/sub"
  ;;

*) fail "unknown mode $mode" ;;
esac

passed=1
echo "PASS: install_e2e $mode"
