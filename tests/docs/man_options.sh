#!/bin/sh
# man_options: man/hopsplit.1 and `hopsplit --help` list the same options
# (curl test1139).
#
#   - every long option of --help is an item of the page's option list
#     (`.It ... Fl -NAME` in DESCRIPTION);
#   - every short alias of --help (-X, --name) is on the item of --name;
#   - every option is in SYNOPSIS: by its short alias when it has one,
#     alone (`Fl X`) or in the bundle of flags (`Fl 46hk`), else by its long
#     name;
#   - an option that takes a value in --help takes one in the page
#     (`Fl -NAME Ar`), and a flag takes none;
#   - no item of the option list names an option --help does not know;
#   - `groff -ww -man -z` prints nothing (skipped when groff is missing,
#     unless HOPSPLIT_TEST_REQUIRE is set);
#   - README.md, if present, mentions scripts/build and scripts/test.
#
# Environment: HOPSPLIT (binary), HOPSPLIT_SRC (source root); both default
# to the layout of a manual run from the source tree.  Exit 0 pass, 1 fail,
# 77 skip.  Every problem is printed, not only the first.

NAME=man_options
: "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${HOPSPLIT:=$HOPSPLIT_SRC/build/hopsplit}"
PAGE=$HOPSPLIT_SRC/man/hopsplit.1
README=$HOPSPLIT_SRC/README.md
problems=0

log() {
  printf '%s: %s\n' "$NAME" "$*" >&2
}

problem() {
  log "$*"
  problems=$((problems + 1))
}

[ -x "$HOPSPLIT" ] || {
  log "FAIL: binary '$HOPSPLIT' is missing: build it first"
  exit 1
}
[ -f "$PAGE" ] || {
  log "FAIL: $PAGE does not exist"
  exit 1
}

help=$("$HOPSPLIT" --help 2>&1) || {
  log "FAIL: '$HOPSPLIT --help' failed:"
  printf '%s\n' "$help" >&2
  exit 1
}

# Option lines of --help: "  -X, --name ARG  text" or "      --name ARG".
# One record per option: "name short arg", short "-" when none, arg 1 when
# the name is followed by one space and a value, 0 for a flag.
N='\([a-z0-9][a-z0-9.-]*\)'
S='\([A-Za-z0-9]\)'
opts=$(printf '%s\n' "$help" | sed -n \
  -e "s/^  -$S, --$N [^ ].*/\\2 \\1 1/p" \
  -e "s/^  -$S, --$N  .*/\\2 \\1 0/p" \
  -e "s/^  -$S, --$N\$/\\2 \\1 0/p" \
  -e "s/^      --$N [^ ].*/\\1 - 1/p" \
  -e "s/^      --$N  .*/\\1 - 0/p" \
  -e "s/^      --$N\$/\\1 - 0/p")
[ -n "$opts" ] || {
  log "FAIL: found no options in the output of --help"
  exit 1
}

# The page's sections, as mdoc source lines.
section() {
  awk -v want="$1" '
    /^\.Sh / { cur = $0; sub(/^\.Sh[ \t]+/, "", cur); gsub(/"/, "", cur)
               next }
    cur == want' "$PAGE"
}
synopsis=$(section SYNOPSIS)
# Items of the option list: the .It lines of DESCRIPTION's lists.
items=$(section DESCRIPTION | grep '^\.It ')
[ -n "$synopsis" ] || problem "$PAGE has no SYNOPSIS section"
[ -n "$items" ] || problem "$PAGE has no option list (.It lines) in DESCRIPTION"

# grep -E pattern for an option name: dots are literal.
quote() {
  printf '%s' "$1" | sed 's/\./\\./g'
}

# Help -> page.
while read -r name short arg; do
  q=$(quote "$name")
  item=$(printf '%s\n' "$items" | grep -E "Fl -$q( |$)")
  if [ -z "$item" ]; then
    problem "--$name is in --help but has no item (.It Fl -$name) in the" \
      "option list of $PAGE"
  else
    if [ "$arg" = 1 ] &&
      ! printf '%s\n' "$item" | grep -qE "Fl -$q Ar "; then
      problem "--$name takes a value in --help but its item has no" \
        "'Fl -$name Ar ...': $item"
    fi
    if [ "$arg" = 0 ] &&
      printf '%s\n' "$item" | grep -qE "Fl -$q Ar "; then
      problem "--$name is a flag in --help but its item gives it a" \
        "value: $item"
    fi
    if [ "$short" != - ] &&
      ! printf '%s\n' "$item" | grep -qE "Fl $short( |$)"; then
      problem "-$short (--$name) is in --help but not on the item of" \
        "--$name: $item"
    fi
  fi
  # SYNOPSIS names an option by its short alias when it has one (as
  # OpenBSD pages do), else by its long name.
  if [ "$short" = - ]; then
    printf '%s\n' "$synopsis" | grep -qE "Fl -$q( |$)" ||
      problem "--$name is in --help but not in the SYNOPSIS of $PAGE"
  elif ! printf '%s\n' "$synopsis" |
    grep -qE "Fl -$q( |$)|Fl [A-Za-z0-9]*${short}[A-Za-z0-9]*( |$)"; then
    problem "-$short, --$name is in --help but in the SYNOPSIS of $PAGE" \
      "as neither -$short nor --$name"
  fi
done <<EOF
$opts
EOF

# Options of `hopsplit serve --help` ("serve options:", same layout): each
# has an item (.It Fl -NAME) somewhere in the page (its SERVE section),
# and the SYNOPSIS may name them.
serve_help=$("$HOPSPLIT" serve --help 2>&1) || {
  log "FAIL: '$HOPSPLIT serve --help' failed:"
  printf '%s\n' "$serve_help" >&2
  exit 1
}
serve_longs=$(printf '%s\n' "$serve_help" |
  sed -n -e "s/^      --$N [^ ].*/\\1/p" -e "s/^      --$N  .*/\\1/p")
[ -n "$serve_longs" ] || problem "found no options in 'hopsplit serve --help'"
for name in $serve_longs; do
  grep -qE "^\.It Fl -$(quote "$name") Ar " "$PAGE" ||
    problem "--$name is in 'serve --help' but has no item (.It Fl -$name" \
      "Ar ...) in $PAGE"
done

# Page -> help: no stale options in the option list or the SYNOPSIS.
longs=$(printf '%s\n%s\n' "$opts" "$serve_longs" | awk '{ print $1 }')
shorts=$(printf '%s\n' "$opts" | awk '$2 != "-" { printf "%s", $2 }')
for o in $(printf '%s\n%s\n' "$items" "$synopsis" |
  grep -oE 'Fl -[a-z0-9][a-z0-9.-]*' | sed 's/^Fl -//' | sort -u); do
  printf '%s\n' "$longs" | grep -qxF -e "$o" ||
    problem "--$o is in $PAGE but not in --help (stale or misspelt)"
done
for s in $(printf '%s\n%s\n' "$items" "$synopsis" |
  grep -oE 'Fl [A-Za-z0-9]+( |$)' | sed 's/^Fl //; s/ $//' |
  sed 's/./& /g' | tr ' ' '\n' | sort -u); do
  case $shorts in
    *"$s"*) ;;
    *) problem "-$s is in $PAGE but not in --help (stale or misspelt)" ;;
  esac
done

# The page formats without a warning.
if command -v groff >/dev/null 2>&1; then
  out=$(groff -ww -man -z "$PAGE" 2>&1)
  if [ -n "$out" ]; then
    problem "groff -ww -man -z $PAGE is not clean:"
    printf '%s\n' "$out" >&2
  fi
elif [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ]; then
  problem "groff is missing and HOPSPLIT_TEST_REQUIRE is set"
else
  log "groff is missing: lint of $PAGE skipped"
fi

# README's quick start.
if [ -f "$README" ]; then
  for w in scripts/build scripts/test; do
    grep -qF -e "$w" "$README" || problem "README.md does not mention $w"
  done
fi

if [ "$problems" -gt 0 ]; then
  log "FAIL: $problems problem(s)"
  exit 1
fi
log "ok ($(printf '%s\n' "$opts" | wc -l | tr -d ' ') options)"
exit 0
