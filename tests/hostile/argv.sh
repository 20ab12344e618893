#!/bin/sh
# argv: hostile command lines for every command (the URL form, run,
# report, merge, serve), through the one option table (the tool's
# parser, src/cmd/cmd_cli.c; serve's, config/cli.c).
# Each is exit 2 with one message naming the option, nothing on stdout,
# never a signal: a long name of 10 KB, a name of bytes that are not
# UTF-8, "--=" and "-=" alone, a value that is empty or looks like an
# option, a bundle ending in an option that needs a value, an option of
# another command, 5000 arguments.  A well-formed line of each command's
# own options (bundled, --opt=value) still parses: --help after it
# answers 0.  The ASan+UBSan build runs this too (.ci/run).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init argv
hs_require python3 timeout
LONG=$(python3 -c 'print("x" * 10000)')
BYTES=$(printf 'r\377\376und')

# bad WANT_ERE COMMAND_AND_ARGS...: exit 2, stderr matches, stdout empty.
bad() {
  want=$1
  shift
  hs_run 2 "$@"
  hs_grep_err "$want"
  hs_empty_out
  [ "$(wc -l <"$HS_ERR")" -eq 1 ] || hs_fail "more than one message: $HS_CMD"
}

for cmd in "" report merge serve run; do
  # shellcheck disable=SC2086
  set -- $cmd
  case $cmd in report | merge) p="$cmd: " ;; *) p="" ;; esac
  bad "${p}unknown option '--x{20}" "$@" "--$LONG"
  bad "${p}unknown option" "$@" "--$BYTES"
  bad "${p}unknown option '--'" "$@" "--="
  bad "${p}unknown option '-='" "$@" "-="
  bad "option --format: " "$@" --format= x.json
  bad "option -o needs a value \(FILE\)" "$@" -qo
  bad "option --color: " "$@" --color --format x.json
  bad "option --verbose takes no value" "$@" --verbose=1
  hs_run 0 "$@" -qv --color=never --format=json --help
done

# Another command's options: named as such.
bad "unknown option '--listen': it is hopsplit serve's" --listen 127.0.0.1:1 x
bad "report: unknown option '-n': hopsplit report re-renders" \
  report -n 3 r.json
bad "merge: unknown option '--max-concurrent': hopsplit merge merges" \
  merge --max-concurrent=3 a.json b.json
bad "report: unknown option '--formt' \(did you mean '--format'\?\)" \
  report --formt json r.json
bad "unknown option '--lsten' \(did you mean '--listen'\?\)" serve --lsten x
bad "option --max-concurrent: '1e9' is not a number from 1 to 100000" \
  serve --max-concurrent=1e9
bad "option --timeout-offset: 'nan' is not a number" \
  serve --timeout-offset nan

# 5000 arguments: every one parsed, the first unknown named.
set -- report
i=0
while [ "$i" -lt 5000 ]; do
  set -- "$@" -q
  i=$((i + 1))
done
bad "report: unknown option '--zz'" "$@" --zz
hs_pass
