"""EinsumDense: a dense layer whose contraction is an einsum equation.

`EinsumDense("abc,cde->abde", output_shape=(None, 4, 8), bias_axes="de")` computes
y = einsum(equation, x, kernel) + bias: the kernel's shape comes from the equation (each kernel
axis takes its size from the input axis of the same letter, else from `output_shape`), the bias
covers the output axes named in `bias_axes` (with size-1 axes after them where needed to
broadcast). Equations may elide leading ("...b,bc->...c") or trailing ("ab...,bc->ac...") axes.
MultiHeadAttention's projections are EinsumDense layers, so their weights have Keras's shapes.
"""
import re

from ...framework.tensor_shape import TensorShape
from .. import activations, backend_ops as K
from ..serialization import serialize_keras_object as _ser
from .base import Layer
from .layer_utils import contract_trailing
from .lora import LoRA
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["EinsumDense"]


def _split(equation):
    flat = equation.replace("...", "0")
    for pattern, side in (("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", None),
                          ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", "left"),
                          ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", "right")):
        match = re.match(pattern, flat)
        if match:
            return match.group(1), match.group(2), match.group(3), side
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form "
                     "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def trailing_contraction(equation):
    """n when the equation contracts the input's last n axes with the kernel's first n and
    keeps the rest in order ("abc,cde->abde": 1), else None."""
    if "..." in equation:
        return None
    inputs, out = equation.split("->")
    x, k = inputs.split(",")
    for n in range(1, min(len(x), len(k)) + 1):
        if x[-n:] == k[:n] and out == x[:-n] + k[n:] and not set(x[:-n]) & set(k[n:]):
            return n
    return None


def analyze_einsum(equation, bias_axes, input_shape, output_shape):
    """(kernel shape, bias shape or None, full output shape) for an input shape."""
    input_spec, weight_spec, output_spec, side = _split(equation)
    input_shape = list(input_shape)
    elided = len(input_shape) - len(input_spec)
    out = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    out.insert(0, input_shape[0])
    if elided > 0 and side == "left":
        for i in range(1, elided):
            out.insert(1, input_shape[i])
    elif elided > 0 and side == "right":
        out.extend(input_shape[len(input_shape) - elided:])
    if side == "left":
        in_map = {c: i + elided - len(input_shape) for i, c in enumerate(input_spec)}
        out_map = {c: i + elided for i, c in enumerate(output_spec)}
    else:
        in_map = {c: i for i, c in enumerate(input_spec)}
        out_map = {c: i for i, c in enumerate(output_spec)}
    for c in input_spec:
        if c in out_map:
            want, have = out[out_map[c]], input_shape[in_map[c]]
            if want is not None and have is not None and want != have:
                raise ValueError(f"Input shape and output shape do not match at shared "
                                 f"dimension '{c}'. Input shape is {have}, and output shape is "
                                 f"{want}.")
            out[out_map[c]] = have if want is None else want
    kernel = []
    for c in weight_spec:
        if c in in_map:
            kernel.append(input_shape[in_map[c]])
        elif c in out_map:
            kernel.append(out[out_map[c]])
        else:
            raise ValueError(f"Weight dimension '{c}' did not have a match in either the input "
                             f"spec '{input_spec}' or the output spec '{output_spec}'.")
    bias = None
    if bias_axes:
        for c in bias_axes:
            if c not in output_spec:
                raise ValueError(f"Bias dimension '{c}' was requested, but is not part of the "
                                 f"output spec '{output_spec}'")
        first = min(output_spec.find(c) for c in bias_axes)
        sizes = {c: out[out_map[c]] for c in output_spec}
        bias = [sizes[c] if c in bias_axes else 1 for c in output_spec[first:]]
        if side != "left":
            bias.extend([1] * max(elided, 0))
    return tuple(kernel), None if bias is None else tuple(bias), tuple(out)


class EinsumDense(LoRA, Layer):
    """y = activation(einsum(equation, x, kernel) + bias) (enable_lora: lora.py)."""

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        lora_rank, lora_alpha = kwargs.pop("lora_rank", None), kwargs.pop("lora_alpha", None)
        kwargs.pop("gptq_unpacked_column_size", None)
        kwargs.pop("quantization_config", None)
        super().__init__(**kwargs)
        self._init_lora(lora_rank, lora_alpha)
        self.equation = equation
        self.partial_output_shape = [output_shape] if isinstance(output_shape, int) else \
            list(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        set_weight_options(self, "kernel", kernel_initializer, kernel_regularizer,
                           kernel_constraint)
        set_weight_options(self, "bias", bias_initializer, bias_regularizer, bias_constraint)

    def build(self, input_shape):
        kernel, bias, self.full_output_shape = analyze_einsum(
            self.equation, self.bias_axes, tuple(TensorShape(input_shape)),
            self.partial_output_shape)
        self.kernel = add_weight_with_options(self, "kernel", kernel)
        self.bias = add_weight_with_options(self, "bias", bias) if bias else None
        self.built = True
        self._build_lora()

    def call(self, inputs, training=None):
        n = trailing_contraction(self.equation)
        kernel = self._lora_effective()
        out = contract_trailing(inputs, kernel, n) if n else K.einsum(
            self.equation, inputs, kernel)
        if self.bias is not None:
            out = out + self.bias
        return self.activation(out)

    def compute_output_shape(self, input_shape):
        return TensorShape(analyze_einsum(self.equation, self.bias_axes,
                                          tuple(TensorShape(input_shape)),
                                          self.partial_output_shape)[2])

    def get_config(self):
        config = super().get_config()
        config.update(equation=self.equation, output_shape=self.partial_output_shape,
                      activation=_ser(self.activation), bias_axes=self.bias_axes,
                      **weight_options_config(self, "kernel", "bias"))
        return self._lora_config(config)
