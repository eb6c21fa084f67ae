"""TensorFlow 1's cells made of cells: `MultiRNNCell` (a stack), `DropoutWrapper`,
`ResidualWrapper` and `DeviceWrapper` (`tf.compat.v1.nn.rnn_cell`).

MultiRNNCell feeds each cell's output to the next, under the scopes `multi_rnn_cell/cell_<k>`;
its state is the tuple of the cells' states (or their concatenation when `state_is_tuple=False`).
A wrapper adds no scope of its own: the wrapped cell's variables keep their names.
DropoutWrapper applies dropout with keep probability `p` (`x * floor(p + U[0,1)) / p`) to the
cell's inputs, outputs and new state; with `variational_recurrent` one mask, drawn when the
wrapper is made, serves every time step. By default an LSTM's memory `c` is not dropped, only `h`.
ResidualWrapper returns `inputs + output` (or `residual_fn(inputs, output)`).
"""
import numbers

from ..framework import dtypes
from ..framework.device import device
from ..graph.variable_scope import variable_scope
from ..ops.array_ops import concat
from ..ops.cast_ops import cast
from ..ops.query_ops import shape as dynamic_shape
from ..ops.nn.dropout import dropout
from ..ops.random.seeded import uniform
from ..ops.rounding_ops import floor
from ..util import nest
from .rnn_cell_base import LSTMStateTuple, RNNCell, assert_like_rnncell

__all__ = ["MultiRNNCell", "DropoutWrapper", "ResidualWrapper", "DeviceWrapper"]


class MultiRNNCell(RNNCell):
    """Cells stacked in order: the output of cell k is the input of cell k + 1."""

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError(f"cells must be a list or tuple, but saw: {cells}.")
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in self._cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple "
                             "is not set. State sizes are: "
                             f"{[c.state_size for c in self._cells]}")

    @property
    def state_size(self):
        sizes = tuple(cell.state_size for cell in self._cells)
        return sizes if self._state_is_tuple else sum(sizes)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    @property
    def variables(self):
        return [v for cell in self._cells for v in cell.variables]

    weights = variables

    @property
    def trainable_variables(self):
        return [v for cell in self._cells for v in cell.trainable_variables]

    trainable_weights = trainable_variables

    def zero_state(self, batch_size, dtype):
        if self._state_is_tuple:
            return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
        return super().zero_state(batch_size, dtype)

    def call(self, inputs, state):
        output, new_states, start = inputs, [], 0
        for k, cell in enumerate(self._cells):
            with variable_scope(f"cell_{k}"):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError(f"Expected state to be a tuple of length "
                                         f"{len(self.state_size)}, but received: {state}")
                    sub_state = state[k]
                else:
                    sub_state = state[:, start:start + cell.state_size]
                    start += cell.state_size
                output, sub_new = cell(output, sub_state)
                new_states.append(sub_new)
        if self._state_is_tuple:
            return output, tuple(new_states)
        return output, concat(new_states, 1)


class _Wrapper(RNNCell):
    """A cell around `cell`: same sizes and zero state, no variable scope of its own."""

    def __init__(self, cell):
        super().__init__()
        assert_like_rnncell("cell", cell)
        self._cell = cell

    @property
    def wrapped_cell(self):
        """The cell inside."""
        return self._cell

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    @property
    def variables(self):
        return self._cell.variables

    weights = variables

    @property
    def trainable_variables(self):
        return self._cell.trainable_variables

    trainable_weights = trainable_variables

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        return self._wrap(inputs, state, lambda i, s: self._cell(i, s, scope=scope))


def _keep_probability(name, value):
    """A keep probability in (0, 1]; ValueError otherwise."""
    if isinstance(value, numbers.Real) and not 0 < float(value) <= 1:
        raise ValueError(f"DropoutWrapper: parameter {name} must be between 0 and 1: {value}")
    return value


def _dropout_by_tensor(values, keep, seed):
    """Dropout with a keep probability known only when the graph runs (a placeholder):
    `values / keep * floor(keep + U[0, 1))`."""
    keep = cast(keep, values.dtype)
    noise = uniform(dynamic_shape(values), dtype=values.dtype, seed=seed)
    return values / keep * floor(keep + noise)


def _default_state_filter(substate):
    """Drop an LSTM's `h` but not its `c`; every other state."""
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return True


class DropoutWrapper(_Wrapper):
    """Dropout on a cell's inputs, outputs and state, with keep probabilities (floats or scalar
    tensors). variational_recurrent: one mask for all time steps (then `input_size`, the depth of
    the inputs, is needed when `input_keep_prob < 1`, and `dtype`). seed: the random seed.
    dropout_state_filter_visitor: maps a substate to True/False (or a structure of them) to say
    which parts of the state are dropped."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell)
        if kwargs:
            raise TypeError(f"DropoutWrapper: unexpected keyword arguments {sorted(kwargs)}.")
        if dropout_state_filter_visitor is not None and \
                not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable. "
                            f"Received: {dropout_state_filter_visitor}")
        self._keep = {name: _keep_probability(name, value) for name, value in
                      (("input_keep_prob", input_keep_prob),
                       ("output_keep_prob", output_keep_prob),
                       ("state_keep_prob", state_keep_prob))}
        self._variational = variational_recurrent
        self._seed = seed
        self._filter = dropout_state_filter_visitor or _default_state_filter
        self._masks = {}
        if variational_recurrent:
            self._variational_masks(input_size, dtype)

    def _variational_masks(self, input_size, dtype):
        """One `[1, size]` mask per leaf, kept for every time step."""
        if dtype is None:
            raise ValueError("When variational_recurrent=True, dtype must be provided")
        dtype = dtypes.as_dtype(dtype)
        if self._active("input_keep_prob"):
            if input_size is None:
                raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or "
                                 "is unknown, input_size must be provided")
            self._masks["input"] = self._mask_structure(input_size, "input_keep_prob", dtype)
        self._masks["state"] = self._mask_structure(self._cell.state_size, "state_keep_prob",
                                                    dtype)
        self._masks["output"] = self._mask_structure(self._cell.output_size,
                                                     "output_keep_prob", dtype)

    def _mask_structure(self, sizes, which, dtype):
        keep = self._keep[which]
        return nest.map_structure(
            lambda s: floor(keep + uniform([1, int(s)], dtype=dtype, seed=self._seed)), sizes)

    def _active(self, which):
        """Whether dropout of this kind can drop anything (a tensor probability always can)."""
        keep = self._keep[which]
        return not (isinstance(keep, numbers.Real) and float(keep) == 1.0)

    def _drop(self, values, which, kind):
        """`values` with dropout; `kind` picks the variational masks."""
        keep = self._keep[which]
        if self._variational:
            return nest.map_structure(lambda v, m: v * m / keep, values, self._masks[kind])
        if isinstance(keep, numbers.Real):
            return nest.map_structure(lambda v: dropout(v, rate=1 - keep, seed=self._seed),
                                      values)
        return nest.map_structure(lambda v: _dropout_by_tensor(v, keep, self._seed), values)

    def _drop_state(self, state):
        """The state with dropout on the parts the filter selects."""
        if self._variational:
            return self._drop(state, "state_keep_prob", "state")
        return self._filtered(state, self._filter(state))

    def _filtered(self, state, selection):
        if selection is True:
            if nest.is_nested(state):
                parts = [self._filtered(s, self._filter(s)) for s in state]
                return type(state)(*parts) if hasattr(state, "_fields") else type(state)(parts)
            return self._drop(state, "state_keep_prob", "state")
        if selection is False:
            return state
        parts = [self._filtered(s, bool(k)) for s, k in zip(state, selection)]
        return type(state)(*parts) if hasattr(state, "_fields") else type(state)(parts)

    def _wrap(self, inputs, state, call):
        if self._active("input_keep_prob"):
            inputs = self._drop(inputs, "input_keep_prob", "input")
        output, new_state = call(inputs, state)
        if self._active("state_keep_prob"):
            new_state = self._drop_state(new_state)
        if self._active("output_keep_prob"):
            output = self._drop(output, "output_keep_prob", "output")
        return output, new_state


class ResidualWrapper(_Wrapper):
    """The cell's output plus its inputs: `residual_fn(inputs, output)`, by default their sum
    leaf by leaf (the two must have the same structure and shapes)."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell)
        if kwargs:
            raise TypeError(f"ResidualWrapper: unexpected keyword arguments {sorted(kwargs)}.")
        self._residual_fn = residual_fn

    def _wrap(self, inputs, state, call):
        output, new_state = call(inputs, state)
        if self._residual_fn is not None:
            return self._residual_fn(inputs, output), new_state
        nest.assert_same_structure(inputs, output)

        def add(i, o):
            if i.shape.rank is not None and o.shape.rank is not None and \
                    not i.shape.is_compatible_with(o.shape):
                raise ValueError(f"ResidualWrapper: the inputs of shape {i.shape} and the "
                                 f"cell's output of shape {o.shape} must have the same shape; "
                                 "give a residual_fn that matches them.")
            return i + o
        return nest.map_structure(add, inputs, output), new_state


class DeviceWrapper(_Wrapper):
    """The cell, its ops built under `tf.device(device)` (wengert's one device is the CPU; other
    names need soft device placement, as TensorFlow's placement does)."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell)
        if kwargs:
            raise TypeError(f"DeviceWrapper: unexpected keyword arguments {sorted(kwargs)}.")
        self._device = device

    @property
    def device(self):
        """The device named when the wrapper was made."""
        return self._device

    def _wrap(self, inputs, state, call):
        with device(self._device):
            return call(inputs, state)
