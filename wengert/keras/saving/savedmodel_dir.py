"""Saving whole Keras models: `model.save(dir)`, `keras.models.save_model` and `load_model` in the
SavedModel directory form (tf.saved_model), and the hooks tf.saved_model uses for models.

A model saves its inference call `model(inputs, training=False)` traced for its input
signature (the functional model's `keras.Input`s, or the built input shape as float32, with a
dynamic batch dimension) as the loaded object's `__call__` (callable as `loaded(x)` or
`loaded(x, training=False)`) and as the `serving_default` signature. `load_model(dir)` returns
the restored object: callable, differentiable, with `.variables`, `.trainable_variables` and
`signatures`; it is not a Keras model again (no `fit`), as the code that built it is not read
from the directory. The single-file `.keras` and `.h5` formats are not available.
"""
import os

from ... import saved_model
from ...tracing.signatures import model_input_specs
from ...tracing.function import function

__all__ = ["save_model", "load_model", "input_signature", "serving_functions"]


def input_signature(model):
    """[TensorSpec] of a built model's inputs (batch dimension None)."""
    specs = model_input_specs(model, name="inputs")
    if specs is None:
        raise ValueError(f"Model {model.name!r} cannot be saved before it is built: call it on "
                         "a batch of data or build it with an input shape first.")
    return specs


def serving_functions(model):
    """(the traced call function, its concrete functions): call(x) and call(x, training=False)
    bind to one trace, call(x, False), which a restored `__call__` binds the same way."""
    specs = input_signature(model)
    key = (tuple((tuple(s.shape), s.dtype.name) for s in specs),
           tuple(id(w) for w in model.weights))
    cache = model.__dict__.get("_saved_call")
    if cache is not None and cache[0] == key:  # save() asks twice: the same traces
        return cache[1]

    def call(inputs, training=False):
        if training:
            raise ValueError("A saved Keras model is exported for inference (training=False).")
        return model(inputs, training=False)
    traced = function(call, name="__call__")
    arg = specs if len(specs) > 1 else specs[0]
    concretes = [traced.get_concrete_function(arg)]
    model.__dict__["_saved_call"] = (key, (traced, concretes))
    return traced, concretes


def save_model(model, filepath, overwrite=True, save_format=None, signatures=None,
               options=None, **kwargs):
    """Save `model` as a SavedModel directory at `filepath`."""
    filepath = os.fspath(filepath)
    if save_format not in (None, "tf") or filepath.endswith((".keras", ".h5", ".hdf5")):
        raise NotImplementedError(f"save_model: only the SavedModel directory form is "
                                  f"available, not {save_format or filepath!r}; give a "
                                  "directory path.")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_model: {filepath!r} exists and overwrite=False.")
    saved_model.save(model, filepath, signatures=signatures, options=options)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True, **kwargs):  # noqa: A002
    """Load a SavedModel directory saved by `save_model` (see the module docstring)."""
    filepath = os.fspath(filepath)
    if not os.path.isdir(filepath):
        raise NotImplementedError(f"load_model: {filepath!r} is not a SavedModel directory; "
                                  "only the directory form is available.")
    return saved_model.load(filepath)
