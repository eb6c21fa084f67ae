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
        options = {"number": number, "target_seconds": target_seconds, "pause_gc": pause_gc}
        self._proc = subprocess.Popen(
            [self.python, os.path.abspath(__file__), "serve", module, setup, json.dumps(args),
             json.dumps(options)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True,
            env=clean_environment(framework), cwd=REPO)
        self.threads = self.versions = None

    def wait_ready(self):
        """Block until the worker has set up and warmed up its workloads."""
        ready = self._answer()
        self.threads, self.versions = ready["threads"], ready["versions"]
        self.workloads = ready["workloads"]
        return self

    def _answer(self):
        line = self._proc.stdout.readline()
        if not line:
            self._log.seek(0)
            tail = self._log.read()[-3000:]
            raise RuntimeError(f"contender {self.name} ({self.python}) stopped:\n{tail}")
        return json.loads(line)

    def measure(self, workload):
        """Seconds per call of `workload`, one round, timed inside the worker's process."""
        self._proc.stdin.write(workload + "\n")
        self._proc.stdin.flush()
        return self._answer()["seconds"]

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
    {"samples": {name: [seconds]}, "loads": [load average before each round]}."""
    workers = [w for w in workers if workload in w.workloads]
    samples = {w.name: [] for w in workers}
    loads = []
    for r in range(rounds):
        wait_for_quiet()
        loads.append(os.getloadavg()[0])
        for worker in workers[r % len(workers):] + workers[:r % len(workers)]:
            time.sleep(settle)
            samples[worker.name].append(worker.measure(workload))
    return {"samples": samples, "loads": loads}


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


def report_rounds(title, result, pairs=(), goals=()):
    """Every round's figures and per-round ratios, then the medians; flags loaded rounds."""
    samples, loads = result["samples"], result["loads"]
    names = list(samples)
    pairs = [(a, b) for a, b in pairs if a in samples and b in samples]
    cells = names + [f"{a}/{b}" for a, b in pairs]
    width = max(12, *(len(c) + 2 for c in cells))
    print(f"\n## {title}")
    print("round  load  " + "".join(f"{c:>{width}}" for c in cells))
    for r, load in enumerate(loads):
        flag = "*" if load > LOAD_LIMIT else " "
        row = [format_seconds(samples[n][r]) for n in names]
        row += [f"{samples[a][r] / samples[b][r]:.2f}x" for a, b in pairs]
        print(f"{r + 1:>5} {load:5.2f}{flag}" + "".join(f"{c:>{width}}" for c in row))
    medians = {n: statistics.median(samples[n]) for n in names}
    row = [format_seconds(medians[n]) for n in names]
    row += [f"{statistics.median(samples[a][r] / samples[b][r] for r in range(len(loads))):.2f}x"
            for a, b in pairs]
    print(f"{'median':>12} " + "".join(f"{c:>{width}}" for c in row))
    if any(load > LOAD_LIMIT for load in loads):
        print(f"  * the 1-minute load average was above {LOAD_LIMIT:g} before this round")
    for a, b in pairs:
        print(f"  {a} / {b}: ratio of medians {medians[a] / medians[b]:.2f}x")
    for text in goals:
        print(f"  goal: {text}")
    return medians


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
    workloads = getattr(importlib.import_module(module), setup)(**args)
    numbers = {name: options["number"] or calibrate(fn, options["target_seconds"])
               for name, fn in workloads.items()}

    def say(message):
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()
    say({"threads": thread_settings(), "versions": versions(), "workloads": list(workloads)})
    for line in sys.stdin:
        name = line.strip()
        say({"seconds": time_call(workloads[name], numbers[name], options["pause_gc"])})


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    serve(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), json.loads(sys.argv[5]))
