# attn_host_headers(<target> <folder>...): lets an Emscripten target include header-only libraries
# from the host (Debian's catch2/, nlohmann/) without -I/usr/include, which would pull glibc's
# headers into wasm code: a folder in the build tree holds links to just those folders.
# Used by tests/CMakeLists.txt (Catch2) and bindings/cmake/nlohmann_jsonConfig.cmake.
include_guard(GLOBAL)

function(attn_host_include_dir out_var)
  set(dir "${CMAKE_BINARY_DIR}/host-include")
  foreach(name IN LISTS ARGN)
    if(NOT EXISTS "${dir}/${name}")
      file(MAKE_DIRECTORY "${dir}")
      file(CREATE_LINK "/usr/include/${name}" "${dir}/${name}" SYMBOLIC)
    endif()
  endforeach()
  set(${out_var} "${dir}" PARENT_SCOPE)
endfunction()

function(attn_host_headers target)
  attn_host_include_dir(dir ${ARGN})
  target_include_directories(${target} PRIVATE "${dir}")
endfunction()
