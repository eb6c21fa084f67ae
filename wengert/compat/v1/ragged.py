"""`wengert.compat.v1.ragged`: TensorFlow 1's `tf.compat.v1.ragged`, which is `tf.ragged` with
`placeholder` (graph/ragged_placeholder.py) and `RaggedTensorValue`."""
from ...framework.ragged_tensor import RaggedTensorValue  # noqa: F401
from ...graph.ragged_placeholder import placeholder  # noqa: F401
from ...ragged import *  # noqa: F401,F403
