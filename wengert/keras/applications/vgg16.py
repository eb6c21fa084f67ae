"""`keras.applications.vgg16`: VGG16, the 16-layer network of Simonyan and Zisserman, "Very Deep
Convolutional Networks for Large-Scale Image Recognition" (2014), built as Keras builds it (its
layer names, so weights files move both ways); vgg19.py builds VGG19 with the same function.

Five blocks of 3x3 "same" convolutions with ReLU (64, 128, 256, 512, 512 filters; 2, 2, 3, 3, 3
convolutions in VGG16, 2, 2, 4, 4, 4 in VGG19), each closed by 2x2 stride-2 max pooling; with
the top, the features are flattened into two 4096-unit ReLU layers ("fc1", "fc2") and the
`classes`-way "predictions" layer. Inputs are preprocessed the "caffe" way.
"""
from .. import layers
from . import imagenet_utils
from .model_frame import finish, image_input, pretrained_file

__all__ = ["VGG16", "preprocess_input", "decode_predictions"]

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/"
_FILTERS = (64, 128, 256, 512, 512)


def vgg(convs_per_block, family, name, include_top, weights, input_tensor, input_shape,
        pooling, classes, classifier_activation):
    """A VGG network with `convs_per_block` convolutions in each of its five blocks; family:
    "vgg16" or "vgg19", naming its ImageNet weights."""
    suffix = "" if include_top else "_notop"
    url = f"{_BASE}{family}/{family}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
    weights_file = pretrained_file(name, weights, include_top, classes, url)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=224, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    img_input = image_input(input_tensor, input_shape)
    x = img_input
    for block, (filters, convs) in enumerate(zip(_FILTERS, convs_per_block), start=1):
        for i in range(1, convs + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same",
                              name=f"block{block}_conv{i}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)
    return finish(input_tensor, img_input, x, name, weights_file)


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
          pooling=None, classes=1000, classifier_activation="softmax", name="vgg16"):
    """VGG16, as keras.applications.VGG16."""
    return vgg((2, 2, 3, 3, 3), "vgg16", name, include_top, weights, input_tensor, input_shape,
               pooling, classes, classifier_activation)


def preprocess_input(x, data_format=None):
    """VGG's preprocessing: imagenet_utils.preprocess_input in "caffe" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
