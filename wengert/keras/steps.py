"""The step functions `fit`, `evaluate` and `predict` run on each batch, traced or eager.

A step is traced by `wengert.function` (one trace per input signature: usually two, full
batches and the last one) and its graph replayed for every batch, unless the model was compiled
with `run_eagerly=True`. That holds for the built-in steps and for a model's own
`train_step(data)` / `test_step(data)` / `predict_step(data)`, which receive each batch in
Keras's layout (keras/data_adapter.py's `pack_x_y_sample_weight`) and return a dict of logs:
tensors or Python numbers, a nested dict merged in (`{m.name: m.result() for m in
self.metrics}` with the compiled metrics). The logs become Python floats for the progress bar,
History and the callbacks.

Only a failure while tracing falls back to eager execution: tracing builds a graph and changes
nothing. Once the step is traced, a failure while it runs is reported as it is, never run again
eagerly: the step may already have assigned variables (an optimizer's update, a layer's
statistics), and a second run would apply them twice. A traced train/test step whose result is
not a dict is refused after tracing, before it runs once, and a StepError (no loss to compute)
is raised as it is.
"""
import warnings

from ..graph.graph import check_scope_name
from ..tracing.function import function
from .compile_metrics import check_logs, pythonify_logs
from .distributed import replica_step, split_for_replicas

__all__ = ["Step", "StepError", "check_scope_names", "UserSteps"]


class StepError(ValueError):
    """A step broke its contract (no loss to compute, ...): raised as it is, while tracing
    too, never retried eagerly."""


class Step:
    """fn run through `wengert.function`, or eagerly when asked to or when its first trace
    fails; `check(outputs)` (optional) vets the traced outputs before the first run."""

    def __init__(self, fn, compiled, what, check=None):
        self.fn = fn
        self.traced = function(fn) if compiled else None
        self.proven = False
        self.what = what
        self.check = check

    def __call__(self, *args):
        if self.traced is None:
            return self.fn(*args)
        if not self.proven:
            try:
                concrete = self.traced.get_concrete_function(*args)  # traces; nothing runs
            except StepError:
                raise
            except Exception as err:  # noqa: BLE001 - any tracing failure falls back to eager
                self.traced = None
                warnings.warn(f"Model.{self.what}: the step could not be compiled with "
                              f"wengert.function ({type(err).__name__}: {err}); running it "
                              "eagerly (pass run_eagerly=True to compile to skip the attempt).",
                              stacklevel=4)
                return self.fn(*args)
            if self.check is not None:
                self.check(concrete.structured_outputs)
            self.proven = True
        return self.traced(*args)


def check_scope_names(model):
    """A compiled step builds a graph, in which TensorFlow opens a name scope per model and
    layer: names it does not accept as scopes raise ValueError there, as TF's compiled fit,
    evaluate and predict do (run_eagerly=True accepts any name, as TF does)."""
    check_scope_name(model.name, root=True)
    for layer in model.submodules:
        check_scope_name(getattr(layer, "name", ""), root=False)


class UserSteps:
    """A model's overridden train_step / test_step / predict_step as traced step functions
    (under a strategy with replicas in this process: run by every replica, distributed.py)."""

    def __init__(self, model, compiled):
        self._model = model
        self.train = Step(replica_step(model, model.train_step, "mean"), compiled, "train_step",
                          lambda out: check_logs(out, "train_step"))
        self.test = Step(replica_step(model, model.test_step, "mean"), compiled, "test_step",
                         lambda out: check_logs(out, "test_step"))
        self._predict = Step(replica_step(model, model.predict_step, "concat"), compiled,
                             "predict_step")

    def run_train(self, data):
        return _logs_of(self.train(split_for_replicas(self._model, data)), "train_step")

    def run_test(self, data):
        return _logs_of(self.test(split_for_replicas(self._model, data)), "test_step")

    def predict(self, data):
        return self._predict(split_for_replicas(self._model, data))


def _logs_of(logs, method):
    check_logs(logs, method)
    return pythonify_logs(logs)
