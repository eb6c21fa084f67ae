"""A program shaped like TensorFlow's guides (intro_to_modules, basic_training_loops, data):
a tf.Module model trained from a tf.data pipeline with a tf.function step, checkpointed with a
CheckpointManager and restored into a freshly built model (issue 14, "Done when")."""
import os
from pathlib import Path

import numpy as np
import pytest

import wengert as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features], stddev=0.1, seed=1),
                             name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        return x @ self.w + self.b


class MLP(tf.Module):
    def __init__(self, sizes, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.layers = [Dense(a, b) for a, b in zip(sizes[:-1], sizes[1:])]

    @tf.Module.with_name_scope
    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = tf.nn.relu(layer(x))
        return self.layers[-1](x)


def _train(model, dataset, epochs, lr=0.1):
    optimizer = tf.keras.optimizers.SGD(learning_rate=lr)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        for x, y in dataset:
            total += float(train_step(x, y))
            count += 1
        losses.append(total / count)
    return optimizer, losses, train_step


def _accuracy(model, dataset):
    @tf.function
    def correct_in(batches):  # a `for` over a dataset inside tf.function (known length)
        hits = tf.constant(0, tf.int64)
        for x, y in batches:
            predicted = tf.argmax(model(x), axis=1)
            hits += tf.reduce_sum(tf.cast(tf.equal(predicted, tf.cast(y, tf.int64)), tf.int64))
        return hits
    return int(correct_in(dataset)) / sum(int(tf.shape(y)[0]) for _, y in dataset)


def _pipeline(x, y, batch):
    return (tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(x), seed=7).batch(batch)
            .map(lambda a, b: (tf.cast(a, tf.float32) / 255.0, b))
            .prefetch(tf.data.AUTOTUNE))


def _round_trip(model, optimizer, sizes, directory, x):
    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer)
    manager = tf.train.CheckpointManager(ckpt, str(directory), max_to_keep=2)
    path = manager.save()
    restored = MLP(sizes)
    assert not np.allclose(restored(x).numpy(), model(x).numpy())
    status = tf.train.Checkpoint(model=restored).restore(manager.latest_checkpoint)
    status.expect_partial()  # the optimizer's slots are not wanted here
    np.testing.assert_allclose(restored(x).numpy(), model(x).numpy(), rtol=1e-6)
    return path


def test_module_trained_from_a_pipeline_checkpointed_and_restored(tmp_path):
    rng = np.random.default_rng(0)
    centers = rng.normal(size=(3, 16)) * 60 + 128
    labels = rng.integers(0, 3, 600)
    images = np.clip(centers[labels] + rng.normal(size=(600, 16)) * 20, 0, 255).astype(np.uint8)
    sizes = [16, 32, 3]
    model = MLP(sizes)
    assert len(model.trainable_variables) == 4 and model.layers[0].w.name.startswith("mlp/")
    dataset = _pipeline(images, labels.astype(np.int32), 64)
    optimizer, losses, _ = _train(model, dataset, epochs=10, lr=0.5)
    assert losses[-1] < 0.5 * losses[0]
    assert _accuracy(model, dataset) > 0.9
    x = tf.constant(images[:8].astype(np.float32) / 255.0)
    path = _round_trip(model, optimizer, sizes, tmp_path / "ckpts", x)
    assert os.path.basename(path) == "ckpt-1"


def _mnist_dir():
    shared = Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist"
    env = os.environ.get("WENGERT_TEST_MNIST")
    for directory in ([Path(env)] if env else []) + [shared]:
        if (directory / "t10k-images-idx3-ubyte.gz").is_file():
            return directory
    return None


@pytest.mark.skipif(_mnist_dir() is None, reason="the MNIST IDX files are absent "
                    "(../shared/data/mnist or $WENGERT_TEST_MNIST)")
def test_mnist_guide_loop(tmp_path):
    from wengert.datasets import mnist
    images = mnist._read(_mnist_dir(), "t10k-images-idx3-ubyte.gz")[:3000].reshape(-1, 784)
    labels = mnist._read(_mnist_dir(), "t10k-labels-idx1-ubyte.gz")[:3000].astype(np.int32)
    sizes = [784, 64, 10]
    model = MLP(sizes)
    train = _pipeline(images[:2500], labels[:2500], 100)
    held_out = _pipeline(images[2500:], labels[2500:], 250)
    optimizer, losses, _ = _train(model, train, epochs=3, lr=0.5)
    assert losses[-1] < losses[0]
    assert _accuracy(model, held_out) > 0.8
    _round_trip(model, optimizer, sizes, tmp_path / "mnist",
                tf.constant(images[:4].astype(np.float32) / 255.0))
