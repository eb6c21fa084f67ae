"""`keras.applications.resnet_v2`: ResNet50V2, ResNet101V2 and ResNet152V2, the pre-activation
residual networks of He et al., "Identity Mappings in Deep Residual Networks" (2016), built as
Keras builds them (its layer names, so weights files move both ways).

A v2 block computes y = shortcut + F(relu(bn(x))): batch normalization and ReLU come before the
convolutions (the "preact"), F is 1x1 conv (no bias) -> bn -> relu -> pad 1 -> 3x3 conv of the
block's stride (no bias) -> bn -> relu -> 1x1 conv (4 filters), and nothing follows the sum.
The shortcut is a 1x1 convolution of the preactivation in a stack's first block, else the
identity, or 1x1 max pooling of the block's stride where the block downsamples (the last block
of stacks conv2..conv4). The stem and head are resnet.ResNet's with `preact=True` (batch norm
and ReLU after the last stack, "post_bn"). Inputs are preprocessed the "tf" way.
"""
from .. import layers
from . import imagenet_utils
from .resnet import ResNet, batch_norm

__all__ = ["ResNet50V2", "ResNet101V2", "ResNet152V2", "preprocess_input",
           "decode_predictions"]


def residual_block_v2(x, filters, kernel_size=3, stride=1, conv_shortcut=False, name=None):
    """One pre-activation bottleneck block (see the module docstring)."""
    preact = batch_norm(f"{name}_preact_bn")(x)
    preact = layers.Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = batch_norm(f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, kernel_size, strides=stride, use_bias=False,
                      name=f"{name}_2_conv")(x)
    x = batch_norm(f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def stack_residual_blocks_v2(x, filters, blocks, stride1=2, name=None):
    """`blocks` v2 blocks: the first with a convolution shortcut, the last of stride
    `stride1`."""
    x = residual_block_v2(x, filters, conv_shortcut=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = residual_block_v2(x, filters, name=f"{name}_block{i}")
    return residual_block_v2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def _stacks(blocks):
    def stack_fn(x):
        x = stack_residual_blocks_v2(x, 64, blocks[0], name="conv2")
        x = stack_residual_blocks_v2(x, 128, blocks[1], name="conv3")
        x = stack_residual_blocks_v2(x, 256, blocks[2], name="conv4")
        return stack_residual_blocks_v2(x, 512, blocks[3], stride1=1, name="conv5")
    return stack_fn


def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
               input_shape=None, pooling=None, classes=1000,
               classifier_activation="softmax", name="resnet50v2"):
    """ResNet50V2 (3, 4, 6, 3 blocks), as keras.applications.ResNet50V2."""
    return ResNet(_stacks((3, 4, 6, 3)), True, True, include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name, "resnet50v2")


def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="resnet101v2"):
    """ResNet101V2 (3, 4, 23, 3 blocks), as keras.applications.ResNet101V2."""
    return ResNet(_stacks((3, 4, 23, 3)), True, True, include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name, "resnet101v2")


def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="resnet152v2"):
    """ResNet152V2 (3, 8, 36, 3 blocks), as keras.applications.ResNet152V2."""
    return ResNet(_stacks((3, 8, 36, 3)), True, True, include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name, "resnet152v2")


def preprocess_input(x, data_format=None):
    """ResNet v2's preprocessing: imagenet_utils.preprocess_input in "tf" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
