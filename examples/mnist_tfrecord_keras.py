"""MNIST through TFRecord files into a Keras model: the input pipeline as TensorFlow programs
build it.

    python examples/mnist_tfrecord_keras.py

The images are first written as `tf.train.Example` records (the raw 28x28 bytes and the label)
into a few TFRecord shards, as a data-preparation job would. Training then reads them back with
`tf.data`: `list_files` finds the shards, `interleave` reads two at a time, `shuffle` and
`batch` group the serialized records, `map` parses a whole batch with `tf.io.parse_example`
(`decode_raw` turns the bytes back into pixels) and `prefetch` overlaps input with training. A
Keras MLP (Flatten -> Dense(128, relu) -> Dropout -> Dense(10)) fits on that dataset and is
scored on the held-out shards.
"""
import os
import tempfile

import numpy as np

import wengert as tf
from wengert.datasets import mnist

FEATURES = {"image": tf.io.FixedLenFeature([], tf.string),
            "label": tf.io.FixedLenFeature([], tf.int64)}


def write_shards(images, labels, directory, prefix, shards=4):
    """Write (images, labels) as tf.train.Example records into `shards` TFRecord files."""
    paths = [os.path.join(directory, f"{prefix}-{i:05d}-of-{shards:05d}.tfrecord")
             for i in range(shards)]
    for shard, path in enumerate(paths):
        with tf.io.TFRecordWriter(path) as writer:
            for image, label in zip(images[shard::shards], labels[shard::shards]):
                feature = {
                    "image": tf.train.Feature(bytes_list=tf.train.BytesList(
                        value=[image.tobytes()])),
                    "label": tf.train.Feature(int64_list=tf.train.Int64List(
                        value=[int(label)]))}
                example = tf.train.Example(features=tf.train.Features(feature=feature))
                writer.write(example.SerializeToString())
    return paths


def parse_batch(serialized):
    """A batch of serialized Examples -> (images [batch, 28, 28] in [0, 1], labels)."""
    parsed = tf.io.parse_example(serialized, FEATURES)
    pixels = tf.io.decode_raw(parsed["image"], tf.uint8)
    images = tf.cast(tf.reshape(pixels, [-1, 28, 28]), tf.float32) / 255.0
    return images, parsed["label"]


def dataset(pattern, batch_size, shuffle_seed=None):
    """The records of the files matching `pattern`, parsed in batches."""
    files = tf.data.Dataset.list_files(pattern, shuffle=False)
    records = files.interleave(tf.data.TFRecordDataset, cycle_length=2)
    if shuffle_seed is not None:
        records = records.shuffle(2048, seed=shuffle_seed)
    return records.batch(batch_size).map(parse_batch).prefetch(tf.data.AUTOTUNE)


def main(split=None, epochs=5, batch_size=32, verbose=True, seed=0, directory=None):
    """Write the shards, train the MLP from them; returns its accuracy on the held-out ones."""
    if split is None:
        split = mnist.load_split()
        if verbose:
            print(f"data: {split.source}")
    (x_train, y_train), (x_test, y_test) = split
    with tempfile.TemporaryDirectory() as scratch:
        directory = directory or scratch
        write_shards(x_train, y_train, directory, "train")
        write_shards(x_test, y_test, directory, "test", shards=2)
        train = dataset(os.path.join(directory, "train-*"), batch_size, shuffle_seed=seed)
        test = dataset(os.path.join(directory, "test-*"), 256)
        if verbose:
            print("records:", train.element_spec)
        tf.keras.utils.set_random_seed(seed)
        model = tf.keras.Sequential([
            tf.keras.layers.Flatten(input_shape=(28, 28)),
            tf.keras.layers.Dense(128, activation="relu"),
            tf.keras.layers.Dropout(0.2),
            tf.keras.layers.Dense(10),
        ])
        model.compile(optimizer="adam",
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
        model.fit(train, epochs=epochs, validation_data=test, verbose=2 if verbose else 0)
        _, accuracy = model.evaluate(test, verbose=0)
    if verbose:
        print(f"test accuracy: {accuracy:.4f}")
    return float(np.asarray(accuracy))


if __name__ == "__main__":
    main()
