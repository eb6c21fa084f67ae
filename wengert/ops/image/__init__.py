"""tf.image's ops: resizing, flips, crops and pads, colour adjustments, image metrics, glimpses and
boxes, as TensorFlow 2 computes them; each is a composition of wengert's ops, so the gradients
with respect to the images are those ops' (see resize.py, geometry.py, color.py,
color_spaces.py, metrics.py, multiscale.py, glimpse.py, boxes.py, random_image.py);
the codecs (codecs.py, png.py) read and write bytes and are not differentiable. The public
namespace is wengert/image.py; TensorFlow 1's spellings are in legacy_resize.py and beside their
TensorFlow 2 forms (crop_and_resize_v1, extract_image_patches, ..._v1)."""
