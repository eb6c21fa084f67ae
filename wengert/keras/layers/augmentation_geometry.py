"""Keras 3's random geometric and local augmentations (Keras's split into draws and a fixed
transform; see augmentation_layer.py):

    RandomCrop(height, width):   while training, the height x width window at a random corner
                                 (h0, w0) (for an image smaller than the window, what of it
                                 lies there, resized); at inference the centred window of the
                                 target aspect ratio, resized (Keras's documented behaviour;
                                 Keras 3.15 itself returns the image uncropped there)
    RandomShear(x_factor, y_factor): the projective transform [1, sx, 0, sy, 1, 0, 0, 0], so the
                                 output pixel (x, y) samples the input at (x + sx y, sy x + y),
                                 sx, sy ~ +-U(factor) (one sign per image)
    RandomPerspective(factor, scale): with probability p ~ U(factor), the corners c of the image
                                 moved to c (1 + d), d ~ U(-scale/2, scale/2) per coordinate, and
                                 the image warped by the homography taking them back
    RandomGaussianBlur(factor, kernel_size, sigma): with probability p ~ U(factor), the image
                                 convolved with the separable Gaussian exp(-t^2 / 2 s^2) (normalised),
                                 s ~ U(sigma) per axis (one draw for the batch), clipped
    RandomErasing(factor, scale, fill_value): with probability p ~ U(factor), a box of relative
                                 sides sqrt(U(scale)) at a random place replaced by fill_value
                                 (Gaussian noise times value_range's top when None)
    RandomElasticTransform(factor, scale): with probability p ~ U(factor), every pixel displaced
                                 by alpha times Gaussian-blurred noise (alpha = 0.1 s max(h, w),
                                 blur sigma = 0.05 s min(h, w), s ~ U(scale))
Sampling goes through keras.ops.image's affine / perspective / elastic transforms and gaussian
blur (wengert ops), so the results are differentiable in the images. Segmentation masks follow
the images' geometry with nearest-pixel sampling.
"""
from ...framework.context import state
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...ops.slice_ops import slice as slice_op
from .. import backend_ops as K
from ..ops.image_filters import gaussian_blur
from ..ops.image_resizing import resize
from ..ops.image_sampling import affine_transform, elastic_transform, perspective_transform
from .augmentation_layer import (BaseImageAugmentationLayer, GeometricAugmentationLayer,
                                 per_image, value_range_pair)

__all__ = ["RandomCrop", "RandomShear", "RandomPerspective", "RandomGaussianBlur",
           "RandomErasing", "RandomElasticTransform"]

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def _choice(value, allowed, what, layer):
    if value not in allowed:
        raise NotImplementedError(f"{layer}: Unknown `{what}` {value}. Expected one of "
                                  f"{tuple(allowed)}.")
    return value


def _unit_pair(factor, name, layer, symmetric=False):
    """Keras's factor in [0, 1]: a number f is (-f, f) when symmetric, else (0, f)."""
    message = (f"{layer}: The `{name}` argument should be a number (or a list of two numbers) "
               f"in the range [0, 1]. Received: {name}={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > 1 or factor[1] < 0:
            raise ValueError(message)
        return tuple(sorted(factor))
    if not isinstance(factor, (int, float)) or not 0 <= factor <= 1:
        raise ValueError(message)
    return (-abs(factor) if symmetric else 0, abs(factor))


class _Chance(BaseImageAugmentationLayer):
    """Layers applied to each image with a probability drawn from U(factor)."""

    _FACTOR_BOUNDS = (0, 1)

    def _applies(self, draws, batch):
        probability = draws.uniform([batch], *self.factor)
        return K.less(draws.uniform([batch]), probability)


class RandomCrop(BaseImageAugmentationLayer):
    """The transformation is Keras's (h_start, w_start) pair."""

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, name=name, **kwargs)
        self.height, self.width = int(height), int(width)

    def get_random_transformation(self, data, training=True, seed=None):
        h, w = self.image_size(data)
        if training and h > self.height and w > self.width:
            draws = self.draws(seed)
            return (K.cast(draws.integers([], 0, h - self.height + 1), "int32"),
                    K.cast(draws.integers([], 0, w - self.width + 1), "int32"))
        crop_h = max(min(h, int(w * self.height / self.width)), 1)
        crop_w = max(min(w, int(h * self.width / self.height)), 1)
        return (int((h - crop_h) / 2), int((w - crop_w) / 2))

    def transform_images(self, images, transformation, training=True):
        if not training:
            transformation = self._centre(images)
        elif transformation is None:
            transformation = self.get_random_transformation(images, training=True)
        return super().transform_images(images, transformation, True)

    def _centre(self, images):
        """The centred window of the target aspect ratio (its corner and size) for inference."""
        h, w = self.image_size(images)
        crop_h = max(min(h, int(w * self.height / self.width)), 1)
        crop_w = max(min(w, int(h * self.width / self.height)), 1)
        return ((h - crop_h) // 2, (w - crop_w) // 2, crop_h, crop_w)

    def _apply(self, images, transformation):
        h, w = int(images.shape[1]), int(images.shape[2])
        top, left = transformation[0], transformation[1]
        if state.graph is None:
            top, left = int(top), int(left)
        if len(transformation) == 4:
            crop_h, crop_w = transformation[2], transformation[3]
        else:
            crop_h = self.height if not isinstance(top, int) else min(self.height, h - top)
            crop_w = self.width if not isinstance(left, int) else min(self.width, w - left)
        begin = K.stack([0, K.cast(top, "int32"), K.cast(left, "int32"), 0])
        out = slice_op(images, begin, [-1, crop_h, crop_w, -1])
        if (crop_h, crop_w) != (self.height, self.width):
            out = K.cast(resize(out, (self.height, self.width)), images.dtype)
        return out

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation, training)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        axes = (-2, -1) if self.data_format == "channels_first" else (-3, -2)
        shape[axes[0]], shape[axes[1]] = self.height, self.width
        return TensorShape(shape)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width, seed=self.seed)
        return config


class RandomShear(GeometricAugmentationLayer):
    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear", fill_mode="reflect",
                 fill_value=0.0, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.x_factor = _unit_pair(x_factor, "x_factor", "RandomShear", symmetric=True)
        self.y_factor = _unit_pair(y_factor, "y_factor", "RandomShear", symmetric=True)
        self.fill_mode = _choice(fill_mode, _FILL_MODES, "fill_mode", "RandomShear")
        self.interpolation = _choice(interpolation, ("nearest", "bilinear"), "interpolation",
                                     "RandomShear")
        self.fill_value = fill_value

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws, batch = self.draws(seed), self.batch_size(data)
        sign = K.where(draws.uniform([batch, 1]) > 0.5, -1.0 * K.ones([batch, 1]),
                       K.ones([batch, 1]))
        shear_y = draws.uniform([batch, 1], *self.y_factor)
        shear_x = draws.uniform([batch, 1], *self.x_factor)
        return {"shear_factor": K.concat([shear_x, shear_y], axis=1) * sign}

    def get_transformed_x_y(self, x, y, transform):
        """The points (x, y) sent through the projective transforms [..., 8]."""
        a0, a1, a2, b0, b1, b2, c0, c1 = K.split(K.cast(transform, "float32"), 8, axis=-1)
        k = c0 * x + c1 * y + 1.0
        return (a0 * x + a1 * y + a2) / k, (b0 * x + b1 * y + b2) / k

    def get_shifted_bbox(self, bounding_boxes, w_shift_factor, h_shift_factor):
        """bounding_boxes["boxes"] (x1, y1, x2, y2) moved back by the shifts."""
        boxes = convert_to_tensor(bounding_boxes["boxes"])
        x1, y1, x2, y2 = K.split(boxes, 4, axis=-1)
        w = K.cast(w_shift_factor, boxes.dtype)
        h = K.cast(h_shift_factor, boxes.dtype)
        if boxes.shape.rank == 3:
            w, h = K.expand_dims(w, -1), K.expand_dims(h, -1)
        bounding_boxes["boxes"] = K.concat([x1 - w, y1 - h, x2 - w, y2 - h], axis=-1)
        return bounding_boxes

    def _warp(self, images, transformation, interpolation):
        shear = K.cast(transformation["shear_factor"], "float32")
        one, zero = K.ones_like(shear[:, 0]), K.zeros_like(shear[:, 0])
        matrix = K.stack([one, shear[:, 0], zero, shear[:, 1], one, zero, zero, zero], axis=1)
        return affine_transform(images, matrix, interpolation, self.fill_mode, self.fill_value)

    def get_config(self):
        config = super().get_config()
        config.update(x_factor=self.x_factor, y_factor=self.y_factor, fill_mode=self.fill_mode,
                      interpolation=self.interpolation, seed=self.seed,
                      fill_value=self.fill_value)
        return config


class RandomPerspective(_Chance, GeometricAugmentationLayer):
    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0,
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = self._set_factor(factor)
        if not 0.0 <= scale <= 1.0:
            raise ValueError(f"RandomPerspective: The `scale` argument should be a number in the "
                             f"range [0,1]. Received: scale={scale}")
        self.scale, self.fill_value = scale, fill_value
        self.interpolation = _choice(interpolation, ("nearest", "bilinear"), "interpolation",
                                     "RandomPerspective")

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws, batch = self.draws(seed), self.batch_size(data)
        h, w = self.image_size(data)
        apply = self._applies(draws, batch)
        spread = draws.uniform([batch, 4, 2], -0.5 * self.scale, 0.5 * self.scale)
        corners = K.constant([[[0.0, 0.0], [w - 1.0, 0.0], [0.0, h - 1.0], [w - 1.0, h - 1.0]]])
        start = corners + K.zeros_like(spread)
        return {"apply_perspective": apply, "start_points": start,
                "end_points": start + start * spread}

    def _warp(self, images, transformation, interpolation):
        out = perspective_transform(images, transformation["start_points"],
                                    transformation["end_points"], interpolation,
                                    self.fill_value)
        apply = K.broadcast_to(per_image(transformation["apply_perspective"]), K.shape(images))
        return K.where(apply, K.cast(out, images.dtype), images)

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, scale=self.scale, interpolation=self.interpolation,
                      fill_value=self.fill_value, seed=self.seed)
        return config


def _odd_sizes(kernel_size):
    message = f"RandomGaussianBlur: kernel_size must be an odd number. Received: " \
              f"kernel_size={kernel_size}"
    sizes = list(kernel_size) if isinstance(kernel_size, (tuple, list)) else [kernel_size] * 2
    if len(sizes) != 2 or any(not isinstance(s, (int, float)) or s % 2 == 0 for s in sizes):
        raise ValueError(message)
    return tuple(sizes)


class RandomGaussianBlur(_Chance):
    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255),
                 data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = self._set_factor(factor)
        self.kernel_size = _odd_sizes(kernel_size)
        self.sigma = self._set_factor(sigma)
        self.value_range = value_range_pair(value_range, "RandomGaussianBlur")

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws = self.draws(seed)
        apply = self._applies(draws, self.batch_size(data))
        return {"should_apply_blur": apply,
                "blur_factor": draws.uniform([2], *self.sigma) + 1e-6}

    def _apply(self, images, transformation):
        if transformation is None:
            return images
        sigma = K.cast(transformation["blur_factor"], images.dtype)
        blurred = gaussian_blur(images, self.kernel_size, (sigma[0], sigma[1]))
        apply = K.broadcast_to(per_image(transformation["should_apply_blur"]), K.shape(images))
        return K.clip_by_value(K.where(apply, blurred, images), *map(float, self.value_range))

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, kernel_size=self.kernel_size, sigma=self.sigma,
                      value_range=self.value_range, seed=self.seed)
        return config


class RandomErasing(_Chance):
    """The transformation holds Keras's masks and fill values in the layer's data format."""

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255),
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = self._set_factor(factor)
        self.scale = self._set_factor(scale)
        if fill_value is not None and not (
                isinstance(fill_value, (int, float)) or
                (isinstance(fill_value, (tuple, list)) and len(fill_value) == 3)):
            raise ValueError(f"RandomErasing: The `fill_value` argument should be a number (or a "
                             f"list of three numbers). Received: fill_value={fill_value}")
        self.fill_value = fill_value
        self.value_range = value_range_pair(value_range, "RandomErasing")

    def _box_mask(self, draws, batch, h, w, channels):
        sides = K.sqrt(draws.uniform([batch, 2], *self.scale))
        spans = []
        for length, ratio in ((w, sides[:, 0]), (h, sides[:, 1])):
            crop = ratio * float(length)
            start = draws.uniform([batch]) * (float(length) - crop)
            spans.append((per_image(start), per_image(start + crop)))
        (x0, x1), (y0, y1) = spans
        ys = K.reshape(K.cast(K.range(h), "float32"), [1, h, 1, 1])
        xs = K.reshape(K.cast(K.range(w), "float32"), [1, 1, w, 1])
        inside = K.logical_and(K.logical_and(xs >= x0, xs < x1),
                               K.logical_and(ys >= y0, ys < y1))
        return K.broadcast_to(inside, K.stack([batch, h, w, channels]))

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws, batch = self.draws(seed), self.batch_size(data)
        images = self.images_of(data)
        h, w = self.image_size(data)
        channels = int(images.shape[1 if self.data_format == "channels_first" else -1])
        masks = self._box_mask(draws, batch, h, w, channels)
        apply = self._applies(draws, batch)
        shape = [batch, h, w, channels]
        if self.fill_value is None:
            fill = draws.normal(shape) * float(self.value_range[1])
        else:
            fill = K.zeros(K.stack(shape)) + K.constant(self.fill_value, "float32")
        fill = K.clip_by_value(fill, *map(float, self.value_range))
        if self.data_format == "channels_first":
            masks, fill = K.transpose(masks, [0, 3, 1, 2]), K.transpose(fill, [0, 3, 1, 2])
        return {"apply_erasing": apply, "batch_masks": masks, "fill_value": fill}

    def transform_images(self, images, transformation, training=True):
        images = K.cast(images, self.dtype or "float32")
        if not training or transformation is None:
            return images
        fill = K.cast(transformation["fill_value"], images.dtype) + K.zeros_like(images)
        erased = K.where(K.cast(transformation["batch_masks"], "bool"), fill, images)
        apply = K.broadcast_to(per_image(transformation["apply_erasing"]), K.shape(images))
        return K.where(apply, erased, images)

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, scale=self.scale, fill_value=self.fill_value,
                      value_range=self.value_range, seed=self.seed)
        return config


class RandomElasticTransform(_Chance, GeometricAugmentationLayer):
    """The transformation holds the noise's integer seed (Keras holds its seed generator)."""

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect",
                 fill_value=0.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = self._set_factor(factor)
        self.scale = self._set_factor(scale)
        self.interpolation = _choice(interpolation, ("nearest", "bilinear"), "interpolation",
                                     "RandomElasticTransform")
        self.fill_mode = _choice(fill_mode, _FILL_MODES + ("mirror",), "fill_mode",
                                 "RandomElasticTransform")
        self.fill_value = fill_value
        self.value_range = value_range_pair(value_range, "RandomElasticTransform")

    def get_random_transformation(self, data, training=True, seed=None):
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        draws = self.draws(seed)
        apply = self._applies(draws, self.batch_size(data))
        distortion = float(draws.rng.uniform(*self.scale))
        return {"apply_transform": apply, "distortion_factor": distortion,
                "seed": int(draws.rng.integers(0, 2**31 - 1))}

    def get_elastic_transform_params(self, height, width, factor):
        """Keras's (alpha, sigma) for a distortion factor: 0.1 f max(h, w), 0.05 f min(h, w)."""
        return max(height, width) * 0.1 * factor, min(height, width) * 0.05 * factor

    def _warp(self, images, transformation, interpolation):
        h, w = int(images.shape[1]), int(images.shape[2])
        factor = float(transformation["distortion_factor"])
        alpha, sigma = self.get_elastic_transform_params(h, w, factor)
        out = elastic_transform(images, alpha, sigma, interpolation, self.fill_mode,
                                self.fill_value, seed=int(transformation["seed"]))
        apply = K.broadcast_to(per_image(transformation["apply_transform"]), K.shape(images))
        out = K.where(apply, K.cast(out, images.dtype), images)
        return K.clip_by_value(out, *map(float, self.value_range))

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, scale=self.scale, interpolation=self.interpolation,
                      fill_mode=self.fill_mode, fill_value=self.fill_value,
                      value_range=self.value_range, seed=self.seed)
        return config
