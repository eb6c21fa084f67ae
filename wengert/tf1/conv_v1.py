"""TensorFlow 1's convolutions and pools, as `tf.compat.v1.nn` has them: TensorFlow 2's
(ops/nn/conv/, ops/nn/pool.py, ops/nn/morphology.py) under their TF 1 signatures. The old
argument names are taken beside the new ones, either name but never both
(tf1/renamed_arguments.py): `value` for `input`, `filter` for `filters`, `rate`, `rates` and
`dilation_rate` for `dilations`.

    conv1d(value, filters, stride, padding, use_cudnn_on_gpu, data_format, name, input,
           dilations)                     data_format "NWC"/"NHWC" or "NCW"/"NCHW"
    conv2d(input, filter, strides, padding, use_cudnn_on_gpu, data_format, dilations, name,
           filters)
    conv3d(input, filter, strides, padding, data_format, dilations, name, filters)
    conv2d_transpose / conv3d_transpose(value, filter, output_shape, strides, padding,
           data_format, name, input, filters, dilations)
    convolution(input, filter, padding, strides, dilation_rate, name, data_format, filters,
           dilations)
    pool(input, window_shape, pooling_type, padding, dilation_rate, strides, name, data_format,
           dilations)
    max_pool / avg_pool / avg_pool2d(value, ksize, strides, padding, data_format, name, input)
                                          2-D pools: data_format None is "NHWC"
    max_pool_with_argmax(input, ksize, strides, padding, data_format, Targmax, name,
           output_dtype, include_batch_in_index)    "NHWC" only, as in TensorFlow
    depthwise_conv2d / separable_conv2d(..., strides, padding, rate, name, data_format,
           dilations)
    dilation2d(input, filter, strides, rates, padding, name, filters, dilations)
    erosion2d(value, kernel, strides, rates, padding, name)
    fused_batch_norm(..., exponential_avg_factor): in training the returned mean and variance
           are (1 - f) * the given ones + f * the batch's
    fractional_max_pool / fractional_avg_pool(value, pooling_ratio, pseudo_random, overlapping,
           deterministic, seed, seed2, name): TensorFlow's FractionalMaxPool / AvgPool op with
           its seeds: deterministic with seed and seed2 fixes the pooling regions; without,
           both seeds must be 0 (TensorFlow's InvalidArgumentError)

`use_cudnn_on_gpu` picks a GPU kernel: on a CPU it changes nothing, in TensorFlow as here."""
from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.tensor import convert_to_tensor
from ..ops.math_ops import add, multiply
from ..ops.nn import argmax_pool, batch_norm, morphology, pool as pools
from ..ops.nn.fractional_pool import FRACTIONAL_AVG_POOL, FRACTIONAL_MAX_POOL
from ..ops.nn.conv import compositions, conv2d as conv2d_ops, conv3d as conv3d_ops
from .renamed_arguments import either

__all__ = ["avg_pool", "avg_pool2d", "conv1d", "conv2d", "conv2d_transpose", "conv3d",
           "conv3d_transpose", "convolution", "depthwise_conv2d", "dilation2d", "erosion2d",
           "fractional_avg_pool", "fractional_max_pool", "fused_batch_norm", "max_pool", "max_pool_with_argmax", "pool", "separable_conv2d"]

_CONV1D_FORMATS = {None: "NWC", "NWC": "NWC", "NHWC": "NWC", "NCW": "NCW", "NCHW": "NCW"}


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):  # noqa: A002 (TF's)
    """1-D convolution of [batch, width, channels] `value` (or `input`) with `filters`."""
    del use_cudnn_on_gpu  # a GPU kernel choice (see the module)
    value = either("input", input, "value", value)
    if data_format not in _CONV1D_FORMATS:
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: "
                         f"data_format={data_format}")
    return conv2d_ops.conv1d(value, filters, stride, padding, _CONV1D_FORMATS[data_format],
                             dilations, name)


def conv2d(input, filter=None, strides=None, padding=None,  # noqa: A002 (TF's names)
           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1), name=None,
           filters=None):
    """2-D convolution of `input` with `filter` (or `filters`)."""
    del use_cudnn_on_gpu  # a GPU kernel choice (see the module)
    filter = either("filters", filters, "filter", filter)  # noqa: A001
    return conv2d_ops.conv2d(input, filter, strides, padding, data_format or "NHWC",
                             dilations, name)


def conv3d(input, filter=None, strides=None, padding=None,  # noqa: A002 (TF's names)
           data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None, filters=None):
    """3-D convolution of `input` with `filter` (or `filters`)."""
    filter = either("filters", filters, "filter", filter)  # noqa: A001
    return conv3d_ops.conv3d(input, filter, strides, padding, data_format, dilations, name)


def conv2d_transpose(value=None, filter=None, output_shape=None,  # noqa: A002 (TF's names)
                     strides=None, padding="SAME", data_format="NHWC", name=None, input=None,
                     filters=None, dilations=None):
    """The gradient of conv2d with respect to its input ("deconvolution")."""
    value = either("input", input, "value", value)
    filter = either("filters", filters, "filter", filter)  # noqa: A001
    return conv2d_ops.conv2d_transpose(value, filter, output_shape, strides, padding,
                                       data_format, dilations, name)


def conv3d_transpose(value, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NDHWC", name=None, input=None, filters=None,
                     dilations=None):
    """The gradient of conv3d with respect to its input ("deconvolution")."""
    value = either("input", input, "value", value)
    filter = either("filters", filters, "filter", filter)  # noqa: A001
    return conv3d_ops.conv3d_transpose(value, filter, output_shape, strides, padding,
                                       data_format, dilations, name)


def convolution(input, filter, padding, strides=None, dilation_rate=None,  # noqa: A002
                name=None, data_format=None, filters=None, dilations=None):
    """N-D convolution (1, 2 or 3 spatial axes) with TF 1's order of the arguments."""
    filter = either("filters", filters, "filter", filter)  # noqa: A001
    dilation_rate = either("dilations", dilations, "dilation_rate", dilation_rate)
    return compositions.convolution(input, filter, strides, padding, data_format,
                                    dilation_rate, name)


def pool(input, window_shape, pooling_type, padding, dilation_rate=None,  # noqa: A002
         strides=None, name=None, data_format=None, dilations=None):
    """N-D max or average pooling with TF 1's order of the arguments."""
    dilation_rate = either("dilations", dilations, "dilation_rate", dilation_rate)
    return pools.pool(convert_to_tensor(input, name="input"), window_shape, pooling_type,
                      strides, padding, data_format,
                      dilation_rate, name)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002 (TF's name)
    """The maximum of each window of a 4-D `value` (or `input`)."""
    value = either("input", input, "value", value)
    return pools.max_pool2d(value, ksize, strides, padding, data_format or "NHWC", name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002 (TF's name)
    """The mean of each window of a 4-D `value` (or `input`)."""
    value = either("input", input, "value", value)
    return pools.avg_pool2d(value, ksize, strides, padding, data_format or "NHWC", name)


avg_pool2d = avg_pool


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         Targmax=None, name=None, output_dtype=None,  # noqa: N803 (TF's)
                         include_batch_in_index=False):
    """(max pool, flat index of each maximum); the index dtype is `output_dtype` or
    `Targmax` (int64 by default)."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    output_dtype = either("output_dtype", output_dtype, "Targmax", Targmax)
    return argmax_pool.max_pool_with_argmax(
        input, ksize, strides, padding, data_format,
        dtypes.int64 if output_dtype is None else output_dtype, include_batch_in_index, name)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    """Depthwise 2-D convolution, dilated by `rate` (or `dilations`)."""
    rate = either("dilations", dilations, "rate", rate)
    return conv2d_ops.depthwise_conv2d(input, filter, strides, padding, data_format, rate, name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides,  # noqa: A002
                     padding, rate=None, name=None, data_format=None, dilations=None):
    """A depthwise convolution followed by a 1x1 one, dilated by `rate` (or `dilations`)."""
    rate = either("dilations", dilations, "rate", rate)
    return compositions.separable_conv2d(input, depthwise_filter, pointwise_filter, strides,
                                         padding, data_format, rate, name)


def dilation2d(input, filter=None, strides=None, rates=None, padding=None,  # noqa: A002
               name=None, filters=None, dilations=None):
    """Grayscale morphological dilation of NHWC `input` by `filter`, dilated by `rates`."""
    filter = either("filters", filters, "filter", filter)  # noqa: A001
    rates = either("dilations", dilations, "rates", rates)
    return morphology.dilation2d(input, filter, strides, padding, "NHWC", rates, name)


def erosion2d(value, kernel, strides, rates, padding, name=None):
    """Grayscale morphological erosion of NHWC `value` by `kernel`, dilated by `rates`."""
    return morphology.erosion2d(value, kernel, strides, padding, "NHWC", rates, name)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None,
                     exponential_avg_factor=1.0):
    """Batch normalization (see the module for exponential_avg_factor)."""
    y, batch_mean, batch_variance = batch_norm.fused_batch_norm(
        x, scale, offset, mean, variance, epsilon, data_format, is_training, name)
    if not is_training or exponential_avg_factor == 1.0 or mean is None:
        return y, batch_mean, batch_variance
    keep = 1.0 - exponential_avg_factor
    return (y, add(multiply(keep, mean), multiply(exponential_avg_factor, batch_mean)),
            add(multiply(keep, variance), multiply(exponential_avg_factor, batch_variance)))


def _fractional(op_def, value, pooling_ratio, pseudo_random, overlapping, deterministic, seed,
                seed2, name):
    if not deterministic and (seed or seed2):
        raise InvalidArgumentError(f"{op_def.type}: Both seed and seed2 should be 0 if "
                                   f"deterministic is false (got seed={seed}, seed2={seed2}).")
    return op_def.raw(value=value, pooling_ratio=pooling_ratio, pseudo_random=pseudo_random,
                      overlapping=overlapping, deterministic=deterministic, seed=seed,
                      seed2=seed2, name=name)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
    """(max pool over fractional windows, row pooling sequence, column pooling sequence)."""
    return _fractional(FRACTIONAL_MAX_POOL, value, pooling_ratio, pseudo_random, overlapping,
                       deterministic, seed, seed2, name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
    """(mean pool over fractional windows, row pooling sequence, column pooling sequence)."""
    return _fractional(FRACTIONAL_AVG_POOL, value, pooling_ratio, pseudo_random, overlapping,
                       deterministic, seed, seed2, name)
