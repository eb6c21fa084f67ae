"""Merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot, and
their functional forms `add([a, b])`, `concatenate([a, b], axis)`, ...

Each takes a list of tensors (broadcast against each other) and combines them elementwise:
sum, difference (two inputs), product, mean, max, min; Concatenate joins them along `axis`;
Dot(axes) is the batched dot product: for each sample, x and y contracted over axes[0] of x
and axes[1] of y (after L2-normalizing them along those axes with normalize=True), a rank-1
result becoming [batch, 1]. Masks follow Keras 3: the output mask is the OR of the inputs'
masks (None if any is missing); Multiply, Maximum and Minimum also ignore masked entries of
an input (Multiply treats them as 1, Maximum/Minimum take the other input there);
Concatenate's mask is any() of the inputs' masks joined along the axis; Dot's is None.
Gradients come from the composed ops.
"""
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from .base import Layer
from .mask_table import get_mask, set_mask

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot",
           "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "dot"]


class _Merge(Layer):
    """Elementwise merge of a list of tensors with Keras's mask rules."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) < 1 or not \
                isinstance(input_shape[0], (list, tuple, TensorShape)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes)")
        self.built = True

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"inputs={inputs} (not a list of tensors)")
        return self._merge(list(inputs))

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape[0])
        for other in input_shape[1:]:
            shape = _broadcast_shapes(shape, TensorShape(other))
        return shape

    def compute_mask(self, inputs, mask=None):
        if mask is None or any(m is None for m in mask):
            return None
        out = mask[0]
        for m in mask[1:]:
            out = K.logical_or(out, m)
        return out


def _broadcast_shapes(a, b):
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    return TensorShape([y if x == 1 else x if y == 1 else (x if x is not None else y)
                        for x, y in zip(a, b)])


def _expanded_masks(inputs):
    masks = [get_mask(x) for x in inputs]
    return [None if m is None else K.broadcast_to(K.expand_dims(m, -1), K.shape(x))
            for x, m in zip(inputs, masks)]


def _masked_reduce(op, inputs):
    """Maximum/Minimum: where an input is masked the other input counts (Keras's rule)."""
    output, output_mask = None, None
    for x, mask in zip(inputs, _expanded_masks(inputs)):
        if output is None:
            output, output_mask = x, mask
            continue
        if mask is not None:
            x = K.where(mask, x, output)
        if output_mask is not None:
            output = K.where(output_mask, output, x)
        output_mask = K.logical_or(output_mask, mask) if mask is not None and \
            output_mask is not None else None
        output = op(output, x)
    if output_mask is not None:
        set_mask(output, K.reduce_any(output_mask, axis=-1))
    return output


class Add(_Merge):
    """Elementwise sum of the inputs."""

    def _merge(self, inputs):
        return inputs[0] if len(inputs) == 1 else K.add_n(inputs) if all(
            tuple(x.shape) == tuple(inputs[0].shape) for x in inputs) else _fold(K.add, inputs)


class Subtract(_Merge):
    """inputs[0] - inputs[1]."""

    def _merge(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return K.subtract(inputs[0], inputs[1])


class Multiply(_Merge):
    """Elementwise product of the inputs (masked entries count as 1)."""

    def _merge(self, inputs):
        masks = _expanded_masks(inputs)
        keep_mask = all(m is not None for m in masks)
        output, output_mask = None, None
        for x, mask in zip(inputs, masks):
            if mask is not None:
                x = K.where(mask, x, K.cast(1, x.dtype))
                if keep_mask:
                    output_mask = mask if output_mask is None else K.logical_or(output_mask,
                                                                                mask)
            output = x if output is None else K.multiply(output, x)
        if keep_mask:
            output = K.where(output_mask, output, K.cast(0, output.dtype))
            set_mask(output, K.reduce_any(output_mask, axis=-1))
        return output


class Average(_Merge):
    """Elementwise mean of the inputs."""

    def _merge(self, inputs):
        return _fold(K.add, inputs) / len(inputs)


class Maximum(_Merge):
    """Elementwise maximum of the inputs."""

    def _merge(self, inputs):
        return _masked_reduce(K.maximum, inputs)


class Minimum(_Merge):
    """Elementwise minimum of the inputs."""

    def _merge(self, inputs):
        return _masked_reduce(K.minimum, inputs)


def _fold(op, inputs):
    out = inputs[0]
    for x in inputs[1:]:
        out = op(out, x)
    return out


class Concatenate(_Merge):
    """Joins the inputs along `axis` (the last by default)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _merge(self, inputs):
        return K.concat(inputs, self.axis)

    def compute_output_shape(self, input_shape):
        shapes = [list(TensorShape(s)) for s in input_shape]
        out = shapes[0][:]
        sizes = [s[self.axis] for s in shapes]
        out[self.axis] = None if None in sizes else sum(sizes)
        return TensorShape(out)

    def compute_mask(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return None
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                masks.append(K.ones_like(x, dtype="bool"))
            elif m.shape.rank < x.shape.rank:
                masks.append(K.logical_or(K.expand_dims(m, -1), K.zeros_like(x, dtype="bool")))
            else:
                masks.append(m)
        return K.reduce_any(K.concat(masks, self.axis), axis=-1)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


class Dot(_Merge):
    """Batched dot product of two inputs over `axes`."""

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int) and (not isinstance(axes, (list, tuple)) or
                                          len(axes) != 2):
            raise ValueError(f"Invalid format for argument `axes`: expected an int or a list/"
                             f"tuple of 2 ints. Received: axes={axes}")
        self.axes = axes if isinstance(axes, int) else list(axes)
        self.normalize = bool(normalize)
        self.supports_masking = True

    def _axes(self, ranks):
        axes = [self.axes] * 2 if isinstance(self.axes, int) else self.axes
        return [a % r for a, r in zip(axes, ranks)]

    def _merge(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. Received: "
                             f"inputs={inputs}")
        x, y = inputs
        ax, ay = self._axes([x.shape.rank, y.shape.rank])
        if self.normalize:
            x, y = K.l2_normalize(x, axis=ax), K.l2_normalize(y, axis=ay)
        letters = "abcdefghijklmnopqrstuvwxyz"
        xs = list(letters[:x.shape.rank])
        ys = ["a"] + list(letters[x.shape.rank:x.shape.rank + y.shape.rank - 1])
        ys[ay] = xs[ax]
        out = [c for i, c in enumerate(xs) if i != ax] + [c for i, c in enumerate(ys)
                                                           if i not in (0, ay)]
        result = K.einsum(f"{''.join(xs)},{''.join(ys)}->{''.join(out)}", x, y)
        return K.expand_dims(result, -1) if len(out) == 1 else result

    def compute_output_shape(self, input_shape):
        a, b = list(TensorShape(input_shape[0])), list(TensorShape(input_shape[1]))
        ax, ay = self._axes([len(a), len(b)])
        a.pop(ax)
        b.pop(ay)
        b.pop(0)
        out = a + b
        return TensorShape(out + [1] if len(out) == 1 else out)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        config = super().get_config()
        config.update(axes=self.axes, normalize=self.normalize)
        return config


def add(inputs, **kwargs):
    """The `Add` layer applied to `inputs`."""
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes=-1, normalize=False, **kwargs):
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
