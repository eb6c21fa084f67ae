"""Keras 3 operations that appear as nodes of saved functional models, rebuilt as layers.

Keras 3 records some tensor operations between layers as nodes of their own: the mask an
Embedding(mask_zero=True) hands an RNN is `NotEqual(ids, 0)`, `x + y` on symbolic tensors is
`Add`. Each class here takes the operation's config ({"name": ...}) and computes it with
wengert's ops: NotEqual, Equal, Add, Subtract, Multiply, Divide, TrueDivide, Matmul, Cast,
ExpandDims, Squeeze, Transpose, Reshape, Mean, Sum.
"""
import numpy as np

from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from ..layers.base import Layer
from ..layers.keras_tensor import KerasTensor

__all__ = ["NotEqual", "Equal", "Add", "Subtract", "Multiply", "Divide", "TrueDivide", "Matmul",
           "Cast", "ExpandDims", "Squeeze", "Transpose", "Reshape", "Mean", "Sum"]


class _Operation(Layer):
    """A Keras operation node: call(x, *args) computes `_fn` (no weights)."""

    _fn = None
    _bool_output = False
    _keras_module = "keras.src.ops.numpy"

    @property
    def _keras_registered_name(self):
        return type(self).__name__

    def __init__(self, name=None, **kwargs):
        self._op_kwargs = {k: v for k, v in kwargs.items() if k not in ("trainable", "dtype")}
        super().__init__(name=name, trainable=kwargs.get("trainable", True),
                         dtype=kwargs.get("dtype"), autocast=False)

    @property
    def _symbolic_output_dtype(self):
        return "bool" if self._bool_output else None

    def call(self, inputs, *args, **kwargs):
        return type(self)._fn(inputs, *args, **{**self._op_kwargs, **kwargs})

    def _symbolic_build(self, inputs, args, kwargs):
        self._probe_args = (args, kwargs)
        self.built = True

    def compute_output_shape(self, input_shape):
        """Found by running the operation on zeros (unknown dimensions as 1)."""

        def zeros(shape, dtype):
            return K.constant(np.zeros([1 if d is None else d for d in shape], dtype))

        def concrete(v):
            return zeros(v.shape, v.dtype.as_numpy_dtype) if isinstance(v, KerasTensor) else v
        args, kwargs = getattr(self, "_probe_args", ((), {}))
        out = self.call(zeros(input_shape, "float32"), *[concrete(a) for a in args],
                        **{k: concrete(v) for k, v in kwargs.items()})
        shape = list(out.shape)
        if shape and TensorShape(input_shape).rank and TensorShape(input_shape)[0] is None:
            shape[0] = None
        return TensorShape(shape)

    def get_config(self):
        return {"name": self.name, **self._op_kwargs}


def _binary(class_name, fn, boolean=False):
    cls = type(class_name, (_Operation,), {"_fn": staticmethod(
        lambda x, y, **kw: fn(x, K.cast(y, x.dtype) if not hasattr(y, "dtype") else y)),
        "_bool_output": boolean, "__module__": __name__})
    cls.__qualname__ = class_name
    return cls


NotEqual = _binary("NotEqual", K.not_equal, True)
Equal = _binary("Equal", K.equal, True)
Add = _binary("Add", K.add)
Subtract = _binary("Subtract", K.subtract)
Multiply = _binary("Multiply", K.multiply)
Divide = _binary("Divide", K.divide)
TrueDivide = _binary("TrueDivide", K.truediv)
Matmul = _binary("Matmul", K.matmul)


class Cast(_Operation):
    _fn = staticmethod(lambda x, dtype="float32", **kw: K.cast(x, dtype))


class ExpandDims(_Operation):
    _fn = staticmethod(lambda x, axis=-1, **kw: K.expand_dims(x, axis))


class Squeeze(_Operation):
    _fn = staticmethod(lambda x, axis=None, **kw: K.squeeze(x, axis))


class Transpose(_Operation):
    _fn = staticmethod(lambda x, axes=None, **kw: K.transpose(x, axes))


class Reshape(_Operation):
    _fn = staticmethod(lambda x, newshape=None, **kw: K.reshape(x, newshape))


class Mean(_Operation):
    _fn = staticmethod(lambda x, axis=None, keepdims=False, **kw: K.reduce_mean(x, axis,
                                                                               keepdims))


class Sum(_Operation):
    _fn = staticmethod(lambda x, axis=None, keepdims=False, **kw: K.reduce_sum(x, axis,
                                                                              keepdims))
