"""The compiled loss of a model with several outputs, as Keras 3's `compile(loss=...)` takes it.

`loss` may be one loss (applied to every output), a list (one per output, in the order of
`model.outputs`) or a dict keyed by output name (every output, as Keras 3 requires; None for
an output that needs no loss); `loss_weights` likewise a list or dict (1 for outputs not named). For a batch, with y_i and p_i the targets and
predictions of output i (targets given as a list in output order, or a dict keyed by output
name), the loss is

    loss = sum_i w_i * L_i(y_i, p_i, sample_weight)

and each L_i, unweighted by w_i, is also tracked by a `Mean` named "<output>_loss" (weighted by
the batch size), which `model.metrics` lists after the loss tracker and the compiled metrics:
these are the `out_a_loss`, `out_b_loss` of the History.

An output's name is the key of a dict of outputs, else the name of the layer that produced it.
A loss dict naming an output the model lacks, or lacking one of its outputs, is refused by
compile, before any variable changes.
"""
from ..ops.broadcast_ops import add_n
from ..ops.cast_ops import cast
from ..ops.creation_ops import shape as shape_of
from . import losses as losses_module
from .losses.loss import LossFunctionWrapper
from .metrics.metric import Mean

__all__ = ["CompileLoss", "per_output", "flat_outputs", "is_multi", "loss_object"]


def is_multi(loss, loss_weights, metrics, num_outputs):
    """Whether compile's arguments need the per-output machinery."""
    nested_metrics = isinstance(metrics, dict) or (isinstance(metrics, (list, tuple)) and any(
        isinstance(m, (list, tuple)) for m in metrics))
    return (isinstance(loss, (list, tuple, dict)) or loss_weights is not None
            or nested_metrics or num_outputs > 1)


def loss_object(identifier):
    fn = losses_module.get(identifier)
    if fn is not None and not isinstance(fn, losses_module.Loss):
        fn = LossFunctionWrapper(fn)
    return fn


def per_output(spec, names, what, default=None, complete=False):
    """spec as one entry per output name: a dict by name, a list in order, or one value for
    every output; an unknown name, a missing one when `complete`, or a list of the wrong length
    is an error."""
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - set(names))
        missing = [name for name in names if name not in spec] if complete else []
        if unknown or missing:
            raise ValueError(f"compile: `{what}` names {sorted(spec)}, but the model's outputs "
                             f"are {list(names)} (unknown: {unknown}, missing: {missing}). Key "
                             "the dict by output name (the output layer's name, or the key of "
                             "a dict of outputs), one entry per output.")
        return [spec.get(name, default) for name in names]
    if isinstance(spec, (list, tuple)):
        if len(spec) != len(names):
            raise ValueError(f"compile: `{what}` has {len(spec)} entries but the model has "
                             f"{len(names)} outputs {list(names)}; give one per output, or a "
                             "dict keyed by output name.")
        return list(spec)
    return [spec] * len(names)


def flat_outputs(values, names, what):
    """Targets or predictions as a list in output order (from a list, a dict or one value)."""
    if isinstance(values, dict):
        missing = [name for name in names if name not in values]
        if missing:
            raise ValueError(f"Model: the {what} dict lacks the outputs {missing}; it has keys "
                             f"{sorted(values)}, the model's outputs are {list(names)}.")
        return [values[name] for name in names]
    if isinstance(values, (list, tuple)):
        return list(values)
    return [values]


class CompileLoss:
    """The weighted sum of per-output losses, with a tracker per output (module docstring)."""

    def __init__(self, loss, loss_weights, output_names):
        self.output_names = list(output_names)
        self._losses = [loss_object(spec) for spec in
                        per_output(loss, self.output_names, "loss", complete=True)]
        self._weights = [1.0 if w is None else float(w) for w in
                         per_output(loss_weights, self.output_names, "loss_weights", 1.0)]
        multi = len(self.output_names) > 1
        self.metrics = [Mean(name=f"{name}_loss") for name, fn in
                        zip(self.output_names, self._losses) if fn is not None and multi]

    @property
    def has_loss(self):
        return any(fn is not None for fn in self._losses)

    def __call__(self, y_true, y_pred, sample_weight=None):
        trues = flat_outputs(y_true, self.output_names, "targets (y)")
        preds = flat_outputs(y_pred, self.output_names, "predictions")
        terms, trackers = [], iter(self.metrics)
        for fn, weight, y, p in zip(self._losses, self._weights, trues, preds):
            if fn is None:
                continue
            value = fn(y, p, sample_weight=sample_weight)
            tracker = next(trackers, None)
            if tracker is not None:
                rows = p.shape[0] if p.shape[0] is not None else cast(shape_of(p)[0],
                                                                        value.dtype)
                tracker.update_state(value, sample_weight=rows)
            terms.append(value if weight == 1.0 else value * weight)
        return add_n(terms) if len(terms) > 1 else terms[0]
