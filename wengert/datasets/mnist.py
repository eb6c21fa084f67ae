"""MNIST handwritten digits: `load_data()` as in Keras, and `load_split()`, a small split for demos.

    (x_train, y_train), (x_test, y_test) = wengert.datasets.mnist.load_data()

The four official gzip IDX files (or Keras' `mnist.npz`, read without pickle) are read from
`path` (a directory) or from the first of these that has them: the cache directory
`$WENGERT_DATA_DIR/mnist` (or `$WENGERT_DATA_DIR` itself when the files are directly in it),
Keras' cache `~/.keras/datasets` (`$KERAS_HOME/datasets`) or its `mnist/` folder, and
`~/.wengert/datasets/mnist`. When `path` is not given and files are missing, they are downloaded
into the cache (a short timeout; a clear error naming the files
and where to put them when the network is not there). Each file with an official name is checked
against its published size and SHA-256 digest; every file's magic number and dimensions are
checked (see `idx.py`). Uncompressed files (the names without ".gz") are read too, checked by
magic number and size only.

`load_split(train=8000, test=2000)` gives a small train/held-out split that needs no download:
MNIST files found locally (the cache, or the repository's ../shared/data/mnist, which has only the
test images: its first 8,000 images train and its last 2,000 are held out), else scikit-learn's
8x8 digits (the optional extra `pip install "wengert[sklearn]"`) scaled up to 28x28, else a
download of MNIST. The result says which data it is (`.source`).
"""
import os
import tempfile
import urllib.request
from pathlib import Path

import numpy as np

from ..framework.errors import DataLossError, NotFoundError
from .idx import read_idx, sha256_of

__all__ = ["load_data", "load_split", "Split", "cache_dir", "download", "FILES", "search_dirs",
           "keras_dirs"]

# name: (SHA-256 of the official .gz file, its size in bytes, IDX magic number, count)
FILES = {
    "train-images-idx3-ubyte.gz": (
        "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609", 9912422, 2051, 60000),
    "train-labels-idx1-ubyte.gz": (
        "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c", 28881, 2049, 60000),
    "t10k-images-idx3-ubyte.gz": (
        "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6", 1648877, 2051, 10000),
    "t10k-labels-idx1-ubyte.gz": (
        "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6", 4542, 2049, 10000),
}
TRAIN = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz")
TEST = ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")
MIRRORS = ("https://storage.googleapis.com/cvdf-datasets/mnist/",
           "https://ossci-datasets.s3.amazonaws.com/mnist/")
DOWNLOAD_TIMEOUT_S = 10


# -- where the files are ---------------------------------------------------------------------------
def cache_dir():
    """Where downloads go: $WENGERT_DATA_DIR (or its mnist/ folder), else
    ~/.wengert/datasets/mnist."""
    root = os.environ.get("WENGERT_DATA_DIR")
    if not root:
        return Path.home() / ".wengert" / "datasets" / "mnist"
    root = Path(root).expanduser()
    return root if _find(root, TEST[0]) else root / "mnist"


def _shared_dirs():
    """The repository's ../shared/data/mnist (a development checkout) and the one beside cwd."""
    repo = Path(__file__).resolve().parents[2]
    return [repo.parent / "shared" / "data" / "mnist",
            Path.cwd().parent / "shared" / "data" / "mnist"]


def _find(directory, name):
    """The file `name` (or its uncompressed form) in `directory`, or None."""
    for candidate in (name, name[:-3]):
        file = Path(directory) / candidate
        if file.is_file():
            return file
    return None


def _has(directory, names):
    return all(_find(directory, name) for name in names)


# -- reading --------------------------------------------------------------------------------------
def _read(directory, name):
    file = _find(directory, name)
    digest, size, magic, count = FILES[name]
    if file.name == name:  # the official file: its size and digest are known
        array = read_idx(file, expected_magic=magic, sha256=digest, nbytes=size)
    else:  # an uncompressed copy: checked by magic number and shape
        array = read_idx(file, expected_magic=magic)
        count = len(array)
    expected = (count, 28, 28) if magic == 2051 else (count,)
    if array.shape != expected:
        raise DataLossError(f"'{file}' holds an array of shape {array.shape}; MNIST "
                            f"{'images' if magic == 2051 else 'labels'} have shape {expected}.")
    if magic == 2049 and array.size and array.max() > 9:
        raise DataLossError(f"'{file}' holds labels up to {array.max()}; MNIST labels are 0-9.")
    return array


def _read_pair(directory, names):
    images, labels = _read(directory, names[0]), _read(directory, names[1])
    if len(images) != len(labels):
        raise DataLossError(f"{names[0]} holds {len(images)} images but {names[1]} holds "
                            f"{len(labels)} labels (in {directory}).")
    return images, labels


def _missing_error(directory, missing, reason=""):
    names = "\n".join(f"  {name}" for name in FILES)
    return NotFoundError(
        f"MNIST: {', '.join(missing)} not found in {directory}{reason}.\nPlace the four official "
        f"files\n{names}\n(from {MIRRORS[0]}) in {directory}, or pass load_data(path=DIRECTORY) "
        "with the directory that holds them, or set WENGERT_DATA_DIR.")


# -- downloading -----------------------------------------------------------------------------------
def _atomic_write(file, data):
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=file.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, file)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _fetch(name):
    """The official file `name`, checked against its digest; raises OSError when no mirror works."""
    errors = []
    for mirror in MIRRORS:
        try:
            with urllib.request.urlopen(mirror + name, timeout=DOWNLOAD_TIMEOUT_S) as response:
                data = response.read()
        except (OSError, ValueError) as err:  # URLError, timeouts and HTTP errors are OSErrors
            errors.append(f"{mirror}: {err}")
            continue
        if sha256_of(data) == FILES[name][0]:
            return data
        errors.append(f"{mirror}: the download has the wrong SHA-256")
    raise OSError("; ".join(errors))


def download(directory=None, names=None):
    """Download the missing MNIST files into `directory` (the cache by default)."""
    directory = Path(directory) if directory is not None else cache_dir()
    missing = [name for name in names or FILES if not _find(directory, name)]
    for name in missing:
        try:
            _atomic_write(directory / name, _fetch(name))
        except OSError as err:
            left = [n for n in missing if not _find(directory, n)]
            raise _missing_error(directory, left, f" and could not be downloaded ({err})") \
                from None
    return directory


def keras_dirs():
    """Keras' cache: $KERAS_HOME/datasets (default ~/.keras/datasets) and its mnist/ folder."""
    base = Path(os.environ.get("KERAS_HOME") or Path.home() / ".keras").expanduser()
    return [base / "datasets", base / "datasets" / "mnist"]


def search_dirs():
    """Where load_data looks, in order: $WENGERT_DATA_DIR (or its mnist/), Keras' cache
    (~/.keras/datasets, $KERAS_HOME), and ~/.wengert/datasets/mnist."""
    dirs = [cache_dir()] + keras_dirs() + [Path.home() / ".wengert" / "datasets" / "mnist"]
    return list(dict.fromkeys(dirs))


def _read_npz(file):
    """Keras' mnist.npz (x_train, y_train, x_test, y_test), read without pickle."""
    with np.load(file, allow_pickle=False) as data:
        try:
            arrays = [data[k] for k in ("x_train", "y_train", "x_test", "y_test")]
        except KeyError as err:
            raise DataLossError(f"'{file}' is not Keras' mnist.npz (no {err}).") from None
    if arrays[0].shape[1:] != (28, 28) or len(arrays[0]) != len(arrays[1]):
        raise DataLossError(f"'{file}' holds arrays of shapes {[a.shape for a in arrays]}; "
                            "MNIST images are (N, 28, 28) with one label each.")
    return (arrays[0], arrays[1]), (arrays[2], arrays[3])


def _not_found(where):
    names = "\n".join(f"  {name}" for name in FILES)
    places = "\n".join(f"  {d}" for d in where)
    return NotFoundError(
        f"MNIST: no data found (no download is possible here). Put the four official files\n"
        f"{names}\n(from {MIRRORS[0]}) or Keras' mnist.npz in one of\n{places}\n"
        "(~/.keras/datasets is Keras' cache; set KERAS_HOME or WENGERT_DATA_DIR for another "
        "folder), or pass load_data(path=DIRECTORY).")


def load_data(path=None, download_missing=True):
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 28, 28) and uint8 labels (N,).

    Looks for the four IDX files, or Keras' mnist.npz, in `path` (a directory, or an .npz file
    name, Keras' default "mnist.npz" meaning its cache), else in `search_dirs()`. Missing files
    are downloaded into the cache when `download_missing` (a short timeout; the error says where
    to put the files when there is no network)."""
    if path is not None and not str(path).endswith(".npz"):
        directory = Path(path).expanduser()
        missing = [name for name in FILES if not _find(directory, name)]
        if missing:
            raise _missing_error(directory, missing)
        return _read_pair(directory, TRAIN), _read_pair(directory, TEST)
    npz = Path(path).expanduser() if path is not None else None
    if npz is not None and npz.is_file():
        return _read_npz(npz)
    for directory in search_dirs():
        if _has(directory, FILES):
            return _read_pair(directory, TRAIN), _read_pair(directory, TEST)
        candidate = directory / (npz.name if npz is not None else "mnist.npz")
        if candidate.is_file():
            return _read_npz(candidate)
    if not download_missing:
        raise _not_found(search_dirs())
    directory = cache_dir()
    download(directory, [name for name in FILES if not _find(directory, name)])
    return _read_pair(directory, TRAIN), _read_pair(directory, TEST)


# -- a small split for demos and tests -------------------------------------------------------------
class Split(tuple):
    """((x_train, y_train), (x_test, y_test)) plus `.source`, a sentence saying which data it is,
    and `.name` ("mnist" or "digits")."""

    def __new__(cls, train, test, name, source):
        split = super().__new__(cls, (train, test))
        split.name, split.source = name, source
        return split


def _sizes(available, train, test):
    """`train` and `test`, scaled down in proportion when fewer than train + test examples exist."""
    if train + test <= available:
        return train, test
    test = max(1, round(available * test / (train + test)))
    return available - test, test


def _mnist_split(directory, train, test):
    x_test, y_test = _read_pair(directory, TEST)
    if _has(directory, TRAIN):
        x_train, y_train = _read_pair(directory, TRAIN)
        if train > len(x_train) or test > len(x_test):
            raise ValueError(f"load_split: MNIST has {len(x_train)} training and {len(x_test)} "
                             f"test images; {train} and {test} were asked for.")
        return Split((x_train[:train], y_train[:train]), (x_test[-test:], y_test[-test:]),
                     "mnist", f"MNIST from {directory}: the first {train:,} training images, "
                     f"the last {test:,} test images held out")
    if train + test > len(x_test):
        raise ValueError(f"load_split: only the MNIST test set is in {directory} "
                         f"({len(x_test)} images); train + test = {train + test} is too many.")
    return Split((x_test[:train], y_test[:train]), (x_test[-test:], y_test[-test:]), "mnist",
                 f"MNIST test set from {directory} (no training images there): the first "
                 f"{train:,} images for training, the last {test:,} held out")


def _digits_split(train, test, why=""):
    try:
        from sklearn.datasets import load_digits  # optional dependency
    except ImportError:
        raise ImportError('scikit-learn is needed for the 8x8 digits: pip install '
                          '"wengert[sklearn]"') from None
    digits = load_digits()
    small = np.round(digits.images * (255.0 / 16.0)).astype(np.uint8)
    images = np.pad(np.kron(small, np.ones((1, 3, 3), np.uint8)), ((0, 0), (2, 2), (2, 2)))
    labels = digits.target.astype(np.uint8)
    order = np.random.RandomState(0).permutation(len(images))
    images, labels = images[order], labels[order]
    train, test = _sizes(len(images), train, test)
    return Split((images[:train], labels[:train]), (images[-test:], labels[-test:]), "digits",
                 f"scikit-learn's 8x8 digits ({len(images):,} images scaled up to 28x28{why}): "
                 f"{train:,} for training, {test:,} held out")


def _sklearn_available():
    try:
        from sklearn.datasets import load_digits  # optional dependency
    except ImportError:
        return False
    return callable(load_digits)


def load_split(path=None, train=8000, test=2000, source="auto"):
    """A `Split` ((x_train, y_train), (x_test, y_test)) of uint8 28x28 images and labels 0-9.

    source="auto": MNIST from `path` when given; else MNIST files found in the cache or the
    repository's ../shared/data/mnist; else scikit-learn's digits; else a download of MNIST.
    source="mnist" or "digits" asks for one of them."""
    if source not in ("auto", "mnist", "digits"):
        raise ValueError(f"load_split: source must be 'auto', 'mnist' or 'digits', not {source!r}.")
    if source == "digits":
        return _digits_split(train, test)
    candidates = [Path(path).expanduser()] if path is not None else [cache_dir(), *_shared_dirs()]
    for directory in candidates:
        if _has(directory, TEST):
            return _mnist_split(directory, train, test)
    if path is not None:
        raise _missing_error(candidates[0], [n for n in TEST if not _find(candidates[0], n)])
    if source == "auto" and _sklearn_available():
        return _digits_split(train, test, "; no MNIST files found")
    try:
        directory = download(cache_dir(), TEST)
    except NotFoundError as err:
        raise NotFoundError(f"{err}\nOr install scikit-learn for the built-in 8x8 digits: "
                            'pip install "wengert[sklearn]".') from None
    return _mnist_split(directory, train, test)
