"""What every TensorFlow 1 streaming metric (`tf.compat.v1.metrics`) shares: its local variables,
the refusal to run eagerly, and how it hands back its pair of tensors.

A streaming metric accumulates sums over the batches it sees. Its sums are graph variables made
by `metric_variable`: zeros of a fixed shape and dtype, not trainable, in the LOCAL_VARIABLES and
METRIC_VARIABLES collections (so `local_variables_initializer()` zeroes them), named under the
metric's variable scope (`accuracy/total`, `accuracy/count`). The metric returns
`(value, update_op)`: `value` reads the sums and computes the metric from them, `update_op` adds
one batch's contribution to the sums and computes the metric from the new sums. `finish` adds them
to the `metrics_collections` and `updates_collections` the caller names. Metrics exist only in
graphs: called eagerly each raises TensorFlow's RuntimeError.
"""
from ..framework import dtypes
from ..framework.context import executing_eagerly
from ..graph.collections import GraphKeys
from ..graph.graph import get_default_graph
from ..graph.variables import GraphVariable
from ..ops.creation_ops import zeros

__all__ = ["graph_only", "metric_variable", "finish"]


def graph_only(name, message=None):
    """Raise TensorFlow's RuntimeError when `tf.metrics.<name>` is called eagerly."""
    if executing_eagerly():
        raise RuntimeError(message or f"tf.metrics.{name} is not supported when eager "
                           "execution is enabled.")


def metric_variable(shape, dtype, name):
    """A non-trainable variable of zeros in LOCAL_VARIABLES and METRIC_VARIABLES."""
    dtype = dtypes.as_dtype(dtype)
    shape = [int(d) for d in shape]
    return GraphVariable(lambda: zeros(shape, dtype), trainable=False, name=name,
                         collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES])


def finish(value, update_op, metrics_collections=None, updates_collections=None):
    """`(value, update_op)`, each added to the collections named for it."""
    graph = get_default_graph()
    if metrics_collections:
        graph.add_to_collections(metrics_collections, value)
    if updates_collections:
        graph.add_to_collections(updates_collections, update_op)
    return value, update_op
