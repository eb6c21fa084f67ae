"""Every install of ops/ragged on framework/'s RaggedTensor: the class lives below the ops (every
layer can test for it), but these methods are ops.

Installed: the factory classmethods (from_row_splits, from_row_lengths, from_value_rowids,
from_row_starts, from_row_limits, from_uniform_row_length, the nested forms, from_tensor,
from_sparse), the partition queries (nrows, row_lengths, nested_row_lengths, value_rowids,
nested_value_rowids, row_starts, row_limits, bounding_shape, with_row_splits_dtype), the
conversions (to_tensor, to_sparse), merge_dims, __getitem__, and Python's operators
(+ - * / // % ** unary - abs, comparisons, & | ^ ~), which dispatch to the elementwise ops
(elementwise.py applies them to the flat values). And the ragged stand-ins of the dispatchable
public functions (framework/dispatch.py): the reductions, tf.gather, tf.boolean_mask, tf.concat,
tf.stack, tf.where, tf.shape, tf.strings.reduce_join and tf.strings.ngrams.
"""
from ...framework.dispatch import register_api
from ...framework.ragged_tensor import RaggedTensor
from .. import array_ops, indexing_ops, math_ops, query_ops, unary_ops
from ..io import strings as string_ops, substrings
from . import (dense_conversions, dynamic_shape, elementwise, factories, indexing, joining,
               merge_dims, partition_queries, reductions, selection, strings)

__all__ = []

_CLASSMETHODS = (factories.from_row_splits, factories.from_row_lengths,
                 factories.from_value_rowids, factories.from_row_starts,
                 factories.from_row_limits, factories.from_uniform_row_length,
                 factories.from_nested_row_splits, factories.from_nested_row_lengths,
                 factories.from_nested_value_rowids, dense_conversions.from_tensor,
                 dense_conversions.from_sparse)
_METHODS = (partition_queries.nrows, partition_queries.row_lengths,
            partition_queries.nested_row_lengths, partition_queries.value_rowids,
            partition_queries.nested_value_rowids, partition_queries.row_starts,
            partition_queries.row_limits, partition_queries.bounding_shape,
            partition_queries.with_row_splits_dtype, dense_conversions.to_tensor,
            dense_conversions.to_sparse, merge_dims.merge_dims)

for _fn in _CLASSMETHODS:
    setattr(RaggedTensor, _fn.__name__, classmethod(_fn))
for _fn in _METHODS:
    setattr(RaggedTensor, _fn.__name__, _fn)
RaggedTensor.__getitem__ = indexing.getitem

_BINARY = {"add": math_ops.add, "sub": math_ops.subtract, "mul": math_ops.multiply,
           "truediv": math_ops.divide, "floordiv": math_ops.floordiv, "mod": math_ops.floormod,
           "pow": math_ops.pow, "and": math_ops.logical_and, "or": math_ops.logical_or,
           "xor": math_ops.logical_xor}


def _operators(op):
    return (lambda self, other: op(self, other)), (lambda self, other: op(other, self))


for _name, _op in _BINARY.items():
    _forward, _reflected = _operators(_op)
    setattr(RaggedTensor, f"__{_name}__", _forward)
    setattr(RaggedTensor, f"__r{_name}__", _reflected)
for _name, _op in (("lt", math_ops.less), ("le", math_ops.less_equal),
                   ("gt", math_ops.greater), ("ge", math_ops.greater_equal)):
    setattr(RaggedTensor, f"__{_name}__", _operators(_op)[0])
RaggedTensor.__neg__ = lambda self: math_ops.negative(self)
RaggedTensor.__abs__ = lambda self: unary_ops.abs(self)
RaggedTensor.__invert__ = lambda self: math_ops.logical_not(self)
elementwise.register()


def _boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    if axis not in (None, 0):
        raise ValueError(f"tf.boolean_mask on a RaggedTensor takes axis=None or 0, got {axis}.")
    return selection.boolean_mask(tensor, mask, name)


_APIS = {**reductions.handlers(), indexing_ops.gather: selection.gather,
         indexing_ops.boolean_mask: _boolean_mask, array_ops.concat: joining.concat,
         array_ops.stack: joining.stack, array_ops.where: selection.where,
         query_ops.shape: dynamic_shape.ragged_shape, string_ops.reduce_join: strings.reduce_join,
         substrings.ngrams: strings.ngrams}
for _api, _handler in _APIS.items():
    register_api(_api, RaggedTensor, _handler)
