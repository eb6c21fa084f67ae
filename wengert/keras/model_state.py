"""A model's whole state as Keras 3 exposes it (a mixin of Model): `metrics_variables`,
`get_state_tree` / `set_state_tree`, `stateless_compute_loss`, and the model-level
quantization entry points.

`get_state_tree(value_format="backend_tensor")` is {"trainable_variables": ...,
"non_trainable_variables": ..., "optimizer_variables": ..., "metrics_variables": ...}, each a
nested dict that splits every variable's path on "/" ("my_sequential/my_dense/kernel" becomes
tree["my_sequential"]["my_dense"]["kernel"]); the leaves are tensors, or NumPy arrays with
value_format="numpy_array". A path found twice is a ValueError. `set_state_tree(tree)` assigns
each leaf to the variable of that path in its group. A variable without a Keras path (wengert's
optimizer slots, "my_dense/kernel/m") is placed by its name, so optimizer paths differ from
Keras's ("adam/my_sequential_my_dense_kernel_momentum") but a tree this model gives is one it
takes back.

`stateless_compute_loss(trainable_variables, non_trainable_variables, metrics_variables, x=None,
y=None, y_pred=None, sample_weight=None, training=True)` is compute_loss inside a
`keras.StatelessScope` mapping the model's variables to the values given: it returns
(loss, (trainable_variables, new non-trainable values, new metrics values)), where a value the
loss did not assign comes back as Keras gives it (None for a non-trainable variable, the
value passed for a metric variable).

`quantize(mode, config=None, filters=None)` refuses as Layer.quantize does (layers/
quantization.py): with NotImplementedError naming the mode when a layer of the model is one
Keras would quantize, and doing nothing (as Keras, which skips layers that cannot be
quantized) otherwise; `get_quantization_layer_structure(mode)` is None, Keras's default.
"""
import re

from .layers.quantization import check_quantize_mode, keras_quantizes, refusal
from .stateless_scope import StatelessScope

__all__ = ["ModelState"]

_GROUPS = ("trainable_variables", "non_trainable_variables", "optimizer_variables",
           "metrics_variables")


def _path(variable):
    path = getattr(variable, "path", None)
    if path:
        return path
    name = variable.name
    return name[:-2] if name.endswith(":0") else name


def _nested(variables, value_format):
    if value_format not in ("backend_tensor", "numpy_array"):
        raise ValueError("Invalid `value_format` argument. Expected one of {'numpy_array', "
                         f"'backend_tensor'}}. Received: value_format={value_format}")
    flat = {}
    for v in variables:
        path = _path(v)
        if path in flat:
            raise ValueError(f"The following variable path is found twice in the model: "
                             f"'{path}'. `get_state_tree()` can only be called when all "
                             "variable paths are unique. Make sure to give unique names to "
                             "your layers (and other objects).")
        flat[path] = v.numpy() if value_format == "numpy_array" else v.read_value()
    tree = {}
    for path, value in flat.items():
        parts = path.split("/")
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return tree


def _flat(tree):
    """{"a/b/c": leaf} of a nested dict (an explicit stack)."""
    out, stack = {}, [("", tree)]
    while stack:
        prefix, node = stack.pop()
        for key, value in node.items():
            if isinstance(value, dict):
                stack.append((f"{prefix}{key}/", value))
            else:
                out[f"{prefix}{key}"] = value
    return out


class ModelState:
    """metrics_variables, get/set_state_tree, stateless_compute_loss, quantize."""

    @property
    def metrics_variables(self):
        """The variables of the model's metrics (the loss tracker's, the compiled metrics')."""
        out = []
        for metric in self.metrics:
            out.extend(metric.variables)
        return out

    def _state_groups(self):
        optimizer = getattr(self, "optimizer", None)
        return {"trainable_variables": self.trainable_variables,
                "non_trainable_variables": self.non_trainable_variables,
                "optimizer_variables": list(optimizer.variables) if optimizer is not None
                else [],
                "metrics_variables": self.metrics_variables}

    def get_state_tree(self, value_format="backend_tensor"):
        """The model's variables as nested dicts by path (see the module docstring)."""
        return {group: _nested(variables, value_format)
                for group, variables in self._state_groups().items()}

    def set_state_tree(self, state_tree):
        """Assign the leaves of a tree get_state_tree gave to the variables of their paths."""
        unknown = [k for k in state_tree if k not in _GROUPS]
        if unknown:
            raise ValueError(f"Unknown variable name: {unknown[0]}")
        groups = self._state_groups()
        for group, tree in state_tree.items():
            by_path = {_path(v): v for v in groups[group]}
            for path, value in _flat(tree).items():
                if path in by_path:
                    by_path[path].assign(value)

    def stateless_compute_loss(self, trainable_variables, non_trainable_variables,
                               metrics_variables, x=None, y=None, y_pred=None,
                               sample_weight=None, training=True):
        """(loss, (trainable, non-trainable, metrics values)): compute_loss with the model's
        variables read from the lists given, changing none of them."""
        own_metrics = self.metrics_variables
        mapping = list(zip(self.trainable_variables, trainable_variables))
        mapping += list(zip(self.non_trainable_variables, non_trainable_variables))
        mapping += list(zip(own_metrics, metrics_variables))
        with StatelessScope(state_mapping=mapping) as scope:
            loss = self.compute_loss(x, y, y_pred, sample_weight=sample_weight,
                                     training=training)
        new_other = [scope.get_current_value(v) for v in self.non_trainable_variables]
        new_metrics = [scope.get_current_value(v) for v in own_metrics]
        return loss, (trainable_variables, new_other, new_metrics)

    def quantize(self, mode=None, config=None, filters=None, **kwargs):
        """Refused (see the module docstring)."""
        kwargs.pop("type_check", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to "
                             f"{type(self).__name__}: {kwargs}")
        if filters is not None and not isinstance(filters, (str, list, tuple)) and not callable(
                filters):
            raise ValueError("The `filters` argument must be a regex string, a list of regex "
                             f"strings, or a callable. Received: {type(filters)}")
        if mode is None and config is not None:
            mode = getattr(config, "mode", None)
        check_quantize_mode(mode)
        for layer in self.submodules:
            if keras_quantizes(layer) and _selected(layer, filters):
                raise refusal(layer, mode)

    def get_quantization_layer_structure(self, mode):
        """None: the model names no layer structure for GPTQ / AWQ (Keras's default)."""
        return None


def _selected(layer, filters):
    if filters is None:
        return True
    if callable(filters) and not isinstance(filters, str):
        return bool(filters(layer))
    patterns = [filters] if isinstance(filters, str) else list(filters)
    return any(re.search(p, layer.name) for p in patterns)
