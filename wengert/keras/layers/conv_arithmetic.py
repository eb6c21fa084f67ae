"""Convolution arithmetic: how long a spatial axis is after a window slides along it.

A window of k taps with dilation d spans (k - 1) d + 1 input steps. Moved by stride s,
    "valid" (whole windows only):  n -> ceil((n - (k - 1) d) / s)
    "same"  (zero padded):         n -> ceil(n / s)
A transposed convolution (the convolution's adjoint) grows the axis instead, as Keras's
deconv_output_length: with the dilated kernel k' = k + (k - 1)(d - 1),
    no output_padding:   n s + max(k' - s, 0) ("valid"),  n s ("same")
    output_padding p:    (n - 1) s + k' - 2 pad + p,  pad = k' // 2 ("same") or 0
Unknown lengths (None) stay unknown. The convolution and pooling layers share these rules.
"""
import math

__all__ = ["output_length", "deconv_output_length"]


def output_length(length, window, padding, stride, dilation=1):
    """The size of one spatial side after a convolution or pooling window (None stays None)."""
    if length is None:
        return None
    if padding == "same":
        return math.ceil(length / stride)
    effective = (window - 1) * dilation + 1
    return max(0, math.ceil((length - effective + 1) / stride))


def deconv_output_length(length, kernel, padding, output_padding, stride, dilation=1):
    """Keras's output size of a transposed convolution along one axis."""
    if length is None:
        return None
    kernel = kernel + (kernel - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return length * stride + max(kernel - stride, 0)
        return length * stride
    pad = kernel // 2 if padding == "same" else 0
    return (length - 1) * stride + kernel - 2 * pad + output_padding
