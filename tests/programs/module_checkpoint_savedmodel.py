"""tf.Module with tf.function methods, saved with tf.train.Checkpoint and restored into a fresh
instance, then exported with tf.saved_model.save and loaded back and called."""
import os
import tempfile

import numpy as np
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, w, b, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(w, name="w")
        self.b = tf.Variable(b, name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)


rng = np.random.default_rng(5)
w0, b0 = rng.normal(size=(3, 2)).astype(np.float32), np.array([0.1, -0.1], np.float32)
layer = Dense(w0, b0, name="dense")
x = tf.constant(rng.normal(size=(4, 3)).astype(np.float32))
print("out:", np.round(layer(x).numpy(), 5).tolist())
print("trainable:", sorted(v.name for v in layer.trainable_variables))

folder = tempfile.mkdtemp()
ckpt = tf.train.Checkpoint(model=layer)
path = ckpt.write(os.path.join(folder, "ckpt"))
layer.w.assign(tf.zeros_like(layer.w))
fresh = Dense(np.ones((3, 2), np.float32), np.zeros(2, np.float32))
tf.train.Checkpoint(model=fresh).read(path).assert_consumed()
print("restored equal:", bool(np.allclose(fresh.w.numpy(), w0)))

export = os.path.join(folder, "saved")
tf.saved_model.save(fresh, export)
loaded = tf.saved_model.load(export)
print("loaded out:", np.round(loaded(x).numpy(), 5).tolist())
