"""TensorFlow's "Using the SavedModel format" guide: a tf.Module with tf.function methods and
an input signature, tf.saved_model.save with explicit signatures, loading it back, calling the
restored function and the serving signature by keyword, and the restored variables."""
import tempfile

import numpy as np
import tensorflow as tf


class Adder(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.0, name="scale")

    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32, name="x")])
    def add_and_scale(self, x):
        return {"result": (x + 1.0) * self.scale}

    @tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
    def set_scale(self, value):
        self.scale.assign(value)
        return self.scale.read_value()


module = Adder()
directory = tempfile.mkdtemp()
tf.saved_model.save(module, directory, signatures={"serving_default": module.add_and_scale})
restored = tf.saved_model.load(directory)
print("restored call:", restored.add_and_scale(tf.constant([1.0, 2.0]))["result"].numpy().tolist())
print("signatures:", list(restored.signatures.keys()))
serving = restored.signatures["serving_default"]
print("serving outputs:", {k: v.numpy().tolist() for k, v in serving(x=tf.constant([3.0])).items()})
print("set scale:", float(restored.set_scale(tf.constant(5.0))))
print("after set:", restored.add_and_scale(tf.constant([0.0]))["result"].numpy().tolist())
print("restored scale:", restored.scale.name, float(restored.scale.numpy()))
print("original untouched:", float(module.scale.numpy()))
