#!/usr/bin/env bash
# Issue 25's speed figures for one build, easy to rerun on a quiet machine:
#   benches/speed25.sh [callgrind] [sim] [tune] [sr]      (default: all four)
# callgrind: instructions per decision of examples/decision_cpu (depth2 and the shipped default),
#            immune to load; sim: 200 games from level 19 to 29 on 2 threads (wall, user CPU,
#            games a minute); tune: one raced generation (16 x 50 games), user CPU; sr: the
#            StackRabbit side by side (../shared/sr-bench/run.sh, noplayout).
# Run from the worktree; temporary files go to a fresh directory under /tmp. Prints uptime first.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${*:-callgrind sim tune sr}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "== $(git rev-parse --short HEAD), $(uptime)"
cargo build --release --quiet --bin nestor --example decision_cpu
bin="$PWD/target/release/nestor"
for w in $what; do
  case "$w" in
    callgrind)
      for mode in depth2 default; do
        arg=(); [ "$mode" = depth2 ] && arg=(depth2)
        ir=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --collect-atstart=no \
          --toggle-collect='nestor::search::plan::Planner<*>::plan' \
          target/release/examples/decision_cpu "${arg[@]}" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
        echo "callgrind decision_cpu $mode: $ir Ir, $(awk -v i="$ir" 'BEGIN{printf "%.3f", i/336/1e6}') M a decision (336)"
      done ;;
    sim)
      /usr/bin/time -f "%e %U" -o "$tmp/t" "$bin" sim --games 200 --level 19 --until level:29 --seed 1 > /dev/null 2>&1
      read -r wall user < "$tmp/t"
      echo "sim 200 games to level 29: ${wall} s wall, ${user} s user: $(awk -v w="$wall" 'BEGIN{printf "%.0f", 200*60/w}') games a minute (wall)" ;;
    tune)
      (cd "$tmp" && /usr/bin/time -f "%e %U" -o t "$bin" tune --objective score-at-29 --population 16 \
        --games 50 --generations 1 --compare-games 2 --state st.json --out out.toml --overwrite > /dev/null 2>&1)
      read -r wall user < "$tmp/t"
      echo "tune one generation: ${wall} s wall, ${user} s user CPU" ;;
    sr)
      SR_BENCH_MODES=noplayout /work/shared/sr-bench/run.sh . | sed -n '/== ratio/,$p' ;;
  esac
done
echo "== $(uptime)"
