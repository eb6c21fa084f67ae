"""The trackers behind `Model.metrics`, as Keras 3 lists them, and the logs a step returns.

After `compile(loss=..., metrics=[...], weighted_metrics=[...])` a model holds:

- the loss tracker, `Mean(name="loss")`: the running mean of the batch losses, each weighted by
  its batch size, so that after an epoch it is sum(loss_b * n_b) / sum(n_b);
- `CompileMetrics` (name "compile_metrics"), one tracker over the compiled metrics: its
  `update_state(y, y_pred, sample_weight)` updates each of `metrics` without the sample weights
  and each of `weighted_metrics` with them, and its `result()` is the dict {name: value}.
  With several outputs, `metrics` is a list of lists (one per output) or a dict keyed by output
  name (a flat list applies to every output), each output's metrics see its own targets and
  predictions, and their results are named "<output>_<metric>" (`out_b_accuracy`).
  The metrics are resolved from their names on the first update, when the shapes are known:
  "accuracy" is binary for one output column, sparse when the labels have one axis fewer than
  the predictions (or a last axis of 1), categorical otherwise.

`model.metrics` lists those two (when compiled), then the Metric objects the model and its layers
hold as attributes (a subclass's `self.loss_tracker = keras.metrics.Mean(name="loss")`), which
`fit` and `evaluate` reset at the start of every epoch and every evaluation.

A step's logs are flattened by `pythonify_logs`: a nested dict (CompileMetrics' result) merges
into the outer one, and every value that converts to a float becomes a Python float.
"""
import numpy as np

from . import losses as losses_module, metrics as metrics_module
from .compile_loss import flat_outputs, per_output
from .metrics.metric import Metric

__all__ = ["CompileMetrics", "resolve_metric", "attribute_metrics", "pythonify_logs",
           "check_logs"]


def resolve_metric(identifier, y_true, y_pred, loss):
    """Keras's choice for "accuracy"/"acc" (see the module docstring); other identifiers
    through keras.metrics' `named` (a name names the metric, as Keras's compile does)."""
    if identifier not in ("accuracy", "acc"):
        return metrics_module.registry.named(identifier)
    t_shape = tuple(y_true.shape) if hasattr(y_true, "shape") else np.shape(y_true)
    p_shape = tuple(y_pred.shape)
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


def _ids_per_output(spec, names, what):
    """The metric identifiers of each output: a dict by output name, a list of lists in output
    order, or one flat list for every output."""
    if spec is None:
        return [[] for _ in names]
    nested = isinstance(spec, dict) or any(isinstance(m, (list, tuple)) for m in spec)
    if len(names) > 1 and nested:
        entries = per_output(spec, names, what, default=[])
    else:
        entries = [spec] * len(names)
    return [[] if e is None else list(e) if isinstance(e, (list, tuple)) else [e]
            for e in entries]


class CompileMetrics:
    """The compiled metrics as one tracker (see the module docstring); with several outputs,
    each output's metrics see its own targets and predictions, logged as "<output>_<name>"."""

    name = "compile_metrics"

    def __init__(self, metrics, weighted_metrics, loss, output_names=None, losses=None):
        self._names = list(output_names or [None])
        self._ids = _ids_per_output(metrics, self._names, "metrics")
        self._weighted_ids = _ids_per_output(weighted_metrics, self._names, "weighted_metrics")
        self._losses = list(losses) if losses is not None else [loss] * len(self._names)
        self._entries = None
        self.metrics = None
        self.weighted = None

    @property
    def built(self):
        return self._entries is not None

    def build(self, y_true, y_pred):
        trues, preds = self._flat(y_true, "targets (y)"), self._flat(y_pred, "predictions")
        self._entries = []
        for weighted, ids in ((False, self._ids), (True, self._weighted_ids)):
            for i, output_ids in enumerate(ids):
                for identifier in output_ids:
                    metric = resolve_metric(identifier, trues[i], preds[i], self._losses[i])
                    self._entries.append((i, metric, weighted))
        self.metrics = [m for _, m, weighted in self._entries if not weighted]
        self.weighted = [m for _, m, weighted in self._entries if weighted]

    def _flat(self, values, what):
        return flat_outputs(values, self._names, what) if len(self._names) > 1 else [values]

    def all(self):
        """The resolved metrics, unweighted then weighted ([] before the first update)."""
        return list(self.metrics or []) + list(self.weighted or [])

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        trues, preds = self._flat(y_true, "targets (y)"), self._flat(y_pred, "predictions")
        for i, metric, weighted in self._entries:
            if weighted:
                metric.update_state(trues[i], preds[i], sample_weight)
            else:
                metric.update_state(trues[i], preds[i])

    def result(self):
        multi = len(self._names) > 1
        return {(f"{self._names[i]}_{m.name}" if multi else m.name): m.result()
                for i, m, _ in self._entries or []}

    def reset_state(self):
        for m in self.all():
            m.reset_state()

    reset_states = reset_state

    @property
    def variables(self):
        return [v for m in self.all() for v in m.variables]

    def __repr__(self):
        return f"<CompileMetrics {list(self.result()) or self._ids}>"


def attribute_metrics(model, layers):
    """The Metric objects held as attributes of the model and of `layers`, in assignment
    order, without repeats and without the model's own compiled trackers."""
    own = {id(getattr(model, "_loss_tracker", None)), id(getattr(model, "_compile_metrics",
                                                                  None))}
    found = []
    for holder in [model] + list(layers):
        for value in vars(holder).values():
            if isinstance(value, (Metric, CompileMetrics)) and id(value) not in own:
                own.add(id(value))
                found.append(value)
    return found


def check_logs(logs, method):
    """A step's result must be a dict of logs (None counts as none)."""
    if logs is None or isinstance(logs, dict):
        return
    raise TypeError(
        f"Model.{method} must return a dict of logs mapping names to values (tensors or Python "
        f"numbers), got {type(logs).__name__}. Return for instance `{{m.name: m.result() for m "
        f"in self.metrics}}`, or `{{\"loss\": loss}}`.")


def pythonify_logs(logs):
    """The logs flattened (nested dicts merged in) with floats for every convertible value."""
    out = {}
    for key, value in (logs or {}).items():
        if isinstance(value, dict):
            out.update(pythonify_logs(value))
            continue
        try:
            out[key] = float(value)
        except (TypeError, ValueError):
            out[key] = value
    return out
