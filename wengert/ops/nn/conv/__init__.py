"""Convolutions of tf.nn: the 2-D and depthwise ops (conv2d.py) and the 3-D ones (conv3d.py), each
with TensorFlow's three-op structure (forward, backprop-input, backprop-filter), their shared
kernels (im2col.py: the forward, backward_kernels.py: the backprops), and the convolutions TensorFlow composes from them (compositions.py).
Window geometry (sizes, padding, layouts) is shared with pooling: ../window_geometry.py."""
