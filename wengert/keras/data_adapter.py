"""`fit`, `evaluate` and `predict` on a `tf.data.Dataset` (training.py hands datasets here).

Each element of the dataset is one batch: `(x, y)` or `(x, y, sample_weight)` for fit and
evaluate (x may be a list or dict of inputs), `x` (or a tuple whose first item is x) for predict.
An epoch is one pass over the dataset, or `steps_per_epoch` batches drawn from one iterator that
carries on across epochs (restarted when it runs out). Under a tf.distribute strategy each
element is a global batch, of which each replica keeps its rows (keras/distributed.py). `validation_data` may be a dataset too.
"""
import numpy as np

from ..data.dataset import Dataset
from ..framework.tensor import Tensor, constant
from . import callbacks as callbacks_module, distributed

__all__ = ["is_dataset", "fit_dataset", "evaluate_dataset", "predict_dataset"]


# -- arrays for the steps (shared with training.py) ---------------------------------------------
def _as_tensors(data):
    if data is None:
        return None
    if isinstance(data, list):
        return [constant(d) for d in data]
    return constant(data)


def _cast_floats(data, dtype):
    if data is None:
        return None
    if isinstance(data, list):
        return [_cast_floats(d, dtype) for d in data]
    if data.dtype.kind == "f" and data.dtype != dtype:
        return data.astype(dtype)
    return data


def _unpack_validation(data):
    if isinstance(data, (list, tuple)) and len(data) in (2, 3):
        x, y = data[0], data[1]
        return x, y, data[2] if len(data) == 3 else None
    raise ValueError("validation_data must be a tuple (x_val, y_val) or (x_val, y_val, "
                     f"val_sample_weight); got {type(data).__name__}.")


def is_dataset(x):
    return isinstance(x, Dataset)


def _numpy(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [np.asarray(v) for v in value]
    if isinstance(value, dict):
        return [np.asarray(value[k]) for k in sorted(value)]
    return np.asarray(value._value if isinstance(value, Tensor) else value)


def _unpack(element, what):
    if isinstance(element, tuple) and len(element) in (2, 3):
        x, y = element[0], element[1]
        return _numpy(x), _numpy(y), _numpy(element[2]) if len(element) == 3 else None
    raise ValueError(f"Model.{what}: each element of the dataset must be a tuple (x, y) or "
                     f"(x, y, sample_weight), got {type(element).__name__}.")


def _cast(model, x, y):
    dtype = model._data_dtype()
    return _cast_floats(x, dtype), _cast_floats(y, dtype)


def _steps(dataset, steps):
    if steps is not None:
        return steps
    count = dataset._cardinality
    if count == -1:
        raise ValueError("Model.fit: the dataset is infinite (repeat()); pass steps_per_epoch.")
    return count if count >= 0 else None


class _Batches:
    """Batches for each epoch: whole passes, or `steps` batches from one running iterator."""

    def __init__(self, dataset, steps):
        self._dataset, self._steps, self._iterator = dataset, steps, None

    def epoch(self):
        if self._steps is None:
            yield from iter(self._dataset)
            return
        for _ in range(self._steps):
            if self._iterator is None:
                self._iterator = iter(self._dataset)
            try:
                yield next(self._iterator)
            except StopIteration:
                self._iterator = iter(self._dataset)
                try:
                    yield next(self._iterator)
                except StopIteration:
                    return


def fit_dataset(model, dataset, epochs, verbose, callbacks, validation_data, initial_epoch,
                steps_per_epoch, validation_freq, validation_steps=None):
    verbose = distributed.verbose_for(model, 1 if verbose == "auto" else verbose)
    steps = _steps(dataset, steps_per_epoch)
    history = callbacks_module.History()
    cbs = ([callbacks_module.ProgbarLogger(verbose=verbose)] if verbose else []) + list(
        callbacks or []) + [history]
    cb = callbacks_module.CallbackList(cbs, model, {"verbose": verbose, "epochs": epochs,
                                                    "steps": steps})
    batches = _Batches(dataset, steps_per_epoch)
    model.stop_training = False
    model._in_fit = True
    model._initial_epoch = None  # BackupAndRestore sets it when it resumes a run
    try:
        cb.on_train_begin()
        initial_epoch = model._initial_epoch or initial_epoch
        for epoch in range(initial_epoch, epochs):
            model._reset_trackers()
            cb.on_epoch_begin(epoch)
            logs = {}
            for step, element in enumerate(batches.epoch()):
                x, y, sw = _unpack(element, "fit")
                x, y, sw = distributed.shard(distributed.strategy_of(model), x, y, sw)
                model._prepare(x)
                x, y = _cast(model, x, y)
                cb.on_train_batch_begin(step)
                logs = model._run_train_batch(x, y, sw)
                cb.on_train_batch_end(step, logs)
                if model.stop_training:
                    break
            epoch_logs = dict(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                if is_dataset(validation_data):
                    val = evaluate_dataset(model, validation_data, 0, None, validation_steps,
                                           True)
                else:
                    vx, vy, vsw = _unpack_validation(validation_data)
                    val = model.evaluate(vx, vy, sample_weight=vsw, verbose=0,
                                         return_dict=True)
                epoch_logs.update({f"val_{k}": v for k, v in val.items()})
            cb.on_epoch_end(epoch, epoch_logs)
            if model.stop_training:
                break
        cb.on_train_end()
    finally:
        model._in_fit = False
    return history


def evaluate_dataset(model, dataset, verbose, callbacks, steps, return_dict):
    verbose = distributed.verbose_for(model, 1 if verbose == "auto" else verbose)
    total = steps if steps is not None else (dataset._cardinality
                                             if dataset._cardinality >= 0 else None)
    cbs = ([callbacks_module.ProgbarLogger(verbose=verbose)] if verbose else []) + list(
        callbacks or [])
    cb = callbacks_module.CallbackList(cbs, model, {"verbose": verbose, "steps": total})
    model._reset_trackers()
    cb.on_test_begin()
    logs = {}
    for step, element in enumerate(iter(dataset)):
        if steps is not None and step >= steps:
            break
        x, y, sw = _unpack(element, "evaluate")
        x, y, sw = distributed.shard(distributed.strategy_of(model), x, y, sw)
        model._prepare(x)
        x, y = _cast(model, x, y)
        cb.on_test_batch_begin(step)
        xt, yt, swt = _as_tensors(x), _as_tensors(y), _as_tensors(sw)
        logs = model._run_test_batch(xt, yt, swt)
        cb.on_test_batch_end(step, logs)
    cb.on_test_end(logs)
    if return_dict:
        return logs
    values = list(logs.values())
    return values[0] if len(values) == 1 else values


def predict_dataset(model, dataset, verbose, callbacks, steps):
    verbose = distributed.verbose_for(model, 1 if verbose == "auto" else verbose)
    total = steps if steps is not None else (dataset._cardinality
                                             if dataset._cardinality >= 0 else None)
    cbs = ([callbacks_module.ProgbarLogger(verbose=verbose)] if verbose else []) + list(
        callbacks or [])
    cb = callbacks_module.CallbackList(cbs, model, {"verbose": verbose, "steps": total})
    cb.on_predict_begin()
    outputs = []
    for step, element in enumerate(iter(dataset)):
        if steps is not None and step >= steps:
            break
        x = _numpy(element[0] if isinstance(element, tuple) else element)
        model._prepare(x)
        cb.on_predict_batch_begin(step)
        out = model._run_predict_batch(_as_tensors(_cast_floats(x, model._data_dtype())))
        outputs.append([np.asarray(o) for o in out] if isinstance(out, (list, tuple))
                       else np.asarray(out))
        cb.on_predict_batch_end(step, {"outputs": out})
    cb.on_predict_end()
    if outputs and isinstance(outputs[0], list):
        return [np.concatenate(parts) for parts in zip(*outputs)]
    return np.concatenate(outputs) if outputs else np.zeros((0,))
