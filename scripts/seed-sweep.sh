#!/usr/bin/env bash
# Every test whose inputs are random (fake secrets, generated texts and ids, property tests),
# run once per seed: TEST_SEED=1..50 by default, each printed with its outcome, so a failure is
# replayed with `TEST_SEED=<n> bash scripts/with-keyring.sh npx vitest run <file>`.
#   bash scripts/seed-sweep.sh [count] [first]     (files: SWEEP_FILES, default every seeded test)
set -uo pipefail
cd "$(dirname "$0")/.."
count="${1:-50}"
first="${2:-1}"
# The files whose inputs follow the seed (they reach test/support/random.ts or fast-check through
# their imports; test/support/seeded-tests.ts finds them). A part only: SWEEP_FILES="test/store …".
default_files="$(npx tsx test/support/seeded-tests.ts)"
read -r -a files <<<"$(echo "${SWEEP_FILES:-$default_files}" | tr '\n' ' ')"
log="$(mktemp -d)"
passed=0
failed=()
for ((seed = first; seed < first + count; seed++)); do
  if TEST_SEED="$seed" CHAOS_SEED="$seed" bash scripts/with-keyring.sh npx vitest run "${files[@]}" >"$log/$seed.log" 2>&1; then
    passed=$((passed + 1))
  else
    failed+=("$seed")
  fi
  echo "seed $seed: $(grep -E '^tests: ' "$log/$seed.log" | tail -1)"
done
echo "seeds: $passed of $count passed${failed[*]:+; failed: ${failed[*]} (logs in $log)}"
((${#failed[@]} == 0))
