"""Flattening and re-packing nested structures of lists, tuples, namedtuples and dicts: the code
of TensorFlow's `tf.nest` (wengert/nest.py is its namespace).

`gradient(target, sources)` returns gradients in the structure of `sources`; these two functions
do that: `flatten` lists the leaves (dict values in sorted-key order, as TensorFlow does) and
`pack_sequence_as` rebuilds the structure around new leaves. Both use an explicit stack.

With `expand_composites=True` a composite tensor (a SparseTensor: any object whose class has
`_nest_components()` and `_nest_rebuild(components)`) counts as a structure whose leaves are its
component tensors (a SparseTensor's indices, values and dense_shape); otherwise it is one leaf.
"""

import collections

__all__ = ["flatten", "pack_sequence_as", "is_nested", "map_structure", "assert_same_structure",
           "is_composite"]


def is_nested(x):
    return isinstance(x, (list, tuple, dict))


def is_composite(x):
    """Whether x is a composite tensor (or its spec) that expand_composites opens."""
    return hasattr(type(x), "_nest_components")


def _branches(x, expand):
    """Whether x is a structure to descend into (composites only when expanding them)."""
    return is_nested(x) or (expand and is_composite(x))


def _children(x):
    if is_composite(x) and not is_nested(x):
        return list(x._nest_components())
    if isinstance(x, dict):
        return [x[k] for k in sorted(x, key=_sort_key)]
    return list(x)


def _sort_key(key):
    return (type(key).__name__, key) if not isinstance(key, (int, float, str)) else ("", key)


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first, left to right (None is one leaf, as in
    TensorFlow)."""
    leaves, stack = [], [structure]
    while stack:
        item = stack.pop()
        if _branches(item, expand_composites):
            stack.extend(reversed(_children(item)))
        else:
            leaves.append(item)
    return leaves


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Rebuild `structure` with its leaves replaced, in order, by the items of `flat_sequence`."""
    flat = list(flat_sequence)
    expand = expand_composites
    if not _branches(structure, expand):
        if len(flat) != 1:
            raise ValueError(f"Structure is a single leaf but {len(flat)} values were given.")
        return flat[0]
    expected = len(flatten(structure, expand))
    if len(flat) != expected:
        raise ValueError(f"pack_sequence_as: the structure has {expected} leaves but "
                         f"{len(flat)} values were given.")
    leaves = iter(flat)
    # Post-order over the structure: build each container once its children are built.
    root = []
    stack = [(structure, root, False)]
    while stack:
        node, out, expanded = stack.pop()
        if not _branches(node, expand):
            out.append(next(leaves))
        elif not expanded:
            built = []
            stack.append((node, (out, built), True))
            for child in reversed(_children(node)):
                stack.append((child, built, False))
        else:
            parent, built = out
            parent.append(_rebuild(node, built))
    return root[0]


def _rebuild(node, children):
    if is_composite(node) and not is_nested(node):
        return node._nest_rebuild(children)
    if isinstance(node, dict):
        by_key = dict(zip(sorted(node, key=_sort_key), children))
        # every mapping keeps its own key order (leaves are still matched to keys in sorted
        # order), as TensorFlow's nest does
        items = [(k, by_key[k]) for k in node]
        if type(node) is dict:
            return dict(items)
        if isinstance(node, collections.defaultdict):
            return type(node)(node.default_factory, items)
        return type(node)(items)
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        return type(node)(*children)
    return type(node)(children)


def map_structure(func, *structures, check_types=True, expand_composites=False):
    """`func` applied to the corresponding leaves of one or more structures of the same
    shape, in the shape of the first."""
    if not structures:
        raise ValueError("map_structure needs at least one structure.")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types, expand_composites)
    flats = [flatten(s, expand_composites) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)],
                            expand_composites)


def _shape_of(structure, check_types, expand=False):
    out, stack = [], [structure]
    while stack:
        item = stack.pop()
        if _branches(item, expand):
            keys = sorted(item, key=_sort_key) if isinstance(item, dict) else None
            kind = type(item) if check_types or not is_nested(item) else (
                dict if keys is not None else tuple)
            out.append((kind, tuple(keys) if keys is not None else len(_children(item))))
            stack.extend(reversed(_children(item)))
        else:
            out.append(None)
    return out


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError (or TypeError for different container types) unless the structures match."""
    expand = expand_composites
    a, b = _shape_of(nest1, False, expand), _shape_of(nest2, False, expand)
    if a != b:
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst "
                         f"structure: type={type(nest1).__name__} str={nest1}\n\nSecond "
                         f"structure: type={type(nest2).__name__} str={nest2}")
    if check_types and _shape_of(nest1, True, expand) != _shape_of(nest2, True, expand):
        raise TypeError(f"The two structures don't have the same sequence type: {nest1} and "
                        f"{nest2}.")
