"""`wengert.compat.v1.manip`: TensorFlow 1's namespace of array manipulations (each the
top-level function of the same name, as TensorFlow 1 has it)."""
from ...ops.creation_ops import tile
from ...ops.indexing_ops import reverse, scatter_nd
from ...tf1.arrays_v1 import gather_nd
from ...ops.manip_ops import roll
from ...ops.reshape_ops import reshape
from ...ops.space_ops import space_to_batch_nd
from ...tf1.reshaping import batch_to_space_nd

__all__ = ["batch_to_space_nd", "gather_nd", "reshape", "reverse", "roll", "scatter_nd",
           "space_to_batch_nd", "tile"]
