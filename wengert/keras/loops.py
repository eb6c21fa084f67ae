"""The loops of `Model.fit`, `evaluate` and `predict`, written once for arrays and datasets.

Each loop takes its batches from keras/data_adapter.py (arrays or a tf.data.Dataset, already cut
into this replica's rows) and runs the model's step on each, between the callbacks' hooks:

    fit        on_train_begin; per epoch: reset the metrics (`model.reset_metrics()`: the loss
               tracker, compiled metrics and a subclass's own trackers), on_epoch_begin,
               per batch on_train_batch_begin / the train step / on_train_batch_end (logs: the
               epoch's running loss and metrics), then the validation (every validation_freq
               epochs: an evaluate whose test hooks reach fit's own callbacks, as in Keras; its
               logs join the epoch's as val_*) and on_epoch_end; on_train_end. `model.stop_training`
               (EarlyStopping, TerminateOnNaN) ends the epoch and the run; BackupAndRestore
               sets `model._initial_epoch` in on_train_begin to resume a run.
    evaluate   reset the metrics, on_test_begin, per batch on_test_batch_begin / step / end,
               on_test_end.
    predict    on_predict_begin, per batch on_predict_batch_begin / step / end, on_predict_end;
               the outputs are concatenated along the batch axis.

Each batch runs through the model's train_function, test_function or predict_function
(step_functions.py: the model's own steps unless it overrides make_*_function).
Every loop gets a progress bar (ProgbarLogger) when verbose, on rank 0 only under a
tf.distribute strategy; fit always adds the History it returns.
"""
import numpy as np

from . import distributed
from .callbacks.callback_list import CallbackList
from .callbacks.core import History, ProgbarLogger

__all__ = ["callback_list", "fit_epochs", "evaluate_batches", "predict_batches"]


def callback_list(model, verbose, callbacks, params, last=()):
    """The CallbackList of a loop: the progress bar when verbose, the user's callbacks, then
    `last`; params carry the verbosity and `params` (epochs, steps)."""
    verbose = distributed.verbose_for(model, 1 if verbose == "auto" else verbose)
    bar = [ProgbarLogger(verbose=verbose)] if verbose else []
    return CallbackList(bar + list(callbacks or []) + list(last), model=model,
                        verbose=verbose, **params)


# -- fit ----------------------------------------------------------------------------------------
def fit_epochs(model, epoch_batches, epochs, initial_epoch, steps, verbose, callbacks, validate,
               validation_freq):
    """Train from `initial_epoch` to `epochs` on `epoch_batches()` (a new iterator of
    (x, y, sample_weight) per epoch); `validate(cb)` (or None) gives the validation logs,
    calling the test hooks of fit's CallbackList `cb`.
    Returns the History."""
    history = History()
    cb = callback_list(model, verbose, callbacks, {"epochs": epochs, "steps": steps}, [history])
    model.stop_training = False
    model._in_fit = True
    model._initial_epoch = None  # BackupAndRestore sets it when it resumes a run
    model.make_train_function()
    try:
        cb.on_train_begin()
        for epoch in range(model._initial_epoch or initial_epoch, epochs):
            logs = _train_epoch(model, cb, epoch, epoch_batches())
            if validate is not None and (epoch + 1) % validation_freq == 0:
                logs.update({f"val_{k}": v for k, v in validate(cb).items()})
            cb.on_epoch_end(epoch, logs)
            if model.stop_training:
                break
        finalize = getattr(model.optimizer, "finalize_variable_values", None)
        if finalize is not None and epochs > 0:  # use_ema: the averages become the weights
            finalize(model.trainable_weights)
        cb.on_train_end()
    finally:
        model._in_fit = False
    return history


def _train_epoch(model, cb, epoch, batches):
    """One epoch's train steps; the logs of its last step (a copy)."""
    model.reset_metrics()
    cb.on_epoch_begin(epoch)
    logs = {}
    for step, (x, y, sample_weight) in enumerate(batches):
        cb.on_train_batch_begin(step)
        logs = model._loop_batch("train", x, y, sample_weight)
        cb.on_train_batch_end(step, logs)
        if model.stop_training:
            break
    model._sync_loss_tracker()
    return dict(logs)


# -- evaluate and predict -----------------------------------------------------------------------
def evaluate_batches(model, batches, total, verbose, callbacks, return_dict):
    """The loss and metrics over `batches` of (x, y, sample_weight) tensors: the logs when
    return_dict, else the loss alone or [loss, metric, ...]."""
    cb = (callbacks if isinstance(callbacks, CallbackList) else
          callback_list(model, verbose, callbacks, {"steps": total}))
    model.reset_metrics()
    model.make_test_function()
    cb.on_test_begin()
    logs = {}
    for step, (x, y, sample_weight) in enumerate(batches):
        cb.on_test_batch_begin(step)
        logs = model._loop_batch("test", x, y, sample_weight)
        cb.on_test_batch_end(step, logs)
    model._sync_loss_tracker()
    cb.on_test_end(logs)
    if return_dict:
        return logs
    order = sorted(logs, key=lambda k: 0 if k == "loss" else 1 if k.endswith("_loss") else 2)
    values = [logs[k] for k in order]  # Keras's order: loss, per-output losses, metrics
    return values[0] if len(values) == 1 else values


def predict_batches(model, batches, total, verbose, callbacks):
    """The model's outputs for `batches` of x, as NumPy arrays (a list for several outputs)."""
    cb = (callbacks if isinstance(callbacks, CallbackList) else
          callback_list(model, verbose, callbacks, {"steps": total}))
    model.make_predict_function()
    cb.on_predict_begin()
    outputs = []
    for step, x in enumerate(batches):
        cb.on_predict_batch_begin(step)
        out = model._loop_batch("predict", x)
        if isinstance(out, dict):
            outputs.append({k: np.asarray(o) for k, o in out.items()})
        else:
            outputs.append([np.asarray(o) for o in out] if isinstance(out, (list, tuple))
                           else np.asarray(out))
        cb.on_predict_batch_end(step, {"outputs": out})
    cb.on_predict_end()
    if outputs and isinstance(outputs[0], dict):
        return {k: np.concatenate([o[k] for o in outputs]) for k in outputs[0]}
    if outputs and isinstance(outputs[0], list):
        return [np.concatenate(parts) for parts in zip(*outputs)]
    return np.concatenate(outputs) if outputs else np.zeros((0,))
