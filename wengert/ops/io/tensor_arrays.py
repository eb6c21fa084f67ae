"""`tf.TensorArray`: a list of same-shaped tensors that loops write and read, differentiably.

A TensorArray holds its elements as one dense tensor, its *flow*, of shape [size, *element_shape]
(entries never written are zeros, as TensorFlow's `stack` shows them). Writing and reading are
ops on the flow, so the same code runs eagerly, in graphs and inside `while_loop` (which carries
the flow as a loop variable, with an unknown first dimension when the array grows), and tapes and
`gradients()` differentiate through them:

    TensorListScatterIntoExistingList(flow, indices, values)   rows `indices` replaced by
        `values` (grown with zero rows past the end when the array is dynamic). Its gradient:
        the incoming gradient with those rows zeroed (cut to the input's length) for the flow,
        and its rows at `indices` for the values; linear in flow and values (JVP).
    TensorListGetItem(flow, index)   the row `index` (OutOfRangeError past the end). Its
        gradient scatters the incoming gradient into zeros shaped like the flow.
    TensorListClearRows(grad, indices, flow)   (wengert's own) the gradient of a write to a
        growing array for its flow: grad's first len(flow) rows with rows `indices` zeroed.

A growing array appends in amortized constant time (tensor_array_growth.py): the flow after an
append is a view of a buffer with spare rows, and so is the gradient of the flow before it, so a
loop writing N elements costs O(N) time and its kept history O(N) memory, forward and backward.

`write(i, v)` is a scatter of one row, `unstack`/`scatter`/`split` scatter many, `read`,
`gather` and `stack` read rows. Eagerly a TensorArray changes in place and `write` returns it (as
TensorFlow's eager arrays do); in graphs each write returns a new TensorArray, so loops must use
the returned one (`ta = ta.write(i, v)`), as in TensorFlow.

The constructor's options follow TensorFlow 2's arrays: `name` scopes the ops that create the
flow; `infer_shape=False` leaves `element_shape` as given (unknown unless given) instead of
taking the first write's, but elements of different shapes, which TensorFlow's list can hold,
are refused (they do not fit one dense flow); `handle` is TensorFlow's ValueError eagerly;
`tensor_array_name` and `colocate_with_first_write_call` are unused by TensorFlow 2's arrays.
"""
import numpy as np

from ...framework import dtypes
from ...framework.context import op_scope, state
from ...framework.errors import InvalidArgumentError, OutOfRangeError
from ...framework.execute import execute
from ...framework.registry import defop, linear_in
from ...framework.tensor import Tensor, array_of, convert_to_tensor, is_eager_tensor
from ...framework.tensor_shape import TensorShape
from ...util import nest
from . import tensor_array_growth as growth
from ..array_ops import concat
from ..broadcast_ops import zeros_like
from ..creation_ops import range as range_, shape as shape_of, zeros
from ..math_ops import cast
from ..reshape_ops import expand_dims, reshape

__all__ = ["TensorArray", "as_flows"]


# -- the two ops -------------------------------------------------------------------------------------
def _zeros(shape, dtype):
    """Unwritten elements: zeros, or empty strings in a string array (TensorFlow's zeros)."""
    if np.dtype(dtype) == object:
        return np.full(shape, b"", dtype=object)
    return np.zeros(shape, dtype)


def _scatter_kernel(flow, indices, values, *, grow):
    indices = np.asarray(indices).reshape(-1).astype(np.int64)
    values = np.asarray(values)
    n = flow.shape[0] if flow.ndim else 0
    if flow.size == 0 and flow.shape[1:] != values.shape[1:]:  # element shape set by a write
        flow = _zeros((n,) + values.shape[1:], values.dtype)
    if values.shape[1:] != flow.shape[1:]:
        raise InvalidArgumentError(f"TensorArray: incompatible shape for value "
                                   f"{values.shape[1:]}, expected {flow.shape[1:]}.")
    if len(indices) and (indices.min() < 0 or (indices.max() >= n and not grow)):
        bad = int(indices.max() if indices.min() >= 0 else indices.min())
        raise OutOfRangeError(f"Tried to write to index {bad} but array is not resizeable and "
                              f"size is: {n}")
    size = max(n, int(indices.max()) + 1) if len(indices) else n
    if grow and len(indices) and indices.min() >= n:  # an append: amortized O(rows written)
        return growth.append(flow, n, size, indices, values.astype(flow.dtype, copy=False))
    out = _zeros((size,) + flow.shape[1:], flow.dtype)
    out[:n] = flow
    out[indices] = values
    return out


def _scatter_rule(flow, indices, values, *, grow):
    element = values.shape[1:] if values.shape.rank is not None else TensorShape(None)
    if flow.shape.rank is not None and values.shape.rank is not None and \
            flow.shape.rank == values.shape.rank and not any(d == 0 for d in flow.shape[1:]):
        if not flow.shape[1:].is_compatible_with(element):
            raise InvalidArgumentError(f"TensorArray: incompatible shape for value {element}, "
                                       f"expected {flow.shape[1:]}.")
    first = flow.shape[0] if flow.shape.rank and not grow else None
    return TensorShape([first]).concatenate(element), values.dtype


def _scatter_grad(op, grad):
    flow, indices, values = op.inputs
    if op.get_attr("grow"):  # the first rows of grad, those written zeroed: a view for appends
        cleared = execute(TENSOR_LIST_CLEAR_ROWS, (grad, indices, flow))
    else:
        cleared = scatter_rows(grad, indices, zeros_like(values), grow=False)
    return cleared, None, get_rows(grad, indices)


def _clear_rows_kernel(grad, indices, like):
    """grad's first len(like) rows with rows `indices` zeroed: a view of grad when no index
    falls among them (an append's gradient), so a loop of N appends differentiates in O(N)."""
    n = like.shape[0] if like.ndim else 0
    indices = np.asarray(indices).reshape(-1)
    inside = indices[indices < n]
    if not len(inside):
        return grad[:n]
    out = grad[:n].copy()
    out[inside] = 0
    return out


def _clear_rows_rule(grad, indices, like):
    first = like.shape[0] if like.shape.rank else None
    rest = grad.shape[1:] if grad.shape.rank is not None else TensorShape(None)
    return TensorShape([first]).concatenate(rest), grad.dtype


def _clear_rows_grad(op, g):
    """The transpose: g in the first rows of zeros shaped like grad, rows `indices` zeroed."""
    grad, indices, like = op.inputs
    padded = scatter_rows(zeros_like(grad), range_(shape_of(like)[0]), g, grow=False)
    return execute(TENSOR_LIST_CLEAR_ROWS, (padded, indices, grad)), None, None


def _get_kernel(flow, index):
    """Rows `index` of the flow; an index outside it is TensorListGetItem's (a read) or
    TensorListGather's InvalidArgumentError, as when TensorFlow runs a traced array's ops (an
    eager array's read checks first and raises OutOfRangeError, as TensorFlow's eager one does)."""
    index = np.asarray(index)
    n = flow.shape[0] if flow.ndim else 0
    if np.any(index >= n) or np.any(index < 0):
        bad = int(np.max(index) if np.all(index >= 0) else np.min(index))
        verb = "access" if index.ndim == 0 else "gather"
        raise InvalidArgumentError(f"Trying to {verb} element {bad} in a list with {n} "
                                   "elements.")
    return flow[index]


def _check_eager_read(flow, index):
    """TensorFlow's eager TensorArray.read errors: OutOfRangeError for a negative index or one
    past the end."""
    if not (is_eager_tensor(flow) and (is_eager_tensor(index) or not isinstance(index, Tensor))):
        return
    at = np.asarray(array_of(index) if isinstance(index, Tensor) else index)
    rows = array_of(flow)
    if at.ndim:
        return
    at, n = int(at), (rows.shape[0] if rows.ndim else 0)
    if at < 0:
        raise OutOfRangeError(f"Reading from negative indices (index {at}) is not allowed.")
    if at >= n:
        raise OutOfRangeError(f"Tried to read from index {at} but array size is: {n}")


def _get_rule(flow, index):
    if flow.shape.rank is None:
        return TensorShape(None), flow.dtype
    return index.shape.concatenate(flow.shape[1:]), flow.dtype


def _get_grad(op, grad):
    flow, index = op.inputs
    if index.shape.rank == 0:  # one row read: scatter it back as a batch of one
        index, grad = reshape(index, [1]), expand_dims(grad, 0)
    return scatter_rows(zeros_like(flow), index, grad, grow=False), None


def _set_shape_kernel(flow, *, element_shape):
    if flow.size == 0 and flow.shape[1:] != tuple(element_shape):
        return _zeros((flow.shape[0],) + tuple(element_shape), flow.dtype)
    return flow


def _set_shape_rule(flow, *, element_shape):
    first = flow.shape[0] if flow.shape.rank else None
    return TensorShape([first] + list(element_shape)), flow.dtype


# An array created without an element shape gets it from its first write; before a graph loop
# that writes it, the loop fixes the shape with this op (the array holds no values yet, so it
# has no gradient).
TENSOR_LIST_SET_ELEMENT_SHAPE = defop("TensorListSetElementShape", _set_shape_kernel,
                                      shape=_set_shape_rule, grad=None)


def with_element_shape(array, element_shape):
    """`array` (whose element shape was unknown) with elements of `element_shape`."""
    flow = execute(TENSOR_LIST_SET_ELEMENT_SHAPE, (array.flow,),
                   {"element_shape": tuple(element_shape)})
    return TensorArray(array.dtype, dynamic_size=array.dynamic_size,
                       element_shape=element_shape, flow=flow)


# (raw: tf.raw_ops' arguments, `input_handle` a TensorArray or its flow, TensorFlow's list)
TENSOR_LIST_SCATTER = defop("TensorListScatterIntoExistingList", _scatter_kernel,
                            shape=_scatter_rule, grad=_scatter_grad, jvp=linear_in(0, 2),
                            returns_view=True,  # an append shares the flow's buffer (growth)
                            raw=lambda input_handle, tensor, indices, name=None: scatter_rows(
                                getattr(input_handle, "flow", input_handle), indices,
                                convert_to_tensor(tensor), grow=False))
# wengert's own op (TensorFlow's gradient of a write is TensorListScatter's own bookkeeping)
TENSOR_LIST_CLEAR_ROWS = defop("TensorListClearRows", _clear_rows_kernel, shape=_clear_rows_rule,
                               grad=_clear_rows_grad, jvp=linear_in(0), returns_view=True)
TENSOR_LIST_GET_ITEM = defop("TensorListGetItem", _get_kernel, shape=_get_rule, grad=_get_grad,
                             jvp=linear_in(0),
                             raw=lambda input_handle, index, element_shape, element_dtype,
                             name=None: execute(TENSOR_LIST_GET_ITEM, (
                                 convert_to_tensor(getattr(input_handle, "flow", input_handle)),
                                 convert_to_tensor(index, dtype_hint=dtypes.int32)), name=name))


def scatter_rows(flow, indices, values, grow):
    indices = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    return execute(TENSOR_LIST_SCATTER, (flow, indices, values), {"grow": bool(grow)})


def get_rows(flow, index):
    return execute(TENSOR_LIST_GET_ITEM, (flow, convert_to_tensor(index,
                                                                  dtype_hint=dtypes.int32)))


def _written(flow):
    """Whether the flow's rows have their element shape yet (a first write sets it)."""
    dims = flow.shape.as_list()[1:] if flow.shape.rank is not None else None
    return dims is not None and not (dims == [0] or 0 in dims)


def _flow_shape(size, dims):
    """[size, *dims] as a shape: a list when `size` is known now, else a tensor computed when
    the graph runs (a TensorArray sized by `tf.shape(x)[0]` while tracing)."""
    if is_eager_tensor(size) or not isinstance(size, Tensor):
        return [int(np.asarray(getattr(size, "_value", size)))] + dims
    count = reshape(cast(size, dtypes.int32), [1])
    return concat([count, convert_to_tensor(np.asarray(dims, np.int32))], 0)


# -- TensorArray ------------------------------------------------------------------------------------
class TensorArray:
    """A list of tensors of one dtype and element shape (see the module docstring)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        del tensor_array_name, colocate_with_first_write_call  # TensorFlow 2 ignores both
        if handle is not None and state.graph is None:
            raise ValueError("TensorArray handles are not supported when eager execution is "
                             "enabled.")
        self._infer_shape = bool(infer_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic = bool(dynamic_size)
        self._clear_after_read = clear_after_read
        self._element_shape = TensorShape(element_shape) if element_shape is not None \
            else TensorShape(None)
        if flow is None:
            if size is None:
                raise ValueError("TensorArray: size must be given (0 with dynamic_size=True for "
                                 "an array that grows).")
            dims = self._element_shape.as_list() if self._element_shape.rank is not None else [0]
            with op_scope(name, "TensorArrayV2"):
                flow = zeros(_flow_shape(size, [0 if d is None else d for d in dims]),
                             self._dtype)
        self._flow = flow

    # -- what it is ------------------------------------------------------------------------------
    @property
    def flow(self):
        return self._flow

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic

    @property
    def element_shape(self):
        if not self._infer_shape:
            return self._element_shape
        shape = self._flow.shape
        if shape.rank is not None and not (0 in shape.as_list()[1:] and
                                           self._element_shape.rank is None):
            return shape[1:]
        return self._element_shape

    def size(self, name=None):
        """The number of elements (an int32 scalar tensor)."""
        return cast(shape_of(self._flow)[0], dtypes.int32)

    def _with(self, flow):
        if state.graph is None:  # eagerly, the array itself changes (TensorFlow's eager arrays)
            self._flow = flow
            return self
        out = TensorArray(self._dtype, dynamic_size=self._dynamic,
                          clear_after_read=self._clear_after_read, infer_shape=self._infer_shape,
                          element_shape=self._element_shape, flow=flow)
        return out

    def _value(self, value, what):
        value = convert_to_tensor(value, dtype=self._dtype)
        expected = self.element_shape
        if what == "write" and expected.rank is not None and value.shape.rank is not None and \
                not expected.is_compatible_with(value.shape):
            raise ValueError(f"TensorArray.write: incompatible shape for value "
                             f"({tuple(value.shape)}), expected ({tuple(expected)}).")
        held = self._flow.shape[1:]
        if not self._infer_shape and _written(self._flow) and value.shape.rank is not None \
                and held.rank is not None and not held.is_compatible_with(value.shape):
            raise ValueError(f"TensorArray(infer_shape=False).write: an element of shape "
                             f"{tuple(value.shape)} after elements of shape {tuple(held)}: "
                             "elements of different shapes are not supported here (the "
                             "array holds them as one dense tensor); give them one shape.")
        return value

    # -- writing ---------------------------------------------------------------------------------
    def write(self, index, value, name=None):
        """Element `index` set to `value`; returns the TensorArray to use from now on."""
        value = self._value(value, "write")
        index = convert_to_tensor(index, dtype_hint=dtypes.int32)
        return self._with(scatter_rows(self._flow, reshape(index, [1]), expand_dims(value, 0),
                                       self._dynamic))

    def scatter(self, indices, value, name=None):
        """Elements `indices` set to the rows of `value`."""
        value = convert_to_tensor(value, dtype=self._dtype)
        return self._with(scatter_rows(self._flow, indices, value, self._dynamic))

    def unstack(self, value, name=None):
        """The rows of `value` as the elements."""
        value = convert_to_tensor(value, dtype=self._dtype)
        return self._with(scatter_rows(self._flow, range_(shape_of(value)[0]), value, True))

    def split(self, value, lengths, name=None):
        """`value` cut along its first dimension into pieces of `lengths` (equal lengths:
        elements must share one shape here)."""
        value = convert_to_tensor(value, dtype=self._dtype)
        lengths = np.asarray(getattr(lengths, "_value", lengths)).reshape(-1)
        if len(set(lengths.tolist())) > 1:
            raise InvalidArgumentError(f"TensorArray.split: pieces of different lengths "
                                       f"{lengths.tolist()} are not supported (elements share "
                                       "one shape here); split into equal lengths.")
        count, each = len(lengths), int(lengths[0]) if len(lengths) else 0
        rows = reshape(value, [count, each] + value.shape.as_list()[1:])
        return self.unstack(rows)

    # -- reading ---------------------------------------------------------------------------------
    def read(self, index, name=None):
        """Element `index` (OutOfRangeError past the end eagerly, InvalidArgumentError when a
        traced function runs, as TensorFlow's)."""
        _check_eager_read(self._flow, index)
        return get_rows(self._flow, index)

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        return get_rows(self._flow, indices)

    def stack(self, name=None):
        """All elements stacked along a new first dimension."""
        return self._flow

    def concat(self, name=None):
        """All elements concatenated along their first dimension."""
        shape = self._flow.shape
        if shape.rank is not None and shape.rank < 2:
            raise ValueError("TensorArray.concat: elements must have at least one dimension.")
        rest = shape.as_list()[2:] if shape.rank is not None else []
        if any(d is None for d in rest):
            raise ValueError("TensorArray.concat needs known element dimensions after the first.")
        return reshape(self._flow, [-1] + rest)

    def identity(self):
        return self._with(self._flow)

    def close(self, name=None):
        return None

    def grad(self, source, flow=None, name=None):
        """TensorFlow 1's gradient TensorArray: wengert differentiates TensorArrays through
        their ops (GradientTape, tf.gradients), so there is none to make."""
        if state.graph is None:
            raise NotImplementedError(
                "TensorArray.grad is not supported when executing eagerly; eager's gradient "
                "implementation does not use/need this function to compute gradients of "
                "operations that use TensorArrays.")
        raise NotImplementedError(
            "TensorArray.grad: wengert's TensorArrays are differentiated through their ops "
            "(tf.gradients or GradientTape give the gradients of reads and writes); it has no "
            f"gradient TensorArray for source {source!r}.")

    def __repr__(self):
        return f"<tf.TensorArray dtype={self._dtype.name} flow shape={self._flow.shape}>"


# -- carrying TensorArrays through while_loop ---------------------------------------------------------
def as_flows(structure):
    """(structure with each TensorArray replaced by its flow, rebuild) where rebuild(values)
    puts TensorArrays back around the flows; rebuild is None when there is no TensorArray."""
    leaves = nest.flatten(structure)
    arrays = {i: v for i, v in enumerate(leaves) if isinstance(v, TensorArray)}
    if not arrays:
        return structure, None
    flat = [v.flow if i in arrays else v for i, v in enumerate(leaves)]

    def rebuild(values):
        values = nest.flatten(values)
        out = [TensorArray(arrays[i].dtype, dynamic_size=arrays[i].dynamic_size,
                           element_shape=arrays[i]._element_shape, flow=v) if i in arrays
               else v for i, v in enumerate(values)]
        return nest.pack_sequence_as(structure, out)
    packed = nest.pack_sequence_as(structure, flat) if nest.is_nested(structure) else flat[0]
    return packed, rebuild


def flows_of(structure):
    """`structure` with TensorArrays replaced by their flows (a body's return value)."""
    leaves = [v.flow if isinstance(v, TensorArray) else v for v in nest.flatten(structure)]
    return nest.pack_sequence_as(structure, leaves) if nest.is_nested(structure) else leaves[0]


def flow_invariant(value):
    """The shape invariant of a TensorArray's flow in a loop: any number of rows."""
    shape = value.flow.shape
    if shape.rank is None or value.element_shape.rank is None:  # set by the first write
        return TensorShape(None)
    return TensorShape([None]).concatenate(shape[1:])

