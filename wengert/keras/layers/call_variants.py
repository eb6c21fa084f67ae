"""The other ways Keras 3 calls a layer than `layer(x)`: stateless_call, compute_output_spec,
symbolic_call, rematerialized_call (a mixin of Layer).

`stateless_call(trainable_variables, non_trainable_variables, *args, return_losses=False,
**kwargs)` runs the layer with its variables read from the two lists (1:1 with the layer's
`trainable_variables` and `non_trainable_variables`) inside a `keras.StatelessScope`, and
returns `(outputs, non_trainable_variables)` (with `losses` third when `return_losses`): the
new non-trainable values are the ones assigns in the call would have set (BatchNormalization's
moving statistics). The layer's own variables and losses are left as they were; the gradient of
the outputs flows to the tensors passed in (as on Keras's TensorFlow backend).

`compute_output_spec(*args, **kwargs)` is the KerasTensor (or structure of them) a call on
those arguments would return: from `compute_output_shape` when the layer defines one (dtype:
the compute dtype), else by running the layer on zeros of the inputs' shapes (unknown
dimensions taken as 1, an unknown batch dimension put back) inside a StatelessScope, which
gives the outputs' own dtypes. `symbolic_call(*args, **kwargs)` calls the layer on
KerasTensors, recording the node of a functional model, as `layer(keras_tensor)` does.

`rematerialized_call(layer_call, *args, **kwargs)` is Keras 3's hook for rematerialization:
it returns `layer_call` itself unless the layer has a remat mode (`self._remat_mode`, set by
keras.RematScope when the layer was made: keras/remat.py), in which case it returns
`layer_call` (or, in "activations" mode, the layer's activation) wrapped in `keras.remat`
(recompute_grad: the activations are recomputed in the backward pass instead of kept), as the
mode selects; `__call__` calls through it for a layer that has a mode.
"""
import math

import numpy as np

from ...framework import dtypes
from ...framework.tensor import Tensor, constant
from ...framework.tensor_shape import TensorShape
from .. import tree
from ..remat import remat
from ..stateless_scope import StatelessScope
from .keras_tensor import KerasTensor, is_shape_list, symbolic_call as _symbolic_call

__all__ = ["CallVariants"]


def _is_leaf_shape(shape):
    return isinstance(shape, TensorShape) or (isinstance(shape, (list, tuple)) and all(
        d is None or isinstance(d, (int, np.integer)) for d in shape))


def _specs_from_shapes(shapes, dtype):
    """KerasTensors of `dtype` for a shape, or a list/tuple/dict of shapes."""
    if _is_leaf_shape(shapes):
        return KerasTensor(tuple(TensorShape(shapes).as_list()), dtype)
    if isinstance(shapes, dict):
        return {k: _specs_from_shapes(v, dtype) for k, v in shapes.items()}
    return type(shapes)(KerasTensor(tuple(TensorShape(s).as_list()), dtype) for s in shapes)


def _zeros_like_spec(x):
    """Zeros with x's shape (unknown dimensions as 1) and dtype, for a probing call."""
    dtype = dtypes.as_dtype(getattr(x, "dtype", None) or np.asarray(x).dtype)
    shape = [1 if d is None else int(d) for d in TensorShape(getattr(x, "shape", np.shape(x)))]
    return constant(np.zeros(shape, dtype.as_numpy_dtype))


def _batch_unknown(x):
    shape = TensorShape(getattr(x, "shape", np.shape(x)))
    return bool(shape.rank) and tuple(shape)[0] is None


def _shapes_of(inputs):
    if isinstance(inputs, (list, tuple)):
        return [TensorShape(x.shape) for x in inputs]
    return TensorShape(inputs.shape)


class CallVariants:
    """Layer's stateless_call, compute_output_spec, symbolic_call and rematerialized_call."""

    def stateless_call(self, trainable_variables, non_trainable_variables, *args,
                       return_losses=False, **kwargs):
        """(outputs, new non-trainable values[, losses]) of a call with the variables read
        from the lists given; the layer's variables and losses are unchanged."""
        if not self.built:
            raise ValueError(f"To call stateless_call, {type(self).__name__} must be built "
                             "(i.e. its variables must have been already created). You can "
                             "build it by calling it on some data.")
        own_trainable, own_other = self.trainable_variables, self.non_trainable_variables
        for given, own, which in ((trainable_variables, own_trainable, "trainable_variables"),
                                  (non_trainable_variables, own_other,
                                   "non_trainable_variables")):
            if len(given) != len(own):
                raise ValueError(f"Argument `{which}` must be a list of tensors corresponding "
                                 f"1:1 to {type(self).__name__}().{which}. Received list with "
                                 f"length {len(given)}, but expected {len(own)} variables.")
        mapping = list(zip(own_trainable, trainable_variables)) + list(
            zip(own_other, non_trainable_variables))
        saved_losses = self._stash_losses()
        try:
            with StatelessScope(state_mapping=mapping, collect_losses=return_losses) as scope:
                outputs = self(*args, **kwargs)
                losses = list(self.losses) if return_losses else None
        finally:
            self._restore_losses(saved_losses)
        new_values = [scope.get_current_value(v) for v in own_other]
        if return_losses:
            return outputs, new_values, losses
        return outputs, new_values

    def _stash_losses(self):
        """{layer: its add_loss list} of this layer and those under it, emptied meanwhile."""
        saved = []
        for layer in [self] + list(self.submodules):
            own = layer.__dict__.get("_losses")
            if own is not None:
                saved.append((own, list(own)))
        return saved

    @staticmethod
    def _restore_losses(saved):
        for own, items in saved:
            own[:] = items

    def compute_output_spec(self, *args, **kwargs):
        """The KerasTensor(s) a call on these arguments returns (see the module docstring)."""
        if not args:
            raise TypeError(f"{type(self).__name__}.compute_output_spec needs the inputs "
                            "(KerasTensors or tensors) as its first argument.")
        inputs = args[0]
        rule = type(self).compute_output_shape
        if getattr(rule, "_probes", False) is False:
            shapes = self.compute_output_shape(_shapes_of(inputs))
            if isinstance(shapes, list) and not is_shape_list(shapes) and all(
                    d is None or isinstance(d, int) for d in shapes):
                shapes = tuple(shapes)
            return _specs_from_shapes(shapes, self.compute_dtype)
        multi = isinstance(inputs, (list, tuple))
        probe = [_zeros_like_spec(x) for x in inputs] if multi else _zeros_like_spec(inputs)
        unknown = _batch_unknown(inputs[0] if multi and inputs else inputs)
        kwargs = dict(kwargs)
        kwargs.setdefault("training", False)
        with StatelessScope():
            saved = self._stash_losses()
            try:
                outputs = self(probe, *args[1:], **kwargs)
            finally:
                self._restore_losses(saved)

        def spec(t):
            shape = tuple(TensorShape(t.shape).as_list())
            if unknown and shape:
                shape = (None,) + shape[1:]
            return KerasTensor(shape, t.dtype)
        return tree.map_structure(spec, outputs)

    def symbolic_call(self, *args, **kwargs):
        """Call the layer on KerasTensors, recording a functional node; returns KerasTensors."""
        training = kwargs.pop("training", None)
        if not args:
            raise TypeError(f"{type(self).__name__}.symbolic_call needs the inputs "
                            "(KerasTensors) as its first argument.")
        return _symbolic_call(self, args[0], args[1:], kwargs, training)

    def rematerialized_call(self, layer_call, *args, **kwargs):
        """`layer_call`, or it recomputed in the backward pass, as the layer's remat mode
        says (keras/remat.py); *args, **kwargs are the call's arguments."""
        mode = getattr(self, "_remat_mode", None)
        if not mode:
            return layer_call
        if mode.mode == "activations" and getattr(self, "activation", None) is not None:
            def with_remat_activation(*a, **k):
                original = self.activation
                self.activation = remat(original)
                try:
                    return layer_call(*a, **k)
                finally:
                    self.activation = original
            return with_remat_activation
        if mode.mode == "full" or (mode.mode == "list_of_layers"
                                   and self.name in (mode.layer_names or ())):
            return remat(layer_call)
        if mode.mode == "larger_than" and args:
            self.__dict__["_remat_mode"] = None  # the probe's own call is a plain one
            try:
                spec = self.compute_output_spec(*args, **kwargs)
            finally:
                self.__dict__["_remat_mode"] = mode
            size = sum(math.prod(d or 1 for d in t.shape.as_list())
                       for t in tree.flatten(spec) if isinstance(t, KerasTensor))
            if size and size > mode.output_size_threshold:
                return remat(layer_call)
        return layer_call

    def _remat_call(self, inputs, args, kwargs):
        """__call__'s call of `call` for a layer made in a RematScope: its tensors are the
        arguments of the (maybe) rematerialized function."""
        multi = isinstance(inputs, (list, tuple))
        flat = list(inputs) if multi else [inputs]
        if not all(isinstance(x, Tensor) for x in flat):
            return self._policy_call(inputs, args, kwargs)

        def run(*xs):
            return self._policy_call(type(inputs)(xs) if multi else xs[0], args, kwargs)
        return self.rematerialized_call(run, inputs)(*flat)
