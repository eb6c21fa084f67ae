"""`wengert.graph_util`: TensorFlow 2's `tf.graph_util`, which holds import_graph_def
(wengert/graph/graph_import.py)."""
from .graph.graph_import import import_graph_def

__all__ = ["import_graph_def"]
