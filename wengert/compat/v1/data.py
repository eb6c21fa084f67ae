"""`tf.compat.v1.data`: tf.data with TensorFlow 1's iterators (tf1/iterators.py)."""
from ...data import *  # noqa: F401,F403
from ...tf1.iterators import (Iterator, get_output_classes, get_output_shapes,  # noqa: F401
                              get_output_types, make_initializable_iterator,
                              make_one_shot_iterator)
