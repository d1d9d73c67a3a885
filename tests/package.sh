#!/usr/bin/env bash
# The Debian package a release attaches (docs/ci.md, "Releases"): cpack builds it from this build
# folder into BUILD/package-test/, and it holds the binary, the man page and both completions;
# its control fields name the version and the Boost run-time library; unpacked into a temporary
# root (dpkg-deb -x, no installing), its odds runs and says its version, and its man page and
# completions are what that odds makes. tests/readme_ci.sh installs this .deb as the CI snippets
# of docs/ci.md do. Usage: package.sh BUILD_DIR VERSION
set -u
build=$1
version=$2
fail() { echo "FAIL: $*"; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/setup --all installs dpkg-dev)"
done
out=$(cd "$build" && pwd)/package-test
rm -rf "$out"
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out") > "$out/cpack.log" 2>&1 ||
  { cat "$out/cpack.log"; fail "cpack failed"; }
debs=("$out"/odds_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single odds_*.deb in $out"
deb=${debs[0]}
arch=$(dpkg --print-architecture)
[ "$(basename "$deb")" = "odds_${version}_${arch}.deb" ] ||
  fail "the package is $(basename "$deb"), not odds_${version}_${arch}.deb"

contents=$(dpkg-deb -c "$deb") || fail "dpkg-deb cannot list $deb"
for f in usr/bin/odds usr/share/man/man1/odds.1 usr/share/bash-completion/completions/odds \
         usr/share/zsh/vendor-completions/_odds; do
  grep -q " \./$f\$" <<< "$contents" || fail "$deb lacks /$f; it holds:"$'\n'"$contents"
done
[ "$(dpkg-deb -f "$deb" Package)" = odds ] || fail "Package is not odds"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version is not $version"
dpkg-deb -f "$deb" Depends | grep -q libboost-program-options ||
  fail "Depends lacks the Boost.Program_options run-time library: $(dpkg-deb -f "$deb" Depends)"

root=$(mktemp -d "${TMPDIR:-/tmp}/odds-package.XXXXXX")
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb cannot unpack $deb"
odds=$root/usr/bin/odds
said=$("$odds" --version) || fail "the packaged odds --version failed"
[[ "$(head -n 1 <<< "$said")" == "odds $version ("*" build"* ]] ||
  fail "the packaged odds says '$(head -n 1 <<< "$said")', not 'odds $version (... build)'"
cmp -s "$root/usr/share/man/man1/odds.1" <("$odds" man) || fail "the packaged man page is not odds man's"
cmp -s "$root/usr/share/bash-completion/completions/odds" <("$odds" completion bash) ||
  fail "the packaged bash completion is not odds completion bash's"
cmp -s "$root/usr/share/zsh/vendor-completions/_odds" <("$odds" completion zsh) ||
  fail "the packaged zsh completion is not odds completion zsh's"
echo "ok: $(basename "$deb") holds odds $version, its man page and completions"
