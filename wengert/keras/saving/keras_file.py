"""The `.keras` file: Keras 3's zip archive of a whole model.

    metadata.json      {"keras_version", "date_saved"}
    config.json        the model's config (model_config.py), with its build config
    model.weights.h5   the weights and the optimizer's state (h5_weights.py)
    assets/<path>/     what a layer keeps outside its weights: an adapted lookup vocabulary,
                       vocabulary.txt (read; wengert writes vocabularies into the config)

`save_model` writes the three into a temporary file in the target's folder and renames it
into place. `load_model` reads the archive without extracting it, rebuilds the model from
config.json (classes looked up by name only; serialized lambdas refused unless
safe_mode=False), compiles it as the file's compile config says and builds the optimizer for the
model's variables, checks the weights file against the rebuilt model and optimizer and only then
assigns the weights and the optimizer state (so training resumes where it stopped); a missing member, invalid JSON, or a weights file that does not fit is an error that
names the problem.
"""
import datetime
import io
import json
import os
import zipfile
import warnings

import numpy as np

from ... import optimizers
from ..serialization import (CustomObjectScope, SafeModeScope, deserialize_keras_object,
                             serialize_keras_object)
from .h5_weights import (atomic_write, model_optimizer, read_weights, require_h5py,
                          walk_saveables, write_weights)

__all__ = ["save_keras_file", "load_keras_file", "read_config", "load_weights_from_keras_file"]

KERAS_VERSION = "3.15.1"  # the Keras file format this writes (Keras 3's saving_lib)
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.h5"
# Keras 3 optimizer options that wengert's optimizers do not take, dropped when unused
_OPTIMIZER_DEFAULTS = {"use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                       "loss_scale_factor": None, "gradient_accumulation_steps": None}


def _model_json(model):
    config = serialize_keras_object(model)
    return json.dumps(config, default=_json_default)


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"Cannot write {type(value).__name__} {value!r} into a Keras config.")


def save_keras_file(model, filepath, overwrite=True):
    h5py = require_h5py()
    filepath = os.fspath(filepath)
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_model: {filepath!r} exists and overwrite=False.")
    config_json = _model_json(model)
    metadata = json.dumps({"keras_version": KERAS_VERSION,
                           "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")})
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        write_weights(model, f)

    def write(tmp):
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as z:
            z.writestr(_METADATA, metadata)
            z.writestr(_CONFIG, config_json)
            z.writestr(_WEIGHTS, buffer.getvalue())
    atomic_write(filepath, write)


def _open(filepath):
    try:
        return zipfile.ZipFile(filepath, "r")
    except (zipfile.BadZipFile, OSError) as err:
        raise ValueError(f"{os.fspath(filepath)!r} is not a valid .keras file (a zip archive "
                         f"with config.json and model.weights.h5): {err}") from None


def read_config(filepath):
    """The model config (a dict) stored in a .keras file."""
    with _open(filepath) as z:
        return _config_of(z, filepath)


def _config_of(z, filepath):
    if _CONFIG not in z.namelist():
        raise ValueError(f"{os.fspath(filepath)!r} has no {_CONFIG}; it is not a Keras 3 "
                         ".keras file.")
    try:
        return json.loads(z.read(_CONFIG).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as err:  # too deep: corrupt too
        raise ValueError(f"{os.fspath(filepath)!r}: {_CONFIG} is not valid JSON ({err}).") \
            from None


def load_keras_file(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002
    h5py = require_h5py()
    with _open(filepath) as z:
        config = _config_of(z, filepath)
        if _WEIGHTS not in z.namelist():
            raise ValueError(f"{os.fspath(filepath)!r} has no {_WEIGHTS}.")
        weights = z.read(_WEIGHTS)
        assets = {name: z.read(name) for name in z.namelist() if name.startswith("assets/")}
    with SafeModeScope(safe_mode), CustomObjectScope(custom_objects or {}):
        model = deserialize_keras_object(config, custom_objects=custom_objects,
                                         safe_mode=safe_mode)
    _load_assets(model, assets)
    try:
        f = h5py.File(io.BytesIO(weights), "r")
    except OSError as err:
        raise ValueError(f"{os.fspath(filepath)!r}: {_WEIGHTS} is not a readable HDF5 file "
                         f"({err}).") from None
    if compile and config.get("compile_config"):
        compile_from_config(model, config["compile_config"], custom_objects)
    with f:
        read_weights(model, f)
    return model


def _load_assets(model, assets):
    """Give each layer that keeps a vocabulary the `vocabulary.txt` Keras wrote for it under
    assets/<its path>/ (TensorFlow's Keras keeps an adapted lookup vocabulary there)."""
    for path, layer in walk_saveables(model):
        text = assets.get(f"assets/{path}/vocabulary.txt" if path else "assets/vocabulary.txt")
        if text is not None and hasattr(layer, "load_vocabulary_asset"):
            layer.load_vocabulary_asset(text.decode("utf-8"))


def _build_optimizer(model):
    """Create the compiled optimizer's slots for the model's trainable variables (as Keras's
    compile_from_config does), so that the saved optimizer state has somewhere to go."""
    optimizer = model_optimizer(model)
    if optimizer is not None and model.built and not optimizer.built:
        optimizer.build(model.trainable_variables)


def compile_from_config(model, compile_config, custom_objects=None):
    """compile() with the optimizer, loss and metrics a config names (when wengert has them),
    then the optimizer's slots for a built model (Model.compile_from_config)."""
    try:
        kwargs = {}
        optimizer = compile_config.get("optimizer")
        if isinstance(optimizer, dict):
            inner = optimizer.get("config", {})
            for key, default in _OPTIMIZER_DEFAULTS.items():
                if inner.get(key, default) == default:
                    inner.pop(key, None)
        if optimizer is not None:
            kwargs["optimizer"] = optimizers.get(optimizer) if isinstance(optimizer, str) else \
                deserialize_keras_object(optimizer, custom_objects=custom_objects)
        for key in ("loss", "metrics", "weighted_metrics"):
            value = compile_config.get(key)
            if value is not None:
                kwargs[key] = value if isinstance(value, (str, list)) else \
                    deserialize_keras_object(value, custom_objects=custom_objects)
        model.compile(**kwargs)
        _build_optimizer(model)
    except (ValueError, TypeError, NotImplementedError) as err:
        warnings.warn(f"load_model: the model's weights are loaded, but its training "
                      f"configuration could not be restored ({err}); call compile() yourself.",
                      stacklevel=3)


def load_weights_from_keras_file(model, filepath, skip_mismatch=False):
    """Assign the weights stored in a .keras file to `model` (checked first)."""
    h5py = require_h5py()
    with _open(filepath) as z:
        if _WEIGHTS not in z.namelist():
            raise ValueError(f"{os.fspath(filepath)!r} has no {_WEIGHTS}.")
        weights = z.read(_WEIGHTS)
    with h5py.File(io.BytesIO(weights), "r") as f:
        read_weights(model, f, skip_mismatch=skip_mismatch)
