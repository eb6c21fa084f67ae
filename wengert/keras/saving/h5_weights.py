"""Keras 3's weights file (`model.weights.h5`, `*.weights.h5`), written and read with h5py.

Keras 3 stores each object's own variables under the path of attribute names that leads to it
from the model: `layers/<layer>/vars/0, 1, ...` for the layers of a Sequential or functional
model (named by their class in snake case, numbered when repeated: `dense`, `dense_1`; not by
the layer's name), `layers/lstm/cell/vars/...` for a sublayer kept in attribute `cell`,
`.../forward_layer/...`, `.../query_dense/...` and so on; lists of layers are containers
(`cells/lstm_cell`). A layer's own variables are its trainable ones, then the others, in
creation order. `walk_saveables` visits a wengert model the same way Keras visits its own: for a
model first its `layers`, then its attributes in sorted order (public before private), each
layer once; so the same model built in both libraries gets the same paths and files move both
ways.

The optimizer of a compiled model keeps its state under `optimizer/vars` (attribute `name`, the
optimizer's name): its `variables` in Keras 3's order, the iteration count, the learning rate,
then each trained variable's slots (Adam's momentum and velocity) in `trainable_weights` order.
Reading them needs the optimizer built for the model's variables (load_model builds it after
compiling); an optimizer holding another number of variables is skipped with a warning, as
Keras does, and an uncompiled model ignores them.

A layer whose class overrides `save_own_variables`/`load_own_variables` (Keras 3's hooks for
state beyond its variables) writes and reads its own group through them (`GroupStore`, a
dict-like view of the group). Reading checks everything else first: every path and its number
of variables, each shape, and that each value is finite-typed (a corrupt or mismatched file
changes no weight); then the overriding layers load, then all other values are assigned, and each layer with a `finalize_state` method (Normalization's adapted statistics)
is told that its state is loaded. Writing goes to a temporary file renamed into place (atomic).
"""
import os
import tempfile
import warnings

import numpy as np

from ...framework.tensor import array_of
from ..backend import to_snake_case
from ..layers.base import Layer

__all__ = ["require_h5py", "walk_saveables", "write_weights", "read_weights",
           "save_weights", "load_weights"]

_INTERNAL = frozenset({"_sublayers", "_functional_layers", "_stack", "submodules",
                       "_inbound_nodes", "_nodes", "optimizer", "_layers_for_saving",
                       "_flatten_layers", "non_trainable_weights", "trainable_weights"})


def require_h5py():
    try:
        import h5py  # optional dependency
    except ImportError:
        raise ImportError("Saving or loading Keras `.keras` and `.weights.h5` files needs h5py: "
                          "pip install 'wengert[h5]' (or pip install h5py).") from None
    return h5py


def _snake(name):
    return to_snake_case(name)


def _children(obj):
    """(attribute name, Layer or list of Layers) in Keras's visiting order."""
    out = []
    if getattr(obj, "_is_functional", False) or hasattr(obj, "_stack"):  # functional or
        out.append(("layers", obj.layers))                                # Sequential models
    names = sorted((n for n in dir(obj) if not n.startswith("__") and n not in _INTERNAL),
                   key=lambda n: "~" + n if n.startswith("_") else n)
    for name in names:
        try:
            value = getattr(obj, name)
        except Exception:  # noqa: BLE001 - a property that cannot be read here
            continue
        if isinstance(value, Layer) and value is not obj:
            out.append((name, value))
        elif isinstance(value, (list, tuple, dict)):
            items = list(value.values()) if isinstance(value, dict) else list(value)
            if items and all(isinstance(v, Layer) for v in items):
                out.append((name, items))
    return out


def walk_saveables(model):
    """[(path, layer)] for the model and every layer in it, in Keras's order, each once."""
    order, visited = [], set()
    stack = [("", model)]
    while stack:
        path, obj = stack.pop()
        if id(obj) in visited:
            continue
        visited.add(id(obj))
        order.append((path, obj))
        pending = []
        for name, child in _children(obj):
            child_path = f"{path}/{name}" if path else name
            if isinstance(child, list):
                used = {}
                for layer in child:
                    key = _snake(type(layer).__name__)
                    count = used.get(key)
                    used[key] = 0 if count is None else count + 1
                    label = key if count is None else f"{key}_{used[key]}"
                    pending.append((f"{child_path}/{label}", layer))
            else:
                pending.append((child_path, child))
        stack.extend(reversed(pending))
    return order


def own_variables(layer):
    return list(layer._trainable_weights) + list(layer._non_trainable_weights)


def _custom(obj, hook):
    """Whether `obj`'s class overrides Layer's save_own_variables / load_own_variables."""
    return getattr(type(obj), hook, None) not in (None, getattr(Layer, hook))


class GroupStore:
    """The dict-like `store` that save_own_variables and load_own_variables take: values by
    key ("0", "1", ...) in one h5py group (None: an empty store)."""

    def __init__(self, group):
        self._group = group

    def __setitem__(self, key, value):
        value = value.numpy() if hasattr(value, "numpy") else np.asarray(value)
        self._group.create_dataset(str(key), data=value)

    def __getitem__(self, key):
        if self._group is None or str(key) not in self._group:
            raise KeyError(key)
        return np.asarray(self._group[str(key)][()])

    def __contains__(self, key):
        return self._group is not None and str(key) in self._group

    def __len__(self):
        return 0 if self._group is None else len(self._group)

    def keys(self):
        return [] if self._group is None else list(self._group.keys())

    def __iter__(self):
        return iter(self.keys())


# -- writing --------------------------------------------------------------------------------
def write_weights(model, h5file):
    """Write every object's own variables into an open h5py File."""
    for path, obj in walk_saveables(model):
        key = f"{path}/vars" if path else "vars"
        if _custom(obj, "save_own_variables"):
            group = h5file.create_group(key)
            group.attrs["name"] = obj.name
            obj.save_own_variables(GroupStore(group))
        else:
            _write_group(h5file, key, obj.name, own_variables(obj))
    optimizer = model_optimizer(model)
    if optimizer is not None:
        _write_group(h5file, "optimizer/vars", optimizer.name, optimizer.variables)


def _write_group(h5file, key, name, variables):
    group = h5file.create_group(key)
    group.attrs["name"] = name
    for i, variable in enumerate(variables):
        group.create_dataset(str(i), data=np.asarray(array_of(variable)))


def model_optimizer(model):
    """The optimizer of a compiled model whose state can be saved (else None)."""
    optimizer = model.__dict__.get("optimizer")
    return optimizer if hasattr(optimizer, "load_own_variables") else None


def atomic_write(filepath, write):
    """Call write(temporary path) and move the result to `filepath` in one step."""
    filepath = os.fspath(filepath)
    directory = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=os.path.basename(filepath),
                               dir=directory)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, filepath)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def save_weights(model, filepath, overwrite=True):
    h5py = require_h5py()
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_weights: {filepath!r} exists and overwrite=False.")

    def write(tmp):
        with h5py.File(tmp, "w") as f:
            write_weights(model, f)
    atomic_write(filepath, write)


# -- reading --------------------------------------------------------------------------------
def _stored(h5file, path):
    key = f"{path}/vars" if path else "vars"
    if key not in h5file:
        return None
    group = h5file[key]
    return [group[str(i)] for i in range(len(group))] if all(
        str(i) in group for i in range(len(group))) else False


def read_weights(model, h5file, skip_mismatch=False):
    """Check the whole file against the model, then assign every variable."""
    assignments, problems, custom = [], [], []
    saveables = walk_saveables(model)
    for path, obj in saveables:
        if _custom(obj, "load_own_variables"):
            key = f"{path}/vars" if path else "vars"
            custom.append((obj, GroupStore(h5file[key] if key in h5file else None)))
            continue
        variables = own_variables(obj)
        stored = _stored(h5file, path)
        if stored is False:
            problems.append(f"{path or 'the model'}: the variables are not numbered 0..n-1")
            continue
        stored = stored or []
        if len(stored) != len(variables):
            problems.append(f"Layer '{obj.name}' ({path or 'the model'}) expected "
                            f"{len(variables)} variables, but received {len(stored)} "
                            "variables during loading.")
            continue
        for i, (variable, dataset) in enumerate(zip(variables, stored)):
            try:
                value = np.asarray(dataset[()])
            except Exception as err:  # noqa: BLE001 - an unreadable dataset
                problems.append(f"{path}/vars/{i}: unreadable ({err})")
                continue
            if tuple(value.shape) != tuple(variable.shape):
                problems.append(f"{path}/vars/{i} ({variable.name}): the file has shape "
                                f"{tuple(value.shape)}, the model {tuple(variable.shape)}")
                continue
            if value.dtype.kind not in "fiub":
                problems.append(f"{path}/vars/{i}: not numeric (dtype {value.dtype})")
                continue
            assignments.append((variable, value.astype(variable.dtype.as_numpy_dtype)))
    assignments += _optimizer_assignments(model, h5file, problems)
    if problems and not skip_mismatch:
        raise ValueError("The weights file does not match the model; nothing was loaded:\n  "
                         + "\n  ".join(problems[:20]))
    for obj, store in custom:  # a layer's own loading; the others change only after it
        obj.load_own_variables(store)
    for variable, value in assignments:
        variable.assign(value)
    for _, obj in saveables:
        if hasattr(obj, "finalize_state"):
            obj.finalize_state()


def _optimizer_assignments(model, h5file, problems):
    """[(optimizer variable, value)] from `optimizer/vars`, checked; [] when the model has no
    optimizer, the file no state, or the counts differ (a warning, as Keras gives)."""
    optimizer = model_optimizer(model)
    stored = _stored(h5file, "optimizer")
    if optimizer is None or not stored:
        return []
    variables = list(optimizer.variables)
    if len(stored) != len(variables):
        warnings.warn(f"Skipping variable loading for optimizer '{optimizer.name}', because it "
                      f"has {len(variables)} variables whereas the saved optimizer has "
                      f"{len(stored)} variables.", stacklevel=4)
        return []
    out = []
    for i, (variable, dataset) in enumerate(zip(variables, stored)):
        value = np.asarray(dataset[()])
        if tuple(value.shape) != tuple(variable.shape) or value.dtype.kind not in "fiub":
            problems.append(f"optimizer/vars/{i} ({variable.name}): the file has shape "
                            f"{tuple(value.shape)} and dtype {value.dtype}, the optimizer "
                            f"{tuple(variable.shape)} and {variable.dtype.name}")
            continue
        out.append((variable, value.astype(variable.dtype.as_numpy_dtype)))
    return out


def load_weights(model, filepath, skip_mismatch=False):
    h5py = require_h5py()
    try:
        f = h5py.File(filepath, "r")
    except OSError as err:
        raise ValueError(f"{filepath!r} is not a readable HDF5 weights file ({err}); nothing "
                         "was loaded.") from None
    with f:
        read_weights(model, f, skip_mismatch=skip_mismatch)
