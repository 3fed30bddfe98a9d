#!/usr/bin/env bash
# Builds the static EV3 binary on a Debian machine that has no rustup target for the brick:
# Debian's own Rust (rustc-web, cargo-web) rebuilds the standard library for ARMv5TE from
# rust-web-src (-Zbuild-std, allowed on a stable compiler by RUSTC_BOOTSTRAP=1).
#
#   scripts/build-ev3.sh            build target/armv5te-unknown-linux-gnueabi/release/ev3-tictactoe
#   scripts/build-ev3.sh --install  first install the Debian packages (needs root)
#   scripts/build-ev3.sh --test     build, then run the ARM test binaries under qemu-arm -cpu arm926
#
# With rustup, `rustup target add armv5te-unknown-linux-gnueabi` and a plain
# `cargo build --release --no-default-features --target armv5te-unknown-linux-gnueabi` do the
# same (see README).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=armv5te-unknown-linux-gnueabi
PACKAGES=(rustc-web cargo-web rust-web-src gcc-arm-linux-gnueabi libc6-dev-armel-cross qemu-user)

install=false
test=false
for arg in "$@"; do
  case "$arg" in
    --install) install=true ;;
    --test) test=true ;;
    *) echo "usage: $0 [--install] [--test]" >&2; exit 2 ;;
  esac
done

if $install; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PACKAGES[@]}"
fi

for tool in /usr/bin/cargo /usr/bin/rustc arm-linux-gnueabi-gcc; do
  command -v "$tool" >/dev/null || {
    echo "missing $tool: run $0 --install (as root) or apt-get install ${PACKAGES[*]}" >&2
    exit 1
  }
done

# Debian's cargo and rustc, never rustup's proxies, and a target folder of their own so the two
# compilers' artefacts do not mix.
export RUSTC=/usr/bin/rustc
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR=target/debian
# --no-default-features: the terminal simulator (`sim`) stays out of the brick's binary.
build=(/usr/bin/cargo build --release -Zbuild-std=std,panic_abort --target "$TARGET" --no-default-features)
"${build[@]}"

binary="$CARGO_TARGET_DIR/$TARGET/release/ev3-tictactoe"
mkdir -p "target/$TARGET/release"
cp "$binary" "target/$TARGET/release/ev3-tictactoe"
echo "built target/$TARGET/release/ev3-tictactoe ($(stat -c %s "$binary") bytes)"

if $test; then
  # The library and integration tests, under the brick's CPU; those that start a binary as a
  # second process (engine_command, robot_commands, brickrun_lines, bad_inputs, the scoreboard
  # tests that run the program or a writer process) are left to CI's qemu steps and the host, and the emulated-brick tests (ev3dev_sysfs, ev3dev_signals, brick_games) mount
  # FUSE from the test process, which is not tried under qemu-user. brick_buttons runs the
  # buttons' ioctl through qemu: whatever qemu makes of it must be "no buttons", not a panic.
  # Test harnesses always unwind, so the test build's std is built with unwinding (the shipped
  # binary above aborts on panic; one std cannot serve both). The tests are the same code at
  # the same optimisation level for the same CPU, but not linked as one fat LTO unit: that
  # changes what is inlined, not what is computed, and linking a dozen test binaries that way
  # took 3.4 minutes of CI. The shipped binary, fat LTO and all, is what CI's qemu steps run.
  CARGO_PROFILE_RELEASE_PANIC=unwind CARGO_PROFILE_RELEASE_LTO=false \
  CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  /usr/bin/cargo test --release -Zbuild-std --target "$TARGET" --no-default-features \
    --lib --test hard_keeps_the_value --test hard_never_loses --test difficulty_levels \
    --test engine_search --test win_detection --test positions_file --test scoreboard_file \
    --test gantry_on_sim --test games_on_sim --test menu --test brick_buttons \
    -- --skip the_scores_commands --skip scores_only_reads --skip two_processes_writing \
    --skip a_writer_killed_at_random
fi
