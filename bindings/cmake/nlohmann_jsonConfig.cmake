# nlohmann/json for Emscripten builds (scripts/build passes -Dnlohmann_json_DIR here). It is header-only,
# so the host's copy serves, but -I/usr/include would pull glibc's headers into wasm code: expose a
# folder that holds only the nlohmann headers (a link), and nothing else from /usr/include.
set(_attn_host_include "${CMAKE_BINARY_DIR}/host-include")
if(NOT EXISTS "${_attn_host_include}/nlohmann")
  file(MAKE_DIRECTORY "${_attn_host_include}")
  file(CREATE_LINK /usr/include/nlohmann "${_attn_host_include}/nlohmann" SYMBOLIC)
endif()
if(NOT TARGET nlohmann_json::nlohmann_json)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_attn_host_include}")
endif()
