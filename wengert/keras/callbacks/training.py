"""The Keras callbacks that steer or record training, with Keras 3's semantics:

- ModelCheckpoint saves `filepath` (formatted with `epoch` (1-based) and the logs, e.g.
  "w.{epoch:02d}-{val_loss:.2f}.weights.h5") after every epoch, or only when `monitor` improves
  (`save_best_only`), the whole model (".keras") or its weights (".weights.h5");
- ReduceLROnPlateau multiplies the optimizer's learning rate by `factor` after `patience` epochs
  without an improvement larger than `min_delta`, waits `cooldown` epochs, never below `min_lr`;
- LearningRateScheduler sets the learning rate to `schedule(epoch, lr)` before each epoch;
- CSVLogger appends one row per epoch (`epoch` 0-based, then the logs' keys sorted);
- TerminateOnNaN stops training when a batch's loss is NaN or infinite;
- RemoteMonitor would post logs to a server: refused, as wengert makes no network requests.
"Improves" follows `mode`: 'min', 'max', or 'auto' (max for accuracy- and AUC-like names).
"""
import csv
import math
import os
import sys
import warnings

import numpy as np

from .core import Callback

__all__ = ["ModelCheckpoint", "ReduceLROnPlateau", "LearningRateScheduler", "CSVLogger",
           "TerminateOnNaN", "RemoteMonitor"]


def _sign(mode, monitor, what):
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"{what}: mode {mode!r} is unknown; use 'auto', 'min' or 'max'.")
    if mode == "auto":
        mode = "max" if "acc" in monitor or monitor.endswith("auc") else "min"
    return 1.0 if mode == "min" else -1.0


def _monitored(logs, monitor, what):
    value = (logs or {}).get(monitor)
    if value is None:
        warnings.warn(f"{what} conditioned on metric `{monitor}` which is not available. "
                      f"Available metrics are: {','.join(logs or {})}", stacklevel=3)
    return value


class ModelCheckpoint(Callback):
    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None):
        super().__init__()
        self.filepath = os.fspath(filepath)
        if save_freq != "epoch":
            raise ValueError(f"ModelCheckpoint: save_freq={save_freq!r} is not supported; "
                             "checkpoints are saved at the end of each epoch ('epoch').")
        weights = self.filepath.endswith(".weights.h5")
        if save_weights_only and not weights:
            raise ValueError("ModelCheckpoint: with save_weights_only=True the filepath must "
                             f"end in `.weights.h5`, got {self.filepath!r}.")
        if not save_weights_only and not self.filepath.endswith(".keras"):
            raise ValueError("ModelCheckpoint: the filepath must end in `.keras` (the whole "
                             f"model) or `.weights.h5` (save_weights_only=True), got "
                             f"{self.filepath!r}.")
        self.monitor, self.verbose = monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self._sign = _sign(mode, monitor, "ModelCheckpoint")
        self.best = (math.inf if initial_value_threshold is None
                     else self._sign * initial_value_threshold)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            value = _monitored(logs, self.monitor, "ModelCheckpoint")
            if value is None or not self._sign * value < self.best:
                return
            if self.verbose:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved to {value:.5f}, saving "
                      f"model to {path}", file=sys.stderr)
            self.best = self._sign * value
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)


class ReduceLROnPlateau(Callback):
    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0.0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0, got {factor}.")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.min_delta, self.cooldown, self.min_lr = min_delta, cooldown, min_lr
        self._sign = _sign(mode, monitor, "ReduceLROnPlateau")
        self.best, self.wait, self.cooldown_counter = math.inf, 0, 0

    def on_train_begin(self, logs=None):
        self.best, self.wait, self.cooldown_counter = math.inf, 0, 0

    def in_cooldown(self):
        """Whether the epochs of cooldown after the last reduction are still running."""
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))
        value = _monitored(logs, self.monitor, "ReduceLROnPlateau")
        if value is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._sign * value < self.best - self.min_delta:
            self.best, self.wait = self._sign * value, 0
            return
        if self.in_cooldown():
            return
        self.wait += 1
        if self.wait >= self.patience:
            old = logs["learning_rate"]
            if old > np.float32(self.min_lr):
                new = max(old * self.factor, self.min_lr)
                self.model.optimizer.learning_rate = new
                if self.verbose:
                    print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                          f"{new}.", file=sys.stderr)
                self.cooldown_counter, self.wait = self.cooldown, 0


class LearningRateScheduler(Callback):
    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        current = float(np.asarray(self.model.optimizer.learning_rate))
        try:
            lr = self.schedule(epoch, current)
        except TypeError:  # a schedule of the epoch alone (older Keras)
            lr = self.schedule(epoch)
        lr = float(np.asarray(lr))
        if not math.isfinite(lr):
            raise ValueError(f"LearningRateScheduler: the schedule returned {lr} for epoch "
                             f"{epoch}; it must return a finite float.")
        self.model.optimizer.learning_rate = lr
        if self.verbose:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.",
                  file=sys.stderr)

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))


class CSVLogger(Callback):
    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = os.fspath(filename), separator, append
        self._file, self._writer, self._keys = None, None, None

    def on_train_begin(self, logs=None):
        exists = self.append and os.path.exists(self.filename) and \
            os.path.getsize(self.filename) > 0
        self._file = open(self.filename, "a" if self.append else "w", newline="",
                          encoding="utf-8")
        self._header = not exists
        self._writer, self._keys = None, None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self._keys is None:
            self._keys = sorted(logs)
            self._writer = csv.DictWriter(self._file, ["epoch"] + self._keys,
                                          delimiter=self.sep)
            if self._header:
                self._writer.writeheader()
        row = {"epoch": epoch}
        row.update({k: logs.get(k, "NA") for k in self._keys})
        self._writer.writerow(row)
        self._file.flush()

    def on_train_end(self, logs=None):
        if self._file is not None:
            self._file.close()
            self._file = None


class TerminateOnNaN(Callback):
    """Stops training at a batch whose loss is NaN or infinite (model.stop_training), or with
    raise_error=True raises RuntimeError there at once, skipping the other callbacks' ends."""

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_train_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and not math.isfinite(float(loss)):
            if self.raise_error:
                raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: "
                                   f"{loss}. Terminating training immediately.")
            print(f"Batch {batch}: Invalid loss, terminating training", file=sys.stderr)
            self.model.stop_training = True


class RemoteMonitor(Callback):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("RemoteMonitor posts training logs to a web server; wengert "
                                  "makes no network requests. Use CSVLogger or the TensorBoard "
                                  "callback and serve the files yourself.")
