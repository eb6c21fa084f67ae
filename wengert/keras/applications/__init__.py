"""`keras.applications`: ImageNet classification networks built as Keras builds them, with
`weights=None` (random) or a weights file Keras wrote (nothing is downloaded), and each
network's `preprocess_input` and `decode_predictions` in its submodule (`resnet50`, `vgg16`,
...). model_frame.py holds what every network shares: argument checks, input, top, weights.
"""
from . import imagenet_utils
from . import resnet, resnet50
from .resnet import ResNet50, ResNet101, ResNet152
