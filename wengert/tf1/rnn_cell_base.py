"""What every TensorFlow 1 recurrent cell (`tf.compat.v1.nn.rnn_cell`) shares: `RNNCell`, the base
that names and shares the cell's variables, its zero state, and `LSTMStateTuple`.

A cell maps `(inputs, state)` at one time step to `(output, new_state)`; `state_size` and
`output_size` are ints, `TensorShape`s or nested structures of them. The first call opens a
variable scope named for the cell (`basic_lstm_cell`, made unique within the enclosing scope, or
the `scope` the caller passes) and builds the cell's variables there with `get_variable`; every
later call re-enters that scope with reuse, so the cell shares one set of weights across time
steps, as TensorFlow 1's layers do. `zero_state(batch_size, dtype)` is zeros of shape
`[batch_size] + state_size` for each leaf of the state.
"""
import collections
import contextlib
import re

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..framework.tensor import convert_to_tensor
from ..graph.variable_scope import get_variable, variable_scope
from ..ops.query_ops import shape as dynamic_shape
from ..ops.creation_ops import zeros
from ..ops.misc_math_ops import softsign
from ..ops.nn.activations import elu, gelu, relu, relu6, selu, silu
from ..ops.unary_ops import exp, sigmoid, softplus, tanh
from ..util import nest

__all__ = ["RNNCell", "LSTMStateTuple", "assert_like_rnncell"]


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM's state: the memory cell `c` and the hidden output `h`, each `[batch, units]`."""
    __slots__ = ()

    @property
    def dtype(self):
        """The dtype of `c` and `h`; TypeError when they differ."""
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


def assert_like_rnncell(cell_name, cell):
    """TypeError naming what `cell` lacks of an RNN cell's interface."""
    checks = [(hasattr(cell, "output_size"), "'output_size' property is missing"),
              (hasattr(cell, "state_size"), "'state_size' property is missing"),
              (hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state"),
               "either 'zero_state' or 'get_initial_state' method is required"),
              (callable(cell), "is not callable")]
    errors = [message for ok, message in checks if not ok]
    if errors:
        raise TypeError(f"The argument {cell_name!r} ({cell}) is not an RNNCell: "
                        f"{', '.join(errors)}.")


def _leaf_shape(size):
    """A state or output size (int or shape) as a list of dimensions."""
    if isinstance(size, TensorShape):
        return size.as_list()
    if isinstance(size, (list, tuple)):
        return list(size)
    return [int(size)]


def _linear(x):
    return x


_ACTIVATIONS = {"tanh": tanh, "sigmoid": sigmoid, "relu": relu, "relu6": relu6, "elu": elu,
                "selu": selu, "gelu": gelu, "swish": silu, "silu": silu, "softplus": softplus,
                "softsign": softsign, "exponential": exp, "linear": _linear}


def activation_function(activation):
    """A cell's activation: tanh when None, a callable as given, or one named by a string
    ("relu", "sigmoid", ...) as TensorFlow's cells accept."""
    if activation is None:
        return tanh
    if callable(activation):
        return activation
    found = _ACTIVATIONS.get(activation) if isinstance(activation, str) else None
    if found is None:
        raise ValueError(f"Unknown activation function: {activation!r}; give a callable or one "
                         f"of {sorted(_ACTIVATIONS)}.")
    return found


def batch_zeros(batch_size, size, dtype):
    """Zeros of shape `[batch_size] + size` for each leaf of the nested `size`."""
    return nest.map_structure(lambda s: zeros([batch_size] + _leaf_shape(s), dtype), size)


def snake_case(class_name):
    """A class's name as TensorFlow names its layers: "BasicLSTMCell" -> "basic_lstm_cell"."""
    words = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", class_name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", words).lower()
    return "private" + name if name.startswith("_") else name


class RNNCell:
    """The base of TensorFlow 1's cells. Subclasses define `state_size`, `output_size`,
    `build(inputs_shape)` (which calls `add_variable`) and `call(inputs, state)`.

    trainable: whether the variables are trainable. name: the variable scope's base name
    (default: the class's name in snake case). dtype: the variables' dtype (default: the first
    inputs'). reuse: True to share variables of an existing scope."""

    def __init__(self, trainable=True, name=None, dtype=None, reuse=None, **kwargs):
        if kwargs:
            raise TypeError(f"{type(self).__name__}: unexpected keyword arguments "
                            f"{sorted(kwargs)}.")
        self.trainable = bool(trainable)
        self._name = name or snake_case(type(self).__name__)
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self._reuse = reuse
        self._scope = None
        self.built = False
        self._variables = []

    @property
    def name(self):
        """The cell's base name."""
        return self._name

    @property
    def dtype(self):
        """The dtype of the cell's variables (None until known)."""
        return self._dtype

    @property
    def state_size(self):
        """The size of the state: an int, a TensorShape or a nested structure of them."""
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        """The size of the output: an int or TensorShape."""
        raise NotImplementedError("Abstract method")

    @property
    def variables(self):
        """The variables the cell made, in the order it made them."""
        return list(self._variables)

    weights = variables

    @property
    def trainable_variables(self):
        """The cell's variables when it is trainable, else []."""
        return list(self._variables) if self.trainable else []

    trainable_weights = trainable_variables

    def build(self, inputs_shape):
        """Make the cell's variables for inputs of `inputs_shape` (the base makes none)."""

    def call(self, inputs, state):
        """One step: `(output, new_state)`."""
        raise NotImplementedError("Abstract method")

    def add_variable(self, name, shape, initializer=None, dtype=None):
        """`get_variable(name)` in the cell's scope, recorded as one of its variables."""
        variable = get_variable(name, shape=shape, dtype=dtype or self._dtype,
                                initializer=initializer, trainable=self.trainable)
        if all(variable is not v for v in self._variables):
            self._variables.append(variable)
        return variable

    add_weight = add_variable

    def __call__(self, inputs, state, scope=None):
        """`(output, new_state)` of one step, building the variables on the first call."""
        with self._built_scope(inputs, scope) as inputs:
            return self.call(inputs, state)

    @contextlib.contextmanager
    def _built_scope(self, inputs, scope=None, sequence=False):
        """Enter the cell's variable scope (opened on the first entry, under `scope` or the
        cell's name; with reuse once built) and yield `inputs` as tensors, building the
        variables on the first entry for one step of them (`sequence`: inputs are time major,
        one step is `inputs[0]`)."""
        if self._scope is None:
            with variable_scope(scope, default_name=self._name) as captured:
                self._scope = captured
        with variable_scope(self._scope, reuse=True if self.built else self._reuse,
                            auxiliary_name_scope=False):
            inputs = nest.map_structure(convert_to_tensor, inputs)
            if not self.built:
                first = nest.flatten(inputs)[0]
                if self._dtype is None:
                    self._dtype = first.dtype.base_dtype
                self.build(first.shape[1:] if sequence else first.shape)
                self.built = True
            yield inputs

    def zero_state(self, batch_size, dtype):
        """Zeros shaped `[batch_size] + s` for each size `s` of `state_size`."""
        return batch_zeros(batch_size, self.state_size, dtypes.as_dtype(dtype))

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """`zero_state`, with the batch size and dtype taken from `inputs` when given."""
        if inputs is not None:
            inputs = convert_to_tensor(inputs)
            static = inputs.shape[0] if inputs.shape.rank else None
            batch_size = static if static is not None else dynamic_shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError(f"{type(self).__name__}.get_initial_state: give `inputs`, or both "
                             f"`batch_size` and `dtype` (got batch_size={batch_size}, "
                             f"dtype={dtype}).")
        return self.zero_state(batch_size, dtype)


def check_inputs_shape(cell, inputs_shape):
    """The known last dimension of a cell's 2-D inputs; ValueError otherwise."""
    shape = TensorShape(inputs_shape)
    if shape.rank is not None and shape.rank != 2:
        raise ValueError(f"Input 0 of layer {cell.name} is incompatible with the layer: expected "
                         f"ndim=2, found ndim={shape.rank}. Full shape received: {shape}")
    if shape.rank is None or shape[-1] is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {shape}")
    return int(shape[-1])
