#!/usr/bin/env bash
# The test layers whose inputs are random (fake secrets, generated texts and ids, property tests),
# run once per seed: TEST_SEED=1..50 by default, each printed with its outcome, so a failure is
# replayed with `TEST_SEED=<n> bash scripts/with-keyring.sh npx vitest run <file>`.
#   bash scripts/seed-sweep.sh [count] [first]     (files: SWEEP_FILES, default the list below)
set -uo pipefail
cd "$(dirname "$0")/.."
count="${1:-50}"
first="${2:-1}"
# The files whose inputs follow the seed: fake secrets (secret scan, keytar move), property tests
# (rules, domain, store, renderer, report files, main's rules). Whole layers: SWEEP_FILES="test/store …".
default_files="test/evidence/secret-scan.test.ts test/secrets/keytar-migration.test.ts
  test/rules/never-throw.property.test.ts test/rules/scope.test.ts test/rules/program-filters.test.ts
  test/domain test/store/text-match.property.test.ts test/store/report-facets.test.ts
  test/store/report-list-sort.test.ts test/renderer-unit/markdown-sanitizer.test.ts
  test/report-files/round-trip.property.test.ts test/report-files/templates.test.ts
  test/main/update-decision.test.ts test/main/deep-links.test.ts"
read -r -a files <<<"$(echo "${SWEEP_FILES:-$default_files}" | tr '\n' ' ')"
log="$(mktemp -d)"
passed=0
failed=()
for ((seed = first; seed < first + count; seed++)); do
  if TEST_SEED="$seed" bash scripts/with-keyring.sh npx vitest run "${files[@]}" >"$log/$seed.log" 2>&1; then
    passed=$((passed + 1))
  else
    failed+=("$seed")
  fi
  echo "seed $seed: $(grep -E '^tests: ' "$log/$seed.log" | tail -1)"
done
echo "seeds: $passed of $count passed${failed[*]:+; failed: ${failed[*]} (logs in $log)}"
((${#failed[@]} == 0))
