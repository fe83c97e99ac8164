#!/bin/sh
# Builds the seed corpora in fuzz/corpus/<target>/ from the project's fixtures (run from
# anywhere; the corpora are not committed, they are regenerated from what is).
set -eu
cd "$(dirname "$0")/.."
C=fuzz/corpus
mkdir -p $C/fm2_parse $C/trace_read $C/trace_verify $C/settings_toml $C/weights_toml \
    $C/addresses_toml $C/ines_rom $C/protocol

# Movies: FCEUX's own sample and the head of a game nestor recorded (comments, menus, play).
cp tests/fixtures/movies/*.fm2 $C/fm2_parse/
SHARED=${NESTOR_SHARED:-/work/shared}
if [ -f "$SHARED/traces/nestor-l19-game.fm2" ]; then
    head -n 300 "$SHARED/traces/nestor-l19-game.fm2" > $C/fm2_parse/nestor-l19-head.fm2
fi

# Traces: the header and first frames of each cartridge trace, plain, and one kept gzipped.
for f in tests/fixtures/traces/*.jsonl.gz; do
    b=$(basename "$f" .jsonl.gz)
    gzip -dc "$f" | head -n 4 > $C/trace_read/$b.jsonl || true
done
gzip -dc tests/fixtures/traces/l19-das-walls.jsonl.gz | head -n 3 | gzip -9 > $C/trace_read/l19-das-walls-head.jsonl.gz

# Frame-state sequences (see fuzzed_trace): no edits and a few inputs; an edit of each kind.
printf '\000\002\000\002\000\001\000\200\000' > $C/trace_verify/plain-steps
printf '\001\033\007\000\001\000' > $C/trace_verify/level-edit
printf '\001\037ABCDEFGHIJKLMNOPQRSTUVWXYZ\001\000' > $C/trace_verify/field-edit
printf '\002\042\231\231\043\231\231\231\010\000' > $C/trace_verify/bcd-edits

# TOML: the shipped files, and the settings with every example key switched on.
cp config/play.toml $C/settings_toml/
sed 's/^# \([a-z_]* = \)/\1/' config/play.toml > $C/settings_toml/play-all-keys.toml
cp config/weights/*.toml $C/weights_toml/
cp addresses.toml $C/addresses_toml/

# iNES: a blank MMC1 image of Tetris's shape (2 PRG, 2 CHR banks), one with a trainer, and an
# NES 2.0 header; the fuzzer mostly mutates the 16 header bytes.
mk_rom() { # header-hex trainer-bytes out
    printf "$1" > "$3"
    head -c $(( $2 + 2 * 16384 + 2 * 8192 )) /dev/zero >> "$3"
}
mk_rom 'NES\032\002\002\020\000\000\000\000\000\000\000\000\000' 0 $C/ines_rom/mmc1-blank.nes
mk_rom 'NES\032\002\002\024\000\000\000\000\000\000\000\000\000' 512 $C/ines_rom/mmc1-trainer.nes
mk_rom 'NES\032\002\002\020\010\000\000\000\000\000\000\000\000' 0 $C/ines_rom/mmc1-nes2.nes
# The bridge protocol: the kept sessions (hello, frames, bye) and a real frame line's shape.
cp tests/fixtures/fuzz/protocol/accepted-* $C/protocol/
echo "seeded $(find $C -type f | wc -l) files in $C"
