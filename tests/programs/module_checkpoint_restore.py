"""TensorFlow's "Introduction to modules" and "Training checkpoints" guides: tf.Module with
variables and submodules, name scopes, tf.train.Checkpoint save/restore with a
CheckpointManager, restoring into a fresh object, and delayed-build variables."""
import os
import tempfile

import numpy as np
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, seed, name=None):
        super().__init__(name=name)
        rng = np.random.default_rng(seed)
        self.w = tf.Variable(rng.normal(size=(in_features, out_features)).astype("float32"),
                             name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)


class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(3, 3, seed=1)
        self.dense_2 = Dense(3, 2, seed=2)

    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


model = SequentialModule(name="the_model")
x = tf.constant([[2.0, 2.0, 2.0]])
print("output:", np.round(model(x).numpy(), 5).tolist())
print("submodules:", len(model.submodules), "variables:", len(model.variables))
print("variable names:", sorted(v.name for v in model.trainable_variables))

directory = tempfile.mkdtemp()
checkpoint = tf.train.Checkpoint(model=model, step=tf.Variable(0))
manager = tf.train.CheckpointManager(checkpoint, directory, max_to_keep=2)
for _ in range(3):
    checkpoint.step.assign_add(1)
    model.dense_1.w.assign_add(tf.ones_like(model.dense_1.w))
    path = manager.save()
print("kept:", [os.path.basename(p) for p in manager.checkpoints])
print("latest:", os.path.basename(tf.train.latest_checkpoint(directory)))

fresh = SequentialModule()
restore = tf.train.Checkpoint(model=fresh, step=tf.Variable(0))
status = restore.restore(manager.latest_checkpoint)
status.assert_consumed()
print("restored step:", int(restore.step))
print("restored output:", np.round(fresh(x).numpy(), 5).tolist())
reader = tf.train.load_checkpoint(manager.latest_checkpoint)
names = sorted(name for name in reader.get_variable_to_shape_map() if "model" in name)
print("checkpoint keys:", names)
