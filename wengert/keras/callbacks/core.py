"""Callbacks, as `keras.callbacks`: hooks that `fit`, `evaluate` and `predict` call (the
training callbacks that steer the run are in training.py).

`fit` calls on_train_begin, then per epoch on_epoch_begin, on_train_batch_begin/end for each
batch (logs: the running loss and metrics of the epoch so far) and on_epoch_end (logs: the
epoch's loss, metrics and val_* values), then on_train_end. `History` (always added, returned by
fit and kept as `model.history`) records the epoch logs: `history.history["loss"]` is a list
with one value per epoch. `ProgbarLogger` draws a tqdm progress bar per epoch on stderr (a plain
text line when tqdm is not installed). `EarlyStopping` stops training when a monitored value
stops improving, optionally restoring the best weights (`TensorBoard` is in tensorboard.py).
`BackupAndRestore` checkpoints the model, its optimizer and the epoch every epoch
(or every `save_freq` batches) and, when `fit` starts again after a crash, restores them and
resumes at the saved epoch (distributed fits too: rank 0 writes, every rank restores the same).
"""
import os
import shutil
import sys
import time
import warnings

import numpy as np

from ...distribute.checkpointing import write_once
from ...framework.variables import Variable
from ...train.checkpoint import Checkpoint, CheckpointManager

__all__ = ["Callback", "History", "ProgbarLogger", "EarlyStopping",
           "LambdaCallback", "BackupAndRestore"]


class Callback:
    """Base class of callbacks; every hook does nothing by default."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None): pass
    def on_train_end(self, logs=None): pass
    def on_epoch_begin(self, epoch, logs=None): pass
    def on_epoch_end(self, epoch, logs=None): pass
    def on_batch_begin(self, batch, logs=None): pass  # Keras 2's name, still called
    def on_batch_end(self, batch, logs=None): pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_begin(self, logs=None): pass
    def on_test_end(self, logs=None): pass
    def on_test_batch_begin(self, batch, logs=None): pass
    def on_test_batch_end(self, batch, logs=None): pass
    def on_predict_begin(self, logs=None): pass
    def on_predict_end(self, logs=None): pass
    def on_predict_batch_begin(self, batch, logs=None): pass
    def on_predict_batch_end(self, batch, logs=None): pass


class History(Callback):
    """Records the logs of every epoch: `history` is {name: [value per epoch]}."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)

    def set_model(self, model):
        super().set_model(model)
        model.history = self


def _format_logs(logs):
    return " - ".join(f"{k}: {v:.4f}" for k, v in logs.items())


class ProgbarLogger(Callback):
    """A progress bar per epoch (verbose=1) or one line per epoch (verbose=2), on stderr."""

    def __init__(self, count_mode="steps", verbose=1, stream=None):
        super().__init__()
        self.verbose = verbose
        self.stream = stream
        self._bar = None
        self._start = 0.0
        self._mode = "train"

    def _file(self):
        return self.stream or sys.stderr

    def _open(self, total, desc):
        self._start = time.time()
        if self.verbose != 1:
            return
        try:
            from tqdm.auto import tqdm  # optional dependency: a text bar without it
        except ImportError:
            self._bar = _TextBar(total, desc, self._file())
        else:
            self._bar = tqdm(total=total, desc=desc, file=self._file(), unit="step",
                             leave=True, dynamic_ncols=True)

    def _advance(self, logs):
        if self._bar is not None:
            self._bar.update(1)
            if logs:
                self._bar.set_postfix({k: f"{v:.4f}" for k, v in logs.items()}, refresh=False)

    def _close(self, logs, prefix):
        if self._bar is not None:
            if logs:
                self._bar.set_postfix({k: f"{v:.4f}" for k, v in logs.items()}, refresh=False)
            self._bar.close()
            self._bar = None
        elif self.verbose == 2 and logs is not None:
            print(f"{prefix}{time.time() - self._start:.0f}s - {_format_logs(logs)}",
                  file=self._file())

    def on_epoch_begin(self, epoch, logs=None):
        epochs = self.params.get("epochs", 1)
        if self.verbose == 2:
            print(f"Epoch {epoch + 1}/{epochs}", file=self._file())
        self._open(self.params.get("steps"), f"Epoch {epoch + 1}/{epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._advance(logs)

    def on_epoch_end(self, epoch, logs=None):
        self._close(logs, "")

    def on_test_begin(self, logs=None):
        if self.model is not None and not getattr(self.model, "_in_fit", False):
            self._open(self.params.get("steps"), "Evaluate")

    def on_test_batch_end(self, batch, logs=None):
        if self.model is not None and not getattr(self.model, "_in_fit", False):
            self._advance(logs)

    def on_test_end(self, logs=None):
        if self.model is not None and not getattr(self.model, "_in_fit", False):
            self._close(logs, "")

    def on_predict_begin(self, logs=None):
        self._open(self.params.get("steps"), "Predict")

    def on_predict_batch_end(self, batch, logs=None):
        self._advance(None)

    def on_predict_end(self, logs=None):
        self._close(None, "")


class _TextBar:
    """A minimal progress line for when tqdm is not installed."""

    def __init__(self, total, desc, file):
        self.total, self.desc, self.file, self.n, self.postfix = total, desc, file, 0, {}
        self._last = 0.0

    def update(self, n):
        self.n += n
        now = time.time()
        if now - self._last > 0.1 or self.n == self.total:
            self._last = now
            self._draw()

    def set_postfix(self, values, refresh=False):
        self.postfix = values

    def _draw(self, end=""):
        extra = " - ".join(f"{k}: {v}" for k, v in self.postfix.items())
        print(f"\r{self.desc} {self.n}/{self.total} {extra}", end=end, file=self.file,
              flush=True)

    def close(self):
        self._draw(end="\n")


class EarlyStopping(Callback):
    """Stop training when `monitor` has not improved by `min_delta` for `patience` epochs.

    As Keras 3 counts: every epoch from `start_from_epoch` on adds one to `wait`; an
    improvement on the best value so far resets it, if it also beats `baseline`; training stops
    once `wait` reaches `patience`. With `restore_best_weights`, the weights of the best epoch
    (the first epoch's until another is better) are put back when training ends, whether it
    stopped early or ran all its epochs."""

    def __init__(self, monitor="val_loss", min_delta=0.0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode '{mode}' is unknown, fallback to auto mode.",
                          stacklevel=2)
            mode = "auto"
        if mode == "auto":
            mode = "max" if "acc" in monitor or monitor.endswith("auc") else "min"
        self._sign = 1.0 if mode == "min" else -1.0
        self.min_delta = abs(min_delta)
        self.stopped_epoch = 0
        self.best, self.best_weights, self.best_epoch = None, None, 0

    def _improves(self, value, reference):
        return reference is None or self._sign * (value - reference) < -self.min_delta

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best, self.best_weights, self.best_epoch = None, None, 0

    def get_monitor_value(self, logs):
        """The monitored value in `logs`; None (with a warning naming those there) if absent."""
        value = (logs or {}).get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs or {})}",
                          stacklevel=2)
        return value

    def on_epoch_end(self, epoch, logs=None):
        value = self.get_monitor_value(logs)
        if value is None:
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._improves(value, self.best):
            self.best, self.best_epoch = value, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._improves(value, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping", file=sys.stderr)
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.", file=sys.stderr)
            self.model.set_weights(self.best_weights)


class LambdaCallback(Callback):
    """A callback from functions: on_epoch_end=lambda epoch, logs: ..., and so on."""

    def __init__(self, **hooks):
        super().__init__()
        for name, fn in hooks.items():
            if not name.startswith("on_"):
                raise TypeError(f"LambdaCallback: unknown hook {name!r}.")
            setattr(self, name, fn)


class BackupAndRestore(Callback):
    """Resume an interrupted `fit`: the model, optimizer and epoch are checkpointed in
    `backup_dir` at the end of every epoch (save_freq="epoch") or every `save_freq` batches;
    a later `fit` with the same callback restores them and starts at the saved epoch. The backup
    is deleted when training ends (delete_checkpoint=True). The model must be built before
    `fit`. double_checkpoint=True keeps the previous backup as well."""

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False,
                 delete_checkpoint=True):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Invalid value for argument `save_freq`. Received: save_freq="
                             f"{save_freq}. Expected either 'epoch' or an integer value.")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._manager = None
        self._batches_since_save = 0

    def _checkpoint_manager(self):
        if self._manager is None:
            self._epoch = Variable(np.int64(0), trainable=False, name="backup/epoch")
            parts = {"model": self.model, "epoch": self._epoch}
            if getattr(self.model, "optimizer", None) is not None:
                parts["optimizer"] = self.model.optimizer
            self._manager = CheckpointManager(Checkpoint(**parts), self.backup_dir,
                                              max_to_keep=2 if self.double_checkpoint else 1)
        return self._manager

    def on_train_begin(self, logs=None):
        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, your model must be built "
                             f"before you call `fit()`. Model {self.model} is unbuilt. You can "
                             "build it beforehand by calling it on a batch of data.")
        manager = self._checkpoint_manager()
        self._batches_since_save = 0
        if manager.restore_or_initialize() is not None:
            self.model._initial_epoch = int(self._epoch.numpy())

    def _save(self, epoch):
        self._epoch.assign(np.int64(epoch))
        self._checkpoint_manager().save()

    def on_epoch_end(self, epoch, logs=None):
        self._batches_since_save = 0
        if self.save_freq == "epoch":
            self._save(epoch + 1)

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._batches_since_save += 1
        if self._batches_since_save >= self.save_freq:
            self._batches_since_save = 0
            self._save(self._current_epoch)

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_end(self, logs=None):
        if self.delete_checkpoint:
            write_once(lambda: shutil.rmtree(self.backup_dir, ignore_errors=True),
                       "deleting the backup")
            self._manager = None
