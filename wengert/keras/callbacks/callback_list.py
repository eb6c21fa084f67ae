"""`keras.callbacks.CallbackList`: one object that drives a list of callbacks, as fit,
evaluate and predict drive theirs.

`CallbackList(callbacks=None, add_history=False, add_progbar=False, model=None, **params)`
flattens `callbacks`, adds a `History` (add_history) and a `ProgbarLogger` (add_progbar) unless
one is already there, gives every callback the model (`set_model`; the History becomes
`model.history`) and the params (`set_params`, when there are any). Each hook
(`on_train_begin`, `on_epoch_end`, `on_train_batch_end`, `on_test_begin`, ...,
`on_batch_begin` / `on_batch_end`) calls the same hook of every callback in order (a batch
hook's logs passed by keyword, the others' by position, as Keras passes them), with the
logs as Keras's `pythonify_logs` makes them: keys sorted, nested dicts merged, scalars
(tensors, NumPy values) made Python floats. A CallbackList is itself a Callback, so lists nest.
"""
import numpy as np

from .core import Callback, History, ProgbarLogger

__all__ = ["CallbackList"]


def _flatten(callbacks):
    out, stack = [], [callbacks]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        elif item is not None:
            out.append(item)
    return out


def pythonify_logs(logs):
    """logs with sorted keys, nested dicts merged in, and each value made a Python float when
    it converts to one (tensors first become NumPy), as Keras's pythonify_logs."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
            value = value.numpy()
        try:
            value = float(value) if np.ndim(value) == 0 else value
        except (TypeError, ValueError):
            pass
        result[key] = value
    return result


def _hook(name, with_index):
    if "batch" in name:  # Keras passes a batch hook's logs by keyword
        def hook(self, index, logs=None):
            logs = pythonify_logs(logs)
            for callback in self.callbacks:
                getattr(callback, name)(index, logs=logs)
    elif with_index:
        def hook(self, index, logs=None):
            logs = pythonify_logs(logs)
            for callback in self.callbacks:
                getattr(callback, name)(index, logs)
    else:
        def hook(self, logs=None):
            logs = pythonify_logs(logs)
            for callback in self.callbacks:
                getattr(callback, name)(logs)
    hook.__name__ = hook.__qualname__ = name
    hook.__doc__ = f"Call `{name}` of every callback, in order."
    return hook


class CallbackList(Callback):
    """Calls a hook on every callback in order (see the module docstring)."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        super().__init__()
        self.callbacks = _flatten(callbacks) if callbacks else []
        self._history = next((cb for cb in self.callbacks if isinstance(cb, History)), None)
        self._progbar = next((cb for cb in self.callbacks if isinstance(cb, ProgbarLogger)),
                             None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()
            self.callbacks.append(self._progbar)
        self.set_model(model)
        self.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        self.params = params
        if params:
            for callback in self.callbacks:
                callback.set_params(params)

    def set_model(self, model):
        if model is None:
            return
        super().set_model(model)
        if self._history is not None:
            model.history = self._history
        for callback in self.callbacks:
            callback.set_model(model)

    on_train_begin = _hook("on_train_begin", False)
    on_train_end = _hook("on_train_end", False)
    on_test_begin = _hook("on_test_begin", False)
    on_test_end = _hook("on_test_end", False)
    on_predict_begin = _hook("on_predict_begin", False)
    on_predict_end = _hook("on_predict_end", False)
    on_epoch_begin = _hook("on_epoch_begin", True)
    on_epoch_end = _hook("on_epoch_end", True)
    on_batch_begin = _hook("on_batch_begin", True)
    on_batch_end = _hook("on_batch_end", True)
    on_train_batch_begin = _hook("on_train_batch_begin", True)
    on_train_batch_end = _hook("on_train_batch_end", True)
    on_test_batch_begin = _hook("on_test_batch_begin", True)
    on_test_batch_end = _hook("on_test_batch_end", True)
    on_predict_batch_begin = _hook("on_predict_batch_begin", True)
    on_predict_batch_end = _hook("on_predict_batch_end", True)
