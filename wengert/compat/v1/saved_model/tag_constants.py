"""`tf.compat.v1.saved_model.tag_constants`: the tags of a SavedModel's MetaGraphs."""
from ....saved_model.constants import GPU, SERVING, TPU, TRAINING

__all__ = ["GPU", "SERVING", "TPU", "TRAINING"]
