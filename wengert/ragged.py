"""`wengert.ragged`: TensorFlow's `tf.ragged` namespace over the RaggedTensor container
(framework/ragged_tensor.py) and its ops (ops/ragged/)."""
from .framework.ragged_tensor import RaggedTensor  # noqa: F401
from .ops.ragged import methods as _methods  # noqa: F401
from .ops.ragged.constant import constant, constant_value  # noqa: F401
from .ops.ragged.crossing import cross, cross_hashed  # noqa: F401
from .ops.ragged.elementwise import map_flat_values  # noqa: F401
from .ops.ragged.indexing import ragged_range as range  # noqa: F401,A004
from .ops.ragged.joining import stack, stack_dynamic_partitions  # noqa: F401
from .ops.ragged.segment_ids import (row_splits_to_segment_ids,  # noqa: F401
                                     segment_ids_to_row_splits)
from .ops.ragged.selection import boolean_mask  # noqa: F401
