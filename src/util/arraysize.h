/*
 * arraysize.h: the number of elements of an array (not a pointer).
 */
#ifndef HOPSPLIT_ARRAYSIZE_H
#define HOPSPLIT_ARRAYSIZE_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
