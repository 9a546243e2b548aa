# The version of the host's nlohmann/json headers, read from its headers, for find_package(nlohmann_json 3).
file(STRINGS /usr/include/nlohmann/detail/abi_macros.hpp _attn_major REGEX "#define NLOHMANN_JSON_VERSION_MAJOR [0-9]+")
string(REGEX REPLACE ".*MAJOR ([0-9]+).*" "\\1" PACKAGE_VERSION "${_attn_major}")
if(PACKAGE_FIND_VERSION_MAJOR STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
else()
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
endif()
