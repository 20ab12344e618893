#!/bin/sh
# linkage: the binary is built the way `hopsplit --version` says.  Bundled
# (the default, SPEC 8's footprint): libcurl and its dependencies are inside
# the binary and only the C library (and libm, and a sanitizer's runtime)
# is loaded at start; the bundled libcurl speaks HTTP/2 and every encoding
# Debian's does; the binary stays position independent.  System: the
# shared libcurl is linked.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init linkage
hs_require readelf

"$HOPSPLIT" --version >"$HS_DIR/version" || hs_fail "--version failed"
line=$(sed -n 3p "$HS_DIR/version")
needed=$(LC_ALL=C readelf -d "$HOPSPLIT" |
  sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || hs_fail "readelf shows no NEEDED entry"
LC_ALL=C readelf -h "$HOPSPLIT" | grep -q 'Type:.*DYN' ||
  hs_fail "the binary is not position independent (ELF type is not DYN)"

case $line in
"libcurl: bundled, static; features:"*)
  for lib in $needed; do
    case $lib in
    libc.so.* | libm.so.* | ld-linux*.so.* | libasan.so.* | libubsan.so.* | \
      libgcc_s.so.* | libstdc++.so.*) ;;
    # Parts of the C library on glibc before 2.34.
    libpthread.so.* | libdl.so.* | librt.so.*) ;;
    *) hs_fail "bundled build loads $lib at start (NEEDED: $needed)" ;;
    esac
  done
  for f in HTTP2 IPv6 libz brotli zstd; do
    case " ${line#*features:} " in
    *" $f "*) ;;
    *) hs_fail "bundled libcurl lacks $f: $line" ;;
    esac
  done
  ;;
"libcurl: system, shared; features:"*)
  echo "$needed" | grep -q '^libcurl\.so' ||
    hs_fail "system build without libcurl.so in NEEDED: $needed"
  ;;
*) hs_fail "third line of --version is not the libcurl line: '$line'" ;;
esac
hs_pass
