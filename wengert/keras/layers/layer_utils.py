"""Helpers of the base Layer: input shapes from keyword arguments, output shapes, add_weight's
two argument orders, the shapes and dtypes of Keras 3 configs and the objects nested in configs;
and two helpers of the layers: dropout with a layer's own generator, and a contraction of
trailing axes as one matrix product."""
import math

import numpy as np

from ...framework.context import state
from ...framework.tensor import constant
from ...framework.tensor_shape import TensorShape
from ...ops.array_ops import concat, stack
from ...ops.creation_ops import shape as shape_of
from ...ops.matmul_ops import matmul
from ...ops.nn.dropout import dropout
from ...ops.reshape_ops import reshape
from .. import backend
from ..serialization import deserialize_keras_object

def _batch_input_shape(kwargs):
    if kwargs.get("batch_input_shape") is not None:
        return tuple(kwargs["batch_input_shape"])
    input_shape = kwargs.get("input_shape")
    if input_shape is None and kwargs.get("input_dim") is not None:
        input_shape = (kwargs["input_dim"],)
    if input_shape is None:
        return None
    if isinstance(input_shape, int):
        input_shape = (input_shape,)
    return (kwargs.get("batch_size"),) + tuple(input_shape)


def _as_tuple(shape):
    if isinstance(shape, TensorShape):
        return tuple(shape)
    if isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], TensorShape):
        return [tuple(s) for s in shape]
    return shape


def _output_shapes(outputs, batch_unknown):
    """The shape of an output tensor (or list of shapes of a list), with the first dimension
    None when the batch size is not part of the shape."""
    def one(t):
        shape = TensorShape(t.shape)
        if batch_unknown and shape.rank:
            return TensorShape((None,) + tuple(shape)[1:])
        return shape
    if isinstance(outputs, (list, tuple)):
        return [one(t) for t in outputs]
    return one(outputs)


_K3_WEIGHT_ORDER = ("shape", "initializer", "dtype", "trainable", "autocast", "regularizer",
                    "constraint", "aggregation", "overwrite_with_gradient", "name")
_K2_WEIGHT_ORDER = ("name", "shape", "dtype", "initializer", "regularizer", "trainable",
                    "constraint", "use_resource", "synchronization", "aggregation")


def _weight_arguments(args, kwargs):
    """add_weight's arguments by name, from either Keras's positional order."""
    order = _K2_WEIGHT_ORDER if args and isinstance(args[0], str) else _K3_WEIGHT_ORDER
    if len(args) > len(order):
        raise TypeError(f"add_weight takes at most {len(order)} positional arguments.")
    spec = dict.fromkeys(("name", "shape", "dtype", "initializer", "regularizer", "trainable",
                          "constraint"))
    for key, value in zip(order, args):
        if key in kwargs:
            raise TypeError(f"add_weight got multiple values for argument {key!r}.")
        spec[key] = value
    for key, value in kwargs.items():
        if key not in spec and key not in _K3_WEIGHT_ORDER + _K2_WEIGHT_ORDER + (
                "partitioner", "caching_device", "getter"):
            raise TypeError(f"add_weight got an unexpected keyword argument {key!r}.")
        spec[key] = value
    return spec


_IGNORED_WHEN_UNSET = ("quantization_config", "lora_rank", "lora_alpha",
                       "gptq_unpacked_column_size", "use_cudnn")


def _standard_config(config):
    """A layer config as __init__ takes it: Keras 3's DTypePolicy dicts become dtype names;
    Keras options that change nothing here when unset (quantization, LoRA) are dropped."""
    config = dict(config)
    for key in _IGNORED_WHEN_UNSET:
        if config.get(key) in (None, "auto") and key in config:
            del config[key]
    dtype = config.get("dtype")
    if isinstance(dtype, dict):
        inner = dtype.get("config", {})
        config["dtype"] = inner.get("name", "float32") if isinstance(inner, dict) else inner
        if isinstance(config["dtype"], str) and config["dtype"].startswith("mixed"):
            config["dtype"] = "float32"
    return config


def config_with_objects(config, custom_objects, *keys):
    """_standard_config(config) with the objects serialized under `keys` (a wrapped layer, a
    cell, a function), where the config has them, deserialized."""
    config = _standard_config(config)
    for key in keys:
        if key in config:
            config[key] = deserialize_keras_object(config[key], custom_objects=custom_objects)
    return config


def _shape_config(shape):
    if isinstance(shape, TensorShape):
        return None if shape.rank is None else list(shape.as_list())
    if isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], (TensorShape, list,
                                                                            tuple)):
        return [_shape_config(s) for s in shape]
    return list(shape)


def _shape_from_config(shape):
    if isinstance(shape, dict) and shape.get("class_name") == "__tuple__":
        shape = shape["config"]["value"]
    if isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], (list, tuple, dict)):
        return [TensorShape(_shape_from_config(s)) for s in shape]
    return TensorShape(shape)


def random_dropout(layer, x, rate, noise_shape=None):
    """x with a fraction `rate` of its entries zeroed and the rest scaled by 1 / (1 - rate):
    eagerly from the layer's own NumPy generator (seeded by `layer.seed` when it has one),
    in a graph as a random op drawing a fresh mask every run (as Dropout does)."""
    seed = getattr(layer, "seed", None)
    rng = layer.__dict__.setdefault("_dropout_rng", np.random.default_rng(
        backend.next_seed() if seed is None else seed))
    if state.graph is None:
        shape = tuple(x.shape) if noise_shape is None else tuple(
            x.shape[i] if d is None else d for i, d in enumerate(noise_shape))
        dtype = x.dtype.as_numpy_dtype
        keep = rng.random(shape) >= rate
        return x * constant(keep.astype(dtype) * np.asarray(1.0 / (1.0 - rate), dtype))
    if noise_shape is not None and any(d is None for d in noise_shape):
        dims = shape_of(x)
        noise_shape = stack([dims[i] if d is None else d for i, d in enumerate(noise_shape)])
    return dropout(x, rate, noise_shape=noise_shape, seed=int(rng.integers(0, 2**31 - 1)))


def contract_trailing(x, kernel, n):
    """tensordot(x, kernel, n): x's last n axes against kernel's first n, as one matrix product
    of x reshaped to [rows, k] with kernel reshaped to [k, cols] (NumPy's einsum, which
    tensordot uses, is several times slower than BLAS on these shapes)."""
    x_shape, k_shape = list(x.shape), list(kernel.shape)
    inner = math.prod(k_shape[:n])
    free_k = k_shape[n:]
    flat = reshape(x, [-1, inner])
    out = matmul(flat, reshape(kernel, [inner, math.prod(free_k)]) if len(k_shape) != 2 or
                 n != 1 else kernel)
    lead = x_shape[:len(x_shape) - n]
    if None in lead:
        target = concat([shape_of(x)[:len(x_shape) - n], free_k], 0)
    else:
        target = lead + free_k
    return reshape(out, target)
