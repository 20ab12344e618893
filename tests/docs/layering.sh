#!/bin/sh
# layering: the pipeline runs one way (STYLE 5.1).  Only the probe files
# (and version.c, which asks each library for its version, and profile
# code for libyaml) may include libcurl, c-ares, OpenSSL or libyaml
# headers; analysis and report sources never do, and no public header in
# include/ does, so library types cannot leak between stages.
set -u
SRC=${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
bad=0
for f in "$SRC"/src/*.c "$SRC"/src/*.h "$SRC"/include/*.h; do
  base=$(basename "$f")
  case $base in
  probe*.c | version.c) continue ;;
  profile*.c) allowed='yaml' ;;
  *) allowed='' ;;
  esac
  hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(curl/|ares|openssl/|yaml)' "$f")
  if [ -n "$allowed" ]; then
    hits=$(printf '%s\n' "$hits" | grep -v "<$allowed" || true)
  fi
  if [ -n "$hits" ]; then
    printf '%s: includes a library header outside the probe:\n%s\n' \
      "$base" "$hits" >&2
    bad=1
  fi
done
# The probe's internal header is shared by the probe files; it stays free
# of library headers so that each library stays inside its own file.
if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(curl/|ares|openssl/|yaml)' \
  "$SRC/src/probe_int.h" >&2; then
  echo "probe_int.h: includes a library header" >&2
  bad=1
fi
[ "$bad" -eq 0 ] && echo "layering: ok"
exit "$bad"
