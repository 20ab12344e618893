#!/bin/sh
# layering: the pipeline runs one way (STYLE 5.1, 5.2).  The linker checks
# calls (each stage is also linked alone against only the stages it may
# call, CMakeLists.txt hopsplit_stage); this checks the folder rules:
#  - every source is in a stage folder src/<stage>/ (src/main.c aside);
#  - a stage's DEPS name only stages added before it in CMakeLists.txt;
#  - library headers only where the library is linked: libcurl in probe
#    (and its URL API alone in url), c-ares, OpenSSL and PCRE2 in probe, libyaml
#    in config; never in include/, whose headers are the contracts;
#  - a quoted include names a header of include/ or of the stage's own
#    folder, never another stage's private header.
set -u
SRC=${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
bad=0
fail() {
  printf 'layering: %s\n' "$*" >&2
  bad=1
}
libinc='^[[:space:]]*#[[:space:]]*include[[:space:]]*<(curl/|ares|openssl/|yaml|pcre2)'

for f in "$SRC"/src/*.c "$SRC"/src/*.h; do
  [ -e "$f" ] || continue
  [ "${f##*/}" = main.c ] || fail "${f#"$SRC"/}: outside a stage folder"
done

# Stage order as the top-level CMakeLists.txt adds them.
order=$(sed -n 's|^add_subdirectory(src/\([a-z]*\)).*|\1|p' "$SRC/CMakeLists.txt")
[ -n "$order" ] || fail "no add_subdirectory(src/...) in CMakeLists.txt"
for st in $order; do
  [ -f "$SRC/src/$st/CMakeLists.txt" ] || fail "src/$st has no CMakeLists.txt"
done
for d in "$SRC"/src/*/; do
  st=$(basename "$d")
  printf '%s\n' $order | grep -qx "$st" || fail "src/$st is not a stage in CMakeLists.txt"
done
earlier=
for st in $order; do
  deps=$(tr '\n' ' ' <"$SRC/src/$st/CMakeLists.txt" |
    sed -n 's/.*hopsplit_stage([a-z]*\(.*\)).*/\1/p' |
    sed 's/LIBS.*//; s/DEPS//')
  for dep in $deps; do
    case " $earlier " in
    *" $dep "*) ;;
    *) fail "stage $st depends on $dep, which is not an earlier stage" ;;
    esac
  done
  earlier="$earlier $st"
done

for f in "$SRC"/src/*/*.c "$SRC"/src/*/*.h "$SRC"/src/main.c "$SRC"/include/*.h; do
  rel=${f#"$SRC"/}
  dir=${rel%/*}
  st=${dir#src/}
  case $dir in
  include) allowed='' ;;
  src/probe) allowed='curl/|ares|openssl/|pcre2' ;;
  src/url) allowed='curl/' ;;
  src/config) allowed='yaml' ;;
  *) allowed='' ;;
  esac
  hits=$(grep -nE "$libinc" "$f")
  if [ -n "$allowed" ] && [ -n "$hits" ]; then
    hits=$(printf '%s\n' "$hits" | grep -vE "<($allowed)" || true)
  fi
  [ -z "$hits" ] || fail "$rel includes a library header not linked to its stage: $hits"
  # Quoted includes: include/ or the own folder.
  for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
    if [ -f "$SRC/include/$h" ]; then
      continue
    fi
    if [ "$dir" != include ] && [ -f "$SRC/$dir/$h" ]; then
      continue
    fi
    case $h in hopsplit_config.h) continue ;; esac
    fail "$rel includes \"$h\", neither a contract (include/) nor a header of $st"
  done
done

# The url stage uses libcurl's URL API and nothing else of it.
other=$(grep -nE '\bcurl_[a-z_]+[[:space:]]*\(' "$SRC"/src/url/*.c |
  grep -vE '\bcurl_url(_[a-z]+)?[[:space:]]*\(|curl_free[[:space:]]*\(' || true)
[ -z "$other" ] || fail "src/url calls libcurl beyond its URL API: $other"

[ "$bad" -eq 0 ] && echo "layering: ok"
exit "$bad"
