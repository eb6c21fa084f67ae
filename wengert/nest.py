"""`wengert.nest`: TensorFlow's `tf.nest`, for nested structures of lists, tuples, namedtuples
and dicts (dict values in sorted-key order). See wengert/util/nest.py."""
from .util import nest as _nest

__all__ = ["flatten", "pack_sequence_as", "is_nested", "map_structure", "assert_same_structure"]

is_nested = _nest.is_nested


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first (None is one leaf, as in TensorFlow)."""
    return _nest.flatten(structure)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    return _nest.pack_sequence_as(structure, flat_sequence)


def _shape_of(structure, check_types):
    out, stack = [], [structure]
    while stack:
        item = stack.pop()
        if _nest.is_nested(item):
            keys = sorted(item, key=_nest._sort_key) if isinstance(item, dict) else None
            kind = type(item) if check_types else (dict if keys is not None else tuple)
            out.append((kind, tuple(keys) if keys is not None else len(item)))
            stack.extend(reversed(_nest._children(item)))
        else:
            out.append(None)
    return out


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError (or TypeError for different container types) unless the structures match."""
    a, b = _shape_of(nest1, False), _shape_of(nest2, False)
    if a != b:
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst "
                         f"structure: type={type(nest1).__name__} str={nest1}\n\nSecond "
                         f"structure: type={type(nest2).__name__} str={nest2}")
    if check_types and _shape_of(nest1, True) != _shape_of(nest2, True):
        raise TypeError(f"The two structures don't have the same sequence type: {nest1} and "
                        f"{nest2}.")


def map_structure(func, *structures, check_types=True, expand_composites=False):
    """`func` applied to the corresponding leaves of one or more structures of the same
    shape, in the shape of the first."""
    if not structures:
        raise ValueError("map_structure needs at least one structure.")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types)
    flats = [_nest.flatten(s) for s in structures]
    return _nest.pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)])
