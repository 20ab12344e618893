#!/bin/sh
# report_install: "cmake --install" into a DESTDIR puts the binary, both
# man pages, the example profiles and the bash and zsh completions where
# a Debian system looks for them (issue 6 part 8), the licences (with the
# bundled libcurl's, which is inside the binary) in its doc folder, and the
# installed binary runs.
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
# A bundled libcurl is inside the binary, so its licence goes with it.
if "$D/usr/bin/hopsplit" --version | grep -q '^libcurl: bundled'; then
  for f in COPYING.curl licenses/openssl.copyright licenses/Apache-2.0 \
    licenses/c-ares.copyright licenses/nghttp2.copyright \
    licenses/libyaml.copyright licenses/zlib.copyright \
    licenses/brotli.copyright licenses/zstd.copyright; do
    [ -s "$D/usr/share/doc/hopsplit/$f" ] ||
      hs_fail "bundled build, but share/doc/hopsplit/$f is not installed"
  done
fi
[ -s "$D/usr/share/man/man5/hopsplit-profile.5" ] ||
  hs_fail "not installed: hopsplit-profile.5"
for p in "$HOPSPLIT_SRC"/profiles/*.yaml; do
  [ -f "$p" ] || continue
  [ -s "$D/usr/share/hopsplit/profiles/$(basename "$p")" ] ||
    hs_fail "profile not installed: $(basename "$p")"
done
"$D/usr/bin/hopsplit" --version >/dev/null || hs_fail "installed binary fails"
hs_pass
