"""The Horovod-style collectives across ranks; each rank writes what it saw to OUTDIR/rank<r>.json.

    python horovod_misc.py OUTDIR"""
import json
import os
import sys
import time

import numpy as np

import wengert as tf
import wengert.distribute.horovod as hvd

OUT = sys.argv[1]
hvd.init()
r, n = hvd.rank(), hvd.size()
seen = {"rank": r, "size": n, "local_rank": hvd.local_rank(), "local_size": hvd.local_size()}
x = tf.constant(np.arange(4.0) + r)
seen["average"] = hvd.allreduce(x).numpy().tolist()
seen["sum"] = hvd.allreduce(x, op=hvd.Sum).numpy().tolist()
seen["max"] = hvd.allreduce(x, op=hvd.Max).numpy().tolist()
seen["min"] = hvd.allreduce(x, op=hvd.Min).numpy().tolist()
scalar = hvd.allreduce(tf.constant(float(r)), op=hvd.Sum)  # a scalar stays a scalar
seen["scalar"] = [list(scalar.shape), float(scalar)]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
reduced = strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(lambda: tf.constant(2.0)),
                          axis=None)
seen["strategy_scalar"] = [list(reduced.shape), float(reduced)]
seen["grouped"] = [t.numpy().tolist() for t in hvd.grouped_allreduce([x, 2 * x], op=hvd.Sum)]
seen["allgather"] = hvd.allgather(tf.fill([r + 1, 2], float(r))).numpy().tolist()
seen["broadcast"] = hvd.broadcast(x, root_rank=n - 1).numpy().tolist()
seen["object"] = hvd.broadcast_object({"rank": r, "tuple": (1, "a"), "array": np.arange(3) * r},
                                      root_rank=n - 1)
seen["object"]["array"] = seen["object"]["array"].tolist()
seen["object"]["tuple"] = list(seen["object"]["tuple"])
seen["allgather_object"] = hvd.allgather_object(f"r{r}")

# allreduce is differentiable: d/dx_r of sum_s sum(allreduce_sum(x^2)) = 2 n x_r
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(hvd.allreduce(x * x, op=hvd.Sum))
seen["allreduce_grad"] = tape.gradient(y, x).numpy().tolist()


@tf.function
def traced(t):
    return hvd.allreduce(t, op=hvd.Sum), hvd.allgather(t[:1]), hvd.broadcast(t, 0)


seen["traced"] = [t.numpy().tolist() for t in traced(x)]

# sparse gradients (an embedding lookup) are all-gathered; the optimizer sums repeated rows
table = tf.Variable(np.zeros((6, 2)), name="embedding")
hvd.broadcast_variables([table])
with tf.GradientTape() as tape:
    rows = tf.gather(table, [r, 5])
    loss = tf.reduce_sum(rows * (r + 1.0))
grad, = hvd.DistributedGradientTape(tape, op=hvd.Sum).gradient(loss, [table])
seen["sparse_type"] = type(grad).__name__
tf.optimizers.SGD(1.0).apply_gradients([(grad, table)])
seen["sparse_table"] = table.numpy().tolist()

# a None gradient on one rank counts as zeros; None on every rank stays None
a, b = tf.Variable(np.ones(2), name="a"), tf.Variable(np.ones(2), name="b")
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(a * 3.0) if r == 0 else tf.constant(0.0, tf.float64) * 0
grads = hvd.DistributedGradientTape(tape).gradient(loss, [a, b])
seen["none_grads"] = [None if g is None else g.numpy().tolist() for g in grads]

# the watchdog reports a rank that waits long in a collective
tf.distribute.set_watchdog(report_after=1.0)
if r == n - 1:
    time.sleep(3.0)
hvd.barrier()

# join: the last rank has fewer batches; averages divide by the ranks still working
steps = 3 if r == n - 1 else 5
v = tf.Variable(np.zeros(2), name="joined/v")
for step in range(steps):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * float(r + 1))
    g, = hvd.DistributedGradientTape(tape).gradient(loss, [v])
    seen.setdefault("join_grads", []).append(g.numpy().tolist())
    seen.setdefault("join_means", []).append(float(hvd.allreduce(tf.constant([float(r)])).numpy()[0]))
seen["last_joined"] = hvd.join()

with open(os.path.join(OUT, f"rank{r}.json"), "w") as f:
    json.dump(seen, f)
