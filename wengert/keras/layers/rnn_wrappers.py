"""The RNN cell wrappers of `tf.nn` (TensorFlow 2.21's Keras 2 era `RNNCellDropoutWrapper`,
`RNNCellResidualWrapper`, `RNNCellDeviceWrapper`): layers that hold a cell and change one step of
it, `call(inputs, state) -> (output, new_state)`, with the cell's state_size and output_size, so
`keras.layers.RNN(wrapper)` runs them over time.

DropoutWrapper drops the step's inputs, its new states and its output with keep probabilities
q_in, q_state, q_out (a dropped entry is 0, a kept one is scaled by 1 / q):

    x' = dropout(x, q_in);  (y, s') = cell(x', s);  s'' = dropout(s', q_state);  y' = dropout(y, q_out)

As in TensorFlow, it drops on every call (the `training` flag goes to the cell, not to the
wrapper's own dropout), with a fresh mask per step; with variational_recurrent=True one uniform
draw u per component is made when the wrapper is built and every step keeps floor(q + u), the
same mask at each step (Gal and Ghahramani 2016). Which state components are dropped is
decided by dropout_state_filter_visitor (TensorArrays never are). Op seeds come from `seed` as
TensorFlow's do (md5 of the seed and a salt per component).

ResidualWrapper returns (residual_fn(inputs, output), new_state), by default inputs + output
(the same structure and shapes required). DeviceWrapper runs the cell under `tf.device(device)`
(wengert has one CPU device, so it only delegates). Each wrapper's config holds the cell's as
{"class_name", "config"}, as TensorFlow writes it.
"""
import hashlib
import sys

from ...framework.device import device as device_scope
from ...framework.tensor import convert_to_tensor
from ...ops.creation_ops import constant_value
from ...ops.io.tensor_arrays import TensorArray
from ...ops.nn.dropout import dropout as dropout_op
from ...ops.random.seeded import uniform as random_uniform
from ...ops.rounding_ops import floor
from ...util import nest
from .. import backend_ops as K
from ..serialization import deserialize_keras_object, dump_lambda
from .base import Layer
from .layer_utils import config_with_objects
from .rnn_cells import DropoutRNNCell

__all__ = ["DropoutWrapper", "ResidualWrapper", "DeviceWrapper"]


# -- helpers --------------------------------------------------------------------------------------
def _map_up_to(shallow, fn, values):
    """fn(i, flag, value) at each leaf of `shallow` (i counts the leaves), over the matching
    subtree of `values`: TensorFlow's _enumerated_map_structure_up_to."""
    count = [0]

    def visit(flags, vals):
        if isinstance(flags, (list, tuple)):
            if not isinstance(vals, (list, tuple)) or len(vals) != len(flags):
                raise ValueError(f"The structure {flags} does not match the values {vals}.")
            return type(vals)(visit(f, v) for f, v in zip(flags, vals))
        out = fn(count[0], flags, vals)
        count[0] += 1
        return out
    return visit(shallow, values)


def _traverse(filter_fn, structure):
    """TensorFlow's nest.get_traverse_shallow_structure: which parts of `structure` filter_fn
    marks True, descending into the parts it marks True that are themselves sequences."""
    marks = filter_fn(structure)
    if isinstance(marks, bool):
        if marks and isinstance(structure, (list, tuple)):
            return type(structure)(_traverse(filter_fn, s) for s in structure)
        return marks
    return type(marks)(_traverse(filter_fn, s) if m is True and isinstance(s, (list, tuple))
                       else m for m, s in zip(marks, structure))


def _default_state_filter(substate):
    return not isinstance(substate, TensorArray)


def _function_config(key, fn):
    """The config entries `key`, `<key>_type` and `<key>_module` of a function argument, as
    TensorFlow's _serialize_function_to_config makes them."""
    if getattr(fn, "__name__", None) == "<lambda>":
        value, kind = dump_lambda(fn), "lambda"
    elif callable(fn):
        value, kind = fn.__name__, "function"
    else:
        raise ValueError(f"Unrecognized function type for input: {type(fn)}")
    return {key: value, f"{key}_type": kind, f"{key}_module": fn.__module__}


def _function_from_config(config, custom_objects, key):
    value = config.pop(key)
    kind, module = config.pop(f"{key}_type"), config.pop(f"{key}_module", None)
    if kind == "lambda":
        return deserialize_keras_object(value, custom_objects=custom_objects)
    if kind == "function":
        found = (custom_objects or {}).get(value) or getattr(sys.modules.get(module), value, None)
        if found is None:
            raise ValueError(f"Unknown function {value!r} (module {module!r}); pass it in "
                             f"custom_objects.")
        return found
    raise TypeError(f"Unknown function type: {kind!r}")


# -- the base wrapper -----------------------------------------------------------------------------
class _RNNCellWrapper(DropoutRNNCell, Layer):
    """A layer around an RNN cell. (It is a DropoutRNNCell only so that `RNN` resets the wrapped
    cell's own dropout masks at each call, through reset_dropout_mask below.)"""

    _function_arguments = {}  # {config key of a function argument: the __init__ argument}

    def __init__(self, cell, **kwargs):
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise TypeError(f"{type(self).__name__}: cell must be an RNN cell (with `call` and "
                            f"`state_size`), got {cell!r}.")
        super().__init__(**kwargs)
        self.cell = cell

    @property
    def wrapped_cell(self):
        return self.cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return getattr(self.cell, "output_size", None)

    def build(self, input_shape):
        if isinstance(self.cell, Layer):
            self.cell._build_from_shape(input_shape)
        else:
            self.cell.build(input_shape)
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if batch_size is None and inputs is not None:
            batch_size = K.shape(inputs)[0]
        fn = getattr(self.cell, "get_initial_state", None)
        if fn is not None:
            return fn(batch_size=batch_size)
        return self.zero_state(batch_size, dtype or self._dtype)

    def zero_state(self, batch_size, dtype):
        sizes = self.state_size
        zeros = [K.zeros((batch_size, d), dtype=dtype) for d in nest.flatten(sizes)]
        return nest.pack_sequence_as(sizes, zeros) if nest.is_nested(sizes) else zeros[0]

    def reset_dropout_mask(self):
        if isinstance(self.cell, DropoutRNNCell):
            self.cell.reset_dropout_mask()

    def reset_recurrent_dropout_mask(self):
        if isinstance(self.cell, DropoutRNNCell):
            self.cell.reset_recurrent_dropout_mask()

    def _cell_call(self, inputs, state, **kwargs):
        cell = self.cell
        if "training" in kwargs and isinstance(cell, Layer) and not cell._takes_training():
            kwargs.pop("training")
        return cell.call(inputs, state, **kwargs)

    def call(self, inputs, state, **kwargs):
        return self._call_wrapped_cell(inputs, state, self._cell_call, **kwargs)

    def get_config(self):
        config = super().get_config()
        config["cell"] = {"class_name": type(self.cell).__name__,
                          "config": self.cell.get_config()}
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = config_with_objects(config, custom_objects, "cell")
        for key, argument in cls._function_arguments.items():
            if key in config:
                config[argument] = _function_from_config(config, custom_objects, key)
        return cls(config.pop("cell"), **config)


# -- dropout --------------------------------------------------------------------------------------
def _keep_prob(value, what):
    tensor = convert_to_tensor(value)
    const = constant_value(tensor)
    if const is None:
        return tensor
    if const < 0 or const > 1:
        raise ValueError(f"Parameter {what} must be between 0 and 1: {float(const)}")
    return float(const)


def _should_drop(keep_prob):
    return not isinstance(keep_prob, float) or keep_prob < 1


class DropoutWrapper(_RNNCellWrapper):
    """Dropout on the inputs, new states and outputs of one step of `cell` (tf.nn's
    RNNCellDropoutWrapper)."""

    _function_arguments = {"dropout_fn": "dropout_state_filter_visitor"}

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and \
                not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable")
        self._dropout_state_filter = dropout_state_filter_visitor or _default_state_filter
        self._input_keep_prob = _keep_prob(input_keep_prob, "input_keep_prob")
        self._state_keep_prob = _keep_prob(state_keep_prob, "state_keep_prob")
        self._output_keep_prob = _keep_prob(output_keep_prob, "output_keep_prob")
        self._variational_recurrent = variational_recurrent
        self._input_size, self._seed = input_size, seed
        self._noise = {"input": None, "state": None, "output": None}
        if variational_recurrent:
            self._make_noise(dtype, input_size)

    def _make_noise(self, dtype, input_size):
        if dtype is None:
            raise ValueError("When variational_recurrent=True, dtype must be provided")

        def noise(salt, sizes):
            shapes = [[1] + ([s] if isinstance(s, int) else list(s))
                      for s in nest.flatten(sizes)]
            return [random_uniform(s, dtype=dtype, seed=self._gen_seed(salt, i))
                    for i, s in enumerate(shapes)]
        if _should_drop(self._input_keep_prob):
            if input_size is None:
                raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or "
                                 "is unknown, input_size must be provided")
            self._noise["input"] = noise("input", input_size)
        self._noise["state"] = noise("state", self.cell.state_size)
        self._noise["output"] = noise("output", self.output_size)

    def _gen_seed(self, salt_prefix, index):
        if self._seed is None:
            return None
        string = (str(self._seed) + f"{salt_prefix}_{index}").encode("utf-8")
        return int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF

    def _dropout(self, values, salt, keep_prob, shallow=None):
        noise = self._noise[salt]

        def drop(i, flag, v):
            if isinstance(flag, bool) and not flag:
                return v
            if noise is not None:  # the same mask at every step: floor(keep + u)
                return v / keep_prob * floor(keep_prob + noise[i])
            return dropout_op(v, rate=1.0 - keep_prob, seed=self._gen_seed(salt, i))
        return _map_up_to(values if shallow is None else shallow, drop, values)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        if _should_drop(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if _should_drop(self._state_keep_prob):
            shallow = _traverse(self._dropout_state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._state_keep_prob, shallow)
        if _should_drop(self._output_keep_prob):
            output = self._dropout(output, "output", self._output_keep_prob)
        return output, new_state

    def get_config(self):
        config = super().get_config()
        config.update(input_keep_prob=self._input_keep_prob,
                      output_keep_prob=self._output_keep_prob,
                      state_keep_prob=self._state_keep_prob,
                      variational_recurrent=self._variational_recurrent,
                      input_size=self._input_size, seed=self._seed)
        if self._dropout_state_filter is not _default_state_filter:
            config.update(_function_config("dropout_fn", self._dropout_state_filter))
        return config


# -- residual and device --------------------------------------------------------------------------
def _default_residual(inputs, outputs):
    flat_in, flat_out = nest.flatten(inputs), nest.flatten(outputs)
    if len(flat_in) != len(flat_out):
        raise ValueError(f"ResidualWrapper: the cell's inputs and outputs must have the same "
                         f"structure, got {len(flat_in)} inputs and {len(flat_out)} outputs.")
    for a, b in zip(flat_in, flat_out):
        if not a.shape.is_compatible_with(b.shape):
            raise ValueError(f"ResidualWrapper: the cell's input shape {a.shape} and output "
                             f"shape {b.shape} must match to be added (give the cell as many "
                             f"units as input features, or pass residual_fn).")
    return nest.pack_sequence_as(outputs, [a + b for a, b in zip(flat_in, flat_out)]) \
        if nest.is_nested(outputs) else flat_in[0] + flat_out[0]


class ResidualWrapper(_RNNCellWrapper):
    """`cell` with its inputs added to its outputs (tf.nn's RNNCellResidualWrapper)."""

    _function_arguments = {"residual_fn": "residual_fn"}

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)
        return (self._residual_fn or _default_residual)(inputs, outputs), new_state

    def get_config(self):
        config = super().get_config()
        if self._residual_fn is not None:
            config.update(_function_config("residual_fn", self._residual_fn))
        return config


class DeviceWrapper(_RNNCellWrapper):
    """`cell` run under `tf.device(device)` (tf.nn's RNNCellDeviceWrapper)."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        if callable(self._device):  # a device function: one device, nothing to choose
            return cell_call_fn(inputs, state, **kwargs)
        with device_scope(self._device):
            return cell_call_fn(inputs, state, **kwargs)

    def get_config(self):
        config = super().get_config()
        config["device"] = self._device
        return config
