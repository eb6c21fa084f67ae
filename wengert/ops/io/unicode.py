"""Unicode text in string tensors, as TensorFlow's ICU-based ops compute it for the encodings
Python's codecs know (UTF-8, UTF-16-BE, UTF-32-BE, ISO-8859-1, US-ASCII, ...):

    UnicodeEncode     rows of int32 code points (values, row_splits) -> one string per row
    UnicodeTranscode  each string decoded from input_encoding and encoded in output_encoding
    UnicodeDecode     a vector of strings -> (row_splits, code points): row i holds string i's
                      characters; UnicodeDecodeWithOffsets adds each character's byte offset
                      in its string
    UnicodeScript     each int32 code point -> its ICU script code (UScriptCode: 0 Common,
                      25 Latin, 17 Han, ...; 103 Unknown for unassigned code points, -1 for
                      values that are not code points)

`errors` says what an invalid code point or byte sequence becomes: "replace" (the default) puts
`replacement_char` (U+FFFD) in its place, "ignore" drops it, "strict" raises
InvalidArgumentError naming the string. `replace_control_characters` also replaces the C0
controls U+0000-U+001F. `unicode_encode` of a dense [..., n] tensor gives a [...] tensor.

An invalid byte sequence counts as one character at the byte where it starts, spanning the
longest prefix of a valid sequence (Unicode's "maximal subpart" practice, which ICU and Python's
codecs share): b"a\xe4\xb8b" decodes to [97, 65533, 98] with offsets [0, 1, 3]. The script
codes come from the Unicode Character Database's Scripts property as ICU numbers it, kept as
1,587 ranges in data/unicode_scripts.npz (start code point, script) and looked up by binary
search.
"""
import codecs
import pathlib
import re

import numpy as np

from ...framework import dispatch, dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.op_dtype_constraints import check_fixed_argument, fixed_operand
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor, string_array
from ...framework.tensor_shape import TensorShape
from ..creation_ops import range as range_, shape as shape_of
from ..math_ops import cast
from ..reduce_ops import reduce_prod
from ..reshape_ops import reshape

__all__ = ["unicode_encode", "unicode_transcode", "unicode_script", "decode_strings",
           "encode_rows"]

_CODECS = {"UTF8": "utf-8", "UTF16BE": "utf-16-be", "UTF32BE": "utf-32-be",
           "UTF16LE": "utf-16-le", "UTF32LE": "utf-32-le", "ISO88591": "latin-1",
           "LATIN1": "latin-1", "L1": "latin-1", "USASCII": "ascii", "ASCII": "ascii",
           "UTF16": "utf-16-be", "UTF32": "utf-32-be"}
OUTPUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")


def _codec(encoding, what):
    """Python's codec for an input encoding, matched as ICU matches converter names (case,
    '-', '_' and spaces ignored: "utf8", "UTF16_BE" and "latin1" all name one)."""
    codec = _CODECS.get(re.sub(r"[-_ ]", "", str(encoding).upper()))
    if codec is None:
        raise InvalidArgumentError(f"{what}: Could not create converter for input encoding: "
                                   f"{encoding} (wengert reads {sorted(_CODECS)}).")
    return codec


def _output_codec(encoding, op):
    """An output encoding: exactly one of TensorFlow's three names, as its op definition says."""
    if encoding not in OUTPUT_ENCODINGS:
        allowed = ", ".join(f'"{e}"' for e in OUTPUT_ENCODINGS)
        raise InvalidArgumentError(f"Value for attr 'output_encoding' of \"{encoding}\" is not "
                                   f"in the list of allowed values: {allowed} (op {op}).")
    return _CODECS[encoding.replace("-", "")]


def _replacement(value, op):
    value = int(value)
    if not 0 <= value <= 0x10FFFF:
        raise InvalidArgumentError(f"{op}: replacement_char out of unicode codepoint range "
                                   f"(got {value}; use a code point in [0, 0x10FFFF]).")
    return value


def _string_input(input, op):  # noqa: A002
    strings = convert_to_tensor(input, dtype_hint=dtypes.string)
    if strings.dtype != dtypes.string:
        raise InvalidArgumentError(f"cannot compute {op} as input #0(zero-based) was expected "
                                   f"to be a string tensor but is a {strings.dtype.name} tensor")
    return strings


def _valid(code):
    return 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF


def _clean(codes, errors, replacement, controls, what):
    out = []
    for code in codes:
        code = int(code)
        bad = not _valid(code) or (controls and code < 0x20)
        if not bad:
            out.append(code)
        elif errors == "strict":
            problem = (f"byte {code - 0xDC00:#04x} does not decode" if 0xDC80 <= code <= 0xDCFF
                       else f"{code} is not a valid code point")
            raise InvalidArgumentError(f"{what}: Invalid formatting: {problem} (errors='strict';"
                                       f" 'replace' or 'ignore' accept it).")
        elif errors == "replace":
            out.append(0xFFFD if 0xD800 <= replacement <= 0xDFFF else replacement)
    return "".join(map(chr, out))


def _encode_kernel(values, splits, *, encoding, errors, replacement):
    codec, rows = _output_codec(encoding, "UnicodeEncode"), []
    for a, b in zip(splits[:-1], splits[1:]):
        rows.append(_clean(values[a:b], errors, replacement, False, "UnicodeEncode").encode(
            codec))
    out = np.empty(len(rows), dtype=object)
    out[:] = rows
    return string_array(out)


def _transcode_one(value, index, source, target, errors, replacement, controls):
    """Bytes that do not decode become lone surrogates (surrogateescape), which `_clean` then
    replaces, drops or refuses as it does any invalid code point."""
    text = value.decode(source, "surrogateescape")
    what = f"UnicodeTranscode (the string at index {index})"
    return _clean(map(ord, text), errors, replacement, controls, what).encode(target)


def _transcode_kernel(strings, *, source, target, errors, replacement, controls):
    source = _codec(source, "UnicodeTranscode")
    target = _output_codec(target, "UnicodeTranscode")
    flat = [_transcode_one(v, i, source, target, errors, replacement, controls)
            for i, v in enumerate(np.asarray(strings, dtype=object).reshape(-1))]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return string_array(out.reshape(np.shape(strings)))


def _errors(errors):
    if errors not in ("replace", "ignore", "strict"):
        raise InvalidArgumentError(f"Value for attr 'errors' of {errors!r} is not in the list "
                                   f"of allowed values: 'strict', 'replace', 'ignore'.")
    return errors


ENCODE = defop("UnicodeEncode", _encode_kernel, grad=None,
               tf_inputs=("input_values", "input_splits"),
               shape=lambda values, splits, **a: (TensorShape([None]), dtypes.string),
               raw=lambda input_values, input_splits, output_encoding, errors="replace",
               replacement_char=65533, name=None: execute(
                   ENCODE, (convert_to_tensor(input_values), convert_to_tensor(input_splits)),
                   _encode_attrs(output_encoding, errors, replacement_char), name))
TRANSCODE = defop("UnicodeTranscode", _transcode_kernel, grad=None,
                  shape=lambda strings, **a: (strings.shape, dtypes.string),
                  raw=lambda input, input_encoding, output_encoding, errors="replace",
                  replacement_char=65533, replace_control_characters=False, name=None:
                  unicode_transcode(input, input_encoding, output_encoding, errors,
                                    replacement_char, replace_control_characters, name))


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """Each row of code points (the last axis of a dense int32 tensor) as one string."""
    codes = fixed_operand(input, dtypes.int32)
    if codes.dtype is not dtypes.int32:  # TensorFlow's UnicodeEncode: int32 code points only
        check_fixed_argument("UnicodeEncode", "input_values", codes)
    if not codes.shape.rank:
        raise ValueError(f"unicode_encode: input must be a dense tensor of known rank >= 1, "
                         f"got shape {codes.shape}.")
    shape = codes.shape.as_list()
    if None in shape:  # dimensions known only when the graph runs
        shape = shape_of(codes, out_type=dtypes.int64)
    rows = reduce_prod(shape[:-1])
    splits = range_(rows + 1, dtype=dtypes.int64) * cast(shape[-1], dtypes.int64)
    out = encode_rows(reshape(codes, [-1]), splits, output_encoding, errors, replacement_char,
                      name)
    return reshape(out, shape[:-1])


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Each string re-encoded from input_encoding to output_encoding."""
    ragged = dispatch.elementwise(lambda x: unicode_transcode(
        x, input_encoding, output_encoding, errors, replacement_char, replace_control_characters,
        name), input)
    if ragged is not None:
        return ragged
    _codec(input_encoding, "UnicodeTranscode")
    _output_codec(output_encoding, "UnicodeTranscode")
    return execute(TRANSCODE, (_string_input(input, "UnicodeTranscode"),),
                   {"source": input_encoding, "target": output_encoding, "errors":
                    _errors(errors), "replacement": _replacement(replacement_char,
                                                                 "UnicodeTranscode"),
                    "controls": bool(replace_control_characters)}, name)


def encode_rows(values, row_splits, output_encoding, errors="replace", replacement_char=65533,
                name=None):
    """One string per row of code points (values[row_splits[i]:row_splits[i+1]])."""
    return execute(ENCODE, (convert_to_tensor(values), convert_to_tensor(row_splits)),
                   _encode_attrs(output_encoding, errors, replacement_char), name)


def _encode_attrs(encoding, errors, replacement):
    _output_codec(encoding, "UnicodeEncode")
    return {"encoding": encoding, "errors": _errors(errors),
            "replacement": _replacement(replacement, "UnicodeEncode")}


# -- decoding ------------------------------------------------------------------------------------
def _mark_span(error):
    """Decoding error handler: an invalid span of n bytes becomes the lone surrogate U+D800 + n,
    which no codec here produces from valid input, so the decoded text says where each error was
    and how many bytes it covered."""
    return chr(0xD800 + error.end - error.start), error.end


codecs.register_error("wengert.unicode_span", _mark_span)


def _decode_one(value, index, codec, errors, replacement, controls):
    """(code points, byte offsets) of one string."""
    points, offsets, at = [], [], 0
    for ch in value.decode(codec, "wengert.unicode_span"):
        code = ord(ch)
        bad = 0xD800 <= code <= 0xDFFF
        width = code - 0xD800 if bad else len(ch.encode(codec))
        if bad and errors == "strict":
            raise InvalidArgumentError(
                f"UnicodeDecode: Invalid formatting on input string (the string at index "
                f"{index}: {width} byte(s) at offset {at} do not decode as {codec}; "
                f"errors='replace' or 'ignore' accept it).")
        bad = bad or (controls and code < 0x20)  # a control is replaced, or ignored
        if not (bad and errors == "ignore"):
            points.append(replacement if bad else code)
            offsets.append(at)
        at += width
    return points, offsets


def _decode_kernel(strings, *, encoding, errors, replacement, controls, splits_dtype,
                   offsets=False):
    codec = _codec(encoding, "UnicodeDecode")
    rows = [_decode_one(v, i, codec, errors, replacement, controls)
            for i, v in enumerate(np.asarray(strings, dtype=object).reshape(-1))]
    splits = np.cumsum([0] + [len(p) for p, _ in rows]).astype(splits_dtype)
    points = np.fromiter((c for p, _ in rows for c in p), np.int32, int(splits[-1]))
    if not offsets:
        return splits, points
    return splits, points, np.fromiter((o for _, f in rows for o in f), np.int64,
                                       int(splits[-1]))


def _decode_rule(strings, *, splits_dtype, offsets=False, **_):
    out = [(TensorShape([None]), dtypes.as_dtype(splits_dtype)),
           (TensorShape([None]), dtypes.int32)]
    return out + [(TensorShape([None]), dtypes.int64)] if offsets else out


def _raw_decode(op, input, input_encoding, errors, replacement_char,  # noqa: A002
                replace_control_characters, Tsplits, name):  # noqa: N803
    return execute(op, (_string_input(input, op.type),),
                   _decode_attrs(input_encoding, errors, replacement_char,
                                 replace_control_characters, Tsplits), name)


def _decode_attrs(encoding, errors, replacement, controls, splits_dtype=dtypes.int64):
    _codec(encoding, "UnicodeDecode")
    return {"encoding": encoding, "errors": _errors(errors),
            "replacement": _replacement(replacement, "UnicodeDecode"),
            "controls": bool(controls), "splits_dtype": dtypes.as_dtype(splits_dtype).name}


DECODE = defop("UnicodeDecode", _decode_kernel, grad=None, num_outputs=2, shape=_decode_rule,
               raw=lambda input, input_encoding, errors="replace", replacement_char=65533,
               replace_control_characters=False, Tsplits=dtypes.int64, name=None: _raw_decode(
                   DECODE, input, input_encoding, errors, replacement_char,
                   replace_control_characters, Tsplits, name))
DECODE_WITH_OFFSETS = defop(
    "UnicodeDecodeWithOffsets",
    lambda strings, **a: _decode_kernel(strings, offsets=True, **a), grad=None, num_outputs=3,
    shape=lambda strings, **a: _decode_rule(strings, offsets=True, **a),
    raw=lambda input, input_encoding, errors="replace", replacement_char=65533,
    replace_control_characters=False, Tsplits=dtypes.int64, name=None: _raw_decode(
        DECODE_WITH_OFFSETS, input, input_encoding, errors, replacement_char,
        replace_control_characters, Tsplits, name))


def decode_strings(strings, encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, with_offsets=False, name=None):
    """The characters of a vector of strings: (row_splits, code points[, byte offsets]), the
    parts of the ragged tensor tf.strings.unicode_decode returns."""
    op = DECODE_WITH_OFFSETS if with_offsets else DECODE
    return execute(op, (_string_input(strings, op.type),),
                   _decode_attrs(encoding, errors, replacement_char,
                                 replace_control_characters), name)


# -- scripts -------------------------------------------------------------------------------------
_SCRIPTS = []


def _script_table():
    if not _SCRIPTS:
        path = pathlib.Path(__file__).with_name("data") / "unicode_scripts.npz"
        with np.load(path, allow_pickle=False) as table:
            _SCRIPTS.extend((table["starts"], table["scripts"].astype(np.int32)))
    return _SCRIPTS


def _script_kernel(codes):
    starts, scripts = _script_table()
    codes = np.asarray(codes)
    found = scripts[np.clip(np.searchsorted(starts, codes, side="right") - 1, 0, None)]
    return np.where((codes < 0) | (codes > 0x10FFFF), np.int32(-1), found).astype(np.int32)


SCRIPT = defop("UnicodeScript", _script_kernel, grad=None,
               shape=lambda codes: (codes.shape, dtypes.int32),
               raw=lambda input, name=None: unicode_script(input, name))


def unicode_script(input, name=None):  # noqa: A002
    """The ICU script code of each int32 code point (see the module docstring)."""
    if dispatch.composite_in((input,)) is not None:
        return dispatch.elementwise(lambda x: unicode_script(x, name), input)
    codes = convert_to_tensor(input, dtype_hint=dtypes.int32)
    if codes.dtype != dtypes.int32:
        raise InvalidArgumentError(f"cannot compute UnicodeScript as input #0(zero-based) was "
                                   f"expected to be a int32 tensor but is a {codes.dtype.name} "
                                   f"tensor (unicode_script takes int32 code points).")
    return execute(SCRIPT, (codes,), {}, name)
