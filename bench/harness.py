"""Side-by-side timing under the protocol of bench/README.md. Never used by tests.

Each contender (wengert, hand-written NumPy, PyTorch, TensorFlow) runs in a fresh process of its
own interpreter with a clean environment: only PATH, HOME, the locale and the temporary folder
pass through, plus what `CONTENDER_ENV` names for that contender alone. Nothing one contender
needs is applied to another, and each keeps the thread counts its framework picks by default;
the worker reports them. `start_all` launches the workers; each imports a bench script as a
module, calls one of its setup functions, which returns {workload: callable}, and answers one
request per round with the seconds per call. `run_rounds` interleaves the contenders (every
round runs each once, in rotating order) and records the 1-minute load average before each
round (with $BENCH_QUIET_LOAD set, it first waits for the load to fall below that value);
`report_rounds` prints every round's figure, the ratio per round, the medians and the
thread settings, and flags the rounds that began with the load average above 1.

Seconds per call = elapsed / number for `number` back-to-back calls (calibrated to about
`target_seconds`, or fixed); Python's cyclic garbage collector is paused while they run, as
`timeit` does, unless the worker is started with pause_gc=False (whole-epoch workloads).

Memory: each worker reports, per round, the peak resident set size (RSS) of its process while
the round ran. On Linux it writes 5 to /proc/self/clear_refs before the round, which resets the
kernel's high-water mark VmHWM to the current RSS, and reads VmHWM after it: the kernel counts
every page the process touches, whatever allocator (NumPy's, PyTorch's, TensorFlow's) mapped it,
with no sampling thread to slow the contender. Elsewhere it falls back to getrusage's lifetime
maximum. `report_rounds` prints the peak above the RSS the process had right after importing its
framework (model, data, optimizer state, activations and whatever the allocator keeps) and the
transient part (peak above the RSS at the round's start).

Fraction of peak: `peak_gflops` measures this machine's float32 GEMM rate once per run (np.matmul
of 2048x2048 matrices, best of 5, in a clean process of the NumPy contender's interpreter), and
`report_rounds(..., flops=F)` prints each contender's achieved GFLOP/s (F floating-point operations
per timed call: count the step's matmul/conv FLOPs, forward + backward ~ 3x forward) and its
fraction of that peak.

The older in-process helpers (`compare`, `report`) remain for the scripts not yet converted
(bench/README.md lists them): they time every contender inside one process, which the protocol
no longer allows for figures against PyTorch or TensorFlow.
"""
import datetime
import gc
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
INTERPRETERS = {
    "wengert": ("WENGERT_PYTHON", sys.executable),
    "numpy": ("NUMPY_PYTHON", sys.executable),
    "pytorch": ("TORCH_PYTHON", "/work/torchvenv/bin/python"),
    "tensorflow": ("TF_PYTHON", "/work/tfvenv/bin/python"),
}
CONTENDER_ENV = {
    "tensorflow": {"TF_CPP_MIN_LOG_LEVEL": "3"},  # log verbosity only
}
KEPT_VARIABLES = ("PATH", "HOME", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR")
LOAD_LIMIT = 1.0
FRAMEWORK_MODULES = {"wengert": "wengert", "numpy": "numpy", "pytorch": "torch",
                     "tensorflow": "tensorflow"}
MB = 1 << 20
_PEAK = {}


def time_call(fn, number, pause_gc=True):
    """Seconds per call of `fn`, averaged over `number` back-to-back calls."""
    if pause_gc:
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
    """In one process: {name: fn} -> {name: median seconds per call}, interleaved rounds."""
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


def interpreter(framework):
    """The Python that runs `framework`'s contender: $VARIABLE, else the default path."""
    variable, default = INTERPRETERS[framework]
    return os.environ.get(variable) or default


def clean_environment(framework):
    """The worker's environment: the kept variables plus this contender's own settings."""
    env = {k: os.environ[k] for k in KEPT_VARIABLES if k in os.environ}
    env.update(CONTENDER_ENV.get(framework, {}))
    return env


class Worker:
    """One contender in its own process, serving timed rounds of its workloads on request."""

    def __init__(self, name, framework, module, setup, args, number=None, target_seconds=0.05,
                 pause_gc=True):
        self.name, self.framework = name, framework
        self.python = interpreter(framework)
        self.env = CONTENDER_ENV.get(framework, {})
        self._log = tempfile.TemporaryFile(mode="w+")
        options = {"number": number, "target_seconds": target_seconds, "pause_gc": pause_gc,
                   "framework": framework}
        self._proc = subprocess.Popen(
            [self.python, os.path.abspath(__file__), "serve", module, setup, json.dumps(args),
             json.dumps(options)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True,
            env=clean_environment(framework), cwd=REPO)
        self.threads = self.versions = self.imported_rss = None
        self.memory = []

    def wait_ready(self):
        """Block until the worker has set up and warmed up its workloads."""
        ready = self._answer()
        self.threads, self.versions = ready["threads"], ready["versions"]
        self.workloads = ready["workloads"]
        self.imported_rss = ready.get("imported_rss")
        return self

    def _answer(self):
        line = self._proc.stdout.readline()
        if not line:
            self._log.seek(0)
            tail = self._log.read()[-3000:]
            raise RuntimeError(f"contender {self.name} ({self.python}) stopped:\n{tail}")
        return json.loads(line)

    def measure(self, workload):
        """Seconds per call of `workload`, one round, timed inside the worker's process; the
        round's memory ({"peak", "start"} RSS in bytes) is appended to `self.memory`."""
        self._proc.stdin.write(workload + "\n")
        self._proc.stdin.flush()
        answer = self._answer()
        self.memory.append({"peak": answer.get("peak"), "start": answer.get("start")})
        return answer["seconds"]

    def close(self):
        if self._proc.poll() is None:
            self._proc.stdin.close()
            self._proc.wait(timeout=120)
        self._log.close()


def launch(name, framework, module, setup, args=None, **options):
    """A starting Worker for `name`, or None (saying why) when its interpreter is absent."""
    python = interpreter(framework)
    if not os.path.exists(python):
        variable = INTERPRETERS[framework][0]
        print(f"  skipped {name}: no {framework} interpreter at {python} (set ${variable})")
        return None
    return Worker(name, framework, module, setup, args or {}, **options)


def ready_or_none(worker):
    try:
        return worker.wait_ready()
    except RuntimeError as error:
        print(f"  skipped {worker.name}: {str(error).strip().splitlines()[-1]}")
        worker.close()
        return None


def start_all(module, specs, wanted=None, **options):
    """Workers for (name, framework, setup, args) specs, set up side by side (untimed); those
    whose interpreter or framework is absent are skipped and named. Prints their settings."""
    launched = [launch(name, framework, module, setup, args, **options)
                for name, framework, setup, args in specs if not wanted or name in wanted]
    started = [ready_or_none(w) for w in launched if w is not None]
    workers = [w for w in started if w is not None]
    describe(workers)
    return workers


def close_all(workers):
    for worker in workers:
        worker.close()


def wait_for_quiet(patience=900):
    """With $BENCH_QUIET_LOAD set, wait (up to `patience` s) for the load average to fall below it."""
    limit = float(os.environ.get("BENCH_QUIET_LOAD") or "inf")
    deadline = time.monotonic() + patience
    while os.getloadavg()[0] >= limit and time.monotonic() < deadline:
        time.sleep(5)


def run_rounds(workers, workload, rounds, settle=0.2):
    """Interleaved rounds of the workers that offer `workload`:
    {"samples": {name: [seconds]}, "loads": [load average before each round],
     "memory": {name: {"imported": RSS after import, "rounds": [{"peak", "start"}]}}}."""
    workers = [w for w in workers if workload in w.workloads]
    samples = {w.name: [] for w in workers}
    memory = {w.name: {"imported": w.imported_rss, "rounds": []} for w in workers}
    loads = []
    for r in range(rounds):
        wait_for_quiet()
        loads.append(os.getloadavg()[0])
        for worker in workers[r % len(workers):] + workers[:r % len(workers)]:
            time.sleep(settle)
            samples[worker.name].append(worker.measure(workload))
            memory[worker.name]["rounds"].append(worker.memory[-1])
    return {"samples": samples, "loads": loads, "memory": memory}


def header(title):
    """The machine and the day: every README figure quotes them."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"# {title}\n{now}; {os.cpu_count()} cores; load average {load}")


def describe(workers):
    """Each contender's interpreter, versions, thread counts and its own environment."""
    print("contenders (each in its own process):")
    for w in workers:
        extra = " ".join(f"{k}={v}" for k, v in w.env.items()) or "none"
        print(f"  {w.name:<16} {w.python}\n  {'':<16} {w.versions}\n"
              f"  {'':<16} threads: {w.threads}; settings applied: {extra}")


def report_rounds(title, result, pairs=(), goals=(), flops=None):
    """Every round's figures and per-round ratios, then the medians; flags loaded rounds. Then
    each contender's peak memory (when the workers reported it) and, given `flops` (floating-point
    operations per timed call), its achieved GFLOP/s and fraction of the machine's GEMM peak."""
    samples, loads = result["samples"], result["loads"]
    names = list(samples)
    pairs = [(a, b) for a, b in pairs if a in samples and b in samples]
    cells = names + [f"{a}/{b}" for a, b in pairs]
    widths = [max(10, len(c) + 2) for c in cells]

    def line(row):
        return "".join(f"{c:>{w}}" for c, w in zip(row, widths))
    print(f"\n## {title}")
    print("round  load  " + line(cells))
    for r, load in enumerate(loads):
        flag = "*" if load > LOAD_LIMIT else " "
        row = [format_seconds(samples[n][r]) for n in names]
        row += [f"{samples[a][r] / samples[b][r]:.2f}x" for a, b in pairs]
        print(f"{r + 1:>5} {load:5.2f}{flag} " + line(row))
    medians = {n: statistics.median(samples[n]) for n in names}
    row = [format_seconds(medians[n]) for n in names]
    row += [f"{statistics.median(samples[a][r] / samples[b][r] for r in range(len(loads))):.2f}x"
            for a, b in pairs]
    print(f"{'median':>12} " + line(row))
    if any(load > LOAD_LIMIT for load in loads):
        print(f"  * the 1-minute load average was above {LOAD_LIMIT:g} before this round")
    for a, b in pairs:
        print(f"  {a} / {b}: ratio of medians {medians[a] / medians[b]:.2f}x")
    for text in goals:
        print(f"  goal: {text}")
    if result.get("memory"):
        report_memory(result["memory"], pairs)
    if flops:
        report_flops(samples, flops)
    return medians


def report_memory(memory, pairs=()):
    """Per contender: the largest peak RSS over the rounds, that peak above the RSS right after the
    framework's import, and the median transient (peak above the RSS at the round's start)."""
    over = {}
    print("  memory (RSS high-water mark during the timed rounds, MiB):")
    print(f"  {'':<16} {'peak':>9} {'over import':>12} {'transient':>10}   per round over import")
    for name, record in memory.items():
        rounds = [r for r in record["rounds"] if r.get("peak")]
        if not rounds:
            continue
        base = record["imported"] or 0
        peak = max(r["peak"] for r in rounds)
        over[name] = peak - base
        transient = statistics.median(r["peak"] - r["start"] for r in rounds)
        each = ", ".join(f"{(r['peak'] - base) / MB:.0f}" for r in rounds)
        print(f"  {name:<16} {peak / MB:9.0f} {over[name] / MB:12.0f} {transient / MB:10.1f}   "
              f"{each}")
    for a, b in pairs:
        if a in over and b in over and over[b] > 0:
            print(f"  memory over import {a} / {b}: {over[a] / over[b]:.2f}x")


def report_flops(samples, flops):
    """Achieved GFLOP/s of every contender (median round) and its fraction of the GEMM peak."""
    peak = peak_gflops()
    print(f"  compute: {flops / 1e9:.3g} GFLOP per call; this machine's float32 GEMM peak "
          f"{peak['gflops']:.1f} GFLOP/s ({peak['how']})")
    for name, seconds in samples.items():
        rate = flops / statistics.median(seconds) / 1e9
        best = flops / min(seconds) / 1e9
        print(f"  {name:<16} {rate:8.2f} GFLOP/s = {rate / peak['gflops']:6.1%} of peak "
              f"(fastest round {best:.2f}, {best / peak['gflops']:.1%})")


GEMM_PROBE = """
import json, os, time
import numpy as np
n, best = {n}, float("inf")
a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
b = np.random.default_rng(1).standard_normal((n, n)).astype(np.float32)
np.matmul(a, b)
for _ in range({repeats}):
    start = time.perf_counter(); np.matmul(a, b); best = min(best, time.perf_counter() - start)
print(json.dumps({{"seconds": best, "load": os.getloadavg()[0]}}))
"""


def peak_gflops(n=2048, repeats=5):
    """This machine's float32 GEMM rate in GFLOP/s (2 n^3 / best time of np.matmul), measured
    once per run in a clean process of the NumPy contender's interpreter with its default
    threads: {"gflops": rate, "how": a description with the load average}."""
    if "gflops" not in _PEAK:
        answer = subprocess.run([interpreter("numpy"), "-c", GEMM_PROBE.format(n=n, repeats=repeats)],
                                capture_output=True, text=True, env=clean_environment("numpy"),
                                check=True)
        probe = json.loads(answer.stdout)
        _PEAK["gflops"] = 2 * n ** 3 / probe["seconds"] / 1e9
        _PEAK["how"] = (f"np.matmul {n}x{n} float32, best of {repeats}, "
                        f"load {probe['load']:.2f}")
    return _PEAK


def rss_bytes(field):
    """VmRSS or VmHWM of this process in bytes (None where /proc is absent)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def reset_high_water():
    """Reset VmHWM to the current RSS (Linux clear_refs 5); False where that is unavailable."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def lifetime_peak():
    import resource
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def measured_round(fn, number, pause_gc):
    """One timed round: {"seconds": per call, "peak": RSS high-water mark, "start": RSS before}."""
    resettable = reset_high_water()
    start = rss_bytes("VmRSS")
    seconds = time_call(fn, number, pause_gc)
    peak = rss_bytes("VmHWM") if resettable else lifetime_peak()
    return {"seconds": seconds, "peak": peak, "start": start}


def thread_settings():
    """The thread pools this process uses, as its libraries chose them."""
    parts = []
    torch = sys.modules.get("torch")
    if torch is not None:
        parts.append(f"torch intra-op {torch.get_num_threads()}, "
                     f"inter-op {torch.get_num_interop_threads()}")
    tensorflow = sys.modules.get("tensorflow")
    if tensorflow is not None:
        threading = tensorflow.config.threading
        intra = threading.get_intra_op_parallelism_threads() or "auto (one per core)"
        inter = threading.get_inter_op_parallelism_threads() or "auto"
        parts.append(f"tensorflow intra-op {intra}, inter-op {inter}")
    try:
        from threadpoolctl import threadpool_info
        parts += [f"{p['internal_api']} {p['num_threads']}"
                  + (f" ({p['threading_layer']})" if p.get("threading_layer") else "")
                  for p in threadpool_info()]
    except ImportError:
        parts.append("threadpoolctl absent: BLAS pool not read")
    return "; ".join(parts)


def versions():
    known = ("wengert", "numpy", "torch", "tensorflow")
    found = [f"{m} {sys.modules[m].__version__}" for m in known if m in sys.modules]
    return f"Python {sys.version.split()[0]}, " + ", ".join(found)


def serve(module, setup, args, options):
    """The worker's side: set up, say ready, then time one round per line on stdin."""
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.path[:0] = [BENCH, REPO]
    framework = FRAMEWORK_MODULES.get(options.get("framework"))
    if framework:
        importlib.import_module(framework)
    imported_rss = rss_bytes("VmRSS")
    workloads = getattr(importlib.import_module(module), setup)(**args)
    numbers = {name: options["number"] or calibrate(fn, options["target_seconds"])
               for name, fn in workloads.items()}

    def say(message):
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()
    say({"threads": thread_settings(), "versions": versions(), "workloads": list(workloads),
         "imported_rss": imported_rss})
    for line in sys.stdin:
        name = line.strip()
        say(measured_round(workloads[name], numbers[name], options["pause_gc"]))


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    serve(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), json.loads(sys.argv[5]))
