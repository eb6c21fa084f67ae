"""tf.data as TensorFlow's guide builds pipelines: from_tensor_slices, map, filter, batch,
padded_batch, window, zip, reduce, a seeded shuffle's length and contents, and a generator."""
import numpy as np
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(np.arange(10))
print("map/filter:", [int(v) for v in ds.map(lambda v: v * v).filter(lambda v: v % 2 == 0)])
print("batch:", [b.numpy().tolist() for b in ds.batch(4)])
print("batch drop:", [b.numpy().tolist() for b in ds.batch(4, drop_remainder=True)])
print("reduce:", int(ds.reduce(np.int64(0), lambda s, v: s + v)))
print("window:", [[int(v) for v in w] for w in ds.window(3, shift=3, drop_remainder=True)])

ragged = tf.data.Dataset.range(1, 5).map(lambda n: tf.fill([n], n))
print("padded:", [b.numpy().tolist() for b in ragged.padded_batch(2)])

pairs = tf.data.Dataset.zip((ds, ds.map(lambda v: -v)))
print("zip:", [(int(a), int(b)) for a, b in pairs.take(3)])
shuffled = sorted(int(v) for v in ds.shuffle(10, seed=4))
print("shuffled has everything:", shuffled == list(range(10)))


def gen():
    for i in range(3):
        yield {"x": np.full([2], i, np.float32), "y": i}


typed = tf.data.Dataset.from_generator(gen, output_signature={
    "x": tf.TensorSpec([2], tf.float32), "y": tf.TensorSpec([], tf.int32)})
print("element_spec:", sorted(typed.element_spec))
print("generator:", [(e["x"].numpy().tolist(), int(e["y"])) for e in typed])
print("cardinality:", int(ds.batch(3).cardinality()), int(ds.repeat().cardinality()))
