"""A batch of serialized Examples read as columns, when its records share a layout.

Records written by one program usually differ only in their values: the same keys, in the same
order, with the same list lengths. Records of equal byte length are then often identical except
inside the payloads (the packed numbers or the BytesList of each feature). `batch_columns`
groups the records by length, reads the first of each group with example_wire's reader, and
checks in NumPy that every record of the group holds the same bytes outside that record's
payload spans; the payloads are then the same columns of the group's [records, length] byte
matrix, decoded for the whole group at once: floats by reinterpreting the columns, varints by
example_wire.varints, single short strings by slicing. A batch with a group that does not fit
gives None, and the caller reads the records one by one.
"""
import numpy as np

from .example_wire import bytes_items, varints, walk_example

__all__ = ["batch_columns", "column_values"]

_MOST_GROUPS = 16


def batch_columns(records):
    """{key bytes: [(dtype name or None, record indices, payload byte columns), ...]} of the
    records, one item per group of equal length; None when a group's records differ outside
    their payloads or are not in the usual layout."""
    lengths = np.fromiter(map(len, records), np.int64, len(records))
    distinct, which = np.unique(lengths, return_inverse=True)
    if len(distinct) > _MOST_GROUPS:
        return None
    out = {}
    for g, length in enumerate(distinct.tolist()):
        indices = np.flatnonzero(which.reshape(-1) == g).tolist() if len(distinct) > 1 else \
            list(range(len(records)))
        spans = []
        walked = walk_example(records[indices[0]], spans)
        if walked is None:
            return None
        block = np.frombuffer(b"".join([records[i] for i in indices]),
                              dtype=np.uint8).reshape(len(indices), length)
        if not _same_outside(block, spans):
            return None
        last = {key: (kind, start, end) for key, kind, start, end in spans}
        for key, (kind, start, end) in last.items():
            out.setdefault(key, []).append((kind, np.asarray(indices), block[:, start:end]))
    return out


def _same_outside(block, spans):
    if len(block) < 2:
        return True
    outside = np.ones(block.shape[1], dtype=bool)
    for _, _, start, end in spans:
        outside[start:end] = False
    fixed = block[:, outside]
    return bool((fixed == fixed[0]).all())


def column_values(kind, columns, size):
    """The [records, size] values of payload byte columns of `kind`, or None when a record
    does not hold exactly `size` values."""
    count, width = columns.shape
    if kind == "float32":
        if width != 4 * size:
            return None
        return np.ascontiguousarray(columns).view("<f4").astype(np.float32).reshape(count, size)
    if kind == "int64":
        if not width or (columns[:, -1] >= 0x80).any() or \
                ((columns < 0x80).sum(axis=1) != size).any():
            return None
        values = varints(np.ascontiguousarray(columns).reshape(-1))
        return None if values is None else values.reshape(count, size)
    return _strings(columns, size)


def _strings(columns, size):
    count, width = columns.shape
    if size == 1 and 2 <= width < 130 and (columns[:, 0] == 0x0A).all() and \
            (columns[:, 1] == width - 2).all():
        raw, step = columns[:, 2:].tobytes(), width - 2
        return [raw[j * step:(j + 1) * step] for j in range(count)]
    out = []
    for row in columns:
        items = bytes_items(row.tobytes())
        if items is None or len(items) != size:
            return None
        out.extend(items)
    return out
