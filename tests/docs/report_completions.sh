#!/bin/sh
# report_completions: the bash and zsh completions (completions/) offer
# exactly the long options --help lists (the option table), the formats
# --format takes, and the subcommands; the bash one completes in bash
# (alone and under bash-completion), the zsh one parses in zsh.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_completions
hs_require bash zsh
BASH_C=$HOPSPLIT_SRC/completions/hopsplit.bash
ZSH_C=$HOPSPLIT_SRC/completions/_hopsplit

hs_run 0 --help
grep -oE -- '^ +(-[a-zA-Z0-9], )?--[a-z0-9][a-z0-9.-]*' "$HS_OUT" |
  sed 's/.*--/--/' | sort -u >"$HS_DIR/table"
[ -s "$HS_DIR/table" ] || hs_fail "no options in --help"
formats=$(grep -oE -- '--format [a-z|]+' "$HS_OUT" | head -1 |
  sed 's/--format //; s/|/ /g')
[ -n "$formats" ] || hs_fail "no formats in --help"

for f in "$BASH_C" "$ZSH_C"; do
  # Options of the main command: the first list in each file.
  case $f in
    *.bash) sed -n '/local opts="/,/"$/p' "$f" ;;
    *) sed -n '/^  opts=(/,/^  )/p' "$f" ;;
  esac | grep -oE -- '--[a-z0-9][a-z0-9.-]*[a-z0-9]' | sort -u \
    >"$HS_DIR/got"
  diff -u "$HS_DIR/table" "$HS_DIR/got" >&2 ||
    hs_fail "$(basename "$f"): options differ from the option table"
  for fmt in $formats; do
    grep -q -- "$fmt" "$f" || hs_fail "$(basename "$f"): no format $fmt"
  done
  grep -q 'report' "$f" && grep -q 'run' "$f" ||
    hs_fail "$(basename "$f"): no subcommands"
done

# In bash, alone and under Debian's bash-completion (whose _init_completion
# the function uses when it is there).
BASH_COMPLETION=/usr/share/bash-completion/bash_completion
for with in none bash-completion; do
  if [ "$with" = bash-completion ] && [ ! -f "$BASH_COMPLETION" ]; then
    hs_lack "$BASH_COMPLETION is missing (Debian package bash-completion)" ||
      continue
  fi
  got=$(bash -c '[ "$2" = none ] || . "$3" || exit 1
    . "$1"
    [ "$2" = none ] || declare -F _init_completion >/dev/null || exit 1
    t() {
      COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
      COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
      COMPREPLY=(); _hopsplit; echo "${COMPREPLY[*]}"
    }
    t hopsplit --for
    t hopsplit --format h
    t hopsplit rep
    ' sh "$BASH_C" "$with" "$BASH_COMPLETION" 2>&1)
  [ "$got" = "--format
har html
report" ] || hs_fail "bash completion ($with) gives: $got"
  # --format=<Tab> (as bash splits it at '=' and as one word), the
  # profiles of "run", "help COMMAND": all without extglob.
  mkdir -p "$HS_DIR/c" && : >"$HS_DIR/c/a.yaml" && : >"$HS_DIR/c/b.yml" &&
    : >"$HS_DIR/c/c.json"
  got=$(cd "$HS_DIR/c" && bash -c '[ "$2" = none ] || . "$3" || exit 1
    shopt -u extglob
    . "$1"
    t() {
      COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
      COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
      COMPREPLY=(); _hopsplit; echo "${COMPREPLY[*]}"
    }
    t hopsplit --format = h
    t hopsplit --format=n
    t hopsplit run ""
    t hopsplit help r
    t hopsplit --da
    ' sh "$BASH_C" "$with" "$BASH_COMPLETION" 2>&1)
  [ "$got" = "har html
ndjson
a.yaml b.yml
run report
--data --data-binary --data-raw" ] ||
    hs_fail "bash completion ($with; --format=, run, help, no extglob) gives: $got"
done
zsh -n "$ZSH_C" || hs_fail "_hopsplit is not valid zsh"
hs_pass
