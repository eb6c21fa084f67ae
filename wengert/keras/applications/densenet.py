"""`keras.applications.densenet`: DenseNet121, DenseNet169 and DenseNet201, the densely
connected networks of Huang et al., "Densely Connected Convolutional Networks" (2017), built as
Keras builds them (its layer names, so weights files move both ways).

In a dense block each building block sees the concatenation of everything before it:
x <- concat(x, conv3x3(relu(bn(conv1x1(relu(bn(x)))))) with 4 * 32 bottleneck and 32 new
channels (the growth rate), all convolutions without bias. Between blocks a transition halves
the channels (bn, relu, 1x1 conv to floor(channels * 0.5)) and the resolution (2x2 average
pooling). The stem is a 7x7 stride-2 convolution (input padded by 3) and 3x3 stride-2 max
pooling; four dense blocks of (6, 12, 24, 16), (6, 12, 32, 32) or (6, 12, 48, 32) building
blocks follow, then batch normalization and ReLU. Inputs are preprocessed the "torch" way.
"""
from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file
from .resnet import batch_norm

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "preprocess_input",
           "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/densenet/"


def dense_block(x, blocks, name):
    """`blocks` building blocks, each adding 32 channels."""
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    """Batch norm, ReLU, 1x1 conv to `reduction` of the channels, 2x2 average pooling."""
    x = batch_norm(f"{name}_bn")(x)
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[3] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def conv_block(x, growth_rate, name):
    """One building block: `growth_rate` new channels concatenated to `x`."""
    x1 = batch_norm(f"{name}_0_bn")(x)
    x1 = layers.Activation("relu", name=f"{name}_0_relu")(x1)
    x1 = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(x1)
    x1 = batch_norm(f"{name}_1_bn")(x1)
    x1 = layers.Activation("relu", name=f"{name}_1_relu")(x1)
    x1 = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False,
                       name=f"{name}_2_conv")(x1)
    return layers.Concatenate(axis=3, name=f"{name}_concat")([x, x1])


def DenseNet(blocks, family, include_top=True, weights="imagenet",  # noqa: N802
             input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="densenet"):
    """A DenseNet with `blocks` building blocks in its four dense blocks; family:
    "densenet121", "densenet169" or "densenet201", naming its ImageNet weights."""
    suffix = "" if include_top else "_notop"
    url = f"{BASE_WEIGHTS_PATH}{family}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
    weights_file = pretrained_file(name, weights, include_top, classes, url)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=224, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    img_input = image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = batch_norm("conv1_bn")(x)
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks, start=2):
        x = dense_block(x, count, name=f"conv{stage}")
        if stage < 5:
            x = transition_block(x, 0.5, name=f"pool{stage}")
    x = batch_norm("bn")(x)
    x = layers.Activation("relu", name="relu")(x)
    x = classifier_top(x, include_top, pooling, classes, classifier_activation, weights)
    return finish(input_tensor, img_input, x, name, weights_file)


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="densenet121"):
    """DenseNet121 (6, 12, 24, 16 blocks), as keras.applications.DenseNet121."""
    return DenseNet((6, 12, 24, 16), "densenet121", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="densenet169"):
    """DenseNet169 (6, 12, 32, 32 blocks), as keras.applications.DenseNet169."""
    return DenseNet((6, 12, 32, 32), "densenet169", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="densenet201"):
    """DenseNet201 (6, 12, 48, 32 blocks), as keras.applications.DenseNet201."""
    return DenseNet((6, 12, 48, 32), "densenet201", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def preprocess_input(x, data_format=None):
    """DenseNet's preprocessing: imagenet_utils.preprocess_input in "torch" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
