#!/bin/sh
# Plays nestor on BetaTetris's grid (tap rate x reaction, from level 18, games stopped at 430
# lines) with `nestor sim`, one CSV per chunk of games; scripts/grid_report.py turns them into the
# table and chart of benches/README.md ("Grid"). Resumable: a finished chunk is never replayed
# (a chunk is written under a temporary name and renamed only when its sim succeeded), so an
# interrupted run continues where it stopped when started again with the same options.
#
#   scripts/grid.sh [--games N] [--chunk C] [--hz "10hz 12hz ..."] [--reaction "0 18 ..."]
#                   [--adjust continue|restart] [--weights FILE] [--dir DIR] [--nestor BIN]
#                   [--threads T] [--seed S]
#
# Defaults: 200 games a cell (seeds 1..200), chunks of 25, every tap rate (10, 12, 15, 20, 24,
# 30 Hz: the presets config/profiles/<hz>.toml, BetaTetris's btpg kTapTables patterns) and
# every reaction (0, 18, 21, 24, 30 frames, `--reaction`), each profile's adjustment rule
# (`--adjust restart` is BetaTetris's: benches/README.md, "The rules of the comparison") and
# weight set (`--weights FILE` plays every cell with that one), into benches/grid/runs, using
# target/release/nestor. Run it under `nice -n 10`.
set -eu

games=200
chunk=25
hzs="10hz 12hz 15hz 20hz 24hz 30hz"
reactions="0 18 21 24 30"
adjust=""
rule=profile
weights=""
set_name=profile
dir=benches/grid/runs
nestor=target/release/nestor
threads=""
seed=1

while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --chunk) chunk=$2; shift 2 ;;
        --hz) hzs=$2; shift 2 ;;
        --reaction) reactions=$2; shift 2 ;;
        --adjust) adjust="--adjust $2"; rule=$2; shift 2 ;;
        --weights) weights="--weights $2"; set_name=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --nestor) nestor=$2; shift 2 ;;
        --threads) threads="--threads $2"; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "grid.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

[ -x "$nestor" ] || { echo "grid.sh: $nestor is not an executable (cargo build --release)" >&2; exit 1; }

# One rule and weight set per folder: a resumed run must not mix games played two ways.
mkdir -p "$dir"
how="--adjust $rule --weights $set_name"
if [ -f "$dir/played" ] && [ "$(cat "$dir/played")" != "$how" ]; then
    echo "grid.sh: $dir holds games played with $(cat "$dir/played"), not $how: use another --dir" >&2
    exit 1
fi
echo "$how" > "$dir/played"

for hz in $hzs; do
    for r in $reactions; do
        cell="$dir/$hz-r$r"
        mkdir -p "$cell"
        done_games=0
        while [ "$done_games" -lt "$games" ]; do
            n=$chunk
            [ $((done_games + n)) -gt "$games" ] && n=$((games - done_games))
            first=$((seed + done_games))
            out="$cell/seeds-$first-$((first + n - 1)).csv"
            if [ ! -f "$out" ]; then
                tmp="$out.partial"
                rm -f "$tmp"
                echo "grid.sh: $hz reaction $r, seeds $first..$((first + n - 1))" >&2
                # shellcheck disable=SC2086
                "$nestor" sim --level 18 --until lines:430 --profile "$hz" --reaction "$r" $adjust $weights \
                    --games "$n" --seed "$first" $threads --out "$tmp" > "$tmp.summary"
                mv "$tmp" "$out"
                rm -f "$tmp.summary"
            fi
            done_games=$((done_games + n))
        done
    done
done
