"""`keras.applications.resnet50`: ResNet50 with its preprocess_input and decode_predictions
(the networks and their description live in resnet.py)."""
from .resnet import ResNet50, decode_predictions, preprocess_input

__all__ = ["ResNet50", "decode_predictions", "preprocess_input"]
