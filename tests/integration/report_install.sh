#!/bin/sh
# report_install: "cmake --install" into a DESTDIR puts the binary, both
# man pages, the example profiles and the bash and zsh completions where
# a Debian system looks for them (issue 6 part 8), COPYING in its doc
# folder and no licence of code the binary no longer carries (it links the
# system's libraries), and the installed binary runs.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_install
hs_require cmake

D=$HS_DIR/dest
DESTDIR=$D cmake --install "$HOPSPLIT_BUILD" --prefix /usr \
  >"$HS_DIR/install.log" 2>&1 || {
  cat "$HS_DIR/install.log" >&2
  hs_fail "cmake --install failed"
}
for f in bin/hopsplit share/man/man1/hopsplit.1 \
  share/bash-completion/completions/hopsplit \
  share/zsh/site-functions/_hopsplit share/doc/hopsplit/COPYING; do
  [ -s "$D/usr/$f" ] || hs_fail "not installed: /usr/$f"
done
[ -x "$D/usr/bin/hopsplit" ] || hs_fail "/usr/bin/hopsplit not executable"
for f in COPYING.curl licenses; do
  [ ! -e "$D/usr/share/doc/hopsplit/$f" ] ||
    hs_fail "share/doc/hopsplit/$f installed, but no third-party code is shipped"
done
[ -s "$D/usr/share/man/man5/hopsplit-profile.5" ] ||
  hs_fail "not installed: hopsplit-profile.5"
for p in "$HOPSPLIT_SRC"/profiles/*.yaml; do
  [ -f "$p" ] || continue
  [ -s "$D/usr/share/hopsplit/profiles/$(basename "$p")" ] ||
    hs_fail "profile not installed: $(basename "$p")"
done
"$D/usr/bin/hopsplit" --version >/dev/null || hs_fail "installed binary fails"
hs_pass
