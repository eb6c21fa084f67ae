"""`keras.applications`: ImageNet classification networks built as Keras builds them, with
`weights=None` (random) or a weights file Keras wrote (nothing is downloaded), and each
network's `preprocess_input` and `decode_predictions` in its submodule (`resnet50`, `vgg16`,
...). model_frame.py holds what every network shares: argument checks, input, top, weights.
"""
from . import imagenet_utils
from . import resnet, resnet50
from .resnet import ResNet50, ResNet101, ResNet152
from . import resnet_v2
from .resnet_v2 import ResNet50V2, ResNet101V2, ResNet152V2
from . import vgg16, vgg19
from .vgg16 import VGG16
from .vgg19 import VGG19
from . import densenet
from .densenet import DenseNet121, DenseNet169, DenseNet201
from . import inception_v3, inception_resnet_v2, xception
from .inception_v3 import InceptionV3
from .inception_resnet_v2 import InceptionResNetV2
from .xception import Xception
from . import nasnet
from .nasnet import NASNetLarge, NASNetMobile
from . import mobilenet, mobilenet_v2, mobilenet_v3
from .mobilenet import MobileNet
from .mobilenet_v2 import MobileNetV2
from .mobilenet_v3 import MobileNetV3Large, MobileNetV3Small
from . import efficientnet, efficientnet_v2
from .efficientnet import (EfficientNetB0, EfficientNetB1, EfficientNetB2, EfficientNetB3,
                           EfficientNetB4, EfficientNetB5, EfficientNetB6, EfficientNetB7)
from .efficientnet_v2 import (EfficientNetV2B0, EfficientNetV2B1, EfficientNetV2B2,
                              EfficientNetV2B3, EfficientNetV2L, EfficientNetV2M, EfficientNetV2S)
from . import convnext
from .convnext import ConvNeXtBase, ConvNeXtLarge, ConvNeXtSmall, ConvNeXtTiny, ConvNeXtXLarge
