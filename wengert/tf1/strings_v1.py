"""TensorFlow 1's `tf.strings.split` and `tf.strings.length`, as `tf.compat.v1.strings` has them.

    split(input, sep, maxsplit, result_type="SparseTensor", source, name)
        each string of `input` (or `source`, its old name; a scalar is taken as a vector of
        one) split at `sep` (runs of whitespace when None), at most `maxsplit` times; the
        pieces as a SparseTensor [strings, pieces] by default, as TF 1 gave them, or as a
        RaggedTensor (result_type="RaggedTensor"): TensorFlow 2's split (ops/ragged/strings.py)
        with TF 1's result.
    length(input, name, unit)           TF 1's order of the arguments"""
from ..framework import dtypes
from ..framework.context import op_scope
from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor import convert_to_tensor
from ..ops.io import strings as _strings
from ..ops.ragged import strings as _ragged_strings
from ..ops.reshape_ops import expand_dims
from .renamed_arguments import either

__all__ = ["length", "split"]


def split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor",  # noqa: A002 (TF's)
          source=None, name=None):
    """The strings split into pieces (see the module)."""
    input = either("input", input, "source", source)  # noqa: A001
    with op_scope(name, "StringSplit"):
        if not isinstance(input, RaggedTensor):
            input = convert_to_tensor(input, dtypes.string, name="input")  # noqa: A001
            if input.shape.rank == 0:
                input = expand_dims(input, 0)  # noqa: A001
        pieces = _ragged_strings.split(input, sep=sep, maxsplit=maxsplit)
        if result_type == "SparseTensor":
            return pieces.to_sparse()
        if result_type == "RaggedTensor":
            return pieces
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")


def length(input, name=None, unit="BYTE"):  # noqa: A002 (TF's name)
    """The length of each string, in bytes or (unit="UTF8_CHAR") characters."""
    return _strings.length(input, unit, name)
