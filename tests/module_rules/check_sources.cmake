# cmake -DSOURCE_DIR=<repo> -P check_sources.cmake
# Fails, naming each file and line, when
#  - a source outside src/store includes an SQL client (sqlite3.h, SQLiteCpp, libpq, pqxx);
#  - a source in src/stats (tests aside) includes a header that does I/O;
#  - a source parses JSON with exceptions off — json::parse(text, nullptr, false), with or without
#    /*allow_exceptions=*/ — whose discarded value then reads on as defaults: JSON from outside is
#    read through base/json_read.h (ParseJson, ReadJson; docs/architecture.md, "One JSON read
#    idiom"). Comment lines are not code and are let through;
#  - a source outside src/model (tests and testdata aside) holds a string literal that is a metric
#    name or a metric family's prefix ("sim.Ir", "gb.counter."): metric names are spelled in
#    src/model/metric_names.h, and what a metric is (which counts instructions) is the catalogue's
#    answer (model/metric.h), not each caller's list. A line that names a dotted field that is not
#    a metric says so with the comment `not a metric`; comment lines are let through;
#  - two modules hold a header, or a source, of the same name (src/a/x.h and src/b/internal/x.h;
#    src/a/render.cc and src/b/render.cc): a file's name says its room (docs/architecture.md).
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
  if(NOT rel MATCHES "^src/model/|_test\\.cc$|/testdata/")
    file(STRINGS ${f} names REGEX "(^|[^\\])\"(sim|perf|gb|mem|bench|app)\\.[A-Za-z0-9_.]*\"")
    foreach(line ${names})
      if(NOT line MATCHES "^[ \t]*//" AND NOT line MATCHES "not a metric")
        string(APPEND problems "\n  ${rel}: ${line}  (spell metric names with model/metric_names.h)")
      endif()
    endforeach()
  endif()
endforeach()
foreach(f ${sources})
  file(RELATIVE_PATH rel ${SOURCE_DIR} ${f})
  # (testdata first: a failed MATCHES clears the CMAKE_MATCH_n of the one before it)
  if(NOT rel MATCHES "/testdata/" AND rel MATCHES "^src/([^/]+)/(.*/)?([^/]+\\.(h|cc))$")
    set(room ${CMAKE_MATCH_1})
    set(name ${CMAKE_MATCH_3})
    if(CMAKE_MATCH_4 STREQUAL "h")
      set(what header)
    else()
      set(what source)
    endif()
    string(MAKE_C_IDENTIFIER "${name}" key)
    if(DEFINED header_room_${key} AND NOT header_room_${key} STREQUAL room)
      string(APPEND problems "\n  ${rel}: ${name} is also a ${what} of src/${header_room_${key}}  (a file's name says its room: rename one)")
    else()
      set(header_room_${key} ${room})
    endif()
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "module rules broken:${problems}")
endif()
list(LENGTH sources n)
message(STATUS "module rules: ${n} sources checked, none breaks a rule")
