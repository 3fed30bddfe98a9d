#!/usr/bin/env bash
# Counts the ARM instructions the program executes through a whole game on the emulated brick,
# screen by screen, and names the functions they are spent in: what the EV3's 300 MHz
# ARM926EJ-S (no FPU: every f64 operation is a library call) would pay in cycles, where host
# seconds say nothing about the brick. docs/figures.md ("What a game asks of the brick") has the
# method and the figures.
#
#   scripts/arm-instructions.sh          build, then run the pace test with the ARM binary
#                                        under qemu-arm -cpu arm926 and a counting plugin
#   scripts/arm-instructions.sh --pace   the same game at full speed and at the brick's pace:
#                                        2.2 ms an attribute access, 10 ns an instruction
#   scripts/arm-instructions.sh --build  only build (CI builds while the brick suite runs,
#                                        and runs --pace once the emulated brick is free)
#
# Needs what scripts/build-ev3.sh needs, plus gcc, a qemu-arm built with plugin support
# (Debian's is) and the right to mount FUSE (the emulated brick).
set -euo pipefail
cd "$(dirname "$0")/.."

test=pace::a_whole_game_phase_by_phase_within_25_percent_of_the_brick_at_work_and_3_percent_waiting_for_a_person_or_a_button_one_touch_read_and_one_button_read_a_poll
run=true
case "${1:-}" in
  "") ;;
  --pace) test=pace::at_the_brick_s_pace_a_whole_game_ends_as_at_full_speed_and_its_reads_take_at_most_a_quarter_longer ;;
  --build) run=false ;;
  *) echo "usage: $0 [--pace | --build]" >&2; exit 2 ;;
esac

TARGET=armv5te-unknown-linux-gnueabi
out=target/arm-instructions
mkdir -p "$out"

# The counting plugin: a TCG plugin in C against qemu's plugin API 1 (see count.c).
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -fvisibility=hidden \
  -o "$out/count.so" scripts/arm-instructions/count.c

# The shipped binary's code (same profile, same CPU), with two differences: its symbols are kept
# for naming the functions, and ev3dev-lang-rust finds the sysfs classes where the emulated
# brick is mounted (the tests' override-driver-path feature; EV3DEV_DRIVER_PATH comes from
# .cargo/config.toml). A target folder of its own, so the shipped build stays as it is.
export RUSTC=/usr/bin/rustc
export RUSTC_BOOTSTRAP=1
CARGO_TARGET_DIR=target/debian-counted CARGO_PROFILE_RELEASE_STRIP=false \
  /usr/bin/cargo build --release -Zbuild-std=std,panic_abort --target "$TARGET" \
  --no-default-features --features ev3dev-lang-rust/override-driver-path
program=target/debian-counted/$TARGET/release/ev3-tictactoe
arm-linux-gnueabi-nm --defined-only -n -S -C "$program" > "$out/symbols.txt"
arm-linux-gnueabi-objdump -d --no-show-raw-insn -C "$program" > "$out/disassembly.txt"

unset RUSTC RUSTC_BOOTSTRAP
cargo test --release --test brick_games --no-run
$run || exit 0

# The pace test, with the program run as qemu-arm -cpu arm926 -plugin count.so,... (see
# tests/brick_games/at_the_brick.rs); it prints the phases' table with instructions.
BRICK_GAMES_ARM_PROGRAM="$PWD/$program" BRICK_GAMES_COUNT_PLUGIN="$PWD/$out/count.so" \
BRICK_GAMES_COUNT_FOLDER="$PWD/$out" \
  cargo test --release --test brick_games -- --ignored --nocapture --exact "$test"

# Where the instructions went: each translated block attributed to the function it starts in,
# then the C runtime's share (soft float, libm) handed on to the functions that call it.
python3 scripts/arm-instructions/functions.py "$out/symbols.txt" "$out/blocks.txt" \
  "$out/disassembly.txt"
# And which system calls it made.
python3 scripts/arm-instructions/calls.py "$out/calls.txt"
