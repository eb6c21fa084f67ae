"""`wengert.compat.v1.saved_model.builder`: TensorFlow 1's SavedModel writer
(wengert/tf1/saved_model_builder.py)."""
from ....tf1.saved_model_builder import SavedModelBuilder

__all__ = ["SavedModelBuilder"]
