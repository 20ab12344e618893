#!/bin/sh
# layering: the pipeline runs one way (STYLE 5.1, 5.2).  The linker checks
# calls (each stage is also linked alone against only the stages it may
# call, CMakeLists.txt hopsplit_stage); this checks the folder rules:
#  - every source is in a stage folder src/<stage>/ (src/main.c aside);
#  - a stage's DEPS name only stages added before it in CMakeLists.txt;
#  - library headers only where the library is linked: libcurl in probe
#    (and its URL API alone in url), c-ares, OpenSSL and PCRE2 in probe, libyaml
#    in config; never in a header another stage may include;
#  - headers live beside their owners: there is no include/ folder, and a
#    quoted include names a header of the stage's own folder or a public
#    header of a stage it may call (its DEPS); a header x_int.h is private
#    to its stage.  src/main.c may include every public header.
#  (tests/docs/headers.sh checks that a header's functions are defined in
#  its own stage, from the build's symbol tables.)
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
stage_deps() {
  tr '\n' ' ' <"$SRC/src/$1/CMakeLists.txt" |
    sed -n 's/.*hopsplit_stage([a-z]*\(.*\)).*/\1/p' |
    sed 's/LIBS.*//; s/DEPS//'
}
[ ! -e "$SRC/include" ] || fail "include/ exists: headers live beside their owners (src/<stage>/)"
earlier=
for st in $order; do
  deps=$(stage_deps "$st")
  for dep in $deps; do
    case " $earlier " in
    *" $dep "*) ;;
    *) fail "stage $st depends on $dep, which is not an earlier stage" ;;
    esac
  done
  earlier="$earlier $st"
done

for f in "$SRC"/src/*/*.c "$SRC"/src/*/*.h "$SRC"/src/main.c; do
  rel=${f#"$SRC"/}
  dir=${rel%/*}
  st=${dir#src/}
  case $rel in
  src/probe/*) allowed='curl/|ares|openssl/|pcre2' ;;
  src/url/*) allowed='curl/' ;;
  src/config/*) allowed='yaml' ;;
  *) allowed='' ;;
  esac
  # A public header may be included by later stages: no library there.
  case $rel in
  *_int.h | *.c) ;;
  *.h) allowed='' ;;
  esac
  hits=$(grep -nE "$libinc" "$f")
  if [ -n "$allowed" ] && [ -n "$hits" ]; then
    hits=$(printf '%s\n' "$hits" | grep -vE "<($allowed)" || true)
  fi
  [ -z "$hits" ] || fail "$rel includes a library header not linked to its stage: $hits"
  # Quoted includes: the own folder, or a public header of a stage this
  # one may call (main.c: of every stage).
  if [ "$rel" = src/main.c ]; then
    may=$order
  else
    may=$(stage_deps "$st")
  fi
  for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
    case $h in hopsplit_config.h) continue ;; esac
    if [ "$dir" != src ] && [ -f "$SRC/$dir/$h" ]; then
      continue
    fi
    owner=
    for o in $order; do
      [ -f "$SRC/src/$o/$h" ] && owner="$owner $o"
    done
    case $owner in
    "") fail "$rel includes \"$h\", a header of no stage"; continue ;;
    " "*" "*) fail "header $h is in more than one stage:$owner"; continue ;;
    esac
    owner=${owner# }
    case $h in
    *_int.h)
      fail "$rel includes \"$h\", private to stage $owner"
      continue
      ;;
    esac
    case " $(printf '%s ' $may) " in
    *" $owner "*) ;;
    *) fail "$rel includes \"$h\" of stage $owner, which $st may not call" ;;
    esac
  done
done

# The url stage uses libcurl's URL API and nothing else of it.
other=$(grep -nE '\bcurl_[a-z_]+[[:space:]]*\(' "$SRC"/src/url/*.c |
  grep -vE '\bcurl_url(_[a-z]+)?[[:space:]]*\(|curl_free[[:space:]]*\(' || true)
[ -z "$other" ] || fail "src/url calls libcurl beyond its URL API: $other"

[ "$bad" -eq 0 ] && echo "layering: ok"
exit "$bad"
