#!/usr/bin/env python3
"""Which system calls the program made, most first, named from the ARM EABI's numbers.

    calls.py CALLS [UNISTD]
        CALLS: the counting plugin's calls=FILE ("number count" lines)
        UNISTD: the cross compiler's asm/unistd-eabi.h (its names for the numbers)
"""
import re
import sys

DEFINE = re.compile(r"#define __NR_(\w+)\s+\(__NR_SYSCALL_BASE\s*\+\s*(\d+)\)")


def names(unistd_path):
    named = {}
    try:
        with open(unistd_path) as lines:
            for line in lines:
                found = DEFINE.match(line)
                if found:
                    named[int(found.group(2))] = found.group(1)
    except OSError:
        pass
    return named


def main(calls_path, unistd_path="/usr/arm-linux-gnueabi/include/asm/unistd-eabi.h"):
    named = names(unistd_path)
    with open(calls_path) as lines:
        counts = [tuple(int(x) for x in line.split()) for line in lines if line.strip()]
    total = sum(count for _, count in counts)
    print(f"\n{total} system calls in all, by kind:")
    for number, count in sorted(counts, key=lambda c: -c[1])[:12]:
        print(f"{100 * count / total:6.1f} %  {count:>8}  {named.get(number, number)}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
