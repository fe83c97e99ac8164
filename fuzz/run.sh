#!/bin/sh
# Runs one fuzz target for SECONDS (default 600) niced, with the limits fuzz/README.md gives;
# further arguments go to libFuzzer:
#   fuzz/run.sh TARGET [SECONDS [LIBFUZZER-FLAG...]]
# Crashes land in fuzz/artifacts/TARGET/; the corpus grows in fuzz/corpus/TARGET/.
set -eu
cd "$(dirname "$0")"
target=$1
secs=${2:-600}
shift $(( $# < 2 ? $# : 2 ))
case $target in
    ines_rom) max_len=65536 ;;      # Tetris is 49,168 bytes; room for a trainer and junk
    trace_read) max_len=16384 ;;    # a header and a dozen frame lines
    fm2_parse) max_len=16384 ;;     # a header and a few hundred input lines
    trace_verify) max_len=4096 ;;   # a start state and up to ~2,000 frames
    protocol) max_len=16384 ;;      # a few lines, one over the 4,352-byte line limit
    *) max_len=4096 ;;              # the TOML files are a few kB
esac
[ -d corpus/$target ] || ./seed.sh
exec nice -n 10 cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$secs" -rss_limit_mb=2048 -max_len="$max_len" -timeout=10 \
    -print_final_stats=1 "$@"
