"""Keras 3's step functions of a model: `make_train_function`, `make_test_function`,
`make_predict_function` and the `train_function`, `test_function`, `predict_function` they set
(a mixin of Model).

As on Keras's TensorFlow backend, `train_function(iterator)` runs `steps_per_execution` steps
(one by default) on batches taken from `iterator` (each x, (x, y) or (x, y, sample_weight)) and
returns the last step's logs; `test_function` is the same for evaluation; `predict_function(data)`
takes a list of batches (each (x,) or x) and returns their outputs, concatenated along the batch
axis. Each step is the model's own: the compiled built-in step, or the user's `train_step` /
`test_step` / `predict_step` when the model overrides it (training.py), so a function made here
computes exactly what fit computes. `make_*_function(force=False)` builds the function once and
returns it (Keras returns None the first time; the function is also its `*_function`
attribute). fit, evaluate and predict run each batch through `self.train_function` (and the
others) after calling `make_*_function()`, so a model that overrides a make_*_function or sets
its own `train_function` is trained by it, as in Keras; the functions made here go straight to
the steps.

`model.loss(y, y_pred, sample_weight=None)` is Keras 3's deprecated method (compute_loss with
x=None); `compile(loss=...)` sets the instance attribute `loss`, which hides it, and a new model
has `loss` None, as in Keras.
"""
import warnings

import numpy as np

from .data_adapter import (as_tensors, cast_floats, pack_x_y_sample_weight, to_numpy,
                           unpack_x_y_sample_weight)

__all__ = ["StepFunctions"]


class _StepFunction:
    """A model's train or test function: fn(iterator) -> logs of the last step run."""

    def __init__(self, model, kind):
        self.model, self.kind = model, kind

    def __call__(self, iterator):
        model, logs = self.model, None
        steps = int(getattr(model, "steps_per_execution", 1) or 1)
        iterator = iter(iterator)
        for _ in range(steps):
            try:
                data = next(iterator)
            except StopIteration:
                break
            x, y, sw = unpack_x_y_sample_weight(data)
            logs = model._step_batch(self.kind, x, y, sw)
        if logs is None:
            raise StopIteration
        return logs


class _PredictFunction:
    """A model's predict function: fn([batch, ...]) -> the outputs of the batches."""

    def __init__(self, model):
        self.model = model

    def __call__(self, data):
        model = self.model
        outputs = []
        for batch in data:
            x = batch[0] if isinstance(batch, tuple) else batch
            outputs.append(model._step_batch("predict", x, None, None))
        if len(outputs) == 1:
            return outputs[0]
        return [np.concatenate([np.asarray(o) for o in parts]) for parts in zip(*outputs)] \
            if isinstance(outputs[0], (list, tuple)) else np.concatenate(
                [np.asarray(o) for o in outputs])


class StepFunctions:
    """make_train_function / make_test_function / make_predict_function, and `loss`."""

    train_function = test_function = predict_function = None

    def make_train_function(self, force=False):
        if self.train_function is None or force:
            self.train_function = _StepFunction(self, "train")
        return self.train_function

    def make_test_function(self, force=False):
        if self.test_function is None or force:
            self.test_function = _StepFunction(self, "test")
        return self.test_function

    def make_predict_function(self, force=False):
        if self.predict_function is None or force:
            self.predict_function = _PredictFunction(self)
        return self.predict_function

    def loss(self, y, y_pred, sample_weight=None):
        """Deprecated in Keras 3: compute_loss(x=None, y, y_pred, sample_weight)."""
        warnings.warn("`model.loss()` is deprecated. Instead, use `model.compute_loss(x, y, "
                      "y_pred, sample_weight, training)`.", stacklevel=2)
        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)

    def _step_batch(self, kind, x, y, sw):
        """One batch through the model's own step of `kind` (train, test or predict), set up
        as train_on_batch sets it up (the model built, the steps made, floats cast to the
        model's dtype, the trackers started)."""
        if kind != "predict":
            self._check_compiled()
        x, y, sw = to_numpy(x), to_numpy(y), to_numpy(sw)
        self._prepare(x)
        dtype = self._data_dtype()
        x, y = cast_floats(x, dtype), None if y is None else cast_floats(y, dtype)
        if kind == "predict":
            return self._run_predict_batch(as_tensors(x))
        if not hasattr(self, "_loss_total"):
            self._reset_trackers()
        if kind == "train":
            return self._run_train_batch(x, y, sw)
        return self._run_test_batch(as_tensors(x), as_tensors(y), as_tensors(sw))

    # -- how fit, evaluate and predict run a batch -------------------------------------------
    def _loop_batch(self, kind, x, y=None, sw=None):
        """A batch of fit / evaluate / predict (whose loop called make_*_function once, as
        Keras's do): through the model's `*_function` when it is not one made here (an
        override of make_*_function, or one set by the user)."""
        fn = getattr(self, f"{kind}_function")
        if kind == "predict":
            if isinstance(fn, _PredictFunction) or fn is None:
                return self._run_predict_batch(x)
            return fn([(x,)])
        if isinstance(fn, _StepFunction) or fn is None:
            return (self._run_train_batch if kind == "train" else self._run_test_batch)(x, y, sw)
        return fn(iter([pack_x_y_sample_weight(x, y, sw)]))

