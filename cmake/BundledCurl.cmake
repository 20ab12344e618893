# Bundled libcurl (third_party/curl, see its README.hopsplit): built once per
# build tree as a static library with HTTP and HTTPS only, then linked with
# OpenSSL, c-ares, nghttp2, libyaml and the compression libraries as static
# archives.  Only the C library and libm stay shared: Debian's shared libcurl
# alone brings 35 libraries, whose loading cost 13.7 ms of start-up and
# 10.7 MiB of mapped pages (SPEC 8 asks for < 5 ms and < 16 MiB).
#
# Defines the interface target hopsplit_deps.
include(ExternalProject)

set(HOPSPLIT_CURL_SRC ${PROJECT_SOURCE_DIR}/third_party/curl)
set(HOPSPLIT_CURL_BIN ${PROJECT_BINARY_DIR}/third_party/curl)
set(HOPSPLIT_CURL_LIB ${HOPSPLIT_CURL_BIN}/lib/libcurl.a)

# The build tree's own compiler, flags (hardening from CMAKE_C_FLAGS, say)
# and toolchain, without this project's warnings or sanitizers: libcurl is
# not this project's code.  Release, position independent (the binary is a
# PIE).
set(HOPSPLIT_CURL_FORWARD)
foreach(var CMAKE_TOOLCHAIN_FILE CMAKE_SYSROOT CMAKE_AR CMAKE_RANLIB
    CMAKE_C_COMPILER_LAUNCHER)
  if(DEFINED ${var} AND NOT "${${var}}" STREQUAL "")
    list(APPEND HOPSPLIT_CURL_FORWARD -D${var}=${${var}})
  endif()
endforeach()
ExternalProject_Add(bundled_curl
  SOURCE_DIR ${HOPSPLIT_CURL_SRC}
  BINARY_DIR ${HOPSPLIT_CURL_BIN}
  # Always ask the inner build, so that an updated third_party/curl is
  # rebuilt in an existing build tree (an up-to-date check costs ~1 s).
  BUILD_ALWAYS ON
  CMAKE_ARGS
    ${HOPSPLIT_CURL_FORWARD}
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
    "-DCMAKE_C_FLAGS=${CMAKE_C_FLAGS}"
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DBUILD_SHARED_LIBS=OFF
    -DBUILD_CURL_EXE=OFF
    -DBUILD_TESTING=OFF
    -DPICKY_COMPILER=OFF
    -DCURL_ENABLE_EXPORT_TARGET=OFF
    -DHTTP_ONLY=ON
    -DCURL_USE_OPENSSL=ON
    -DUSE_NGHTTP2=ON
    -DCURL_ZLIB=ON
    -DCURL_BROTLI=ON
    -DCURL_ZSTD=ON
    -DENABLE_ARES=OFF
    -DUSE_LIBIDN2=OFF
    -DCURL_USE_LIBPSL=OFF
    -DCURL_USE_LIBSSH2=OFF
    -DCURL_USE_GSSAPI=OFF
    -DCURL_DISABLE_LDAP=ON
    -DCURL_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
    -DCURL_CA_PATH=/etc/ssl/certs
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${HOPSPLIT_CURL_LIB}
  LOG_CONFIGURE ON
  LOG_BUILD ON
  LOG_OUTPUT_ON_FAILURE ON)

# A static archive of a dependency, by file name; an error names the Debian
# package that has it.
function(hopsplit_static_archive var file package)
  find_library(${var} NAMES ${file})
  if(NOT ${var})
    message(FATAL_ERROR "${file} not found: install ${package}, or "
            "configure with -DHOPSPLIT_BUNDLED_CURL=OFF to link the "
            "system's shared libcurl")
  endif()
endfunction()
hopsplit_static_archive(HS_A_NGHTTP2 libnghttp2.a libnghttp2-dev)
hopsplit_static_archive(HS_A_SSL libssl.a libssl-dev)
hopsplit_static_archive(HS_A_CRYPTO libcrypto.a libssl-dev)
hopsplit_static_archive(HS_A_CARES libcares.a libc-ares-dev)
hopsplit_static_archive(HS_A_YAML libyaml.a libyaml-dev)
hopsplit_static_archive(HS_A_BROTLIDEC libbrotlidec.a libbrotli-dev)
hopsplit_static_archive(HS_A_BROTLICOMMON libbrotlicommon.a libbrotli-dev)
hopsplit_static_archive(HS_A_ZSTD libzstd.a libzstd-dev)
hopsplit_static_archive(HS_A_Z libz.a zlib1g-dev)
find_package(Threads REQUIRED)

add_library(hopsplit_deps INTERFACE)
add_dependencies(hopsplit_deps bundled_curl)
target_include_directories(hopsplit_deps INTERFACE ${HOPSPLIT_CURL_SRC}/include)
# libcurl first, then what it needs, in link order.
target_link_libraries(hopsplit_deps INTERFACE ${HOPSPLIT_CURL_LIB}
    ${HS_A_NGHTTP2} ${HS_A_SSL} ${HS_A_CRYPTO} ${HS_A_CARES} ${HS_A_YAML}
    ${HS_A_BROTLIDEC} ${HS_A_BROTLICOMMON} ${HS_A_ZSTD} ${HS_A_Z}
    Threads::Threads ${CMAKE_DL_LIBS} m)
