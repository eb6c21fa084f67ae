"""`Dataset.rejection_resample`: (class, element) pairs whose classes follow a target
distribution, built as TensorFlow builds it: a rejection sampler mixed with the original stream.

With p the classes' initial distribution and t the target, r_i = t_i / (p_i + tiny) (float32,
tiny its smallest normal number), m = min_i r_i and M = max_i r_i. An element of class i passes
the rejection sampler with probability a_i = (r_i - m) / (M - m), a draw of a uniform float32
below a_i. Each output element is then taken from the original stream (every element, with its
class) with probability m, or from the sampler's stream with probability 1 - m
(`sample_from_datasets` over the two, stopping when either ends): since the original stream
gives class i with probability p_i and the sampler with probability p_i a_i / sum_j p_j a_j,
the mixture gives m p_i + (1 - m) p_i a_i / sum_j p_j a_j = t_i. When `initial_dist` is given
and m is exactly 1 the output is the original stream alone, and when m is 0 the sampler's
stream alone (two classes then make the sampler deterministic: a is 0 and 1).

Without `initial_dist`, p is estimated as TensorFlow estimates it: counts start at 10 per class,
the class values are taken 32 at a time, and after each group the counts of its classes are
added and p = counts / sum(counts) serves every element of that group (its acceptance and its
draw's mixing weight m).

The draws use NumPy's generator seeded by `seed` and the pass number, not TensorFlow's Philox:
a seeded run is reproducible, and its class frequencies follow TensorFlow's, but the accepted
elements differ from TensorFlow's unless the sampler is deterministic.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..ops.random.seeded import get_seed
from ..tracing.signatures import TensorSpec
from .dataset import INFINITE, UNKNOWN, Dataset, Stage
from .functional import TracedFunction
from .sampling import SampleDataset

__all__ = ["rejection_resample"]

_SMOOTHING = 10
_GROUP = 32
_TINY = np.finfo(np.float32).tiny


def _distribution(value, what):
    p = np.asarray(getattr(value, "_value", value), np.float32)
    if p.ndim != 1 or (p < 0).any():
        raise InvalidArgumentError(f"rejection_resample: {what} must be a vector of "
                                   f"non-negative class probabilities, got {p.tolist()}.")
    return p


def _mixing(initial, target):
    """(acceptance per class, probability of the original stream) as TensorFlow's float32."""
    ratio = (target / (initial + _TINY)).astype(np.float32)
    low, high = ratio.min(), ratio.max()
    with np.errstate(divide="ignore", invalid="ignore"):
        accept = ((ratio - low) / (high - low)).astype(np.float32)
    return accept, np.float32(low)


class _Classes:
    """class_func over an element's components: its scalar class value."""

    def __init__(self, dataset, class_func, classes):
        self._fn = TracedFunction(class_func, dataset._structure, dataset._specs,
                                  "Dataset.rejection_resample class_func")
        spec = self._fn.out_specs[0] if len(self._fn.out_specs) == 1 else None
        if spec is None or not spec.dtype.is_integer or spec.shape.rank not in (0, None):
            raise TypeError(f"rejection_resample: class_func must return a scalar integer "
                            f"tensor, it returns {self._fn.out_specs}.")
        self.spec, self._count = TensorSpec([], spec.dtype), classes

    def __call__(self, components):
        value = self._fn(components)[0]
        return value, int(value)

    def check(self, label):
        if not 0 <= label < self._count:
            raise InvalidArgumentError(f"rejection_resample: class_func returned {label}, "
                                       f"outside [0, {self._count}) (target_dist has "
                                       f"{self._count} classes).")


def _estimated(stage, classes, count):
    """(element components, class value, class, estimated p) in input order, p estimated from
    groups of 32 class values."""
    seen = np.full(count, _SMOOTHING, np.int64)
    while True:
        group = []
        for components in stage:
            group.append((components, *classes(components)))
            if len(group) == _GROUP:
                break
        if not group:
            return
        labels = [g[2] for g in group if 0 <= g[2] < count]
        seen = seen + np.bincount(labels, minlength=count)[:count]
        p = (seen / seen.sum()).astype(np.float32)
        for item in group:
            yield (*item, p)


def _annotated(dataset, stage):
    """The element stream of one pass with each element's class and distribution p."""
    if dataset._initial is not None:
        p = dataset._initial
        return ((c, *dataset._classes(c), p) for c in stage)
    return _estimated(stage, dataset._classes, len(dataset._target))


class _ResampleParts(Dataset):
    """One of the pieces: 'original' (every element with its class), 'accepted' (the
    rejection sampler's output) or 'weights' ([m, 1 - m] per input element)."""

    def __init__(self, dataset, part, classes, target, initial, seeds):
        self._input, self._part, self._classes = dataset, part, classes
        self._target, self._initial, self._seeds, self._passes = target, initial, seeds, 0
        if part == "weights":
            specs, structure = [TensorSpec([2], dtypes.float32)], None
            cardinality = INFINITE if initial is not None else dataset._cardinality
        else:
            specs = [classes.spec] + list(dataset._specs)
            structure = (None, dataset._structure)
            cardinality = dataset._cardinality if part == "original" else UNKNOWN
        super().__init__(structure, specs, cardinality, (dataset,))

    def _stage(self):
        self._passes += 1
        rng = np.random.default_rng(None if self._seeds is None else
                                    self._seeds + [self._passes - 1, 1])
        if self._part == "weights" and self._initial is not None:
            m = _mixing(self._initial, self._target)[1]
            return _Repeat(np.array([m, 1 - m], np.float32))
        return _PartStage(self, _annotated(self, self._input._stage()), rng)


class _Repeat(Stage):
    def __init__(self, value):
        self._value = value

    def __next__(self):
        return (self._value,)


class _PartStage(Stage):
    def __init__(self, dataset, items, rng):
        self._part, self._items, self._rng = dataset._part, items, rng
        self._target, self._classes = dataset._target, dataset._classes

    def __next__(self):
        for components, value, label, p in self._items:
            accept, m = _mixing(p, self._target)
            if self._part == "weights":
                return (np.array([m, 1 - m], np.float32),)
            if self._part == "original":
                return (np.asarray(value),) + tuple(components)
            self._classes.check(label)
            if self._rng.random(dtype=np.float32) < accept[label]:
                return (np.asarray(value),) + tuple(components)
        raise StopIteration


def rejection_resample(dataset, class_func, target_dist, initial_dist=None, seed=None):
    """(class, element) pairs of `dataset` resampled so that the classes follow target_dist
    (tf.data.Dataset.rejection_resample)."""
    target = _distribution(target_dist, "target_dist")
    initial = None if initial_dist is None else _distribution(initial_dist, "initial_dist")
    if initial is not None and initial.shape != target.shape:  # TensorFlow's RealDiv error
        raise InvalidArgumentError(f"rejection_resample: initial_dist has {initial.size} "
                                   f"classes and target_dist {target.size}; they must agree.")
    classes = _Classes(dataset, class_func, target.size)
    pair = get_seed(seed)
    seeds = None if pair[0] is None else list(pair)

    def part(name):
        return _ResampleParts(dataset, name, classes, target, initial, seeds)
    if initial is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            static = np.min(target / initial)
        if static == 1:
            return part("original")
        if static == 0:
            return part("accepted")
    return SampleDataset([part("original"), part("accepted")], part("weights"), seed,
                         stop_on_empty_dataset=True)
