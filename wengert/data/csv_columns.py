"""Parsing a CSV file's bytes into columns, for CsvDataset (csv_dataset.py).

Records. The file is cut at "\\n" (a "\\r" before it is dropped); with quoting on, a line whose
count of '"' is odd continues on the next line (a quoted field holding a newline), so a record
is a run of lines with balanced quotes. An ending newline adds no record; `header` drops the
first record.

Columns. Records are parsed in blocks of `BLOCK`. A block without quotes whose records all hold
the same number of delimiters is parsed at once: the records are joined and split into one list
of fields, each selected column is every k-th field, converted at once (Python's int or float
mapped over the column into np.fromiter), empty fields (or `na_value`) taking the column's
default. Any other block, or one in which a conversion fails, is parsed record by record
(fields split by ops/io/csv_parsing.split_record) so that the records before a bad one are
kept and the bad one becomes TensorFlow's InvalidArgumentError: the output is a list of segments, each either a
tuple of column arrays (consecutive good records) or the error of one record.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..ops.io.csv_parsing import split_record

__all__ = ["parse_csv", "split_records", "BLOCK"]

BLOCK = 1 << 16
_INT_RANGE = {dtypes.int32: (-2 ** 31, 2 ** 31 - 1), dtypes.int64: (-2 ** 63, 2 ** 63 - 1)}
_KIND = {dtypes.float32: "float", dtypes.float64: "double", dtypes.int32: "int32",
         dtypes.int64: "int64"}


def split_records(data, quotes):
    """The records of a CSV file's bytes (see the module docstring)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if quotes and b'"' in data:
        lines = _joined_quoted(lines)
    if b"\r" in data:
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    return lines


def _joined_quoted(lines):
    out, pending = [], None
    for line in lines:
        pending = line if pending is None else pending + b"\n" + line
        if pending.count(b'"') % 2 == 0:
            out.append(pending)
            pending = None
    if pending is not None:
        out.append(pending)
    return out


def parse_csv(data, path, types, defaults, cols, exact, delim, quotes, na, header):
    """Segments (tuples of column arrays, or errors) of the records in `data`."""
    records = split_records(data, quotes)
    if header and records:
        records = records[1:]
    spec = (types, defaults, cols, exact, delim, quotes, na, path)
    segments = []
    for start in range(0, len(records), BLOCK):
        block = records[start:start + BLOCK]
        fast = _fast_block(block, spec)
        segments.extend([fast] if fast is not None else _slow_block(block, start, spec))
    return [s for s in segments if isinstance(s, Exception) or len(s[0])]


def _fast_block(block, spec):
    types, defaults, cols, exact, delim, quotes, na, _ = spec
    joined = delim.join(block)
    if quotes and b'"' in joined:
        return None
    counts = {record.count(delim) for record in block}
    if len(counts) != 1:
        return None
    width = counts.pop() + 1
    if (exact is not None and width != exact) or (cols is not None and width <= cols[-1]):
        return None
    fields = joined.split(delim)
    out = []
    for k, column in enumerate(cols if cols is not None else range(len(types))):
        values = _fast_column(fields[column::width], types[k], defaults[k], na)
        if values is None:
            return None
        out.append(values)
    return tuple(out)


def _fast_column(fields, dtype, default, na):
    missing = None
    if b"" in fields or (na and na in fields):
        if not default.size:
            return None
        missing = np.array([f == b"" or f == na for f in fields])
    if dtype is dtypes.string:
        values = np.empty(len(fields), dtype=object)
        values[:] = fields
    else:
        if missing is not None:
            fields = [b"0" if m else f for f, m in zip(fields, missing)]
        try:
            values = np.fromiter(map(int if dtype.is_integer else float, fields),
                                 np.int64 if dtype.is_integer else np.float64, len(fields))
        except (ValueError, OverflowError):
            return None
        if dtype is dtypes.int32 and values.size and (
                values.min() < -2 ** 31 or values.max() >= 2 ** 31):
            return None
        values = values.astype(dtype.as_numpy_dtype, copy=False)
    if missing is not None:
        values[missing] = default[0]
    return values


def _slow_block(block, start, spec):
    types = spec[0]
    segments, rows = [], []
    for i, record in enumerate(block):
        try:
            rows.append(_record_values(record, start + i, spec))
        except InvalidArgumentError as err:
            segments.extend([_columns_of(rows, types), err])
            rows = []
    segments.append(_columns_of(rows, types))
    return segments


def _columns_of(rows, types):
    out = []
    for k, dtype in enumerate(types):
        if dtype is dtypes.string:
            values = np.empty(len(rows), dtype=object)
            values[:] = [row[k] for row in rows]
        else:
            values = np.array([row[k] for row in rows], dtype=dtype.as_numpy_dtype)
        out.append(values)
    return tuple(out)


def _record_values(record, index, spec):
    types, defaults, cols, exact, delim, quotes, na, path = spec
    where = f"record {index} of '{path}'"
    try:
        fields = split_record(record, delim[0], quotes)
    except ValueError as err:
        raise InvalidArgumentError(f"CsvDataset: {err} (in {where})") from None
    if exact is not None and len(fields) != exact:
        have = len(fields) if len(fields) < exact else "more"
        raise InvalidArgumentError(f"CsvDataset: Expect {exact} fields but have {have} in {where}")
    if cols is not None and len(fields) <= cols[-1]:
        raise InvalidArgumentError(f"CsvDataset: Expect {cols[-1] + 1} fields but have {len(fields)} in "
                                   f"{where}")
    return [_value(fields[c], c, types[k], defaults[k], na, where)
            for k, c in enumerate(cols if cols is not None else range(len(types)))]


def _value(text, column, dtype, default, na, where):
    if text == b"" or text == na:
        if not default.size:
            raise InvalidArgumentError(f"CsvDataset: Field {column} is required but missing in {where}!")
        return default[0]
    if dtype is dtypes.string:
        return text
    try:
        if dtype.is_integer:
            value = int(text)
            low, high = _INT_RANGE[dtype]
            if not low <= value <= high:
                raise ValueError
            return value
        return float(text)
    except ValueError:
        raise InvalidArgumentError(f"CsvDataset: Field {column} in {where} is not a valid "
                                   f"{_KIND[dtype]}: {text.decode('utf-8', 'replace')}") from None
