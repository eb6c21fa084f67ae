"""`Model.compile / fit / evaluate / predict` and the steps they run (the loops over the batches
are loops.py's, the batches data_adapter.py's).

One train step is the TensorFlow 2 recipe, written with wengert ops:

    with GradientTape() as tape:
        y_pred = model(x, training=True)
        loss = loss_fn(y, y_pred, sample_weight)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

Unless compiled with `run_eagerly=True`, the step is traced into a graph by `wengert.function`
(one trace per batch shape, so usually two: full batches and the last one) and replayed for
every batch; if tracing fails the loop warns once and runs the step eagerly. Dropout masks are
drawn on the Python side for every batch, from each Dropout layer's own generator, and fed to
the step as arguments, so the traced step sees fresh masks and both modes compute the same
numbers. Metrics are updated after each step from its predictions; the logged "loss" is the
running mean of the batch losses weighted by batch size, as in Keras.
"""
import math
import warnings

import numpy as np

from .. import optimizers
from ..autodiff.tape import GradientTape
from ..framework.tensor import constant
from ..graph.graph import check_scope_name
from ..ops.broadcast_ops import add_n
from ..ops.cast_ops import cast
from ..tracing.function import function
from . import (backend, data_adapter, distributed, loops, losses as losses_module,
               metrics as metrics_module)
from .data_adapter import as_tensors, cast_floats, num_samples, take, to_numpy
from .layers.base import call_context
from .layers.core import Dropout
from .losses.loss import LossFunctionWrapper

__all__ = ["TrainingMixin"]

_NOT_COMPILED = ("You must compile your model before training/testing. Use "
                 "`model.compile(optimizer, loss)`.")


# -- compiled steps ---------------------------------------------------------------------------
class _Step:
    """A step function run through `wengert.function` (traced once per batch shape), or
    eagerly when asked to or when the first trace fails.

    Only a failure while tracing falls back to eager execution: tracing builds a graph and
    changes nothing. Once the step is traced, a failure while it runs is reported as it is,
    never run again eagerly: the step may already have assigned variables (an optimizer's
    update, a layer's statistics), and a second run would apply them twice."""

    def __init__(self, fn, compiled, what):
        self.fn = fn
        self.traced = function(fn) if compiled else None
        self.proven = False
        self.what = what

    def __call__(self, *args):
        if self.traced is None:
            return self.fn(*args)
        if not self.proven:
            try:
                self.traced.get_concrete_function(*args)  # traces; nothing runs
            except Exception as err:  # noqa: BLE001 - any tracing failure falls back to eager
                self.traced = None
                warnings.warn(f"Model.{self.what}: the step could not be compiled with "
                              f"wengert.function ({type(err).__name__}: {err}); running it "
                              "eagerly (pass run_eagerly=True to compile to skip the attempt).",
                              stacklevel=4)
                return self.fn(*args)
            self.proven = True
        return self.traced(*args)


def _check_scope_names(model):
    """A compiled step builds a graph, in which TensorFlow opens a name scope per model and
    layer: names it does not accept as scopes raise ValueError there, as TF's compiled fit,
    evaluate and predict do (run_eagerly=True accepts any name, as TF does)."""
    check_scope_name(model.name, root=True)
    for layer in model.submodules:
        check_scope_name(getattr(layer, "name", ""), root=False)


def _resolve_metric(identifier, y_true, y_pred, loss):
    """Keras's choice for "accuracy"/"acc": binary when the prediction has one column, sparse
    when the labels have one axis fewer (or a last axis of 1), categorical otherwise."""
    if identifier not in ("accuracy", "acc"):
        return metrics_module.get(identifier)
    t_shape, p_shape = tuple(np.shape(y_true)), tuple(y_pred.shape)
    p_last = p_shape[-1] if p_shape else None
    t_last = t_shape[-1] if t_shape else None
    fn = getattr(loss, "fn", loss)
    if fn is losses_module.binary_crossentropy or p_last == 1:
        cls = metrics_module.BinaryAccuracy
    elif fn is losses_module.sparse_categorical_crossentropy or len(t_shape) < len(p_shape) or (
            t_last == 1 and p_last is not None and p_last > 1):
        cls = metrics_module.SparseCategoricalAccuracy
    else:
        cls = metrics_module.CategoricalAccuracy
    return cls(name=identifier)


class _CompiledMetrics:
    def __init__(self, model):
        self._model = model

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._model._update_metrics(y_true, y_pred, sample_weight)

    @property
    def metrics(self):
        return self._model.metrics


class TrainingMixin:
    """compile / fit / evaluate / predict for `Model` (see the module docstring)."""

    # -- compile --------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, **kwargs):
        if kwargs:
            raise TypeError(f"compile: unexpected arguments {sorted(kwargs)}.")
        if isinstance(loss, (dict, list)) or loss_weights is not None:
            raise NotImplementedError("compile: one loss for a single-output model is "
                                      "supported; multi-output losses are not available.")
        self.optimizer = optimizers.get(optimizer) if isinstance(optimizer, str) else optimizer
        if self.optimizer is not None and not hasattr(self.optimizer, "apply_gradients"):
            self.optimizer = optimizers.get(self.optimizer)
        self.loss = loss
        fn = losses_module.get(loss)
        if fn is not None and not isinstance(fn, losses_module.Loss):
            fn = LossFunctionWrapper(fn)
        self._loss_object = fn
        self._metric_ids = list(metrics or []) + list(weighted_metrics or [])
        self._compiled_metrics = None  # resolved on the first batch (needs the shapes)
        self.run_eagerly = bool(run_eagerly)
        self._is_compiled = True
        distributed.capture_strategy(self)  # tf.distribute: fit/evaluate across replicas
        self._reset_steps()

    def _reset_steps(self):
        self._train_step_fn = self._test_step_fn = self._predict_step_fn = None

    @property
    def metrics(self):
        return list(self._compiled_metrics or [])

    @property
    def distribute_strategy(self):
        """The tf.distribute strategy the model was compiled under (the default one if none)."""
        return getattr(self, "_distribute_strategy", None) or distributed.get_strategy()

    @property
    def metrics_names(self):
        return ["loss"] + [m.name for m in self._compiled_metrics or []]

    def _check_compiled(self):
        if not getattr(self, "_is_compiled", False):
            raise RuntimeError(_NOT_COMPILED)
        if self._loss_object is None:
            raise ValueError("No loss to compute: pass `loss=` to compile (e.g. "
                             "loss='sparse_categorical_crossentropy').")

    # -- steps ----------------------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus `self.losses` (regularization and `add_loss` terms)."""
        loss = self._loss_object(y, y_pred, sample_weight=sample_weight)
        extra = self.losses
        if extra:
            loss = loss + add_n([cast(term, loss.dtype) for term in extra])
        return loss

    def _dropout_layers(self):
        return [layer for layer in self._flatten_layers()
                if isinstance(layer, Dropout) and layer.rate > 0.0]

    def _masks_for(self, batch_size):
        masks = []
        for layer in self._dropout_ids_layers:
            shape = (batch_size,) + tuple(layer._build_input_shape)[1:]
            masks.append(constant(layer.make_mask(shape, layer._dtype.as_numpy_dtype)))
        return masks

    def _with_masks(self, masks, fn, *args):
        call_context.dropout_masks = {id(layer): m for layer, m in
                                      zip(self._dropout_ids_layers, masks)}
        try:
            return fn(*args)
        finally:
            call_context.dropout_masks = None

    def _train_step_body(self, x, y, sample_weight):
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return loss, y_pred

    def _make_steps(self):
        compiled = not self.run_eagerly
        if compiled:
            _check_scope_names(self)
        self._dropout_ids_layers = self._dropout_layers()
        self._train_step_fn = _Step(
            lambda x, y, sw, masks: self._with_masks(masks, self._train_step_body, x, y, sw),
            compiled, "fit")
        self._test_step_fn = _Step(
            lambda x, y, sw: self._test_step_body(x, y, sw), compiled, "evaluate")
        self._predict_step_fn = _Step(lambda x: self(x, training=False), compiled, "predict")

    def _test_step_body(self, x, y, sample_weight):
        y_pred = self(x, training=False)
        return self.compute_loss(x, y, y_pred, sample_weight), y_pred

    def _prepare(self, x):
        """Build the model from the first sample if needed and set up the step functions."""
        if not self.built or self._train_step_fn is None:
            if not self.built:
                self(as_tensors(take(x, slice(0, 1))), training=False)
            self._make_steps()

    def _data_dtype(self):
        variables = self.weights
        return variables[0].dtype.as_numpy_dtype if variables else np.dtype(backend.floatx())

    def _user_train_step(self):
        return type(self).train_step is not TrainingMixin.train_step

    def _run_test_batch(self, xt, yt, swt):
        """evaluate's step on one batch of tensors: the user's test_step when overridden."""
        if type(self).test_step is not TrainingMixin.test_step:
            logs = self.test_step((xt, yt) if swt is None else (xt, yt, swt))
            return {k: float(v) for k, v in (logs or {}).items()}
        loss, y_pred = distributed.run_step(self, self._test_step_fn, xt, yt, swt)
        self._update_trackers(loss, yt, y_pred, swt)
        return self._logs()

    def _run_predict_batch(self, xt):
        """predict's step on one batch: the user's predict_step when overridden."""
        if type(self).predict_step is not TrainingMixin.predict_step:
            return self.predict_step(xt)
        return self._predict_step_fn(xt)

    def test_step(self, data):
        """One evaluation step on `data` = (x, y) or (x, y, sample_weight); returns logs.
        Override it for custom evaluation (it then runs eagerly), as in Keras."""
        x, y, sw = (tuple(data) + (None,))[:3]
        loss, y_pred = self._test_step_body(x, y, sw)
        self._update_trackers(loss, y, y_pred, sw)
        return self._logs()

    def predict_step(self, data):
        """The outputs for one batch `data` (x, or a tuple whose first entry is x). Override it
        to post-process predictions, as in Keras."""
        x = data[0] if isinstance(data, tuple) else data
        return self(x, training=False)

    def train_step(self, data):
        """One optimization step on `data` = (x, y) or (x, y, sample_weight); returns logs.
        Override it for custom training logic (it then runs eagerly)."""
        x, y, sw = (tuple(data) + (None,))[:3]
        loss, y_pred = self._train_step_body(x, y, sw)
        self._update_trackers(loss, y, y_pred, sw)
        return self._logs()

    # -- running statistics -------------------------------------------------------------------
    def _reset_trackers(self):
        self._loss_total, self._loss_count = 0.0, 0
        for m in self._compiled_metrics or []:
            m.reset_state()

    def _update_trackers(self, loss, y, y_pred, sample_weight):
        n = int(y_pred.shape[0]) if y_pred.shape.rank else 1
        self._loss_total += float(loss) * n * distributed.replicas(self)  # unscaled (see there)
        self._loss_count += n
        self._update_metrics(y, y_pred, sample_weight)

    def _logs(self):
        if distributed.strategy_of(self) is not None:
            return distributed.reduced_logs(self)
        logs = {"loss": self._loss_total / max(self._loss_count, 1)}
        for m in self._compiled_metrics or []:
            logs[m.name] = float(m.result())
        return logs

    def compiled_loss(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        """The compiled loss (Keras 2's `self.compiled_loss`, for custom train_step code);
        counted in the logged running "loss"."""
        loss = self._loss_object(y_true, y_pred, sample_weight=sample_weight)
        n = int(y_pred.shape[0]) if y_pred.shape.rank else 1
        self._loss_total += float(loss) * n
        self._loss_count += n
        return loss

    @property
    def compiled_metrics(self):
        """Keras 2's `self.compiled_metrics`: `update_state(y_true, y_pred, sample_weight)`."""
        return _CompiledMetrics(self)

    def _update_metrics(self, y, y_pred, sample_weight):
        if self._compiled_metrics is None:
            self._compiled_metrics = [_resolve_metric(m, y, y_pred, self._loss_object)
                                      for m in self._metric_ids]
        for m in self._compiled_metrics:
            m.update_state(y, y_pred, sample_weight)

    def _run_train_batch(self, x, y, sw):
        if self._user_train_step():
            data = as_tensors(x), as_tensors(y)
            logs = self.train_step(data if sw is None else data + (as_tensors(sw),))
            return {k: float(v) for k, v in (logs or {}).items()}
        n = num_samples(x)
        xt, yt, swt = as_tensors(x), as_tensors(y), as_tensors(sw)
        loss, y_pred = distributed.run_step(self, self._train_step_fn, xt, yt, swt,
                                            self._masks_for(n))
        self._update_trackers(loss, yt, y_pred, swt)
        return self._logs()

    # -- fit, evaluate, predict ----------------------------------------------------------------
    @distributed.in_strategy_scope
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None,
            validation_batch_size=None, validation_freq=1, **kwargs):
        """Train for `epochs` passes over (x, y) in batches; returns the History."""
        if set(kwargs) - {"validation_steps"}:
            raise TypeError(f"fit: unexpected arguments {sorted(kwargs)}.")
        if class_weight is not None:
            raise NotImplementedError("fit: class_weight is not available; pass sample_weight.")
        self._check_compiled()
        if data_adapter.is_dataset(x):
            if y is not None:
                raise ValueError("fit: `y` must not be given when x is a dataset (its elements "
                                 "are (x, y) batches).")
            steps = data_adapter.dataset_steps(x, steps_per_epoch)
            epoch_batches = data_adapter.fit_dataset_batches(self, x, steps_per_epoch)
            validate = self._validation(validation_data, None, kwargs.get("validation_steps"))
        else:
            if x is None or y is None:
                raise ValueError("fit needs arrays x and y, or a tf.data.Dataset of (x, y) "
                                 "batches.")
            x, y, sample_weight = to_numpy(x), to_numpy(y), to_numpy(sample_weight)
            if validation_data is None and validation_split:
                (x, y, sample_weight), validation_data = data_adapter.split_validation(
                    x, y, sample_weight, validation_split)
            x, y = self._prepare_arrays(x, y)
            batch_size = batch_size or 32
            steps = steps_per_epoch or math.ceil(num_samples(x) / batch_size)
            # batch_size is global under a strategy: each rank takes its share
            epoch_batches = data_adapter.fit_array_batches(
                x, y, sample_weight, batch_size, steps, shuffle, distributed.strategy_of(self))
            validate = self._validation(validation_data, validation_batch_size or batch_size,
                                        kwargs.get("validation_steps"))
        return loops.fit_epochs(self, epoch_batches, epochs, initial_epoch, steps, verbose,
                                callbacks, validate, validation_freq)

    def _prepare_arrays(self, x, y):
        """Build the model on x if needed; x and y cast to its dtype, checked to match."""
        self._prepare(x)
        dtype = self._data_dtype()
        x, y = cast_floats(x, dtype), cast_floats(y, dtype)
        n = num_samples(x)
        if num_samples(y) != n:
            raise ValueError(f"Data cardinality is ambiguous: x has {n} samples but y has "
                             f"{num_samples(y)}; make sure all arrays contain the same number "
                             "of samples.")
        return x, y

    def _validation(self, data, batch_size, steps):
        """fit's validation: a function giving the logs of evaluating `data` (arrays in batches
        of batch_size, or at most `steps` batches of a dataset); None without data."""
        if data is None:
            return None

        def validate():
            if data_adapter.is_dataset(data):
                return self._evaluate_dataset(data, 0, None, steps, True)
            vx, vy, vsw = data_adapter.unpack_validation(data)
            return self.evaluate(vx, vy, batch_size=batch_size, sample_weight=vsw, verbose=0,
                                 return_dict=True)
        return validate

    def _evaluate_dataset(self, dataset, verbose, callbacks, steps, return_dict):
        return loops.evaluate_batches(
            self, data_adapter.evaluate_dataset_batches(self, dataset, steps),
            data_adapter.dataset_total(dataset, steps), verbose, callbacks, return_dict)

    @distributed.in_strategy_scope
    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        """The loss (and compiled metrics) over (x, y): a float, or [loss, metric, ...]."""
        self._check_compiled()
        if data_adapter.is_dataset(x):
            return self._evaluate_dataset(x, verbose, callbacks, steps, return_dict)
        x, y, sample_weight = to_numpy(x), to_numpy(y), to_numpy(sample_weight)
        self._prepare(x)
        dtype = self._data_dtype()
        x, y = cast_floats(x, dtype), cast_floats(y, dtype)
        batch_size = batch_size or 32
        total = steps or math.ceil(num_samples(x) / batch_size)
        batches = data_adapter.evaluate_array_batches(self, x, y, sample_weight, batch_size,
                                                      total)
        return loops.evaluate_batches(self, batches, total, verbose, callbacks, return_dict)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None, **kwargs):
        """The model's outputs for x, computed in batches, as NumPy arrays."""
        if data_adapter.is_dataset(x):
            return loops.predict_batches(
                self, data_adapter.predict_dataset_batches(self, x, steps),
                data_adapter.dataset_total(x, steps), verbose, callbacks)
        x = to_numpy(x)
        self._prepare(x)
        x = cast_floats(x, self._data_dtype())
        batch_size = batch_size or 32
        total = steps or math.ceil(num_samples(x) / batch_size)
        return loops.predict_batches(
            self, data_adapter.predict_array_batches(x, batch_size, total), total, verbose,
            callbacks)

    # -- single batches -------------------------------------------------------------------------
    def train_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True,
                       return_dict=False):
        self._check_compiled()
        x, y, sample_weight = to_numpy(x), to_numpy(y), to_numpy(sample_weight)
        self._prepare(x)
        dtype = self._data_dtype()
        if reset_metrics or not hasattr(self, "_loss_total"):
            self._reset_trackers()
        logs = self._run_train_batch(cast_floats(x, dtype), cast_floats(y, dtype),
                                     sample_weight)
        return logs if return_dict else (list(logs.values()) if len(logs) > 1 else logs["loss"])

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True,
                      return_dict=False):
        return self.evaluate(x, y, batch_size=num_samples(to_numpy(x)),
                             sample_weight=sample_weight, verbose=0, return_dict=return_dict)

    def predict_on_batch(self, x):
        x = to_numpy(x)
        return self.predict(x, batch_size=max(num_samples(x), 1), verbose=0)
