"""Graph collections as TensorFlow 1 names them: `GraphKeys` and the functions over the default
graph's collections.

A collection is a named list a graph keeps of anything (variables, losses, update ops, summaries);
TensorFlow 1 code finds what it built through them: `tf.compat.v1.get_collection(key, scope)`
returns a copy, filtered with `scope` as a regular expression matched at the start of each item's
name, and `get_collection_ref(key)` the list itself. Variables join `GLOBAL_VARIABLES` (or the
collections given) and, when trainable, `TRAINABLE_VARIABLES` as they are made.
"""
from .graph import get_default_graph

__all__ = ["GraphKeys", "add_to_collection", "add_to_collections", "get_collection",
           "get_collection_ref"]


class GraphKeys:
    """The standard collection names (TensorFlow's `tf.compat.v1.GraphKeys`)."""

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    VARIABLES = "variables"


def add_to_collection(name, value):
    """Append `value` to the default graph's collection `name`."""
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    """Append `value` to each of the default graph's collections `names`."""
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    """A copy of the default graph's collection `key`, filtered by `scope` (a regular expression
    matched at the start of each item's name; items without a name are left out)."""
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    """The default graph's collection `key` itself: appending to it adds to the collection."""
    return get_default_graph().get_collection_ref(key)
