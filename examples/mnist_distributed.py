"""MNIST trained data-parallel on several processes, three ways.

    python -m wengert.distribute.run -n 2 examples/mnist_distributed.py            # Keras fit
    python -m wengert.distribute.run -n 2 examples/mnist_distributed.py --loop     # strategy.run
    python -m wengert.distribute.run -n 2 examples/mnist_distributed.py --horovod  # hvd

(`pip install "wengert[mpi]"` first; it also runs as one plain process.) Every process is one
replica and builds the same model; the weights start as rank 0's, every step each replica takes
its share of a global batch of 64 images, and the gradients are summed (or averaged) across the
replicas before every update, so the replicas stay identical and the training is the one a
single process would do on the whole global batch:

- Keras: `model.fit(..., batch_size=64)` inside `strategy.scope()` splits each global batch
  across ranks, reduces the logged loss and accuracy across ranks, and draws the progress bar on
  rank 0 only;
- a custom loop: `experimental_distribute_dataset` gives each rank its shard of each batch,
  `tf.nn.compute_average_loss(..., global_batch_size=64)` scales the loss to the global batch,
  and the optimizer sums the gradients across replicas inside `strategy.run`;
- Horovod style: each rank takes every N-th batch itself, `hvd.DistributedGradientTape` averages
  the gradients, and `hvd.broadcast_variables` makes the starting weights equal.
"""
import argparse
import time

import numpy as np

import wengert as tf
import wengert.distribute.horovod as hvd
from wengert.datasets import mnist

GLOBAL_BATCH = 64


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])


def keras_fit(strategy, data, epochs, verbose):
    (x_train, y_train), (x_test, y_test) = data
    with strategy.scope():
        model = build_model()
        model.compile(tf.keras.optimizers.Adam(1e-3),
                      tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=GLOBAL_BATCH, epochs=epochs, verbose=verbose)
    return model.evaluate(x_test, y_test, batch_size=256, verbose=0)[1]


def custom_loop(strategy, data, epochs):
    (x_train, y_train), (x_test, y_test) = data
    with strategy.scope():
        model = build_model()
        model.build((None, 28, 28))
        optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                            reduction="none")

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            per_example = loss_fn(y, model(x, training=True))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))  # summed over replicas
        return loss

    dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(
        len(x_train), seed=1).batch(GLOBAL_BATCH, drop_remainder=True)
    for _ in range(epochs):
        for x, y in strategy.experimental_distribute_dataset(dataset):
            strategy.run(step, args=(x, y))
    correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(model(x_test), axis=1),
                                             tf.cast(y_test, tf.int64)), tf.float32))
    return float(correct) / len(x_test)


def horovod(data, epochs):
    (x_train, y_train), (x_test, y_test) = data
    model = build_model()
    model.build((None, 28, 28))
    hvd.broadcast_variables(model.variables, root_rank=0)
    optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    local = GLOBAL_BATCH // hvd.size()
    dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(
        len(x_train), seed=1).batch(local, drop_remainder=True).shard(hvd.size(), hvd.rank())
    steps = (len(x_train) // local) // hvd.size()
    for _ in range(epochs):
        for x, y in dataset.take(steps):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            tape = hvd.DistributedGradientTape(tape)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
    correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(model(x_test), axis=1),
                                             tf.cast(y_test, tf.int64)), tf.float32))
    return float(correct) / len(x_test)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop", action="store_true", help="a custom loop with strategy.run")
    parser.add_argument("--horovod", action="store_true", help="the Horovod-style API")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--train", type=int, default=8000, help="training images")
    parser.add_argument("--data", default=None, help="a directory of MNIST files")
    args = parser.parse_args(argv)

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    hvd.init()
    rank, size = hvd.rank(), hvd.size()
    tf.keras.utils.set_random_seed(rank)  # different on each rank: the broadcast evens it out
    split = mnist.load_split(args.data, train=args.train)
    (x_train, y_train), (x_test, y_test) = split
    data = ((x_train.astype(np.float32) / 255.0, y_train),
            (x_test.astype(np.float32) / 255.0, y_test))
    if rank == 0:
        print(f"data: {split.source}; {size} process(es), global batch {GLOBAL_BATCH}")
    start = time.perf_counter()
    if args.horovod:
        how, accuracy = "Horovod-style", horovod(data, args.epochs)
    elif args.loop:
        how, accuracy = "custom loop", custom_loop(strategy, data, args.epochs)
    else:
        how, accuracy = "Keras fit", keras_fit(strategy, data, args.epochs, 1 if rank == 0 else 0)
    seconds = time.perf_counter() - start
    if rank == 0:
        print(f"{how} on {size} process(es), {args.epochs} epochs: test accuracy "
              f"{accuracy:.2%} ({seconds:.1f} s)")
    return accuracy


if __name__ == "__main__":
    main()
