"""`keras.callbacks.TensorBoard`: TensorBoard logs of `fit`, as Keras 3's callback writes them.

Runs `train/` and `validation/` under `log_dir`: scalars `epoch_loss`, `epoch_<metric>` and
`epoch_learning_rate` per epoch (step = epoch), `batch_<name>` every `update_freq` batches
("batch" = every batch; "epoch" = none), the traced train step's graph (`write_graph`), and
every `histogram_freq` epochs a histogram of each weight, "<weight path>/histogram", with, when
`write_images`, the weight drawn as an image "<weight path>/image" (Keras's layout: a bias as a
1 x n image, a 2-D kernel with its longer side across, a 3-D kernel as one image per output
channel; weights of other shapes get no image). With `embeddings_freq`, `log_dir` gets
TensorBoard's projector_config.pbtxt naming each Embedding layer's table (with its
`embeddings_metadata` file) and every `embeddings_freq` epochs the model's weights are saved
as train/keras_embedding.ckpt-<epoch>.weights.h5, as Keras 3 does. `profile_batch` is checked
as Keras checks it; batches `start..stop` (counted from 1 over the whole of `fit`) are profiled
with tf.profiler into `log_dir/train` (its plugins/profile/<run>/ trace), each batch a `Trace`
step named "batch"; a profiler that fails to start or stop is logged, never fatal, as in Keras.
"""
import os
import time

import numpy as np

from ... import summary
from ...framework.variables import variable_op_name
from ...profiler import experimental as profiler
from ...util.tf_logging import get_logger
from ..layers.embedding import Embedding
from .core import Callback

__all__ = ["TensorBoard"]

_EMBEDDING_TENSOR = "layer_with_weights-0/embeddings/.ATTRIBUTES/VARIABLE_VALUE"


def _profile_range(profile_batch):
    """Keras's check of profile_batch: a non-negative int, a pair of them, or "a,b"."""
    message = ("TensorBoard: profile_batch must be a non-negative integer or 2-tuple of "
               "positive integers. A pair of positive integers signifies a range of batches "
               f"to profile. Found: {profile_batch}")
    if isinstance(profile_batch, str):
        try:
            profile_batch = [int(v) for v in profile_batch.split(",")]
        except ValueError:
            raise ValueError(message) from None
    if isinstance(profile_batch, int) and not isinstance(profile_batch, bool):
        start = stop = profile_batch
    elif isinstance(profile_batch, (tuple, list)) and len(profile_batch) == 2:
        start, stop = profile_batch
    else:
        raise ValueError(message)
    if start < 0 or stop < start:
        raise ValueError(message)
    return start, stop


def _weight_image(value):
    """The weight as Keras lays it out for an image summary ([k, h, w, 1]), or None."""
    img = np.squeeze(np.asarray(value))
    if img.ndim == 1:
        img = img.reshape(1, img.shape[0], 1, 1)
    elif img.ndim == 2:
        if img.shape[0] > img.shape[1]:
            img = img.T
        img = img.reshape(1, img.shape[0], img.shape[1], 1)
    elif img.ndim == 3:
        img = np.transpose(img, (2, 0, 1))
        img = img.reshape(img.shape + (1,))
    return img if img.ndim == 4 and img.shape[-1] in (1, 3, 4) else None


class TensorBoard(Callback):
    """TensorBoard logs of `fit` (see the module docstring)."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None):
        super().__init__()
        if update_freq != "epoch" and update_freq != "batch" and not isinstance(update_freq, int):
            raise ValueError(f"TensorBoard: update_freq must be 'epoch', 'batch' or an int, got "
                             f"{update_freq!r}.")
        self._start_batch, self._stop_batch = _profile_range(profile_batch)
        self.log_dir = str(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = bool(write_images)
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.embeddings_freq = int(embeddings_freq or 0)
        self.embeddings_metadata = embeddings_metadata
        self._writers = {}
        self._global_train_batch = 0
        self._graph_pending = False
        self._profiling = False
        self._batch_trace = None

    def _writer(self, run):
        if run not in self._writers:
            self._writers[run] = summary.create_file_writer(os.path.join(self.log_dir, run))
        return self._writers[run]

    def set_model(self, model):
        super().set_model(model)
        self._writers = {}
        self._graph_pending = bool(self.write_graph)
        if self.embeddings_freq:
            self._configure_embeddings()

    def _configure_embeddings(self):
        """projector_config.pbtxt in log_dir: one entry per Embedding layer of the model."""
        metadata = self.embeddings_metadata
        remaining = dict(metadata) if isinstance(metadata, dict) else {}
        entries = []
        for layer in getattr(self.model, "layers", []):
            if not isinstance(layer, Embedding):
                continue
            lines = [f'  tensor_name: "{_EMBEDDING_TENSOR}"']
            path = metadata if isinstance(metadata, str) else remaining.pop(layer.name, None)
            if path is not None:
                lines.append(f'  metadata_path: "{path}"')
            entries.append("embeddings {\n" + "\n".join(lines) + "\n}\n")
        if remaining:
            raise ValueError("Unrecognized `Embedding` layer names passed to "
                             "`keras.callbacks.TensorBoard` `embeddings_metadata` argument: "
                             f"{list(remaining)}")
        os.makedirs(self.log_dir, exist_ok=True)
        with open(os.path.join(self.log_dir, "projector_config.pbtxt"), "w") as f:
            f.write("".join(entries))

    def on_train_begin(self, logs=None):
        self._global_train_batch = 0

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        self._batch_start = time.time()
        if self._start_batch and self._global_train_batch == self._start_batch:
            self._start_profiler()
        if self._profiling:
            self._batch_trace = profiler.Trace("batch", step_num=batch, _r=1)
            self._batch_trace.__enter__()

    def _start_profiler(self):
        try:
            profiler.start(os.path.join(self.log_dir, "train"))
            self._profiling = True
        except Exception as err:  # noqa: BLE001 - Keras logs profiler errors, never fatal
            get_logger().error("Failed to start profiler: %s", err)

    def _stop_profiler(self):
        self._profiling = False
        try:
            profiler.stop()
        except Exception as err:  # noqa: BLE001 - as Keras: logged, never fatal
            get_logger().error("Failed to stop profiler: %s", err)

    def on_train_batch_end(self, batch, logs=None):
        if self._profiling:
            if self._batch_trace is not None:
                self._batch_trace.__exit__(None, None, None)
                self._batch_trace = None
            if self._global_train_batch >= self._stop_batch:
                self._stop_profiler()
        if self._graph_pending:
            self._graph_pending = False
            self._write_train_graph()
        if self.update_freq == "epoch" or self._global_train_batch % self.update_freq:
            return
        step = self._global_train_batch
        with self._writer("train").as_default(step=step):
            if self.write_steps_per_second:
                summary.scalar("batch_steps_per_second",
                               1.0 / max(time.time() - self._batch_start, 1e-9))
            for name, value in (logs or {}).items():
                summary.scalar(f"batch_{name}", value)

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start, self._epoch_first_batch = time.time(), self._global_train_batch

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        rate = getattr(getattr(self.model, "optimizer", None), "learning_rate", None)
        if rate is not None and not callable(rate):
            train["learning_rate"] = float(np.asarray(rate))
        if self.write_steps_per_second:
            train["steps_per_second"] = (self._global_train_batch - self._epoch_first_batch) / \
                max(time.time() - self._epoch_start, 1e-9)
        with self._writer("train").as_default(step=epoch):
            for name, value in train.items():
                summary.scalar(f"epoch_{name}", value)
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        if val:
            with self._writer("validation").as_default(step=epoch):
                for name, value in val.items():
                    summary.scalar(f"epoch_{name}", value)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)
        if self.embeddings_freq and epoch % self.embeddings_freq == 0:
            self.model.save_weights(os.path.join(
                self.log_dir, "train", f"keras_embedding.ckpt-{epoch}.weights.h5"))

    def _log_weights(self, epoch):
        prefix = getattr(self.model, "name", "")
        with self._writer("train").as_default(step=epoch):
            for weight in self.model.weights:
                path = getattr(weight, "path", None)
                if path is None:  # a tf.Variable attribute: its full name under the model's
                    path = variable_op_name(weight)
                    path = f"{prefix}/{path}" if prefix else path
                summary.histogram(f"{path}/histogram", weight)
                image = _weight_image(weight.numpy()) if self.write_images else None
                if image is not None:
                    summary.image(f"{path}/image", image)

    def _write_train_graph(self):
        step_fn = getattr(self.model, "_train_step_fn", None)
        traced = getattr(step_fn, "traced", None)
        concretes = traced._list_all_concrete_functions() if traced is not None else []
        if concretes:
            with self._writer("train").as_default():
                summary.graph(concretes[0])

    def on_train_end(self, logs=None):
        if self._profiling:
            self._stop_profiler()
        for writer in self._writers.values():
            writer.close()
        self._writers = {}
