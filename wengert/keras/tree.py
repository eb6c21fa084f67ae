"""`keras.tree`: Keras 3's functions over nested structures (lists, tuples, namedtuples, dicts).

A structure is a tree whose inner nodes are containers and whose leaves are everything else
(None included). Leaves are listed depth first, left to right, a dict's values in sorted-key
order, as `tf.nest` lists them (util/nest.py holds that code; this module adds Keras's
variants). A leaf's path is the tuple of indices and keys leading to it: `flatten_with_path`
pairs each leaf with its path. `traverse(func, s)` visits every node, parents before children
(`top_down`) or after them, and replaces a node where `func` returns something other than None
(`MAP_TO_NONE` stands for a None replacement). Every walk uses an explicit stack.
"""
from ..util import nest

__all__ = ["MAP_TO_NONE", "is_nested", "flatten", "flatten_with_path", "pack_sequence_as",
           "map_structure", "map_structure_up_to", "assert_same_structure",
           "assert_same_paths", "lists_to_tuples", "traverse", "map_shape_structure"]


def is_nested(structure):
    """Whether `structure` is a container (list, tuple, namedtuple, dict) rather than a leaf."""
    return nest.is_nested(structure)


class MAP_TO_NONE:  # noqa: N801 - Keras's name
    """Returned by a `traverse` function to replace a node with None."""


def flatten(structure):
    """The leaves of `structure`, depth first (a dict's values by sorted key)."""
    return nest.flatten(structure)


def pack_sequence_as(structure, flat_sequence):
    """`structure` rebuilt around the leaves of `flat_sequence`, in order."""
    return nest.pack_sequence_as(structure, flat_sequence)


def _items(node):
    if isinstance(node, dict):
        return [(k, node[k]) for k in sorted(node, key=nest._sort_key)]
    return list(enumerate(node))


def flatten_with_path(structure):
    """[(path, leaf), ...]: each leaf with the indices and keys that lead to it."""
    out, stack = [], [((), structure)]
    while stack:
        path, node = stack.pop()
        if is_nested(node):
            stack.extend(reversed([(path + (k,), v) for k, v in _items(node)]))
        else:
            out.append((path, node))
    return out


def map_structure(func, *structures, none_is_leaf=True):
    """`func` applied to the leaves of `structures` (which must share one layout)."""
    if not structures:
        raise TypeError("keras.tree.map_structure: at least one structure is needed.")
    if not callable(func):
        raise TypeError(f"keras.tree.map_structure: `func` must be callable, got {func!r}.")
    for other in structures[1:]:
        assert_same_structure(structures[0], other)
    columns = zip(*[flatten(s) for s in structures])
    if none_is_leaf:
        mapped = [func(*leaves) for leaves in columns]
    else:
        mapped = [None if leaves[0] is None else func(*leaves) for leaves in columns]
    return pack_sequence_as(structures[0], mapped)


def map_structure_up_to(shallow_structure, func, *structures):
    """Like map_structure, but only down to the leaves of `shallow_structure`: deeper parts of
    `structures` reach `func` whole."""
    columns = [_flatten_up_to(shallow_structure, s) for s in structures]
    return pack_sequence_as(shallow_structure, [func(*leaves) for leaves in zip(*columns)])


def _flatten_up_to(shallow, structure):
    out, stack = [], [(shallow, structure)]
    while stack:
        guide, node = stack.pop()
        if not is_nested(guide):
            out.append(node)
            continue
        if not is_nested(node) or len(node) != len(guide):
            raise ValueError(f"keras.tree.map_structure_up_to: the structure {node!r} does not "
                             f"match the shallow structure {guide!r}.")
        if isinstance(guide, dict):
            if set(guide) != set(node):
                raise ValueError(f"keras.tree.map_structure_up_to: keys {sorted(node)} differ "
                                 f"from the shallow structure's {sorted(guide)}.")
            pairs = [(guide[k], node[k]) for k, _ in _items(guide)]
        else:
            pairs = list(zip(guide, node))
        stack.extend(reversed(pairs))
    return out


def assert_same_structure(a, b, check_types=None):
    """ValueError unless `a` and `b` nest the same way (lists and tuples are told apart)."""
    nest.assert_same_structure(a, b, check_types=True if check_types is None else check_types)


def assert_same_paths(a, b):
    """ValueError unless `a` and `b` have leaves at the same paths (container types aside)."""
    paths_a = {p for p, _ in flatten_with_path(a)}
    paths_b = {p for p, _ in flatten_with_path(b)}
    if paths_a != paths_b:
        raise ValueError(f"keras.tree.assert_same_paths: the structures differ; paths only in "
                         f"the first: {sorted(paths_a - paths_b, key=repr)}, only in the "
                         f"second: {sorted(paths_b - paths_a, key=repr)}.")


def traverse(func, structure, top_down=True):
    """Visit every node of `structure` with `func`; a result other than None replaces the
    node (top down, its children are then not visited); MAP_TO_NONE replaces it with None."""
    if not callable(func):
        raise TypeError(f"keras.tree.traverse: `func` must be callable, got {func!r}.")
    done = []
    stack = [(structure, False)]
    while stack:
        node, expanded = stack.pop()
        if not expanded:
            if top_down:
                result = func(node)
                if result is not None:
                    done.append(None if result is MAP_TO_NONE else result)
                    continue
            if not is_nested(node):
                if not top_down:
                    result = func(node)
                    node = node if result is None else (
                        None if result is MAP_TO_NONE else result)
                done.append(node)
                continue
            stack.append((node, True))
            stack.extend((child, False) for _, child in reversed(_items(node)))
            continue
        count = len(node)
        children = done[len(done) - count:] if count else []
        del done[len(done) - count:]
        rebuilt = nest._rebuild(node, children)  # tf.nest's rebuild (key order)
        if not top_down:
            result = func(rebuilt)
            rebuilt = rebuilt if result is None else (None if result is MAP_TO_NONE else result)
        done.append(rebuilt)
    return done[0]


def lists_to_tuples(structure):
    """`structure` with every list turned into a tuple."""
    return traverse(lambda node: tuple(node) if isinstance(node, list) else None, structure,
                    top_down=False)


def _is_shape(x):
    return isinstance(x, (tuple, list)) and all(d is None or isinstance(d, int) for d in x)


def map_shape_structure(func, structure):
    """`func` applied to each shape in `structure` (a shape: a tuple or list of ints and
    Nones; other tuples, lists and dicts are containers)."""
    def visit(node):
        if not _is_shape(node):
            return None
        result = func(node)
        return MAP_TO_NONE if result is None else result
    return traverse(visit, structure)
