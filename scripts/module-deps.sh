#!/usr/bin/env bash
# Which of the firmware's top-level modules each one uses in code (doc comments left out), the
# largest Rust files of the program and its crates, and any two modules of one folder that use
# each other: the architecture page's claims, checkable.
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
echo "The largest Rust files, tests and benches included (lines):"
find src engine hardware tests benches -name '*.rs' -print0 | xargs -0 wc -l | sort -rn | sed -n '2,11p'
echo "Circles between sibling modules (each uses the other), folder by folder:"
circles=0
while IFS= read -r folder; do
    path=${folder#src}; path=${path#/}; path=${path//\//::}
    prefix="crate::${path:+$path::}"
    modules=$(find "$folder" -maxdepth 1 \( -name '*.rs' ! -name mod.rs ! -name lib.rs ! -name main.rs \) \
        -printf '%f\n' | sed 's/\.rs$//'; find "$folder" -mindepth 1 -maxdepth 1 -type d -printf '%f\n')
    uses() { # does module $1 of this folder name sibling $2 in code?
        local files
        if [ -d "$folder/$1" ]; then files=$(find "$folder/$1" -name '*.rs'); else files="$folder/$1.rs"; fi
        # shellcheck disable=SC2086
        grep -h -v '^\s*//' $files | grep -q -E "(super|${prefix//::/::})::$2\b"
    }
    for a in $modules; do
        for b in $modules; do
            if [[ "$a" < "$b" ]] && uses "$a" "$b" && uses "$b" "$a"; then
                echo "  ${path:-crate}: $a <-> $b"
                circles=$((circles + 1))
            fi
        done
    done
done < <(find src -type d)
[ "$circles" -eq 0 ] && echo "  (none)"
