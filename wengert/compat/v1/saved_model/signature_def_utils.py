"""`wengert.compat.v1.saved_model.signature_def_utils`: TensorFlow 1's SignatureDef builders
(wengert/tf1/signature_defs.py), and MethodNameUpdater, which renames a saved signature's
method (wengert/tf1/saved_model_builder.py)."""
from ....tf1.signature_defs import (build_signature_def, classification_signature_def,
                                    is_valid_signature, predict_signature_def,
                                    regression_signature_def)
from ....tf1.saved_model_builder import MethodNameUpdater

__all__ = ["MethodNameUpdater", "build_signature_def", "classification_signature_def", "is_valid_signature",
           "predict_signature_def", "regression_signature_def"]
