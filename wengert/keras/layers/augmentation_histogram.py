"""Keras 3's deterministic histogram-based contrast layers (no random draws):

    AutoContrast(value_range):  each image's channels stretched to the full range,
                                x' = 255 (x - lo) / (hi - lo) with lo, hi the channel's min and
                                max (on [0, 255]); a flat channel (0 / 0) is left as it was.
                                Applied at inference too, as Keras applies it.
    Equalization(value_range, bins): per channel (over the whole batch, as Keras counts it) a
                                `bins`-bin histogram h of the pixels on [0, 255], its cumulative
                                sum c, and the lookup table round(255 (c - c_min) / (c_N - c_min))
                                read at bin floor(x (bins - 1) / 255); channels with one filled
                                bin stay as they are. Only while training.
    ContrastLimitedAdaptiveHistogramEqualization(value_range, clip_limit, tile_grid_size):
                                the image cut into a grid of tiles (padded by mirroring), each
                                tile's 256-bin histogram clipped at clip_limit * area / 256 with
                                the excess spread evenly, its normalised cumulative sum as a
                                lookup table, and each pixel mapped by the bilinear mix of the
                                four nearest tiles' tables. Applied at inference too.
All are written in wengert's ops (bincount, one_hot, cumsum, gather).
"""
import numpy as np

from ...framework.tensor import convert_to_tensor
from ...ops.histogram_ops import bincount
from ...ops.pad_ops import pad
from .. import backend_ops as K
from .augmentation_layer import (BaseImageAugmentationLayer, KeepsBoxes, rescale,
                                 value_range_pair)

__all__ = ["AutoContrast", "Equalization", "ContrastLimitedAdaptiveHistogramEqualization"]


class AutoContrast(KeepsBoxes, BaseImageAugmentationLayer):
    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.value_range = value_range_pair(value_range, "AutoContrast")

    def transform_images(self, images, transformation=None, training=True):
        return super().transform_images(images, transformation, True)

    def _apply(self, images, transformation):
        pixels = rescale(images, self.value_range, (0, 255))
        low = K.reduce_min(pixels, axis=[1, 2], keepdims=True)
        high = K.reduce_max(pixels, axis=[1, 2], keepdims=True)
        scale = 255.0 / (high - low)
        out = K.clip_by_value(pixels * scale - low * scale, 0.0, 255.0)
        out = rescale(out, (0, 255), self.value_range)
        return K.where(K.not_equal(out, out), images, out)

    def get_config(self):
        config = super().get_config()
        config.update(value_range=self.value_range)
        return config


class Equalization(KeepsBoxes, BaseImageAugmentationLayer):
    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.bins = int(bins)
        self.value_range = value_range_pair(value_range, "Equalization")

    def _equalize(self, channel):
        bins = self.bins
        channel = rescale(channel, self.value_range, (0, 255))
        index = K.clip_by_value(K.cast(channel * ((bins - 1) / 255.0), "int32"), 0, bins - 1)
        hist = K.cast(bincount(K.reshape(index, [-1]), minlength=bins, maxlength=bins),
                      "float32")
        cdf = K.cumsum(hist)
        cdf_min = K.reduce_min(K.where(cdf > 0.0, cdf, cdf[-1] + K.zeros_like(cdf)))
        denominator = cdf[-1] - cdf_min
        denominator = K.where(K.equal(denominator, 0.0), K.ones_like(denominator), denominator)
        table = K.clip_by_value(K.round((cdf - cdf_min) * 255.0 / denominator), 0.0, 255.0)
        lookup = K.cast(K.clip_by_value(channel / 255.0 * (bins - 1), 0.0, bins - 1.0), "int32")
        flat = K.reduce_sum(K.cast(hist > 0.0, "int32")) <= 1
        out = K.where(flat, channel, K.gather(table, lookup))
        return rescale(out, (0, 255), self.value_range)

    def _apply(self, images, transformation):
        channels = [self._equalize(images[..., c]) for c in range(int(images.shape[-1]))]
        return K.stack(channels, axis=-1)

    def get_config(self):
        config = super().get_config()
        config.update(bins=self.bins, value_range=self.value_range)
        return config


class ContrastLimitedAdaptiveHistogramEqualization(KeepsBoxes, BaseImageAugmentationLayer):
    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8),
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.clip_limit = clip_limit
        if len(tile_grid_size) != 2 or min(tile_grid_size) < 1:
            raise ValueError(f"ContrastLimitedAdaptiveHistogramEqualization: tile_grid_size "
                             f"should be two positive integers; got {tile_grid_size}.")
        self.tile_grid_size = tuple(int(g) for g in tile_grid_size)

    def transform_images(self, images, transformation=None, training=True):
        images = convert_to_tensor(images)
        out = super().transform_images(images, transformation, True)
        return K.cast(out, images.dtype)

    def _tables(self, tiles, area):
        """The tiles' lookup tables [b, gh, gw, c, 256] from their pixels [..., area]."""
        hists = K.reduce_sum(K.one_hot(tiles, 256), axis=-2)
        if self.clip_limit > 0:
            clipped = K.clip_by_value(hists, 0.0, self.clip_limit * area / 256.0)
            hists = clipped + K.reduce_sum(hists - clipped, axis=-1, keepdims=True) / 256.0
        cdf = K.cumsum(hists, axis=-1)
        cdf_min = K.reduce_min(cdf, axis=-1, keepdims=True)
        denominator = float(area) - cdf_min
        denominator = K.where(K.equal(denominator, 0.0), K.ones_like(denominator), denominator)
        tables = K.clip_by_value((cdf - cdf_min) * 255.0 / denominator, 0.0, 255.0)
        tables = K.concat([tables[:, :1], tables, tables[:, -1:]], axis=1)
        return K.concat([tables[:, :, :1], tables, tables[:, :, -1:]], axis=2)

    @staticmethod
    def _nodes(size, tile, grid):
        t = (np.arange(size, dtype=np.float32) - tile / 2.0) / tile + 1.0
        low = np.floor(t)
        weight = (t - low).astype(np.float32)
        return (np.clip(low, 0, grid + 1).astype(np.int32),
                np.clip(low + 1, 0, grid + 1).astype(np.int32), weight)

    def _apply(self, images, transformation):
        images = rescale(K.cast(images, "float32"), self.value_range, (0, 255))
        b, h, w, c = (K.shape(images)[0], int(images.shape[1]), int(images.shape[2]),
                      int(images.shape[3]))
        grid_h, grid_w = self.tile_grid_size
        tile_h, tile_w = -(-h // grid_h), -(-w // grid_w)
        padded = images
        if tile_h * grid_h != h or tile_w * grid_w != w:
            padded = pad(images, [[0, 0], [0, tile_h * grid_h - h], [0, tile_w * grid_w - w],
                                  [0, 0]], mode="SYMMETRIC")
        tiles = K.reshape(padded, K.stack([b, grid_h, tile_h, grid_w, tile_w, c]))
        tiles = K.reshape(K.transpose(tiles, [0, 1, 3, 5, 2, 4]),
                          K.stack([b, grid_h, grid_w, c, tile_h * tile_w]))
        tables = self._tables(K.clip_by_value(K.cast(tiles, "int32"), 0, 255), tile_h * tile_w)
        pixels = K.cast(K.clip_by_value(padded, 0.0, 255.0), "int32")
        y0, y1, wy = self._nodes(tile_h * grid_h, tile_h, grid_h)
        x0, x1, wx = self._nodes(tile_w * grid_w, tile_w, grid_w)
        wy, wx = wy[None, :, None, None], wx[None, None, :, None]

        def read(ys, xs):
            index = K.stack(_broadcast_indices(b, ys, xs, c, pixels), axis=-1)
            return K.gather_nd(tables, index)

        top = read(y0, x0) * (1.0 - wx) + read(y0, x1) * wx
        bottom = read(y1, x0) * (1.0 - wx) + read(y1, x1) * wx
        out = (top * (1.0 - wy) + bottom * wy)[:, :h, :w, :]
        return rescale(out, (0, 255), self.value_range)

    def get_config(self):
        config = super().get_config()
        config.update(value_range=self.value_range, clip_limit=self.clip_limit,
                      tile_grid_size=self.tile_grid_size)
        return config


def _broadcast_indices(batch, ys, xs, channels, pixels):
    """[b, H, W, c] index tensors (batch, tile row, tile column, channel, pixel value)."""
    like = K.zeros_like(pixels)
    batch_index = K.reshape(K.range(batch), [-1, 1, 1, 1]) + like
    row = K.constant(ys.reshape(1, -1, 1, 1)) + like
    col = K.constant(xs.reshape(1, 1, -1, 1)) + like
    channel = K.reshape(K.range(channels), [1, 1, 1, -1]) + like
    return [batch_index, row, col, channel, pixels]
