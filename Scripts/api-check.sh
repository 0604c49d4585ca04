#!/usr/bin/env bash
# The public API of the library modules against its committed baseline, api/MODULE.txt (one line per
# public symbol: kind, path, declaration; Scripts/api_listing.py). A public symbol added, removed or
# changed without the baseline changing in the same commit fails the check, which prints the
# difference; a deliberate change updates the baseline with --update and commits it beside the code.
#
#   Scripts/api-check.sh               # compare (CI runs this)
#   Scripts/api-check.sh --update      # write the current API into api/
#   Scripts/api-check.sh --self-test   # the check run against a changed copy of the API: must fail
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(AsyncSocketKit AsyncSocketCore MigrationTesting AsyncSocketTesting AsyncSocketServiceLifecycle)
current=$(mktemp -d)
trap 'rm -rf "$current"' EXIT

graphs=$(swift package dump-symbol-graph --minimum-access-level public 2>&1 | sed -n 's/^Files written to //p')
[[ -d $graphs ]] || { echo "dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }
python3 Scripts/api_listing.py "$graphs" "$current" "${modules[@]}"

# Compares the listings in $1 with the baseline; prints each module's difference.
compare() {
  local failed=0
  for module in "${modules[@]}"; do
    if ! diff -u --label "api/$module.txt (baseline)" --label "$module (this build)" \
      "api/$module.txt" "$1/$module.txt"; then
      failed=1
    fi
  done
  return "$failed"
}

case ${1:-} in
  --update)
    mkdir -p api
    for module in "${modules[@]}"; do cp "$current/$module.txt" "api/$module.txt"; done
    echo "api/ updated: commit it with the change"
    ;;
  --self-test)
    # A copy of this build's API with one public function added and one symbol gone, as an unapproved
    # change would make it: the comparison must fail and name both.
    changed=$(mktemp -d)
    cp "$current"/*.txt "$changed/"
    echo "func RunLoopSocket.unapprovedAddition(): func unapprovedAddition()" >>"$changed/AsyncSocketKit.txt"
    sed -i '1d' "$changed/MigrationTesting.txt"
    if output=$(compare "$changed"); then
      rm -rf "$changed"
      echo "self-test: a changed API passed the check" >&2
      exit 1
    fi
    rm -rf "$changed"
    grep -q '^+func RunLoopSocket.unapprovedAddition' <<<"$output" && grep -q '^-' <<<"$(grep -v '^---' <<<"$output")" ||
      { echo "self-test: the difference does not name the changed symbols" >&2; echo "$output" >&2; exit 1; }
    echo "self-test: a changed API fails the check (an added and a removed symbol named)"
    ;;
  "")
    if ! compare "$current"; then
      echo "The public API differs from api/ (above). If the change is deliberate, run Scripts/api-check.sh --update and commit api/ with it." >&2
      exit 1
    fi
    echo "public API: as in api/ ($(cat "$current"/*.txt | wc -l) symbols in ${#modules[@]} modules)"
    ;;
  *)
    sed -n '2,9p' "$0"
    exit 2
    ;;
esac
