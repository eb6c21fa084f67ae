"""`tf.compat.v1.saved_model.signature_constants`: the serving signature's default key and the
method names, inputs and outputs of TensorFlow Serving's classify, predict and regress."""
from ....saved_model.constants import (CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME,
                                       CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES,
                                       DEFAULT_SERVING_SIGNATURE_DEF_KEY, PREDICT_INPUTS,
                                       PREDICT_METHOD_NAME, PREDICT_OUTPUTS, REGRESS_INPUTS,
                                       REGRESS_METHOD_NAME, REGRESS_OUTPUTS)

__all__ = ["CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES",
           "CLASSIFY_OUTPUT_SCORES", "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_INPUTS",
           "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_METHOD_NAME",
           "REGRESS_OUTPUTS"]
