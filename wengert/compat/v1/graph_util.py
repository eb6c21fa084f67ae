"""`wengert.compat.v1.graph_util`: TensorFlow 1's tools over GraphDefs (freezing, sub-graphs,
pruning) and import_graph_def (wengert/tf1/graph_util.py, wengert/graph/graph_import.py)."""
from ...graph.graph_import import import_graph_def
from ...tf1.graph_util import (convert_variables_to_constants, extract_sub_graph,
                                 must_run_on_cpu, remove_training_nodes,
                                 tensor_shape_from_node_def_name)

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "import_graph_def",
           "must_run_on_cpu", "remove_training_nodes", "tensor_shape_from_node_def_name"]
