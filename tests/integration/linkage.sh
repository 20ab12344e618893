#!/bin/sh
# linkage: the binary is built the way `hopsplit --version` says: against
# the system's shared libraries (SPEC 9), so a security update of Debian's
# libcurl4, libssl3, libc-ares2 or libyaml reaches it.  The libcurl is the
# OpenSSL flavour (libcurl.so.4, not libcurl-gnutls), it speaks HTTP/2, and
# the binary stays position independent.  -V says which libcurl the build
# was made against and whether the send phase is measured (libcurl 8.10).
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
for lib in 'libcurl\.so\.4' 'libcares\.so\.' 'libssl\.so\.' 'libcrypto\.so\.' \
  'libyaml-0\.so\.'; do
  printf '%s\n' "$needed" | grep -q "^$lib" ||
    hs_fail "no shared $lib in NEEDED: $(echo $needed)"
done
printf '%s\n' "$needed" | grep -q 'gnutls' &&
  hs_fail "linked to the GnuTLS libcurl: $(echo $needed)"
case $line in
"libcurl: system, shared, built against "*"; features:"*)
  case " ${line#*features:} " in
  *" HTTP2 "*) ;;
  *) hs_fail "libcurl lacks HTTP2: $line" ;;
  esac
  ;;
*) hs_fail "third line of --version is not the libcurl line: '$line'" ;;
esac
# The send phase is measured exactly when the libcurl at hand is 8.10 or
# newer (and the build knew of it): the version curl-config names.
if command -v curl-config >/dev/null 2>&1; then
  case $(curl-config --vernum) in
  0[0-7]???? | 080[0-9]??) want='send phase: not measured' ;;
  *) want='send phase: measured' ;;
  esac
  grep -q "^$want" "$HS_DIR/version" ||
    hs_fail "--version does not say '$want' for libcurl $(curl-config --version)"
fi
# -V names every library and its version.
for lib in libcurl/ c-ares/ OpenSSL libyaml/; do
  grep -q "$lib" "$HS_DIR/version" || hs_fail "--version does not name $lib"
done
# A shared build (-DBUILD_SHARED_LIBS=ON): the tool is libhopsplit's
# client, so the binary needs libhopsplit.so and takes its hs_* functions
# from there (issue 34); the library exports those alone (the version
# node HOPSPLIT_0 of its version script aside).
so=$HOPSPLIT_BUILD/src/lib/libhopsplit.so
if [ -f "$so" ]; then
  hs_require nm
  printf '%s\n' "$needed" | grep -q '^libhopsplit\.so\.' ||
    hs_fail "a shared build's binary does not need libhopsplit.so: $(echo $needed)"
  # Versioned: hs_options_new@HOPSPLIT_0.
  nm -D --undefined-only "$HOPSPLIT" | grep -q ' hs_options_new\(@.*\)\{0,1\}$' ||
    hs_fail "the binary does not take hs_options_new from libhopsplit.so"
  nm -D --defined-only "$HOPSPLIT" | grep -q ' hs_' &&
    hs_fail "the binary defines hs_* functions of its own"
  other=$(nm -D --defined-only "$so" | awk '$3 !~ /^hs_/ && $3 != "HOPSPLIT_0"')
  [ -z "$other" ] || hs_fail "libhopsplit.so exports more than hs_*: $other"
fi
hs_pass
