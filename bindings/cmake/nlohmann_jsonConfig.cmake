# nlohmann/json for Emscripten builds (scripts/build passes -Dnlohmann_json_DIR here). It is header-only,
# so the host's copy serves, through a folder that holds only its headers (cmake/host_headers.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/host_headers.cmake")
if(NOT TARGET nlohmann_json::nlohmann_json)
  attn_host_include_dir(_attn_host_include nlohmann)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_attn_host_include}")
endif()
