"""Ranks whose models differ: the job must end with an error naming the rank and the variable.

    python mismatch.py scope|gradients|broadcast|step

scope: rank 1 creates 'layer/kernel' with another shape inside strategy.scope() (checked as it
is created); gradients: rank 1 has an extra variable and the first gradient synchronisation
checks the signature; broadcast: hvd.broadcast_variables over differently named variables; step:
after a first step together, rank 1 calls an allreduce where rank 0 runs its second gradient step
(whose data starts before its header is checked), and rank 0's variable must be unchanged."""
import sys
import time

import numpy as np

import wengert as tf
import wengert.distribute.horovod as hvd

MODE = sys.argv[1]
hvd.init()
rank = hvd.rank()
print(f"START {time.time():.3f}", flush=True)
columns = 5 if rank == 1 else 4
if MODE == "scope":
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        bias = tf.Variable(np.zeros(3), name="layer/bias")
        kernel = tf.Variable(np.ones((3, columns)), name="layer/kernel")
elif MODE == "gradients":
    variables = [tf.Variable(np.ones((3, 4)), name="layer/kernel")]
    if rank == 1:
        variables.append(tf.Variable(np.ones(4), name="extra/bias"))
    with tf.GradientTape() as tape:
        loss = sum(tf.reduce_sum(v * v) for v in variables)
    hvd.DistributedGradientTape(tape).gradient(loss, variables)
elif MODE == "step":
    v = tf.Variable(np.ones((3, 4)), name="layer/kernel")
    optimizer = tf.keras.optimizers.SGD(0.1)
    for step in range(2):
        if step == 1 and rank == 1:
            hvd.allreduce(tf.constant([1.0]))
        else:
            before = v.numpy().copy()
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(v * v)
            try:
                grads = hvd.DistributedGradientTape(tape).gradient(loss, [v])
            except Exception:
                print(f"UNCHANGED {np.array_equal(v.numpy(), before)}", flush=True)
                raise
            optimizer.apply_gradients(zip(grads, [v]))
else:
    name = "renamed/kernel" if rank == 1 else "layer/kernel"
    hvd.broadcast_variables([tf.Variable(np.ones((3, 4)), name=name)], root_rank=0)
print("NOT REACHED", flush=True)
