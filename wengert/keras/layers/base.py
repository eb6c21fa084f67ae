"""`Layer`: the base of every Keras layer and model: weights, lazy building, calling.

A layer creates its weights in `build(input_shape)`, which runs once, on the first call, with the
shape of the first input (so `Dense(10)` needs no input size). `add_weight` makes a
`keras.Variable` (a wengert Variable) and tracks it as trainable or not. Layers assigned as
attributes of a layer (or listed in an attribute) are tracked as its sublayers, and so are
Variables, so `trainable_weights` collects a whole tree of layers in the order they were added.

Each weight has Keras 3's two names: `name`, the bare one it was given ("kernel"), and `path`,
the names of the layers building or calling when it was made, then its own ("dense/kernel",
"sequential/dense/kernel"; variables.py keeps that scope). Graphs, checkpoints and SavedModels
see it as "<layer>/<weight>" ("dense/kernel").

`__call__(inputs, training=None)` casts floating inputs to the layer's dtype, builds the layer
if needed and runs `call`. `training` is passed to `call` when its signature takes it; when it
is None, the value of the enclosing layer call is used (a model called with training=True runs
its Dropout layers in training mode). Calling a layer on a symbolic `KerasTensor` (from
`keras.Input`) records a node of a functional model instead of computing (see input_layer.py).

The tracking of sublayers and weights, and the keys they are checkpointed under, are
tracking.py's (Layer's first base).

Masks (Keras's rule): a layer that makes a mask (Embedding(mask_zero=True), Masking) attaches it
to its output tensor (masking.py keeps the table); the next layer whose `call` takes `mask` gets
it, and a layer with `supports_masking` passes `compute_mask(inputs, mask)` (by default the
same mask) on to its own outputs. Losses: `add_loss(x)` in `call` collects x for the current
outermost call (cleared when the next one starts); `activity_regularizer` adds
r(output) / batch size for each output; weight regularizers are recomputed from the weights'
values each time `losses` is read.
"""
import functools
import inspect
import threading
import warnings

import numpy as np

from ...framework import dtypes
from ...framework.tensor import Tensor, array_of, constant
from ...framework.tensor_shape import TensorShape
from ...module import Module
from ...ops.creation_ops import shape as shape_of
from ...ops.math_ops import cast
from .. import backend, constraints as constraints_module, initializers
from .. import regularizers as regularizers_module
from ..mixed_precision import PolicyProperties, policy_of
from ..variables import KerasVariable, current_path, name_scope
from ..remat import get_current_remat_mode
from . import mask_table as masking
from .keras_tensor import KerasTensor, is_shape_list, symbolic_call
from .call_variants import CallVariants
from .input_spec import InputSpec
from .quantization import QuantizationHooks
from .tracking import UNTRACKED, Tracking
from .layer_utils import (_as_tuple, _batch_input_shape, _output_shapes, _shape_config,  # noqa: F401
                          _shape_from_config, _standard_config, _weight_arguments)

__all__ = ["Layer", "InputSpec"]

_ALLOWED_KWARGS = {"input_shape", "batch_input_shape", "batch_size", "input_dim", "weights",
                   "dynamic", "autocast", "activity_regularizer", "batch_shape"}


class _CallContext(threading.local):
    training = None     # the `training` value of the innermost enclosing layer call
    dropout_masks = None  # {id(layer): mask tensor} fed to a traced train step (training.py)
    depth = 0           # how many layer calls enclose the current one


call_context = _CallContext()


def _shape_of(x):
    return x.shape if hasattr(x, "shape") else TensorShape(np.shape(x))


def _scoped_build(build):
    @functools.wraps(build)
    def scoped(self, *args, **kwargs):
        with name_scope(self, self.name):
            return build(self, *args, **kwargs)
    scoped._scoped = True
    return scoped


class Layer(CallVariants, QuantizationHooks, PolicyProperties, Tracking, Module):
    """Base class of layers: override `build(input_shape)` and `call(inputs, training=None)`.

    A Layer is a `tf.Module` (name_scope, submodules, with_name_scope), with Keras' own
    tracking of weights and sublayers; stateless_call, compute_output_spec, symbolic_call and
    rematerialized_call are call_variants.py's, the quantization hooks quantization.py's."""

    supports_masking = False  # whether compute_mask passes masks on (see the module docstring)

    def __init_subclass__(cls, **kwargs):
        """A subclass's own `build` runs inside the layer's name scope, however it is called
        (as Keras wraps build), so that weights made in it get their path."""
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_scoped", False):
            cls.build = _scoped_build(build)

    _TF_MODULE_IGNORED_PROPERTIES = frozenset(UNTRACKED)

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        unknown = set(kwargs) - _ALLOWED_KWARGS
        if unknown:
            raise TypeError(f"Keyword argument not understood: {sorted(unknown)[0]!r} "
                            f"({type(self).__name__}).")
        self._init_tracking()
        self._trainable = bool(trainable)
        self._name = name or backend.unique_name(backend.to_snake_case(type(self).__name__))
        self._dtype_policy = policy_of(dtype)  # dtype, compute_dtype: see mixed_precision.py
        self._dtype = dtypes.as_dtype(self._dtype_policy.variable_dtype)
        self._autocast = kwargs.get("autocast", True)
        self.built = False
        self._build_input_shape = None
        self._output_shape = None
        self._inbound_nodes = []
        self._batch_input_shape = _batch_input_shape(kwargs)
        self._initial_weights = kwargs.get("weights")
        self.activity_regularizer = regularizers_module.get(kwargs.get("activity_regularizer"))
        self._remat_mode = get_current_remat_mode()  # keras.RematScope's, when made in one

    # -- what it is -------------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for layer in self._sublayers:
            layer.trainable = value

    @property
    def input_shape(self):
        return self._recorded_shape(self._build_input_shape, "input")

    @property
    def output_shape(self):
        return self._recorded_shape(self._output_shape, "output")

    def _recorded_shape(self, shape, which):
        """A shape recorded when the layer was called, as tuples (AttributeError before)."""
        if shape is None:
            raise AttributeError(f"The layer {self.name!r} has never been called and thus has "
                                 f"no defined {which} shape.")
        return _as_tuple(shape)

    # -- weights ----------------------------------------------------------------------------------
    def add_weight(self, *args, **kwargs):
        """Create a weight `name` (its `path` scoped as Keras 3's) of `shape`,
        initialized by `initializer`
        (default: glorot_uniform for floats, zeros otherwise), and track it. Takes Keras 3's
        argument order (shape, initializer, dtype, trainable, ...) and Keras 2's (name, shape,
        dtype, initializer, regularizer, trainable, constraint); a string first is a name."""
        spec = _weight_arguments(args, kwargs)
        shape = tuple(int(d) for d in (spec["shape"] or ()))
        dtype = dtypes.as_dtype(spec["dtype"] or self._dtype)
        initializer = spec["initializer"]
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        name = spec["name"] or f"weight_{len(self._named_weights)}"
        trainable = True if spec["trainable"] is None else bool(spec["trainable"])
        restored = self._restored_value(name, shape, dtype)
        initial = (lambda: init(shape, dtype=dtype)) if restored is None else restored
        variable = KerasVariable.layer_weight(
            initial, name=name, path=current_path(name, owner=self),
            op_name=f"{self.name}/{name}", trainable=trainable, dtype=dtype)
        variable.regularizer = regularizers_module.get(spec["regularizer"])
        variable.constraint = constraints_module.get(spec["constraint"])
        (self._trainable_weights if trainable else self._non_trainable_weights).append(variable)
        self._named_weights[name] = variable
        return variable

    def add_metric(self, *args, **kwargs):
        """Removed in Keras 3: raises, naming where metrics go now."""
        raise NotImplementedError(
            "Layer `add_metric()` method is deprecated. Add your metric in "
            "`Model.compile(metrics=[...])`, or create metric trackers in init() or build() "
            "when subclassing the layer or model, then call `metric.update_state()` whenever "
            "necessary.")

    def add_variable(self, shape, initializer, dtype=None, trainable=True, autocast=True,
                     regularizer=None, constraint=None, name=None):
        """Keras 3's add_variable: add_weight with the shape and initializer first. `autocast`
        is kept on the variable (`variable.autocast`), as Keras records it."""
        variable = self.add_weight(shape=shape, initializer=initializer, dtype=dtype,
                                   trainable=trainable, regularizer=regularizer,
                                   constraint=constraint, name=name)
        variable.autocast = bool(autocast)
        return variable

    @property
    def losses(self):
        """Losses added by `add_loss` (and activity regularizers) in the last call of this layer
        and the layers in it, then the weight regularization penalties."""
        out = []
        for layer in [self] + list(self.submodules):
            out.extend(layer.__dict__.get("_losses", ()))
        for variable in self.trainable_weights:
            regularizer = getattr(variable, "regularizer", None)
            if regularizer is not None:
                out.append(regularizer(variable))
        return out

    def add_loss(self, losses, **kwargs):
        """Add a scalar loss (or a list of them, or a zero-argument callable) to `losses`."""
        for loss in losses if isinstance(losses, (list, tuple)) else [losses]:
            if callable(loss) and not isinstance(loss, Tensor):
                loss = loss()
            if loss is None:
                continue
            if not isinstance(loss, Tensor):
                loss = constant(np.asarray(loss, self._dtype.as_numpy_dtype))
            self._losses.append(loss)

    def _clear_losses(self):
        for layer in [self] + list(self.submodules):
            layer.__dict__.get("_losses", []).clear()

    @property
    def input(self):
        """The KerasTensor(s) this layer was first called on in a functional graph."""
        return self._first_node("input").inputs

    @property
    def output(self):
        """The KerasTensor(s) of this layer's first call in a functional graph (a feature
        extractor: `Model(model.inputs, [layer.output for layer in model.layers])`)."""
        return self._first_node("output").outputs

    def _first_node(self, what):
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name!r} has no defined {what}: it was never "
                                 "called on symbolic inputs (keras.Input); build a functional "
                                 "model, or a Sequential model with an Input, first.")
        return self._inbound_nodes[0]

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs (by default the inputs' mask, for a masking-aware layer)."""
        return mask

    def get_weights(self):
        """The weights' current values as NumPy arrays (in `weights` order)."""
        return [np.array(array_of(v)) for v in self.weights]

    def set_weights(self, weights):
        """Assign NumPy arrays to the weights (in `weights` order); checks every shape first."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"Layer {self.name!r} expects {len(params)} weight(s), but the "
                             f"provided list has {len(weights)} element(s).")
        _assign_checked(self.name, params, weights)

    def save_own_variables(self, store):
        """Keras 3's saving hook: this layer's own variables (trainable, then the others; not
        its sublayers') into the dict-like `store` under "0", "1", ... Override it, with
        load_own_variables, to keep other state in `.keras` and `.weights.h5` files."""
        own = list(self._trainable_weights) + list(self._non_trainable_weights)
        for i, variable in enumerate(own):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        """Assign the values save_own_variables wrote; every count and shape is checked
        before any variable changes."""
        own = list(self._trainable_weights) + list(self._non_trainable_weights)
        if len(store) != len(own):
            raise ValueError(f"Layer {self.name!r} expected {len(own)} variables, but received "
                             f"{len(store)} variables during loading. Expected: "
                             f"{[v.name for v in own]}")
        _assign_checked(self.name, own, [store[str(i)] for i in range(len(own))])

    def count_params(self):
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer {self.name!r}, but the "
                             "layer isn't built. Build it by calling it on data first.")
        return int(sum(np.prod(v.shape, dtype=np.int64) for v in self.weights))

    # -- building and calling ---------------------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        """The output shape for an input shape; by default found by running the layer on zeros
        (unknown dimensions taken as 1) and putting an unknown batch dimension back."""
        zeros = lambda s: constant(np.zeros([1 if d is None else d for d in s],  # noqa: E731
                                            self._dtype.as_numpy_dtype))
        multi = is_shape_list(input_shape)
        probe = [zeros(s) for s in input_shape] if multi else zeros(input_shape)
        out = self(probe, training=False)
        batch_unknown = len((input_shape[0] if multi else input_shape) or ()) > 0 and (
            (input_shape[0] if multi else input_shape)[0] is None)
        return _output_shapes(out, batch_unknown)

    compute_output_shape._probes = True  # compute_output_spec probes too (call_variants.py)

    def _maybe_build(self, inputs):
        if self.built:
            return
        self._build_from_shape([_shape_of(x) for x in inputs] if isinstance(
            inputs, (list, tuple)) else _shape_of(inputs))

    def _build_from_shape(self, input_shape):
        if self.built:
            return
        self._build_input_shape = input_shape
        self.build(input_shape)
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def _takes_training(self):
        cls = type(self)
        flag = cls.__dict__.get("_call_takes_training_flag")
        if flag is None:
            params = inspect.signature(self.call).parameters
            flag = "training" in params or any(
                p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
            cls._call_takes_training_flag = flag
        return flag

    def _cast_inputs(self, inputs):
        if not self._autocast:
            return inputs
        target = dtypes.as_dtype(self.compute_dtype)

        def cast_one(x):
            if isinstance(x, Tensor):
                return cast(x, target) if x.dtype.is_floating and x.dtype is not target else x
            if isinstance(x, np.ndarray) or isinstance(x, (float, list)):
                array = np.asarray(x)
                if array.dtype.kind == "f":
                    return constant(array.astype(target.as_numpy_dtype, copy=False))
                return constant(array)
            return x
        if isinstance(inputs, (list, tuple)):
            return type(inputs)(cast_one(x) for x in inputs)
        return cast_one(inputs)

    def _takes_mask(self):
        cls = type(self)
        flag = cls.__dict__.get("_call_takes_mask_flag")
        if flag is None:
            flag = "mask" in inspect.signature(self.call).parameters
            cls._call_takes_mask_flag = flag
        return flag

    def __call__(self, inputs, *args, **kwargs):
        training = kwargs.pop("training", None)
        if isinstance(inputs, KerasTensor) or (isinstance(inputs, (list, tuple)) and any(
                isinstance(x, KerasTensor) for x in inputs)):
            return symbolic_call(self, inputs, args, kwargs, training)
        if training is None:
            training = call_context.training
        inputs = self._cast_inputs(inputs)
        if not self.built:
            self._maybe_build(inputs)
        if self._takes_training():
            kwargs["training"] = training
        previous_mask = kwargs.get("mask")
        if previous_mask is None:
            previous_mask = masking.get_mask(inputs)
            if previous_mask is not None and self._takes_mask():
                kwargs["mask"] = previous_mask
        outer = call_context.training
        call_context.training = training
        if call_context.depth == 0:
            self._clear_losses()
        call_context.depth += 1
        try:
            with name_scope(self, self.name):
                if self.__dict__.get("_remat_mode") is None:
                    outputs = self._policy_call(inputs, args, kwargs)
                else:
                    outputs = self._remat_call(inputs, args, kwargs)
        finally:
            call_context.training = outer
            call_context.depth -= 1
        if self.activity_regularizer is not None:
            self._add_activity_losses(outputs)
        if self.supports_masking:
            masking.set_output_masks(self, inputs, outputs, previous_mask)
        elif previous_mask is not None and not self.__dict__.get("_mask_warned"):
            self.__dict__["_mask_warned"] = True
            warnings.warn(f"Layer '{self.name}' (of type {type(self).__name__}) was passed an "
                          "input with a mask attached to it. However, this layer does not "
                          "support masking and will therefore destroy the mask information. "
                          "Downstream layers will not see the mask.", stacklevel=2)
        if self._output_shape is None:
            self._record_output_shape(outputs)
        return outputs

    def _add_activity_losses(self, outputs):
        for output in outputs if isinstance(outputs, (list, tuple)) else [outputs]:
            if not isinstance(output, Tensor):
                continue
            loss = self.activity_regularizer(output)
            if output.shape.rank:
                loss = loss / cast(shape_of(output)[0], loss.dtype)
            self.add_loss(loss)

    def _record_output_shape(self, outputs):
        try:
            self._output_shape = _output_shapes(outputs, True)
        except (AttributeError, TypeError):
            pass

    # -- config and checkpoints -------------------------------------------------------------------
    def get_config(self):
        """Keras 3's base config: name, trainable, dtype (and the activity regularizer)."""
        config = {"name": self.name, "trainable": self.trainable, "dtype": self._dtype_policy.name}
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = regularizers_module.serialize(
                self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**_standard_config(config))

    def get_build_config(self):
        if self._build_input_shape is None:
            return None
        return {"input_shape": _shape_config(self._build_input_shape)}

    def build_from_config(self, config):
        shape = config.get("input_shape") if config else None
        if shape is not None and not self.built:
            self._build_from_shape(_shape_from_config(shape))

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} name={self.name!r}>"


def _assign_checked(layer_name, variables, values):
    """Assign `values` to `variables` after checking every shape (nothing changes on a
    mismatch)."""
    arrays = []
    for variable, value in zip(variables, values):
        value = np.asarray(value)
        if tuple(value.shape) != tuple(variable.shape):
            raise ValueError(f"Layer {layer_name!r} weight shape {tuple(variable.shape)} "
                             f"({variable.name}) is not compatible with provided weight "
                             f"shape {tuple(value.shape)}.")
        arrays.append(value.astype(variable.dtype.as_numpy_dtype))
    for variable, value in zip(variables, arrays):
        variable.assign(value)
