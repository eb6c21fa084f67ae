"""`wengert.queue` (TensorFlow's `tf.queue` and `tf.compat.v1.queue`): TensorFlow 1's queues,
whose enqueue and dequeue ops a Session runs from several threads (tf1/queues.py)."""
from .tf1.queues import (FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase,
                         RandomShuffleQueue)

__all__ = ["FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue"]
