"""`keras.utils.text_dataset_from_directory`: a labelled Dataset of strings from a folder tree.

The .txt files are listed, labelled and shuffled as Keras 3 does it (directory_index.py), cut to
the `subset` of validation_split ("both" gives training and validation datasets), and read when
reached: each element is the file's bytes as a string scalar, cut to its first max_length
bytes when given. The training side passes a shuffle buffer of 8 * batch_size elements under
`seed` as Keras's does; the datasets come in batches of batch_size and carry `class_names`.
"""
import numpy as np

from ...tracing.signatures import TensorSpec
from .directory_index import (check_labels_arg, check_validation_split_arg, file_dataset,
                              index_directory, split_for_subset)

__all__ = ["text_dataset_from_directory"]


def _loader(max_length):
    def load(path):
        with open(path, "rb") as f:
            text = f.read()
        return np.asarray(text if max_length is None else text[:max_length], dtype=object)
    return load


def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None,
                                batch_size=32, max_length=None, shuffle=True, seed=None,
                                validation_split=None, subset=None, follow_links=False,
                                format="tf", verbose=True):
    """A Dataset of (texts, labels) batches from `directory` (see the module docstring)."""
    check_labels_arg(labels, class_names)
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", '
                         f"or None. Received: label_mode={label_mode}")
    if format != "tf":
        raise ValueError(f'`format` should be "tf" (grain is not available). Received: '
                         f"format={format}")
    if max_length is not None and (not isinstance(max_length, int) or max_length < 0):
        raise ValueError(f"`max_length` must be a non-negative int or None, got {max_length!r}.")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, (".txt",), class_names,
                                                 shuffle, seed, follow_links, verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    subsets = ("training", "validation") if subset == "both" else (subset,)
    out = []
    for part in subsets:
        part_paths, part_labels = split_for_subset(paths, labels, validation_split, part)
        if not part_paths:
            raise ValueError(f"No {part + ' ' if part else ''}text files found in directory "
                             f"{directory}. Allowed format: .txt")
        dataset = file_dataset(part_paths, part_labels, _loader(max_length),
                               TensorSpec((), "string"), label_mode,
                               len(class_names) if class_names else 0,
                               shuffle and (subset, part) != ("both", "validation"),
                               8 * batch_size if batch_size is not None else 1024, seed,
                               batch_size)
        dataset.class_names = class_names
        out.append(dataset)
    return out if subset == "both" else out[0]
