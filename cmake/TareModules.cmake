# The module map, enforced by the build (docs/architecture.md, "Rules").
#
# Headers: every library of module M sees, besides its own directory, only the PUBLIC headers of the
# modules it links — src/<N>/*.h of each, never src/<N>/internal/ — through a generated include
# directory <build>/modules/<N>/public/<N>/ of links to them. There is no global include path, so
# `#include "store/store.h"` in a module that does not link tare_store fails to compile.
#
# Links: kTareModuleMap below lists, per module, the modules it may link directly.
# tare_check_module_map() (called once every module is added) fails the configure when a library
# links anything else. Tests and example programs are not modules and may use any module's
# public headers by linking it.

# module -> modules it may link (directly). Transitive use follows from PUBLIC links.
set(kTareModuleMap
  "base:"
  "model:base"
  "proc:base"
  "stats:base"
  "instrument:proc,model,base"
  "env:model,base"
  "target:instrument,proc,model,base"
  "store:stats,model,base"
  "report:model,stats,base"
  "session:target,store,env,instrument,stats,proc,model,base"
  "campaign:session,target,store,env,report,stats,instrument,proc,model,base"
  "html:compare,report,env,stats,model,base"
  "oracle:stats,proc,base"
  "lib:"
  "attribute:store,instrument,proc,report,model,base"
  "compare:store,report,env,stats,model,base"
  "bisect:campaign,attribute,session,target,store,report,instrument,proc,model,base"
  "bundle:campaign,session,target,store,env,report,stats,instrument,proc,model,base"
  "publish:attribute,html,report,store,model,base"
  "cmdline:session,base"
  "cli:campaign,bisect,session,oracle,report,store,target,env,instrument,stats,proc,model,base,attribute,compare,html,bundle,publish,cmdline")

# tare_module_library(TARGET MODULE): TARGET is a library of src/MODULE. It publishes MODULE's
# public headers and reads MODULE's own headers (internal/ included) privately.
function(tare_module_library target module)
  set(src ${PROJECT_SOURCE_DIR}/src/${module})
  set(pub ${PROJECT_BINARY_DIR}/modules/${module}/public)
  set(priv ${PROJECT_BINARY_DIR}/modules/${module}/private)
  get_property(done GLOBAL PROPERTY tare_module_headers_${module})
  if(NOT done)
    # Made afresh at every configure; a new header changes the glob and reconfigures.
    file(REMOVE_RECURSE ${pub} ${priv})
    file(MAKE_DIRECTORY ${pub}/${module} ${priv})
    file(GLOB headers RELATIVE ${src} CONFIGURE_DEPENDS ${src}/*.h)
    foreach(h ${headers})
      file(CREATE_LINK ${src}/${h} ${pub}/${module}/${h} SYMBOLIC)
    endforeach()
    file(CREATE_LINK ${src} ${priv}/${module} SYMBOLIC)
    set_property(GLOBAL PROPERTY tare_module_headers_${module} TRUE)
  endif()
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${pub}> PRIVATE ${priv})
  set_property(TARGET ${target} PROPERTY TARE_MODULE ${module})
  set_property(GLOBAL APPEND PROPERTY tare_module_targets ${target})
endfunction()

# A program or test of src/MODULE that reads the module's own (internal) headers.
function(tare_module_private target module)
  set(priv ${PROJECT_BINARY_DIR}/modules/${module}/private)
  if(NOT EXISTS ${priv}/${module})
    file(MAKE_DIRECTORY ${priv})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${module} ${priv}/${module} SYMBOLIC)
  endif()
  target_include_directories(${target} PRIVATE ${priv})
endfunction()

function(tare_check_module_map)
  foreach(entry ${kTareModuleMap})
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 module)
    list(LENGTH parts n)
    set(allowed_${module} "")
    if(n GREATER 1)
      list(GET parts 1 deps)
      string(REPLACE "," ";" allowed_${module} "${deps}")
    endif()
  endforeach()
  get_property(targets GLOBAL PROPERTY tare_module_targets)
  foreach(t ${targets})
    get_target_property(module ${t} TARE_MODULE)
    get_target_property(links ${t} LINK_LIBRARIES)
    if(NOT links)
      continue()
    endif()
    foreach(l ${links})
      if(NOT TARGET ${l})
        continue()
      endif()
      get_target_property(other ${l} TARE_MODULE)
      if(NOT other OR other STREQUAL module)
        continue()
      endif()
      if(NOT other IN_LIST allowed_${module})
        message(FATAL_ERROR "module map: ${t} (src/${module}) links ${l} (src/${other}), which "
                            "${module} may not use; allowed: ${allowed_${module}}. See "
                            "docs/architecture.md, or change kTareModuleMap in "
                            "cmake/TareModules.cmake with the design.")
      endif()
    endforeach()
  endforeach()
endfunction()
