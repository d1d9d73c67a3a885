#!/usr/bin/env bash
# The shell completions and the man page odds makes of its own declarations: bash completes
# commands, games, options, policies and rule options; zsh reads its script; the man page
# renders without a warning and names every command.
set -u
odds=$1
fail() { echo "FAIL: $*"; exit 1; }

# shellcheck disable=SC1090
source <("$odds" completion bash) || fail "the bash script does not load"
complete -p odds | grep -q -- '-F _odds' || fail "no completion registered for odds"
expect() {  # expect WORD... -- CANDIDATE: completing the last WORD offers CANDIDATE
  local words=() want
  while [ "$1" != -- ]; do words+=("$1"); shift; done
  want=$2
  COMP_WORDS=("${words[@]}")
  COMP_CWORD=$((${#words[@]} - 1))
  COMPREPLY=()
  _odds
  [[ " ${COMPREPLY[*]} " == *" $want "* ]] ||
    fail "completing '${words[*]}' offers '${COMPREPLY[*]}', not '$want'"
}
expect odds ru -- run
expect odds tour -- tournament
expect odds run bos -- bosconian
expect odds run bosconian --se -- --seed
expect odds run bosconian --se -- --set
expect odds run bosconian --set hu -- hull=
expect odds run msc --policy turtle/st -- turtle/strike
expect odds tournament naval --policy gun -- gunner
expect odds check --no -- --no-progress
expect odds sta -- state
expect odds run bosconian --sta -- --state
expect odds completion b -- bash

if command -v zsh >/dev/null; then
  "$odds" completion zsh > "${TMPDIR:-/tmp}/_odds.$$" || fail "odds completion zsh failed"
  zsh -n "${TMPDIR:-/tmp}/_odds.$$" || fail "zsh cannot read the zsh completion"
  rm -f "${TMPDIR:-/tmp}/_odds.$$"
else
  echo "zsh is not installed: the zsh script is not checked (scripts/setup --all installs it)"
fi

page=$("$odds" man) || fail "odds man failed"
warnings=$(printf '%s\n' "$page" | groff -man -ww -z 2>&1)
[ -z "$warnings" ] || fail "groff warns: $warnings"
text=$(printf '%s\n' "$page" | MANWIDTH=100 man -l - 2>/dev/null)
for c in list run exact compare tournament sweep baseline check version completion man; do
  grep -q "^   odds $c" <<<"$text" || fail "the man page has no section for 'odds $c'"
done
grep -q "EXIT STATUS" <<<"$text" || fail "the man page has no EXIT STATUS"
echo "completions and man page: ok"
