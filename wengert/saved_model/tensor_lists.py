"""TensorFlow's TensorList ops, as a SavedModel's functions use them (tf.TensorArray in a loop,
Keras' recurrent layers), lowered to wengert's TensorArray flow: a dense tensor
[num_elements, *element_shape] whose rows are the list's elements (ops/io/tensor_arrays.py), so
the same scatter and gather ops carry the values and their gradients.

    TensorListReserve(element_shape, num_elements)   zeros [n, *element_shape], an unknown
        dimension (-1) held as 1 until a write gives the element's real shape
    EmptyTensorList(element_shape, max_num_elements)  the same with no rows, grown by pushes
    TensorListFromTensor(tensor, element_shape)       the tensor itself
    TensorListGetItem(list, index, element_shape)     row `index`
    TensorListSetItem(list, index, item)              the list broadcast to the item's shape
        (a no-op once written), then row `index` replaced (grown to hold it with
        resize_if_index_out_of_bounds, as a dynamic-size tf.TensorArray writes)
    TensorListPushBack(list, tensor)                  the same, one row appended
    TensorListStack(list, element_shape)              the flow itself
    TensorListLength(list)                            its number of rows

Broadcasting (not a kernel that swaps an empty flow for a wider one) keeps every step
differentiable: the gradient of the widening sums back to the reserved shape, inside a While
loop too. A list reserved with unknown dimensions and never written reads as zeros with those
dimensions 1 (TensorFlow's would take the shape the reader asks for).

A list is a tensor here (TensorFlow's DT_VARIANT handle): a While loop carries it as a loop
variable whose shape may change (function_import.py gives it an unknown shape invariant).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import UnimplementedError
from ..ops.array_ops import concat
from ..ops.broadcast_ops import broadcast_to
from ..ops.cast_ops import cast
from ..framework.tensor import constant
from ..ops.creation_ops import ones, zeros
from ..ops.io.tensor_arrays import TENSOR_LIST_GET_ITEM, get_rows, scatter_rows
from ..ops.math_ops import maximum
from ..ops.reshape_ops import expand_dims, reshape
from ..ops.query_ops import rank, shape as shape_of
from ..ops.shape_ops import get_static_value

__all__ = ["LIST_OPS", "LIST_OUTPUTS"]


def _element_dims(element_shape):
    """The element shape with unknown dimensions as 1: a list, or a tensor when not static."""
    static = get_static_value(element_shape)
    if static is not None:
        dims = np.asarray(static).reshape(-1).tolist()
        return [] if np.ndim(static) == 0 else [1 if int(d) < 0 else int(d) for d in dims]
    return maximum(element_shape, 1)


def _zeros(rows, element_shape, dtype):
    dims = _element_dims(element_shape)
    count = get_static_value(rows)
    if count is not None and isinstance(dims, list):
        return zeros([int(count)] + dims, dtype)
    dims = constant(dims, dtypes.int32) if isinstance(dims, list) else cast(dims, dtypes.int32)
    return zeros(concat([expand_dims(cast(rows, dtypes.int32), 0), dims], 0), dtype)


def _reserve(node, inputs):
    element_shape, count = inputs
    static = get_static_value(count)
    if static is not None and int(static) < 0:
        raise UnimplementedError(f"TensorListReserve node '{node.name}': a list of unknown "
                                 "length is not supported.")
    return _zeros(count, element_shape, dtypes.as_dtype(node.attr["element_dtype"].type))


def _empty(node, inputs):
    return _zeros(0, inputs[0], dtypes.as_dtype(node.attr["element_dtype"].type))


def _widened(flow, item):
    """The flow broadcast to rows of the item's shape (itself when they are known equal); a
    flow of lower rank (reserved with an unknown element rank) first gets dimensions of 1."""
    if flow.shape.rank is not None and item.shape.is_fully_defined() and \
            flow.shape[1:].is_fully_defined() and flow.shape[1:] == item.shape:
        return flow
    have, want = shape_of(flow, out_type=dtypes.int32), shape_of(item, out_type=dtypes.int32)
    padding = ones(expand_dims(rank(item) + 1 - rank(flow), 0), dtypes.int32)
    flow = reshape(flow, concat([have[:1], padding, have[1:]], 0))
    return broadcast_to(flow, concat([have[:1], want], 0))


def _set_item(node, inputs):
    flow, index, item = inputs
    grow = "resize_if_index_out_of_bounds" in node.attr and \
        node.attr["resize_if_index_out_of_bounds"].b
    return scatter_rows(_widened(flow, item), expand_dims(index, 0), expand_dims(item, 0),
                        grow=grow)


def _push_back(node, inputs):
    flow, item = inputs
    flow = _widened(flow, item)
    return scatter_rows(flow, expand_dims(shape_of(flow)[0], 0), expand_dims(item, 0),
                        grow=True)


LIST_OPS = {
    "TensorListReserve": _reserve,
    "EmptyTensorList": _empty,
    "TensorListFromTensor": lambda node, inputs: inputs[0],
    TENSOR_LIST_GET_ITEM.type: lambda node, inputs: get_rows(inputs[0], inputs[1]),
    "TensorListSetItem": _set_item,
    "TensorListPushBack": _push_back,
    "TensorListStack": lambda node, inputs: inputs[0],
    "TensorListLength": lambda node, inputs: shape_of(inputs[0])[0],
}

# Their output arguments, as TensorFlow's op definitions name them (one each).
LIST_OUTPUTS = {"TensorListReserve": [["handle", "t"]], "EmptyTensorList": [["handle", "t"]],
                "TensorListFromTensor": [["output_handle", "t"]],
                TENSOR_LIST_GET_ITEM.type: [["item", "t"]], "TensorListSetItem": [["output_handle", "t"]],
                "TensorListPushBack": [["output_handle", "t"]],
                "TensorListStack": [["tensor", "t"]], "TensorListLength": [["length", "t"]]}
