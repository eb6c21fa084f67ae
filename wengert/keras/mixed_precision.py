"""`keras.mixed_precision`: dtype policies, and layers that compute in float16 with float32
weights.

A DTypePolicy (alias Policy) names two dtypes: the variable dtype weights are stored in and the
compute dtype a layer's arithmetic runs in. "float16", "float32", "float64" use one dtype for
both; "mixed_float16" stores float32 and computes in float16. ("mixed_bfloat16" and "bfloat16"
need a bfloat16 dtype, which wengert lacks: asking for them is an error saying so.) A layer
built with `dtype=` a policy, a policy name or a dtype (default: the global policy, itself
floatx() until `set_global_policy` changes it) follows it as Keras 3 does:

- its weights are created in the variable dtype (float32);
- floating inputs are cast to the compute dtype (float16) on the way in;
- during `call`, each trainable floating weight of it and of its mixed sublayers is read
  through a cast to the compute dtype, so the layer computes in float16 and its outputs are
  float16, while the gradient flows back to the float32 variable through the cast;
- normalization layers instead compute in float32 (their inputs upcast, their weights read
  as stored) and cast their outputs to the compute dtype, as Keras's do to avoid overflow.

Losses compute in float32 (keras.losses cast predictions to their own dtype). `compile` on a
model whose policy is "mixed_float16" wraps the optimizer in a LossScaleOptimizer (dynamic
loss scaling; see wengert/optimizers/loss_scale.py) unless it already is one.
"""
import contextlib

from ..framework import dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.math_ops import cast
from .. import optimizers
from . import backend

__all__ = ["DTypePolicy", "Policy", "set_global_policy", "global_policy", "set_dtype_policy",
           "dtype_policy", "LossScaleOptimizer", "policy_of", "PolicyProperties",
           "compile_optimizer"]

LossScaleOptimizer = optimizers.LossScaleOptimizer
FLOATS = ("float16", "float32", "float64")
MIXED = {"mixed_float16": ("float16", "float32")}
VALID = FLOATS + tuple(MIXED)
FLOAT32_COMPUTE = frozenset({"BatchNormalization", "LayerNormalization", "GroupNormalization",
                             "RMSNormalization", "UnitNormalization",
                             "SpectralNormalization"})


def _check_name(name):
    """The dtype name a policy name stands for (its own name for a mixed policy)."""
    if isinstance(name, dtypes.DType):
        return name.name
    if not isinstance(name, str):
        raise TypeError(f"DTypePolicy: `name` must be a string such as 'mixed_float16', got "
                        f"{name!r} (of type {type(name).__name__}).")
    if "bfloat16" in name:
        raise ValueError(f"DTypePolicy {name!r}: wengert has no bfloat16 dtype; use "
                         "'mixed_float16' (or one of " + ", ".join(repr(v) for v in VALID)
                         + ").")
    if name in MIXED:
        return name
    try:
        return dtypes.as_dtype(name).name
    except (TypeError, ValueError):
        raise ValueError(f"Cannot convert {name!r} to a DTypePolicy: valid policies are "
                         + ", ".join(repr(v) for v in VALID) + " (or another dtype name such "
                         "as 'int32').") from None


class DTypePolicy:
    """The dtype a layer computes in and the dtype its weights are stored in."""

    def __init__(self, name=None):
        name = _check_name(backend.floatx() if name is None else name)
        self._name = name
        self._compute_dtype, self._variable_dtype = MIXED.get(name, (name, name))

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        return self._compute_dtype

    @property
    def variable_dtype(self):
        return self._variable_dtype

    @property
    def quantization_mode(self):
        return None

    @property
    def is_mixed(self):
        return self._compute_dtype != self._variable_dtype

    def convert_input(self, x, autocast, dtype):
        """x as a tensor, cast to `dtype` when autocast and x is floating (other dtypes kept)."""
        dtype = dtypes.as_dtype(dtype)
        if not isinstance(x, Tensor):
            if not hasattr(x, "__array__") and not isinstance(x, (list, float, int)):
                return x
            x = convert_to_tensor(x)
        return cast(x, dtype) if autocast and x.dtype.is_floating and x.dtype != dtype else x

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other.name == self.name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'


Policy = DTypePolicy
_GLOBAL = [None]


def set_global_policy(policy):
    """The policy layers created from now on follow unless given their own dtype."""
    if policy is None:
        _GLOBAL[0] = None
        return
    if not isinstance(policy, DTypePolicy):
        policy = DTypePolicy(policy)
    if not dtypes.as_dtype(policy.compute_dtype).is_floating:
        raise ValueError(f"set_global_policy: the global policy must be floating, got "
                         f"{policy.name!r}; valid: " + ", ".join(repr(v) for v in VALID) + ".")
    _GLOBAL[0] = policy


def global_policy():
    """The global policy: the last set_global_policy, else floatx()'s."""
    return _GLOBAL[0] or DTypePolicy(backend.floatx())


set_dtype_policy, dtype_policy = set_global_policy, global_policy


def policy_of(dtype):
    """The DTypePolicy a layer's `dtype=` argument stands for."""
    if dtype is None:
        return global_policy()
    if isinstance(dtype, DTypePolicy):
        return dtype
    if isinstance(dtype, dict):
        return DTypePolicy(**dtype.get("config", dtype))
    if isinstance(dtype, str):
        return DTypePolicy(dtype)
    return DTypePolicy(dtypes.as_dtype(dtype))


def _cast_floats(value, dtype):
    if isinstance(value, Tensor):
        return cast(value, dtype) if value.dtype.is_floating and value.dtype != dtype else value
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_floats(v, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast_floats(v, dtype) for k, v in value.items()}
    return value


def _computes_mixed(layer):
    policy = getattr(layer, "_dtype_policy", None)
    return policy is not None and policy.is_mixed and type(layer).__name__ not in FLOAT32_COMPUTE


def _autocast_layers(layer):
    """layer and the sublayers under it that compute in the mixed compute dtype (a sublayer
    that does not, and everything under it, is left alone)."""
    out, stack = [], [layer]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(sub for sub in getattr(current, "_sublayers", ()) if _computes_mixed(sub))
    return out


@contextlib.contextmanager
def _weights_read_as(layer, dtype):
    """Within the block, the trainable floating weights of layer and its mixed sublayers (the
    attributes holding them) are their casts to `dtype`; RNN cells and other sublayers whose
    `call` is run directly read their weights cast too."""
    swapped = []
    for current in _autocast_layers(layer):
        own = {id(v) for v in current._trainable_weights if v.dtype.is_floating}
        held = {k: v for k, v in vars(current).items() if id(v) in own}
        for key, variable in held.items():
            current.__dict__[key] = cast(variable, dtype)
        swapped.append((current, held))
    try:
        yield
    finally:
        for current, held in swapped:
            current.__dict__.update(held)


class PolicyProperties:
    """What Layer takes from its dtype policy: dtype_policy, compute_dtype, variable_dtype,
    and `_policy_call`, which runs `call` as the policy asks."""

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @property
    def compute_dtype(self):
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._dtype_policy.variable_dtype

    def _policy_call(self, inputs, args, kwargs):
        policy = self._dtype_policy
        if not policy.is_mixed:
            return self.call(inputs, *args, **kwargs)
        compute = dtypes.as_dtype(policy.compute_dtype)
        if type(self).__name__ in FLOAT32_COMPUTE:
            inputs = _cast_floats(inputs, dtypes.as_dtype(policy.variable_dtype))
            return _cast_floats(self.call(inputs, *args, **kwargs), compute)
        with _weights_read_as(self, compute):
            return self.call(inputs, *args, **kwargs)


def compile_optimizer(model, optimizer):
    """compile's optimizer: looked up when named, wrapped in a LossScaleOptimizer when the
    model's policy is "mixed_float16" (as Keras 3's compile does)."""
    if optimizer is not None and not hasattr(optimizer, "apply_gradients"):
        optimizer = optimizers.get(optimizer)
    policy = getattr(model, "_dtype_policy", None)
    if (optimizer is not None and policy is not None and policy.name == "mixed_float16"
            and not isinstance(optimizer, LossScaleOptimizer)):
        optimizer = LossScaleOptimizer(optimizer, name="loss_scale_optimizer")
    return optimizer
