"""`tf.io.decode_csv`: text records to one tensor per column.

Each string of `records` is one CSV record: its fields are split at `field_delim` (one byte)
and, with `use_quote_delim`, a field may be quoted ("a,b" holds a comma; "" inside quotes is a
quote), as RFC 4180 writes them. `record_defaults` gives one tensor per column: its dtype
(float32, float64, int32, int64 or string) is the column's, and its one value the default for an
empty field (or a field equal to `na_value`); an empty default makes the column required.
`select_cols` (ascending column indices) keeps only those columns, and then a record needs only
reach the last of them. Each output has the records' shape. A record with the wrong number of
fields, a missing required field, a number that does not parse, or a stray quote is an
InvalidArgumentError naming the record and field, in TensorFlow's words. No gradient.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor

__all__ = ["decode_csv"]

_TYPES = ("float32", "float64", "int32", "int64", "string")


def _quoted(record, i, delim):
    """(field, next position) of the quoted field starting at record[i]."""
    j, out, n = i + 1, bytearray(), len(record)
    while True:
        if j >= n:
            raise ValueError("Quoted field has to end with quote followed by delim or end")
        c = record[j]
        if c == 0x22:
            if j + 1 < n and record[j + 1] == 0x22:
                out.append(0x22)
                j += 2
                continue
            j += 1
            if j < n and record[j] != delim:
                raise ValueError("Quoted field has to end with quote followed by delim or end")
            return bytes(out), j
        out.append(c)
        j += 1


def split_record(record, delim, use_quote):
    """The fields of one record (bytes); ValueError with TensorFlow's words for bad quoting."""
    if not use_quote:
        return record.split(bytes((delim,)))
    out, i, n = [], 0, len(record)
    while True:
        if i < n and record[i] == 0x22:
            field, i = _quoted(record, i, delim)
        else:
            j = record.find(bytes((delim,)), i)
            field = record[i:] if j < 0 else record[i:j]
            if b'"' in field:
                raise ValueError("Unquoted fields cannot have quotes/CRLFs inside")
            i = n if j < 0 else j
        out.append(field)
        if i >= n:
            return out
        i += 1
        if i == n:
            out.append(b"")
            return out


def _convert(text, dtype, field, index):
    if dtype == "string":
        return text
    try:
        return int(text) if dtype.startswith("int") else float(text)
    except ValueError:
        kind = {"float32": "float", "float64": "double"}.get(dtype, dtype)
        raise InvalidArgumentError(f"Field {field} in record {index} is not a valid {kind}: "
                                   f"{text.decode('utf-8', 'replace')}") from None


def _csv_kernel(records, *defaults, field_delim, use_quote_delim, na_value, select_cols):
    flat = np.asarray(records, dtype=object).reshape(-1)
    columns = list(select_cols) if select_cols else list(range(len(defaults)))
    types = [dtypes.as_dtype(d.dtype).name if d.dtype != object else "string" for d in defaults]
    out = [[] for _ in defaults]
    delim, na = field_delim.encode()[0], na_value.encode()
    for index, record in enumerate(flat):
        try:
            fields = split_record(record, delim, use_quote_delim)
        except ValueError as err:
            raise InvalidArgumentError(f"{err} (record {index}: {record[:60]!r})") from None
        if select_cols:
            if len(fields) <= columns[-1]:
                raise InvalidArgumentError(f"Expect {columns[-1] + 1} fields but have "
                                           f"{len(fields)} in record {index}")
        elif len(fields) != len(defaults):
            raise InvalidArgumentError(f"Expect {len(defaults)} fields but have {len(fields)} "
                                       f"in record {index}")
        for k, column in enumerate(columns):
            text = fields[column]
            if text == b"" or text == na:
                if defaults[k].size == 0:
                    raise InvalidArgumentError(f"Field {column} is required but missing in "
                                               f"record {index}!")
                out[k].append(defaults[k].reshape(-1)[0])
            else:
                out[k].append(_convert(text, types[k], column, index))
    shape = np.shape(records)
    return tuple(_column(values, d, shape) for values, d in zip(out, defaults))


def _column(values, default, shape):
    if default.dtype == object:
        array = np.empty(len(values), dtype=object)
        array[:] = values
    else:
        array = np.asarray(values, dtype=default.dtype)
    return array.reshape(shape)


DECODE_CSV = defop(
    "DecodeCSV", _csv_kernel,
    shape=lambda records, *defaults, **attrs: [(records.shape, d.dtype) for d in defaults],
    grad=None, num_outputs=None,
    raw=lambda records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
    select_cols=(), name=None: decode_csv(records, record_defaults, field_delim,
                                          use_quote_delim, na_value, list(select_cols) or None,
                                          name))


def _default(value, column):
    t = convert_to_tensor(value)
    if t.dtype.name not in _TYPES:
        raise TypeError(f"decode_csv: record_defaults[{column}] has dtype {t.dtype.name}; a "
                        f"column is float32, float64, int32, int64 or string.")
    if t.shape.num_elements() not in (0, 1):
        raise ValueError(f"decode_csv: record_defaults[{column}] must hold one default value "
                         f"or none (a required column), got shape {t.shape}.")
    return t


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, name=None):
    """A list with one tensor per column (or per selected column) of the CSV `records`."""
    records = convert_to_tensor(records, dtype_hint=dtypes.string)
    if records.dtype is not dtypes.string:
        raise TypeError(f"decode_csv: records must be a string tensor, got "
                        f"{records.dtype.name}.")
    if len(field_delim) != 1:
        raise ValueError(f"decode_csv: field_delim must be one character, got {field_delim!r}.")
    defaults = [_default(d, i) for i, d in enumerate(record_defaults)]
    cols = [int(c) for c in select_cols] if select_cols is not None else []
    if cols and (cols != sorted(set(cols)) or cols[0] < 0):
        raise ValueError(f"decode_csv: select_cols must be ascending and unique column "
                         f"indices, got {select_cols}.")
    if cols and len(cols) != len(defaults):
        raise ValueError(f"decode_csv: select_cols has {len(cols)} columns but "
                         f"record_defaults {len(defaults)}; give one default per selected "
                         f"column.")
    out = execute(DECODE_CSV, (records, *defaults),
                  {"field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
                   "na_value": na_value, "select_cols": tuple(cols)}, name)
    return list(out) if isinstance(out, tuple) else [out]
