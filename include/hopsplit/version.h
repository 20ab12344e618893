/*
 * hopsplit/version.h: the version of libhopsplit this header came with
 * (CMake checks it against the project's version at configure time).
 */
#ifndef HS_VERSION_H
#define HS_VERSION_H

#define HS_VERSION       "0.1.0"
#define HS_VERSION_MAJOR 0
#define HS_VERSION_MINOR 1
#define HS_VERSION_PATCH 0
/* 0xXXYYZZ: major, minor, patch, as LIBCURL_VERSION_NUM. */
#define HS_VERSION_NUM                                                        \
  ((HS_VERSION_MAJOR << 16) | (HS_VERSION_MINOR << 8) | HS_VERSION_PATCH)
/* True when this header is of version x.y.z or later. */
#define HS_AT_LEAST_VERSION(x, y, z)                                          \
  (HS_VERSION_NUM >= (((x) << 16) | ((y) << 8) | (z)))

#endif
