"""Side-by-side timing: each contender runs interleaved with the others, in one process.

The machine is shared and noisy, so every round times each contender once (in rotating order)
and the report uses the median over rounds. Only ratios are meaningful; absolute times are shown
for context. Python's cyclic garbage collector is paused while a contender runs, as `timeit`
does, so a collection another contender's garbage triggered is not charged to it. Never used by
tests.
"""
import gc
import statistics
import time


def time_call(fn, number):
    """Seconds per call of `fn`, averaged over `number` back-to-back calls."""
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        return (time.perf_counter() - start) / number
    finally:
        gc.enable()


def calibrate(fn, target_seconds=0.05):
    """How many calls of `fn` take about `target_seconds` (at least 1)."""
    fn()
    number = 1
    while True:
        elapsed = time_call(fn, number) * number
        if elapsed >= target_seconds or number >= 1 << 20:
            return number
        number *= 2 if elapsed <= 0 else max(2, min(10, int(target_seconds / elapsed) + 1))


def compare(contenders, rounds=15, target_seconds=0.05):
    """{name: fn} -> {name: median seconds per call}, timed in interleaved rounds."""
    numbers = {name: calibrate(fn, target_seconds) for name, fn in contenders.items()}
    samples = {name: [] for name in contenders}
    names = list(contenders)
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            samples[name].append(time_call(contenders[name], numbers[name]))
    return {name: statistics.median(values) for name, values in samples.items()}


def format_seconds(s):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def report(title, medians, baseline="wengert", goals=()):
    """Print one workload's medians and wengert's ratio to every other contender."""
    print(f"\n## {title}")
    for name, seconds in medians.items():
        print(f"  {name:<22} {format_seconds(seconds):>10}")
    base = medians[baseline]
    for name, seconds in medians.items():
        if name != baseline:
            print(f"  {baseline} / {name:<13} {base / seconds:6.2f}x")
    for text in goals:
        print(f"  goal: {text}")
