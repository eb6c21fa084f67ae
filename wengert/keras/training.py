"""`Model.compile / fit / evaluate / predict` and the steps they run (the loops over the batches
are loops.py's, the batches data_adapter.py's, the tracing of the steps steps.py's).

One built-in train step is the TensorFlow 2 recipe, written with wengert ops:

    with GradientTape() as tape:
        y_pred = model(x, training=True)
        loss = model.compute_loss(x, y, y_pred, sample_weight)   # compiled loss + model.losses
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

Unless `run_eagerly=True`, the step is traced by `wengert.function` (one trace per batch shape)
and replayed. Dropout masks are drawn in Python for every batch from each Dropout layer's
generator and fed to the step, so both modes agree. The built-in steps update the compiled
metrics after each step; the logged "loss" is the batch-size-weighted mean of the batch losses
(Python floats, copied into the loss tracker after each epoch). PyDatasets: utils/py_dataset.py.

A subclass's own `train_step(data)` / `test_step(data)` / `predict_step(data)` is called with
each batch in Keras's layout and traced the same way (steps.py); it uses Keras 3's API:
`compute_loss`, `compute_metrics`, `metrics` (the loss tracker `Mean("loss")`, the compiled
metrics' tracker and the Metric attributes of the model and its layers, all reset at each epoch
by `reset_metrics`), `get_metrics_result`, and the default `train_step` / `test_step`, which
update those trackers inside the step as Keras 3's do. `compile()` without a loss is legal: the
step then computes its own, or the model's `add_loss` terms are the loss. fit's `class_weight`
becomes per-row sample weights (data_adapter.py).
"""
import math
import warnings

import numpy as np

from ..autodiff.tape import GradientTape
from ..framework.tensor import constant
from ..ops.creation_ops import shape as shape_of
from ..ops.broadcast_ops import add_n
from ..ops.cast_ops import cast
from . import backend, config as keras_config, data_adapter, distributed, loops
from .compile_loss import CompileLoss, is_multi, loss_object as _loss_object
from .compile_metrics import CompileMetrics, attribute_metrics
from .data_adapter import (as_tensors, cast_floats, num_samples, pack_x_y_sample_weight, take,
                           to_numpy, unpack_x_y_sample_weight)
from .layers.base import call_context
from .layers.core import Dropout
from .metrics.metric import Mean
from .mixed_precision import compile_optimizer
from .steps import Step, StepError, UserSteps, check_scope_names
from .utils.py_dataset import adapt_py_dataset

__all__ = ["TrainingMixin"]

_NOT_COMPILED = ("You must compile your model before training/testing. Use "
                 "`model.compile(optimizer, loss)`.")


_STEP_NAMES = {"fit": "train_step", "evaluate": "test_step", "predict": "predict_step"}


def _defines_call(model):
    """Whether the model's class (not Model itself) defines `call`."""
    owner = next(k for k in type(model).__mro__ if "call" in vars(k))
    return owner.__name__ != "Model" or owner.__module__ != "wengert.keras.models"


class _CompiledMetrics:
    def __init__(self, model):
        self._model = model

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._model._update_metrics(y_true, y_pred, sample_weight)

    @property
    def metrics(self):
        return self._model._compiled_metrics


class TrainingMixin:
    """compile / fit / evaluate / predict for `Model` (see the module docstring)."""

    # -- compile --------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, **kwargs):
        if kwargs:
            raise TypeError(f"compile: unexpected arguments {sorted(kwargs)}.")
        self.optimizer = compile_optimizer(self, optimizer)  # LossScaleOptimizer when mixed
        names = self._compile_output_names(loss)
        self._compile_loss = None
        self._per_output = is_multi(loss, loss_weights, metrics, len(names))
        if self._per_output:
            self._compile_loss = CompileLoss(loss, loss_weights, names) if loss is not None \
                else None
            per_loss = self._compile_loss._losses if self._compile_loss else [None] * len(names)
            fn = None
        else:
            names, per_loss, fn = None, None, _loss_object(loss)
        self.loss = loss
        self._compile_spec = {"metrics": metrics, "loss_weights": loss_weights,
                              "weighted_metrics": weighted_metrics}
        self._loss_object = fn
        self._metric_ids = list(metrics or []) + list(weighted_metrics or []) if isinstance(
            metrics or [], (list, tuple)) else [metrics]
        self._loss_tracker = Mean(name="loss")
        self._compile_metrics = None  # resolved on the first batch (needs the shapes)
        if metrics or weighted_metrics:
            self._compile_metrics = CompileMetrics(metrics, weighted_metrics, fn, names, per_loss)
        self.run_eagerly = bool(run_eagerly)
        self._is_compiled = True
        distributed.capture_strategy(self)  # tf.distribute: fit/evaluate across replicas
        self._reset_steps()
        self.train_function = self.test_function = self.predict_function = None  # Keras's

    def _compile_output_names(self, loss):
        """The names of the model's outputs for per-output losses and metrics."""
        names = getattr(self, "output_names", None)
        if names:
            return list(names)
        if isinstance(loss, dict):
            return list(loss)
        return [f"output_{i + 1}" for i in range(len(loss))] if isinstance(
            loss, (list, tuple)) else ["output_1"]

    def _keras_steps(self):
        """Whether the built-in steps run as Keras 3 writes them (per-output losses and metrics
        updated inside the traced step) rather than the single-output fast path."""
        return getattr(self, "_per_output", False)

    def _reset_steps(self):
        self._train_step_fn = self._test_step_fn = self._predict_step_fn = None
        self._user_steps = None

    @property
    def _compiled_metrics(self):
        container = getattr(self, "_compile_metrics", None)
        return container.all() if container is not None else []

    @property
    def metrics(self):
        """The loss tracker and the compiled metrics (after compile), then the Metric objects
        the model and its layers hold as attributes, as Keras 3 lists them."""
        own = []
        if getattr(self, "_is_compiled", False):
            own.append(self._loss_tracker)
            if self._compile_metrics is not None:
                own.append(self._compile_metrics)
            if getattr(self, "_compile_loss", None) is not None:
                own.extend(self._compile_loss.metrics)
        layers = [layer for layer in self._flatten_layers()
                  if not isinstance(layer, TrainingMixin)]  # a sub-model's trackers are its own
        return own + attribute_metrics(self, layers)

    def reset_metrics(self):
        """Reset every tracker of `metrics` (fit does at each epoch, evaluate at its start)."""
        self._loss_total, self._loss_count = 0.0, 0
        for m in self.metrics:
            m.reset_state()

    def get_metrics_result(self):
        """{name: result} of every tracker of `metrics` (CompileMetrics' dict merged in)."""
        logs = {}
        for m in self.metrics:
            result = m.result()
            if isinstance(result, dict):
                logs.update(result)
            else:
                logs[m.name] = result
        return logs

    @property
    def distribute_strategy(self):
        """The tf.distribute strategy the model was compiled under (the default one if none)."""
        return getattr(self, "_distribute_strategy", None) or distributed.get_strategy()

    @property
    def metrics_names(self):
        """The names of `metrics`, as Keras 3 gives them ("loss", "compile_metrics", ...)."""
        return [m.name for m in self.metrics]

    def _check_compiled(self):
        if not getattr(self, "_is_compiled", False):
            raise RuntimeError(_NOT_COMPILED)

    # -- losses and metrics in a step -----------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus `self.losses` (regularization and `add_loss` terms); an error
        when there is neither."""
        terms = []
        if getattr(self, "_loss_object", None) is not None:
            terms.append(self._loss_object(y, y_pred, sample_weight=sample_weight))
        elif getattr(self, "_compile_loss", None) is not None and self._compile_loss.has_loss:
            terms.append(self._compile_loss(y, y_pred, sample_weight))
        extra = self.losses
        if not terms and not extra:
            raise StepError("Model.compute_loss: no loss to compute: the model was compiled "
                             "without `loss=` and added no losses (add_loss). Pass a loss to "
                             "compile (e.g. loss='mse'), or override train_step to compute "
                             "your own.")
        dtype = terms[0].dtype if terms else extra[0].dtype
        return add_n(terms + [cast(term, dtype) for term in extra]) if len(
            terms) + len(extra) > 1 else (terms + extra)[0]

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Update the compiled metrics with (y, y_pred, sample_weight); the metrics' results."""
        if getattr(self, "_compile_metrics", None) is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def _track_loss(self, loss, x, y_pred):
        """The loss tracker's update with a batch loss weighted by the batch size."""
        rows = distributed.first_tensor(x) if x is not None else y_pred
        n = rows.shape[0] if rows.shape.rank else 1
        n = shape_of(rows)[0] if n is None else n
        self._loss_tracker.update_state(loss, sample_weight=cast(n, loss.dtype) if not
                                        isinstance(n, int) else float(n))

    def compiled_loss(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        """The compiled loss (Keras 2's `self.compiled_loss`, for custom train_step code);
        counted in the loss tracker's running "loss"."""
        loss = self._loss_object(y_true, y_pred, sample_weight=sample_weight)
        self._track_loss(loss, None, y_pred)
        return loss

    @property
    def compiled_metrics(self):
        """Keras 2's `self.compiled_metrics`: `update_state(y_true, y_pred, sample_weight)`."""
        return _CompiledMetrics(self)

    # -- the default steps ----------------------------------------------------------------------
    def _dropout_layers(self):
        return [layer for layer in self._flatten_layers()
                if isinstance(layer, Dropout) and layer.rate > 0.0]

    def _masks_for(self, batch_size):
        masks = []
        for layer in self._dropout_ids_layers:
            shape = (batch_size,) + tuple(layer._build_input_shape)[1:]
            masks.append(constant(layer.make_mask(shape, layer.compute_dtype)))
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
            scaled = self.optimizer.scale_loss(loss) if hasattr(self.optimizer, "scale_loss") \
                else loss  # a loss-scaling optimizer unscales the gradients it applies
        variables = self.trainable_variables
        if variables:
            grads = tape.gradient(scaled, variables)
            self.optimizer.apply_gradients(zip(grads, variables))
        else:
            warnings.warn("The model does not have any trainable weights.")
        return loss, y_pred

    def _test_step_body(self, x, y, sample_weight):
        y_pred = self(x, training=False)
        return self.compute_loss(x, y, y_pred, sample_weight, training=False), y_pred

    def _make_steps(self):
        compiled = not self.run_eagerly
        if compiled:
            check_scope_names(self)
        self._dropout_ids_layers = self._dropout_layers()
        self._train_step_fn = Step(
            lambda x, y, sw, masks: self._with_masks(masks, self._train_step_body, x, y, sw),
            compiled, "fit")
        self._test_step_fn = Step(
            lambda x, y, sw: self._test_step_body(x, y, sw), compiled, "evaluate")
        self._predict_step_fn = Step(lambda x: self(x, training=False), compiled, "predict")
        self._user_steps = UserSteps(self, compiled)

    def _callable(self):
        """Whether the model can be called to build it (a subclass may only override steps)."""
        return getattr(self, "_is_functional", False) or _defines_call(self)

    def _prepare(self, x):
        """Build the model from the first sample if needed and set up the step functions."""
        build = not self.built and self._callable()
        if build or self._train_step_fn is None:
            if build:
                self(as_tensors(take(x, slice(0, 1))), training=False)
            self._make_steps()

    def _data_dtype(self):
        variables = self.weights
        return variables[0].dtype.as_numpy_dtype if variables else np.dtype(backend.floatx())

    def _user_step(self, what):
        """Whether the model overrides the step of `what` (fit, evaluate or predict)."""
        name = _STEP_NAMES[what]
        return getattr(type(self), name) is not getattr(TrainingMixin, name)

    def test_step(self, data):
        """One evaluation step on a batch `data` in Keras's layout; returns the logs (the loss
        tracker and metrics), as Keras 3's default."""
        x, y, sw = unpack_x_y_sample_weight(data)
        loss, y_pred = self._test_step_body(x, y, sw)
        self._track_loss(loss, x, y_pred)
        return self.compute_metrics(x, y, y_pred, sw)

    def predict_step(self, data):
        """The outputs for one batch `data` (x, or a tuple whose first entry is x)."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def train_step(self, data):
        """One optimization step on a batch `data` in Keras's layout (x, (x, y) or
        (x, y, sample_weight)); returns the logs, as Keras 3's default. Override it for
        custom training logic: fit traces it like the default step."""
        x, y, sw = unpack_x_y_sample_weight(data)
        loss, y_pred = self._train_step_body(x, y, sw)
        self._track_loss(loss, x, y_pred)
        return self.compute_metrics(x, y, y_pred, sw)

    # -- running statistics of the built-in steps -----------------------------------------------
    def _reset_trackers(self):
        self.reset_metrics()

    def _update_trackers(self, loss, y, y_pred, sample_weight):
        n = int(y_pred.shape[0]) if y_pred.shape.rank else 1
        self._loss_total += float(loss) * distributed.loss_rows(self, n)
        self._loss_count += n
        self._update_metrics(y, y_pred, sample_weight)

    def _sync_loss_tracker(self):
        """The loss tracker holds the built-in steps' running loss (kept in Python floats)."""
        if getattr(self, "_loss_count", 0):
            dtype = self._loss_tracker.total.dtype.as_numpy_dtype
            self._loss_tracker.total.assign(np.asarray(self._loss_total, dtype))
            self._loss_tracker.count.assign(np.asarray(self._loss_count, dtype))

    def _logs(self):
        if distributed.strategy_of(self) is not None:
            return distributed.reduced_logs(self)
        logs = {"loss": self._loss_total / max(self._loss_count, 1)}
        for m in self._compiled_metrics:
            logs[m.name] = float(m.result())
        return logs

    def _update_metrics(self, y, y_pred, sample_weight):
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)

    def _run_train_batch(self, x, y, sw):
        if self._user_step("fit") or self._keras_steps():
            return self._user_steps.run_train(as_tensors(pack_x_y_sample_weight(x, y, sw)))
        n = num_samples(x)
        xt, yt, swt = as_tensors(x), as_tensors(y), as_tensors(sw)
        loss, y_pred = distributed.run_step(self, self._train_step_fn, xt, yt, swt,
                                            self._masks_for(n))
        self._update_trackers(loss, yt, y_pred, swt)
        return self._logs()

    def _run_test_batch(self, xt, yt, swt):
        """evaluate's step on one batch of tensors: the user's test_step when overridden."""
        if self._user_step("evaluate") or self._keras_steps():
            return self._user_steps.run_test(pack_x_y_sample_weight(xt, yt, swt))
        loss, y_pred = distributed.run_step(self, self._test_step_fn, xt, yt, swt)
        self._update_trackers(loss, yt, y_pred, swt)
        return self._logs()

    def _run_predict_batch(self, xt):
        """predict's step on one batch: the user's predict_step when overridden."""
        if self._user_step("predict"):
            return self._user_steps.predict(pack_x_y_sample_weight(xt))
        return self._predict_step_fn(xt)

    # -- fit, evaluate, predict ----------------------------------------------------------------
    @distributed.in_strategy_scope
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None,
            validation_batch_size=None, validation_freq=1, **kwargs):
        """Train for `epochs` passes over (x, y) in batches; returns the History."""
        if set(kwargs) - {"validation_steps"}:
            raise TypeError(f"fit: unexpected arguments {sorted(kwargs)}.")
        self._check_compiled()
        epochs, steps_per_epoch = keras_config.fit_limits(epochs, steps_per_epoch)
        x = adapt_py_dataset(x, shuffle)
        if data_adapter.is_dataset(x):
            if y is not None:
                raise ValueError("fit: `y` must not be given when x is a dataset (its elements "
                                 "are (x, y) batches).")
            steps = data_adapter.dataset_steps(x, steps_per_epoch)
            epoch_batches = data_adapter.fit_dataset_batches(self, x, steps_per_epoch,
                                                             class_weight)
            validate = self._validation(validation_data, None, kwargs.get("validation_steps"))
        else:
            if x is None:
                raise ValueError("fit needs arrays x (and y unless the model computes its own "
                                 "loss), or a tf.data.Dataset of batches.")
            x, y, sample_weight = to_numpy(x), to_numpy(y), to_numpy(sample_weight)
            sample_weight = data_adapter.class_weights(y, class_weight, sample_weight)
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
        if y is not None and num_samples(y) != n:
            raise ValueError(f"Data cardinality is ambiguous: x has {n} samples but y has "
                             f"{num_samples(y)}; make sure all arrays contain the same number "
                             "of samples.")
        return x, y

    def _validation(self, data, batch_size, steps):
        """fit's validation: a function giving the logs of evaluating `data` (arrays in batches
        of batch_size, or at most `steps` batches of a dataset); None without data."""
        if data is None:
            return None

        def validate(callbacks):
            if data_adapter.is_dataset(data):
                return self._evaluate_dataset(data, 0, callbacks, steps, True)
            vx, vy, vsw = data_adapter.unpack_validation(data)
            return self.evaluate(vx, vy, batch_size=batch_size, sample_weight=vsw, verbose=0,
                                 callbacks=callbacks, return_dict=True)
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
        x = adapt_py_dataset(x)
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
        x = adapt_py_dataset(x)
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
