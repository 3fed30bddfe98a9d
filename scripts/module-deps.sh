#!/usr/bin/env bash
# Which of the firmware's top-level modules each one uses in code (doc comments left out), and the
# largest Rust files of the program and its crates: the architecture page's claims, checkable.
# Usage: scripts/module-deps.sh   (from the repository's root)
set -euo pipefail
cd "$(dirname "$0")/.."
echo "Module -> the modules of this crate it uses (crate::...), in code:"
for path in src/*.rs src/*/; do
    module=$(basename "$path" .rs)
    [ "$module" = lib ] || [ "$module" = main ] && continue
    uses=$(find "$path" -name '*.rs' -print0 |
        xargs -0 grep -h -v '^\s*//' |
        grep -o 'crate::[a-z_]*' | sed 's/crate:://' | sort -u |
        grep -v -x "$module" | tr '\n' ' ' || true)
    printf '  %-12s -> %s\n' "$module" "${uses:-(none)}"
done
echo "The largest Rust files (lines):"
find src engine/src hardware/src -name '*.rs' -print0 | xargs -0 wc -l | sort -rn | sed -n '2,11p'
