"""`wengert.keras`: a Keras-style API over wengert (TensorFlow's `tf.keras`).

    model = keras.Sequential([keras.layers.Dense(64, activation="relu", input_shape=(784,)),
                              keras.layers.Dense(10)])
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x, y, batch_size=32, epochs=5, validation_split=0.1)

Layers build their weights on first call; Model.fit runs the GradientTape train step, compiled
with wengert.function; `model.trainable_variables` works with a hand-written loop too.
"""
import importlib

from ..framework.device import device as _device

from . import activations, backend, callbacks, initializers, layers, losses, metrics, utils
from . import applications
from . import constraints, export, mixed_precision, regularizers, saving
from . import config, preprocessing, tree
from .. import datasets  # keras.datasets.mnist.load_data(), as in TensorFlow
from .layers import Input, InputLayer
from .models import Model, Sequential
from .variables import KerasNameScope as name_scope, KerasVariable as Variable
from .stateless_scope import StatelessScope
from .remat import RematScope, remat
from .initializers import Initializer
from .layers import InputSpec, Layer
from .layers.keras_tensor import KerasTensor
from .losses import Loss
from .metrics import Metric
from .mixed_precision import DTypePolicy, DTypePolicy as FloatDTypePolicy
from .regularizers import Regularizer
from .ops import dtypes as _dtypes

from .cloning import clone_model
from .function import Function

backend.standardize_dtype, backend.result_type = _dtypes.standardize_dtype, _dtypes.result_type
backend.is_float_dtype, backend.is_int_dtype = _dtypes.is_float, _dtypes.is_int
backend.is_keras_tensor = utils.is_keras_tensor
from . import models as _models_module
_models_module.clone_model = clone_model  # keras.models names it; cloning.py builds on models.py

__all__ = ["Model", "Sequential", "Variable", "Input", "InputLayer", "layers", "losses",
           "metrics", "callbacks", "activations", "initializers", "optimizers", "backend", "utils",
           "models", "ops", "datasets", "constraints", "regularizers", "saving", "random",
           "mixed_precision", "export", "config", "tree", "preprocessing", "Layer", "Loss",
           "Metric", "Optimizer", "Initializer", "Regularizer", "InputSpec", "KerasTensor",
           "DTypePolicy", "FloatDTypePolicy", "name_scope", "device", "version"]

__version__ = "3.15.1"  # the Keras release (TensorFlow 2.21's) whose behaviour this follows


def version():
    """The Keras version whose behaviour wengert.keras follows (TensorFlow 2.21's Keras)."""
    return __version__


def device(device_name):
    """`with keras.device("cpu:0"):` as tf.device: wengert computes on the CPU, and names of
    devices it lacks ("gpu:0") place their work there too (soft placement)."""
    return _device(device_name)


def __getattr__(name):
    if name in ("optimizers", "models", "ops", "random"):  # optimizers lives in wengert.optimizers
        return importlib.import_module(f".{name}", __name__)
    if name == "Optimizer":
        return importlib.import_module(".optimizers", __name__).Optimizer
    raise AttributeError(f"module 'wengert.keras' has no attribute {name!r}")
