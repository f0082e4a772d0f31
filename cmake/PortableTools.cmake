# Statically linked copies of the tools, for GPU hosts without LLVM.
#
# Debian's MLIR archives link the shared libLLVM, which needs libraries a
# typical GPU host lacks (z3, ICU 72). A portable tool instead links every
# MLIR archive and LLVM's static components in one group (the linker takes
# only the objects it needs), libstdc++ statically, and only libc, libz and
# libzstd dynamically.

execute_process(
  COMMAND ${LLVM_TOOLS_BINARY_DIR}/llvm-config --link-static --libs
  OUTPUT_VARIABLE BLK_LLVM_STATIC_LIBS OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(BLK_LLVM_STATIC_LIBS UNIX_COMMAND "${BLK_LLVM_STATIC_LIBS}")
list(FILTER BLK_LLVM_STATIC_LIBS EXCLUDE REGEX "Polly")
file(GLOB BLK_MLIR_STATIC_LIBS "${LLVM_LIBRARY_DIR}/libMLIR*.a")
find_library(BLK_ZSTD_SHARED NAMES libzstd.so.1 zstd REQUIRED)

# blk_add_portable_tool(<name> SOURCES <files> LIBS <project libraries>)
function(blk_add_portable_tool name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  llvm_update_compile_flags(${name})
  add_dependencies(${name} ${ARG_LIBS})
  set(project_archives)
  foreach(lib ${ARG_LIBS})
    list(APPEND project_archives $<TARGET_FILE:${lib}>)
  endforeach()
  target_link_directories(${name} PRIVATE ${LLVM_LIBRARY_DIR})
  target_link_options(${name} PRIVATE
    -static-libstdc++ -static-libgcc -Wl,--gc-sections)
  target_link_libraries(${name} PRIVATE
    -Wl,--start-group ${project_archives} ${BLK_MLIR_STATIC_LIBS}
    ${BLK_LLVM_STATIC_LIBS} -Wl,--end-group
    z ${BLK_ZSTD_SHARED} rt dl m pthread)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/portable)
endfunction()
