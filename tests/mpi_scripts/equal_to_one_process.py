"""Run under N ranks (or plainly, as the one-process reference): 5 SGD steps on a fixed global
batch through each distributed API, saving every rank's weights to OUTDIR/rank<r>.npz.

    python equal_to_one_process.py OUTDIR DTYPE

Each rank starts from its own random weights (seeded by its rank); the APIs must broadcast
rank 0's, so the reference (one process, seed 0) starts from the same weights."""
import os
import sys

import numpy as np

import wengert as tf
import wengert.distribute.horovod as hvd
from wengert.distribute.input import local_rows

OUT, DTYPE = sys.argv[1], np.dtype(sys.argv[2])
GLOBAL, STEPS = 16, 5
data = np.random.default_rng(123)
X = data.normal(size=(GLOBAL, 6)).astype(DTYPE)
Y = data.normal(size=(GLOBAL, 3)).astype(DTYPE)
LABELS = data.integers(0, 3, size=GLOBAL)
results = {}

strategy = tf.distribute.MultiWorkerMirroredStrategy()
hvd.init()
rank, size = hvd.rank(), hvd.size()
assert strategy.num_replicas_in_sync == size
rows = local_rows(GLOBAL, rank, size)
x_local, y_local = tf.constant(X[rows]), tf.constant(Y[rows])


def fresh_weights(seed):
    init = np.random.default_rng(seed)
    return [tf.Variable(init.normal(size=(6, 8)).astype(DTYPE), name="w1"),
            tf.Variable(init.normal(size=(8,)).astype(DTYPE), name="b1"),
            tf.Variable(init.normal(size=(8, 3)).astype(DTYPE), name="w2")]


def per_example(vs, x, y):
    w1, b1, w2 = vs
    h = tf.tanh(tf.matmul(x, w1) + b1)
    return tf.reduce_sum((tf.matmul(h, w2) - y) ** 2, axis=1)


def save(case, vs, start=None):
    for i, v in enumerate(vs):
        results[f"{case}/{i}"] = v.numpy()
    if start is not None:
        for i, v in enumerate(start):
            results[f"{case}/start{i}"] = v


# -- 1. the strategy API: variables created in scope, steps in strategy.run, eager and traced
for traced in (False, True):
    with strategy.scope():
        vs = fresh_weights(rank)
        opt = tf.optimizers.SGD(0.1)
    start = [v.numpy() for v in vs]

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(per_example(vs, x, y), global_batch_size=GLOBAL)
        grads = tape.gradient(loss, vs)
        opt.apply_gradients(zip(grads, vs))
        return loss
    fn = tf.function(step) if traced else step
    dist = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((X, Y)).batch(GLOBAL).repeat(STEPS))
    for xb, yb in dist:
        loss = strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(fn, args=(xb, yb)),
                               axis=None)
    save("strategy_traced" if traced else "strategy", vs, start)
    results[f"{'strategy_traced' if traced else 'strategy'}/loss"] = np.asarray(loss)

# -- 2. Horovod: DistributedGradientTape, then DistributedOptimizer (weights broadcast once)
for case in ("tape", "optimizer"):
    vs = fresh_weights(rank)
    hvd.broadcast_variables(vs, root_rank=0)
    opt = tf.optimizers.SGD(0.1)
    if case == "optimizer":
        opt = hvd.DistributedOptimizer(opt)
    for _ in range(STEPS):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(per_example(vs, x_local, y_local))
        if case == "tape":
            tape = hvd.DistributedGradientTape(tape)
        grads = tape.gradient(loss, vs)
        opt.apply_gradients(zip(grads, vs))
    save(case, vs)

# -- 3. Keras fit under strategy.scope() with a global batch_size
tf.keras.backend.set_floatx(DTYPE.name)
tf.keras.utils.set_random_seed(rank)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="tanh"),
                                 tf.keras.layers.Dense(3)])
    model.build((None, 6))
    model.compile(tf.keras.optimizers.SGD(0.1),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
history = model.fit(X, LABELS, batch_size=GLOBAL, epochs=STEPS, shuffle=False, verbose=0)
save("keras", model.trainable_variables)
results["keras/loss"] = np.array(history.history["loss"])
results["keras/accuracy"] = np.array(history.history["accuracy"])
results["keras/evaluate"] = np.array(model.evaluate(X, LABELS, batch_size=GLOBAL // 2,
                                                    verbose=0))

np.savez(os.path.join(OUT, f"rank{rank}.npz"), **results)
