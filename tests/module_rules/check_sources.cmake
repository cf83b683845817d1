# cmake -DSOURCE_DIR=<repo> -P check_sources.cmake
# Fails, naming each file and line, when
#  - a source outside src/store includes an SQL client (sqlite3.h, SQLiteCpp, libpq, pqxx);
#  - a source in src/stats (tests aside) includes a header that does I/O;
#  - a source parses JSON with exceptions off — json::parse(text, nullptr, false), with or without
#    /*allow_exceptions=*/ — whose discarded value then reads on as defaults: JSON from outside is
#    read through base/json_read.h (ParseJson, ReadJson; docs/architecture.md, "One JSON read
#    idiom"). Comment lines are not code and are let through.
file(GLOB_RECURSE sources ${SOURCE_DIR}/src/*.cc ${SOURCE_DIR}/src/*.h ${SOURCE_DIR}/src/*.c)
set(problems "")
foreach(f ${sources})
  file(RELATIVE_PATH rel ${SOURCE_DIR} ${f})
  file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line ${lines})
    if(NOT rel MATCHES "^src/store/" AND line MATCHES "sqlite3\\.h|SQLiteCpp|libpq|pqxx")
      string(APPEND problems "\n  ${rel}: ${line}  (only src/store may talk SQL)")
    endif()
    if(rel MATCHES "^src/stats/" AND NOT rel MATCHES "_test\\.cc$|test_vectors"
       AND line MATCHES "<(fstream|iostream|cstdio|stdio\\.h|filesystem|unistd\\.h|fcntl\\.h)>")
      string(APPEND problems "\n  ${rel}: ${line}  (src/stats does no I/O)")
    endif()
  endforeach()
  file(STRINGS ${f} parses REGEX "nullptr,[ \t]*(/\\*[^*]*\\*/[ \t]*)?false[ \t]*\\)")
  foreach(line ${parses})
    if(NOT line MATCHES "^[ \t]*//")
      string(APPEND problems "\n  ${rel}: ${line}  (read JSON through base/json_read.h: ParseJson, ReadJson)")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "module rules broken:${problems}")
endif()
list(LENGTH sources n)
message(STATUS "module rules: ${n} sources checked, none breaks a rule")
