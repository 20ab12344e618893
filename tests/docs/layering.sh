#!/bin/sh
# layering: the pipeline runs one way (STYLE 5.1, 5.2).  The linker checks
# calls (each stage is also linked alone against only the stages it may
# call, CMakeLists.txt hopsplit_stage); this checks the folder rules:
#  - every source is in a stage folder src/<stage>/ (src/main.c aside);
#  - a stage's DEPS name only stages added before it in CMakeLists.txt;
#  - library headers only where the library is linked: libcurl in probe
#    (and its URL API alone in url), c-ares, OpenSSL and PCRE2 in probe, libyaml
#    in config; never in a header another stage may include;
#  - headers live beside their owners: a quoted include names a header of
#    the stage's own folder or a public header of a stage it may call (its
#    DEPS); a header x_int.h is private to its stage.  src/main.c may
#    include every public header;
#  - include/ holds libhopsplit's public contract and nothing else:
#    include/hopsplit/hopsplit.h and version.h, which include only the
#    C library's headers and each other; <hopsplit/...> is included only
#    by src/lib (the library), its clients src/cmd, src/serve and
#    src/main.c, and tests/example;
#  - the tool, src/cmd and src/main.c, is libhopsplit's client (issue 34):
#    it includes <hopsplit/hopsplit.h>, its own headers (src/cmd's; and
#    main.c serve's entry, serve.h) and util's stateless portability
#    helpers listed in tool_util below, nothing else: never a stage
#    header, never strpool.h, arena.h or msg.h, whose state is the
#    library's (the tool's own messages are cmd_msg.h's, serve's
#    serve_msg.h's, both written with util's stateless say.h).  Its link
#    (src/cmd/CMakeLists.txt: DEPS util lib) proves the calls;
#  - the client src/serve includes, besides <hopsplit/...>, its own
#    headers and the tool's util helpers (tool_util, as src/cmd), only
#    the stage headers listed in tests/docs/layering_clients.txt (the
#    ones not yet replaced by the public header: the list may only
#    shrink, and a line that no longer matches an include fails too).
#  (tests/docs/headers.sh checks that a header's functions are defined in
#  its own stage, from the build's symbol tables.)
set -u
SRC=${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
bad=0
used=
fail() {
  printf 'layering: %s\n' "$*" >&2
  bad=1
}
libinc='^[[:space:]]*#[[:space:]]*include[[:space:]]*<(curl/|ares|openssl/|yaml|pcre2)'
# The headers of src/util the tool may include: pure helpers that hold no
# state shared with the library (as curl's tool uses lib's curlx).
tool_util="arraysize.h banned.h buf.h clock.h say.h strutil.h xalloc.h"

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
    sed -n 's/.*hopsplit_stage([a-z]*\([^)]*\)).*/\1/p' |
    sed 's/LIBS.*//; s/DEPS//'
}
# include/: the public header and its version, nothing else.
if [ -d "$SRC/include" ]; then
  extra=$(cd "$SRC" && find include -type f ! -path include/hopsplit/hopsplit.h \
    ! -path include/hopsplit/version.h)
  [ -z "$extra" ] || fail "include/ holds more than libhopsplit's public header: $extra"
  for f in "$SRC"/include/hopsplit/hopsplit.h "$SRC"/include/hopsplit/version.h; do
    [ -f "$f" ] || fail "${f#"$SRC"/} is missing"
    [ -f "$f" ] || continue
    inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\(.*\)/\1/p' "$f" |
      grep -vxE '<(stddef|stdint)\.h>|<hopsplit/version\.h>' || true)
    [ -z "$inc" ] || fail "${f#"$SRC"/} includes more than the C library and <hopsplit/version.h>: $inc"
  done
else
  fail "include/hopsplit/hopsplit.h is missing (SPEC 9)"
fi
pubinc='^[[:space:]]*#[[:space:]]*include[[:space:]]*<hopsplit/'
for f in $(grep -rlE "$pubinc" "$SRC/src" 2>/dev/null); do
  rel=${f#"$SRC"/}
  case $rel in
  src/lib/* | src/cmd/* | src/serve/* | src/main.c) ;;
  *) fail "$rel includes <hopsplit/...>: only the library and its clients do" ;;
  esac
done
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
    case $rel in
    src/cmd/* | src/main.c)
      # The tool: its own headers (main.c: src/cmd's and serve.h), util's
      # stateless helpers.
      if [ "$rel" = src/main.c ] && { [ -f "$SRC/src/cmd/$h" ] || [ "$h" = serve.h ]; }; then
        case $h in *_int.h) ;; *) continue ;; esac
      fi
      case " $tool_util " in
      *" $h "*) continue ;;
      esac
      fail "$rel includes \"$h\": the tool includes <hopsplit/hopsplit.h>, its own headers and only these of util: $tool_util"
      continue
      ;;
    esac
    case $st in
    serve)
      # A client: util's stateless helpers as the tool's; a stage header
      # only while the list still names it.
      case " $tool_util " in
      *" $h "*) continue ;;
      esac
      if grep -qxF "$rel $h" "$SRC/tests/docs/layering_clients.txt"; then
        used="$used
$rel $h"
      else
        fail "$rel includes \"$h\": a client includes <hopsplit/hopsplit.h>, not stage headers (only when the public header has nothing for it yet, list the include in tests/docs/layering_clients.txt)"
        continue
      fi
      ;;
    esac
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

# The list of the clients' stage headers is exact: each line an include.
while read -r line; do
  case $line in '' | '#'*) continue ;; esac
  printf '%s\n' "$used" | grep -qxF "$line" ||
    fail "tests/docs/layering_clients.txt: '$line' is no include any more: take it out"
done <"$SRC/tests/docs/layering_clients.txt"

# The url stage uses libcurl's URL API and nothing else of it.
other=$(grep -nE '\bcurl_[a-z_]+[[:space:]]*\(' "$SRC"/src/url/*.c |
  grep -vE '\bcurl_url(_[a-z]+)?[[:space:]]*\(|curl_free[[:space:]]*\(' || true)
[ -z "$other" ] || fail "src/url calls libcurl beyond its URL API: $other"

[ "$bad" -eq 0 ] && echo "layering: ok"
exit "$bad"
