"""`keras.applications.resnet` (and `resnet50`): ResNet50, ResNet101 and ResNet152, the
residual networks of He et al., "Deep Residual Learning for Image Recognition" (2015), built
layer for layer as Keras builds them (the same layer names, so weights files move both ways).

A residual block computes y = relu(shortcut(x) + F(x)) where F is the bottleneck
1x1 conv (filters) -> 3x3 conv (filters) -> 1x1 conv (4 filters), each followed by batch
normalization (epsilon 1.001e-5) and, but for the last, ReLU; the shortcut is the identity, or
a strided 1x1 convolution with batch normalization in the first block of a stack. The stem is
a 7x7 stride-2 convolution on the input padded by 3, then 3x3 stride-2 max pooling; four stacks
of blocks (conv2..conv5, with 3/4/6/3, 3/4/23/3 or 3/8/36/3 blocks) follow. `ResNet` also
builds the pre-activation variant of resnet_v2.py (`preact=True`). Inputs are preprocessed the
"caffe" way (imagenet_utils.py).
"""
from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["ResNet50", "ResNet101", "ResNet152", "preprocess_input", "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/"


def batch_norm(name):
    return layers.BatchNormalization(axis=3, epsilon=1.001e-5, name=name)


def ResNet(stack_fn, preact, use_bias, include_top=True, weights="imagenet",  # noqa: N802
           input_tensor=None, input_shape=None, pooling=None, classes=1000,
           classifier_activation="softmax", name="resnet", weights_name=None):
    """A ResNet (v1, or v2 with `preact`) whose residual stacks `stack_fn` adds."""
    suffix = "" if include_top else "_notop"
    url = f"{BASE_WEIGHTS_PATH}{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
    weights_file = pretrained_file(name, weights, include_top, classes, url)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=224, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    img_input = image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=use_bias, name="conv1_conv")(x)
    if not preact:
        x = batch_norm("conv1_bn")(x)
        x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    x = stack_fn(x)
    if preact:
        x = batch_norm("post_bn")(x)
        x = layers.Activation("relu", name="post_relu")(x)
    x = classifier_top(x, include_top, pooling, classes, classifier_activation, weights)
    return finish(input_tensor, img_input, x, name, weights_file)


def residual_block_v1(x, filters, kernel_size=3, stride=1, conv_shortcut=True, name=None):
    """One bottleneck block of ResNet v1 (see the module docstring)."""
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = batch_norm(f"{name}_0_bn")(shortcut)
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = batch_norm(f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.Conv2D(filters, kernel_size, padding="SAME", name=f"{name}_2_conv")(x)
    x = batch_norm(f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = batch_norm(f"{name}_3_bn")(x)
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def stack_residual_blocks_v1(x, filters, blocks, stride1=2, name=None):
    """`blocks` v1 blocks, the first with a convolution shortcut of stride `stride1`."""
    x = residual_block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = residual_block_v1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def _stacks(blocks):
    """The stack function of a v1 ResNet with `blocks` blocks in conv2..conv5."""
    def stack_fn(x):
        x = stack_residual_blocks_v1(x, 64, blocks[0], stride1=1, name="conv2")
        x = stack_residual_blocks_v1(x, 128, blocks[1], name="conv3")
        x = stack_residual_blocks_v1(x, 256, blocks[2], name="conv4")
        return stack_residual_blocks_v1(x, 512, blocks[3], name="conv5")
    return stack_fn


def ResNet50(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
             input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="resnet50"):
    """ResNet50 (3, 4, 6, 3 blocks), as keras.applications.ResNet50."""
    return ResNet(_stacks((3, 4, 6, 3)), False, True, include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name, "resnet50")


def ResNet101(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
              input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet101"):
    """ResNet101 (3, 4, 23, 3 blocks), as keras.applications.ResNet101."""
    return ResNet(_stacks((3, 4, 23, 3)), False, True, include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name, "resnet101")


def ResNet152(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
              input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet152"):
    """ResNet152 (3, 8, 36, 3 blocks), as keras.applications.ResNet152."""
    return ResNet(_stacks((3, 8, 36, 3)), False, True, include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name, "resnet152")


def preprocess_input(x, data_format=None):
    """ResNet's preprocessing: imagenet_utils.preprocess_input in "caffe" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
