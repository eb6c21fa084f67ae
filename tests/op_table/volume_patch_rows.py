"""Op-table rows for extract_volume_patches (ops/volume_patch_ops.py): every box of a 5-D volume
flattened into the channels; the reference pads with NumPy and copies each box."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand


def volume_patches_ref(x, ksizes, strides, padding):
    (kp, kh, kw), (sp, sh, sw) = ksizes[1:4], strides[1:4]
    spatial = x.shape[1:4]
    if padding == "SAME":
        outs = [-(-n // s) for n, s in zip(spatial, (sp, sh, sw))]
        total = [max((o - 1) * s + k - n, 0) for o, s, k, n in
                 zip(outs, (sp, sh, sw), (kp, kh, kw), spatial)]
        x = np.pad(x, [(0, 0)] + [(t // 2, t - t // 2) for t in total] + [(0, 0)])
    else:
        outs = [(n - k) // s + 1 for n, k, s in zip(spatial, (kp, kh, kw), (sp, sh, sw))]
    out = np.empty((x.shape[0], *outs, kp * kh * kw * x.shape[4]))
    for i in range(outs[0]):
        for j in range(outs[1]):
            for k in range(outs[2]):
                box = x[:, i * sp:i * sp + kp, j * sh:j * sh + kh, k * sw:k * sw + kw, :]
                out[:, i, j, k] = box.reshape(x.shape[0], -1)
    return out


ROWS = [
    OpInfo("extract_volume_patches", tf.extract_volume_patches, volume_patches_ref, [
        Sample((rand(2, 3, 4, 3, 2),), {"ksizes": [1, 2, 2, 2, 1], "strides": [1, 1, 2, 1, 1],
                                        "padding": "VALID"}, name="valid"),
        Sample((rand(1, 3, 4, 5, 1),), {"ksizes": [1, 2, 3, 2, 1], "strides": [1, 2, 2, 3, 1],
                                        "padding": "SAME"}, name="same")]),
]
