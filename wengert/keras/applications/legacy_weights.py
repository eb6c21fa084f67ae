"""Reading Keras 2's HDF5 weights files (`model.save_weights("w.h5")` before Keras 3, and the
whole-model `.h5` files), the format of the ImageNet weights Keras publishes for its
applications, which Keras 3 still loads for any `.h5` path that is not `.weights.h5`.

Layout: the root group (or its `model_weights` group, in a whole-model file) lists in attribute
`layer_names` every layer of the model in order; the group of each layer lists in
`weight_names` its weights (trainable first, then the others, in creation order) and holds each
as a dataset at that name. Long lists are split over attributes `<name>0`, `<name>1`, ...

Loading is by position, as Keras does it: the i-th layer of the file with weights goes to the
i-th layer of the model with weights, value by value. Everything (layer count, weight counts,
shapes, numeric types) is checked before any variable is assigned, so a file that does not fit
changes nothing.
"""
import numpy as np

from ..saving.h5_weights import require_h5py

__all__ = ["is_legacy_h5", "load_legacy_weights"]


def _attribute(group, name):
    """A list attribute of `group`, joined from its `<name>0, <name>1, ...` chunks if split."""
    if name in group.attrs:
        values = list(group.attrs[name])
    else:
        values, chunk = [], 0
        while f"{name}{chunk}" in group.attrs:
            values.extend(group.attrs[f"{name}{chunk}"])
            chunk += 1
    return [v.decode("utf8") if hasattr(v, "decode") else str(v) for v in values]


def _weights_group(f):
    return f["model_weights"] if "model_weights" in f else f


def is_legacy_h5(path):
    """Whether `path` is an HDF5 file in Keras 2's layer-ordered format."""
    path = str(path)
    if not path.endswith((".h5", ".hdf5")) or path.endswith(".weights.h5"):
        return False
    h5py = require_h5py()
    try:
        with h5py.File(path, "r") as f:
            group = _weights_group(f)
            return "layer_names" in group.attrs or "layer_names0" in group.attrs
    except OSError:
        return False


def _stored_layers(group):
    """[(layer name, [arrays])] of the file's layers that have weights, in order."""
    out = []
    for name in _attribute(group, "layer_names"):
        layer_group = group[name]
        names = _attribute(layer_group, "weight_names")
        if names:
            out.append((name, [np.asarray(layer_group[w][()]) for w in names]))
    return out


def _assignments(model, stored):
    layers = [layer for layer in model.layers if layer.weights]
    if len(layers) != len(stored):
        raise ValueError(f"Layer count mismatch when loading weights from file: model "
                         f"{model.name!r} expects {len(layers)} layers with weights, the file "
                         f"has {len(stored)}; nothing was loaded.")
    pairs, problems = [], []
    for k, (layer, (file_name, values)) in enumerate(zip(layers, stored)):
        variables = list(layer.trainable_weights) + list(layer.non_trainable_weights)
        if len(variables) != len(values):
            problems.append(f"layer #{k} ({layer.name}; {file_name} in the file) expects "
                            f"{len(variables)} weights, the file has {len(values)}")
            continue
        for variable, value in zip(variables, values):
            if tuple(value.shape) != tuple(variable.shape) or value.dtype.kind not in "fiub":
                problems.append(f"layer #{k} ({layer.name}): {variable.name} has shape "
                                f"{tuple(variable.shape)}, the file {tuple(value.shape)} "
                                f"{value.dtype}")
                continue
            pairs.append((variable, value.astype(variable.dtype.as_numpy_dtype)))
    if problems:
        raise ValueError("The weights file does not match the model; nothing was loaded:\n  "
                         + "\n  ".join(problems[:20]))
    return pairs


def load_legacy_weights(model, path):
    """Assign the weights of Keras 2's HDF5 file at `path` to `model`, layer by layer in order."""
    h5py = require_h5py()
    with h5py.File(path, "r") as f:
        stored = _stored_layers(_weights_group(f))
    for variable, value in _assignments(model, stored):
        variable.assign(value)
