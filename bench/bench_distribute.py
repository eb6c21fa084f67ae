"""Data-parallel speed: gradient synchronisation against raw MPI, bucket sizes, weak scaling.

    python bench/bench_distribute.py            # launches its workers with mpiexec, prints all
    python bench/bench_distribute.py [rounds]   # section 1's rounds (default 15)
    python bench/bench_distribute.py --sync     # section 1 only
    python bench/bench_distribute.py --quick    # fewer rounds (a check that it runs)

1. Gradient sync of an MLP 784-1024-10 (3.26 MB of float32 gradients) on 2 ranks: wengert's
   `sync_gradients` (the sum TensorFlow's strategies use, and Horovod's average) against a raw
   mpi4py `comm.Allreduce` of the same bytes in one call from a send into a receive buffer (and
   in place), in the same run, interleaved rounds; the median of each rank's slowest time per
   round (wall and CPU time), every round printed. Goal: at most 1.2x the raw send -> recv.
   Then the same in place in a step, per API: an eager step of the MLP on a batch of 8 that
   computes the gradients with a GradientTape and synchronises them through
   `hvd.DistributedGradientTape` (average), or inside `MultiWorkerMirroredStrategy.run` through
   `all_reduce_sum_gradients` (the sum its optimizers' apply_gradients takes), against the same
   step with the raw send -> recv Allreduce at that place and with nothing there: the sync's cost
   is the step minus the bare step, and its ratio is that over the raw Allreduce's.
2. The bucket size, on 32 MB of gradients (8 variables of 1024x1024): 0.25, 1, 4, 16 MiB and
   one bucket per variable, against the raw allreduce of the 32 MB.
3. Weak scaling: samples/s of a traced training step (strategy.run) at a fixed per-rank batch of
   64 on N = 1, 2, 4 ranks (on a 2-core machine 4 ranks share 2 cores: expect at most 2x).
4. The ring-allreduce estimate for 8 and 64 hosts on 10 and 100 Gbit/s links, from the measured
   compute time of one step and the gradient size (see `ring_estimate`).

The workers print one JSON line each on rank 0 (`--worker NAME`); only ratios on one machine
mean anything, and a shared machine moves them: take numbers for the README on a quiet machine.
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MLP = [(784, 1024), (1024,), (1024, 10), (10,)]


# -- workers (run under mpiexec) ---------------------------------------------------------------
def _timed_rounds(job, contenders, rounds, calls, every=None):
    """{name: median over rounds of the slowest rank's seconds per call}; `every` (a dict), if
    given, receives {name: [(wall, cpu) seconds per call of each round]}."""
    samples = {name: [] for name in contenders}
    names = list(contenders)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn = contenders[name]
            job.comm.barrier()
            start, cpu = time.perf_counter(), time.process_time()
            for _ in range(calls):
                fn()
            mine = np.array([time.perf_counter() - start, time.process_time() - cpu]) / calls
            job.comm.allreduce(mine, None, "max")
            samples[name].append((float(mine[0]), float(mine[1])))
    if every is not None:
        every.update(samples)
    return {name: statistics.median(w for w, _ in v) for name, v in samples.items()}


def _variables(shapes, tf):
    rng = np.random.default_rng(0)
    return ([tf.Variable(np.zeros(s, np.float32), name=f"v{i}") for i, s in enumerate(shapes)],
            [tf.constant(rng.normal(size=s).astype(np.float32)) for s in shapes])


def worker_sync(quick, rounds=15, buckets=True):
    import wengert as tf
    from wengert.distribute.gradient_sync import Synchronizer
    from wengert.distribute.job import job
    the_job = job()
    rounds, calls = (5, 5) if quick else (rounds, 20)
    variables, grads = _variables(MLP, tf)
    nbytes = sum(int(np.prod(s)) * 4 for s in MLP)
    raw = np.ones(nbytes // 4, np.float32)
    raw_recv = np.empty_like(raw)  # wengert must return fresh arrays: it cannot reduce in place
    mpi = the_job.comm.mpi_comm
    from mpi4py import MPI
    out = {"ranks": the_job.size, "bytes": nbytes, "rounds": {}}
    out["sync"] = _timed_rounds(the_job, {
        "raw comm.Allreduce": lambda: mpi.Allreduce(MPI.IN_PLACE, raw, op=MPI.SUM),
        "raw, send -> recv": lambda: mpi.Allreduce(raw, raw_recv, op=MPI.SUM),
        "wengert sum": lambda: the_job.sync_gradients(grads, variables, average=False),
        "wengert average": lambda: the_job.sync_gradients(grads, variables, average=True),
    }, rounds, calls, out["rounds"])
    out["steps"] = _timed_rounds(the_job, _step_contenders(tf, the_job, raw, raw_recv), rounds,
                                 max(calls // 2, 2), out["rounds"])
    if not buckets:
        return out
    # bucket sizes on 32 MB
    shapes = [(1024, 1024)] * 8
    big_vars, big_grads = _variables(shapes, tf)
    arrays = [g.numpy() for g in big_grads]
    big_raw = np.ones(8 * 1024 * 1024, np.float32)
    contenders = {"raw comm.Allreduce": lambda: mpi.Allreduce(MPI.IN_PLACE, big_raw, op=MPI.SUM)}
    for mib in (0.25, 1, 4, 16, 64):
        sync = Synchronizer(the_job.coll, int(mib * (1 << 20)))
        plan = sync.plan([v.name for v in big_vars], shapes, [np.float32] * 8, [2] * 8)
        label = f"{mib:g} MiB buckets" + (" (one per variable)" if mib == 4 else "")
        contenders[f"sum, {label}"] = (lambda p=plan: p.run(the_job.coll, arrays, False))
        contenders[f"average, {label}"] = (lambda p=plan: p.run(the_job.coll, arrays, True))
    out["buckets"] = _timed_rounds(the_job, contenders, rounds, max(calls // 4, 2))
    return out


def _step_contenders(tf, the_job, raw, raw_recv):
    """{name: one eager step} for each API: bare, with the raw Allreduce, with the API's sync."""
    import wengert.distribute.horovod as hvd
    from mpi4py import MPI
    from wengert.distribute.strategy import all_reduce_sum_gradients
    hvd.init()
    mpi = the_job.comm.mpi_comm
    rng = np.random.default_rng(the_job.rank)
    x = tf.constant(rng.random((8, 784), dtype=np.float32))
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        weights = [tf.Variable(rng.normal(size=s).astype(np.float32) * 0.01, name=f"w{i}")
                   for i, s in enumerate(MLP)]

    def loss_of():
        hidden = tf.nn.relu(tf.matmul(x, weights[0]) + weights[1])
        return tf.reduce_sum(tf.matmul(hidden, weights[2]) + weights[3])

    def tape_step(sync):
        with tf.GradientTape() as tape:
            loss = loss_of()
        if sync == "hvd":
            return hvd.DistributedGradientTape(tape).gradient(loss, weights)
        grads = tape.gradient(loss, weights)
        if sync == "raw":
            mpi.Allreduce(raw, raw_recv, op=MPI.SUM)
        elif sync == "strategy":
            grads = all_reduce_sum_gradients(zip(grads, weights))
        return grads
    return {"tape step, bare": lambda: tape_step(None),
            "tape step + raw": lambda: tape_step("raw"),
            "tape step + hvd tape": lambda: tape_step("hvd"),
            "strategy.run, bare": lambda: strategy.run(tape_step, args=(None,)),
            "strategy.run + raw": lambda: strategy.run(tape_step, args=("raw",)),
            "strategy.run + sum": lambda: strategy.run(tape_step, args=("strategy",))}


def worker_scaling(quick):
    import wengert as tf
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank, size = strategy.cluster_resolver.task_id, strategy.num_replicas_in_sync
    batch = 64
    rng = np.random.default_rng(rank)
    x = tf.constant(rng.random((batch, 784), dtype=np.float32))
    y = tf.constant(rng.integers(0, 10, size=batch))
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1024, activation="relu"),
                                     tf.keras.layers.Dense(10)])
        model.build((None, 784))
        optimizer = tf.keras.optimizers.SGD(0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                            reduction="none")

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_fn(yb, model(xb, training=True)),
                                              global_batch_size=batch * size)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def train_step():
        strategy.run(step, args=(x, y))
    the_job = strategy._job
    rounds, calls = (3, 3) if quick else (9, 10)
    seconds = _timed_rounds(the_job, {"step": train_step}, rounds, calls)["step"]
    return {"ranks": size, "batch_per_rank": batch, "step_seconds": seconds,
            "samples_per_second": batch * size / seconds}


# -- the driver -------------------------------------------------------------------------------
def _launch(ranks, worker, quick, extra=()):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "wengert.distribute.run", "-n", str(ranks), __file__,
               "--worker", worker] + (["--quick"] if quick else []) + list(extra)
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
    if done.returncode or not lines:
        raise RuntimeError(f"worker {worker} on {ranks} ranks failed:\n{done.stdout[-3000:]}"
                           f"\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])


def ring_estimate(compute_seconds, nbytes, hosts, gbit, latency=25e-6):
    """Seconds of one ring allreduce of `nbytes` over `hosts` hosts on `gbit` Gbit/s links:
    each host sends and receives 2 (N-1)/N of the data in 2 (N-1) steps, each paying the
    link latency; with no overlap a step takes compute + allreduce."""
    bandwidth = gbit * 1e9 / 8
    allreduce = 2 * (hosts - 1) / hosts * nbytes / bandwidth + 2 * (hosts - 1) * latency
    return allreduce, compute_seconds / (compute_seconds + allreduce)


def _ms(seconds):
    return f"{seconds * 1e3:.3g} ms"


def main(quick, rounds, only_sync):
    extra = [str(rounds)] + (["--sync"] if only_sync else [])
    sync = _launch(2, "sync", quick, extra)
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    print(f"# Gradient sync, {sync['ranks']} ranks, MLP 784-1024-10 ({sync['bytes'] / 1e6:.2f} MB"
          f" float32), load average {load}; ratios to the raw send -> recv, then every round's "
          "wall time (ms)")
    raw = sync["sync"]["raw, send -> recv"]
    for name, seconds in sync["sync"].items():
        cpu = statistics.median(c for _, c in sync["rounds"][name])
        walls = " ".join(f"{w * 1e3:.3g}" for w, _ in sync["rounds"][name])
        print(f"  {name:<20} {_ms(seconds):>10} (cpu {_ms(cpu):>9})  {seconds / raw:.2f}x   "
              f"{walls}")
    print("  in a step (cost: the step minus the bare step; ratio: cost over the raw's cost)")
    steps = sync["steps"]
    for api, synced in (("tape step", "hvd tape"), ("strategy.run", "sum")):
        bare = steps[f"{api}, bare"]
        raw_cost = steps[f"{api} + raw"] - bare
        for name in (f"{api}, bare", f"{api} + raw", f"{api} + {synced}"):
            seconds = steps[name]
            walls = " ".join(f"{w * 1e3:.3g}" for w, _ in sync["rounds"][name])
            ratio = (f"cost {_ms(seconds - bare)}, {(seconds - bare) / raw_cost:.2f}x"
                     if name.endswith(synced) else "")
            print(f"  {name:<24} {_ms(seconds):>10}  {ratio:<24} {walls}")
    if only_sync:
        return
    print("\n# Bucket size, 2 ranks, 8 x 1024x1024 float32 (33.6 MB)")
    raw = sync["buckets"]["raw comm.Allreduce"]
    for name, seconds in sync["buckets"].items():
        print(f"  {name:<36} {_ms(seconds):>10}   {seconds / raw:.2f}x raw")
    print("\n# Weak scaling, traced strategy.run step, MLP 784-1024-10, batch 64 per rank")
    print("  ranks | step | samples/s | speed-up")
    base = None
    for ranks in (1, 2, 4):
        result = _launch(ranks, "scaling", quick)
        base = base or result["samples_per_second"]
        if ranks == 1:
            compute = result["step_seconds"]
        print(f"  {ranks:>5} | {_ms(result['step_seconds']):>8} | "
              f"{result['samples_per_second']:>9.0f} | {result['samples_per_second'] / base:.2f}x")
    print(f"\n# Ring allreduce estimate: {sync['bytes'] / 1e6:.2f} MB per step, compute "
          f"{_ms(compute)} per step (1 rank, batch 64), 25 us per hop, no overlap")
    print("  hosts | link | allreduce | efficiency")
    for hosts in (8, 64):
        for gbit in (10, 100):
            seconds, efficiency = ring_estimate(compute, sync["bytes"], hosts, gbit)
            print(f"  {hosts:>5} | {gbit:>3} Gbit/s | {_ms(seconds):>9} | {efficiency:.0%}")


if __name__ == "__main__":
    args = sys.argv[1:]
    quick = "--quick" in args
    numbers = [int(a) for a in args if a.isdigit()]
    rounds = numbers[0] if numbers else 15
    if "--worker" in args:
        name = args[args.index("--worker") + 1]
        result = (worker_sync(quick, rounds, "--sync" not in args) if name == "sync"
                  else worker_scaling(quick))
        from wengert.distribute.job import job
        if job().rank == 0:
            print(json.dumps(result), flush=True)
    else:
        main(quick, rounds, "--sync" in args)
