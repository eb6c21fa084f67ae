"""Fixed-transformation comparisons of wengert's image augmentation layers with TensorFlow 2.21's
Keras: each case builds the layer from the same class name and arguments on both sides and calls
`transform_images(images, transformation, training=True)` with the same transformation arrays,
so no random draw is involved. All of a module's cases run in one TensorFlow snippet
(keras_tf_eval.tf_eval), whose answers are stored for runs without TensorFlow.
"""
import numpy as np

import wengert as tf
from keras_tf_eval import tf_eval


class FixedCase:
    """layer: (class name, kwargs); transformation: a dict of arrays, one array, or None."""

    def __init__(self, name, layer, images, transformation, method="transform_images"):
        self.name, (self.cls, self.kwargs) = name, layer
        self.images, self.transformation, self.method = images, transformation, method

    def arrays(self):
        out = {f"{self.name}__images": self.images}
        if isinstance(self.transformation, dict):
            out.update({f"{self.name}__t_{k}": v for k, v in self.transformation.items()})
        elif self.transformation is not None:
            out[f"{self.name}__t"] = self.transformation
        return out

    def tf_line(self):
        if isinstance(self.transformation, dict):
            t = "{" + ", ".join(f"{k!r}: A[{self.name + '__t_' + k!r}]"
                                for k in self.transformation) + "}"
        elif self.transformation is not None:
            t = f"A[{self.name + '__t'!r}]"
        else:
            t = "None"
        return (f"out[{self.name!r}] = keras.layers.{self.cls}(**{self.kwargs!r})."
                f"{self.method}(A[{self.name + '__images'!r}], {t}, training=True)\n")

    def run_wengert(self):
        layer = getattr(tf.keras.layers, self.cls)(**self.kwargs)
        t = self.transformation
        if isinstance(t, dict):
            t = {k: tf.constant(v) for k, v in t.items()}
        elif t is not None:
            t = tf.constant(t)
        return np.asarray(getattr(layer, self.method)(tf.constant(self.images), t,
                                                      training=True))


def tf_outputs(cases):
    arrays = {}
    for case in cases:
        arrays.update(case.arrays())
    return tf_eval("".join(case.tf_line() for case in cases), arrays)
