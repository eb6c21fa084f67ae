"""The file listing behind Keras's `*_dataset_from_directory` builders, in Keras 3's order.

index_directory(directory, labels, formats, class_names, shuffle, seed, follow_links) lists
the files whose lower-cased names end in one of `formats`. With labels="inferred" each
non-hidden subdirectory is a class (alphanumerical order, or the order of `class_names`) and its
files, found by walking it (folders in sorted order, files sorted within each), carry the class
index; otherwise the whole tree is walked from the top and the labels are None or the given
list (class names: the sorted distinct labels as strings). With shuffle the paths, and
separately the labels, are shuffled by NumPy's `RandomState(seed).shuffle`, the same
permutation Keras applies. split_for_subset keeps the first or last int(validation_split * n)
of them ("training" / "validation"). label_arrays encodes the labels: "int" as int32,
"binary" as float32 of shape (n, 1), "categorical" as float32 one-hot rows.

file_dataset(paths, labels, load, spec, ...) is the Dataset the builders return: each element
is load(path) (paired with its label when there are labels), read when the element is reached;
with shuffle, the elements pass a `Dataset.shuffle` of `buffer` elements under `seed` first (as
Keras's do), and they come in batches of batch_size (None: unbatched). It carries
`class_names` and `file_paths` as attributes.
"""
import os

import numpy as np

from ...data.dataset import Dataset
from ...data.methods import assert_cardinality
from ...tracing.signatures import TensorSpec
from .interactive_logging import print_msg

__all__ = ["index_directory", "check_validation_split_arg", "split_for_subset",
           "label_arrays", "check_labels_arg", "file_dataset"]


def _class_folders(directory, class_names):
    found = [d for d in sorted(os.listdir(directory))
             if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
    if class_names is None:
        return found
    if not set(class_names).issubset(found):
        raise ValueError(f"The `class_names` passed did not match the names of the "
                         f"subdirectories of the target directory. Expected: {found} (or a "
                         f"subset of it), but received: class_names={class_names}")
    return list(class_names)


def _files_under(directory, follow_links, formats):
    """Paths relative to directory's parent, in Keras's walk order."""
    name = os.path.basename(directory)
    out = []
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links),
                                 key=lambda entry: entry[0]):
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                out.append(os.path.join(name, os.path.relpath(os.path.join(root, fname),
                                                              directory)))
    return out


def _listed(directory, labels, class_names, follow_links, formats):
    if labels == "inferred":
        folders = _class_folders(directory, class_names)
    else:
        if class_names is not None:
            raise ValueError("When `labels` is not 'inferred', argument `class_names` cannot "
                             "be specified (without labels there are no classes; with a list "
                             "the classes are its sorted values).")
        folders = [""]
    filenames, inferred = [], []
    for index, folder in enumerate(folders):
        found = _files_under(os.path.join(directory, folder), follow_links, formats)
        filenames += found
        inferred += [index] * len(found)
    return folders, filenames, inferred


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None,
                    follow_links=False, verbose=True):
    """(file paths, labels or None, class names or None) of the files under `directory`."""
    if not os.path.isdir(directory):
        raise ValueError(f"`directory` {directory!r} is not a directory; pass the folder that "
                         "holds the files (one subfolder per class for labels='inferred').")
    folders, filenames, inferred = _listed(directory, labels, class_names, follow_links,
                                           formats)
    if labels == "inferred":
        labels, class_names = np.asarray(inferred, dtype="int32"), folders
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files "
                             f"in the target directory. len(labels) is {len(labels)} while we "
                             f"found {len(filenames)} files in directory {directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        print_msg(f"Found {len(filenames)} files." if labels is None else
                  f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    paths = [os.path.join(directory, f) for f in filenames]
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def check_labels_arg(labels, class_names):
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError("`labels` argument should be a list/tuple of integer labels, of "
                             "the same size as the number of files in the target directory; "
                             'pass labels="inferred" to take them from the subdirectory names, '
                             f"or labels=None for no labels. Received: labels={labels}")
        if class_names:
            raise ValueError(f'You can only pass `class_names` if labels="inferred". '
                             f"Received: labels={labels}, and class_names={class_names}")


def check_validation_split_arg(validation_split, subset, shuffle, seed):
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", '
                         f"received: {subset}")
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide "
                         "a `seed` argument, to make sure that there is no overlap between the "
                         "training and validation subset.")


def split_for_subset(samples, labels, validation_split, subset):
    """The samples (and labels) of `subset`: the first or the last part of them."""
    if not validation_split:
        return samples, labels
    count = int(validation_split * len(samples))
    if subset == "training":
        print_msg(f"Using {len(samples) - count} files for training.")
        keep = slice(None, -count)
    elif subset == "validation":
        print_msg(f"Using {count} files for validation.")
        keep = slice(-count, None)
    else:
        raise ValueError(f'`subset` must be either "training" or "validation", received: '
                         f"{subset}")
    return samples[keep], (None if labels is None else labels[keep])


def label_arrays(labels, label_mode, num_classes):
    """The labels as Keras's datasets give them for `label_mode`."""
    labels = np.asarray(labels)
    if label_mode == "binary":
        return labels.astype("float32")[:, None]
    if label_mode == "categorical":
        return np.eye(num_classes, dtype="float32")[labels.astype("int64")]
    return labels.astype("int32")


def file_dataset(paths, labels, load, spec, label_mode, num_classes, shuffle=False, buffer=None,
                 seed=None, batch_size=None):
    """A Dataset of load(path) (with labels), shuffled and batched as Keras's builders do."""
    order = Dataset.range(len(paths))
    if shuffle:
        order = order.shuffle(buffer or 1024, seed=seed)
    encoded = None if label_mode is None else label_arrays(labels, label_mode, num_classes)

    def elements():
        for index in order:
            item = load(paths[int(index)])
            yield item if encoded is None else (item, encoded[int(index)])

    if encoded is not None:
        spec = (spec, TensorSpec(encoded.shape[1:], encoded.dtype.name))
    dataset = Dataset.from_generator(elements, output_signature=spec).apply(
        assert_cardinality(len(paths)))
    if batch_size is not None:
        dataset = dataset.batch(batch_size)
    return dataset
