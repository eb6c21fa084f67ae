"""`keras.applications.vgg19`: VGG19, VGG16 (vgg16.py) with four convolutions in each of the
last three blocks instead of three; preprocessed the "caffe" way."""
from .vgg16 import decode_predictions, preprocess_input, vgg

__all__ = ["VGG19", "preprocess_input", "decode_predictions"]


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
          pooling=None, classes=1000, classifier_activation="softmax", name="vgg19"):
    """VGG19, as keras.applications.VGG19."""
    return vgg((2, 2, 4, 4, 4), "vgg19", name, include_top, weights, input_tensor, input_shape,
               pooling, classes, classifier_activation)
