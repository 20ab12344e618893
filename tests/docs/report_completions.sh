#!/bin/sh
# report_completions: the bash and zsh completions (completions/) offer
# exactly the long options --help lists (the option table), the formats
# --format takes, and the subcommands; the bash one completes in bash.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_completions
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

if command -v bash >/dev/null 2>&1; then
  got=$(bash -c '. "$1"
    COMP_WORDS=(hopsplit --for); COMP_CWORD=1; _hopsplit; echo "${COMPREPLY[*]}"
    COMP_WORDS=(hopsplit --format h); COMP_CWORD=2; _hopsplit
    echo "${COMPREPLY[*]}"
    COMP_WORDS=(hopsplit rep); COMP_CWORD=1; _hopsplit; echo "${COMPREPLY[*]}"
    ' sh "$BASH_C" 2>&1)
  [ "$got" = "--format
har html
report" ] || hs_fail "bash completion gives: $got"
fi
if command -v zsh >/dev/null 2>&1; then
  zsh -n "$ZSH_C" || hs_fail "_hopsplit is not valid zsh"
fi
hs_pass
