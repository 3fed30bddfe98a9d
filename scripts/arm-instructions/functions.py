#!/usr/bin/env python3
"""Where the counted instructions went: each translated block the plugin saw (start address,
instructions, runs) is attributed to the function of the binary it starts in, and the
functions are summed by module. Blocks are attributed by where they start; with fat LTO a
function inlined into another counts as that other one.

On the ARM926, which has no FPU, most of the count is in the C runtime: the compiler's
soft-float routines, libm's (hypot, asin) and libc's. With the binary's disassembly, each
runtime routine's instructions are also handed on to the functions that call it, in proportion to the calls (a block that ends in `bl <routine>` is one call each time
it runs), so the second table names the code that asked for the arithmetic.

    functions.py SYMBOLS BLOCKS [DISASSEMBLY]
        SYMBOLS: `nm --defined-only -n -S -C` of the binary
        DISASSEMBLY: `objdump -d --no-show-raw-insn -C` of the binary
"""
import bisect
import collections
import re
import sys

CALL = re.compile(r"^\s*([0-9a-f]+):\s+(bl|b)\s+([0-9a-f]+) <")


def text_symbols(path):
    """Sorted (address, name) of the functions in `nm -n -S -C` output."""
    symbols = []
    with open(path) as lines:
        for line in lines:
            parts = line.rstrip("\n").split(" ", 3)
            # "address size type name", or "address type name" when nm knows no size.
            if len(parts) == 4 and len(parts[2]) == 1:
                address, kind, name = parts[0], parts[2], parts[3]
            elif len(parts) >= 3 and len(parts[1]) == 1:
                address, kind, name = parts[0], parts[1], " ".join(parts[2:])
            else:
                continue
            if kind in "tTwW" and not name.startswith("$"):
                symbols.append((int(address, 16), name))
    return symbols


def module_of(name):
    """A function's module, for summing: the path before its last two segments (its type and
    itself), or the soft-float and division routines of the compiler's runtime."""
    if is_runtime(name):
        return "C runtime (soft float, libm, libc)"
    path = name.lstrip("<").split("<")[0].split(" as ")[0]
    segments = path.split("::")
    return "::".join(segments[: max(1, min(3, len(segments) - 1))])


def is_runtime(name):
    """A routine of the C runtime the binary links (compiler-rt's soft float and division,
    glibc's libm and libc), not the program's Rust: its name has no Rust path."""
    return "::" not in name


def calls_in(disassembly_path, symbols):
    """The address of each direct call in the binary, and the address it calls (named through
    the symbols, as the routines have several names): each `bl`, and each `b` to a function's
    first instruction, a tail call (glibc's sqrt wrapper ends in one to its worker)."""
    calls = {}
    starts = {address for address, _ in symbols}
    with open(disassembly_path) as lines:
        for line in lines:
            found = CALL.match(line)
            if found:
                target = int(found.group(3), 16)
                if found.group(2) == "bl" or target in starts:
                    calls[int(found.group(1), 16)] = target
    return calls


def with_runtime_handed_on(by_function, calls_to):
    """`by_function` with each runtime routine's instructions moved to its callers, in
    proportion to their calls; a routine called by another passes its share on with the
    caller's."""
    handed = collections.Counter(by_function)
    # Until nothing moves: sqrt calls the soft-float routines, a comparison calls another,
    # and the program calls them all; a routine called only through a pointer keeps its own.
    for _ in range(50):
        moved = False
        for routine in [name for name in handed if is_runtime(name)]:
            callers = calls_to.get(routine)
            if not callers or handed[routine] == 0:
                continue
            calls = sum(callers.values())
            for caller, count in callers.items():
                handed[caller] += handed[routine] * count / calls
            handed[routine] = 0
            moved = True
        if not moved:
            break
    return +handed


def main(symbols_path, blocks_path, disassembly_path=None):
    symbols = text_symbols(symbols_path)
    starts = [address for address, _ in symbols]
    calls = calls_in(disassembly_path, symbols) if disassembly_path else {}

    def function_at(address):
        at = bisect.bisect_right(starts, address) - 1
        return symbols[at][1] if at >= 0 else "(before the first symbol)"

    by_function = collections.Counter()
    calls_to = collections.defaultdict(collections.Counter)
    with open(blocks_path) as lines:
        for line in lines:
            address, instructions, runs = (int(x, base) for x, base in zip(line.split(), (16, 10, 10)))
            caller = function_at(address)
            by_function[caller] += instructions * runs
            target = calls.get(address + 4 * (instructions - 1))
            callee = function_at(target) if target is not None else None
            if callee is not None and callee != caller and is_runtime(callee) and runs > 0:
                calls_to[callee][caller] += runs
    total = sum(by_function.values())
    by_module = collections.Counter()
    for name, count in by_function.items():
        by_module[module_of(name)] += count
    print(f"{total / 1e6:.1f} million instructions in all")
    print("\nby module:")
    for module, count in by_module.most_common(15):
        print(f"{100 * count / total:6.1f} %  {module}")
    print("\nby function:")
    for name, count in by_function.most_common(25):
        print(f"{100 * count / total:6.1f} %  {name[:150]}")
    if calls:
        handed = with_runtime_handed_on(by_function, calls_to)
        print("\nby function, with the runtime routines it calls:")
        for name, count in handed.most_common(25):
            print(f"{100 * count / total:6.1f} %  {name[:150]}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
