"""TensorFlow 1's small namespaces under `tf.compat.v1`: errors (status codes and every error
class), gfile (tf.io.gfile's CamelCase names), python_io (TFRecord files), manip, spectral,
dtypes, random, debugging, and `tf.compat`'s helpers, each run as a TF 1 program in wengert and
in TensorFlow 2.21's `tf.compat.v1` with eager execution disabled (tf1_scenarios.py)."""
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "errors": '''
e = tf.errors
codes = ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
         "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
         "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
         "UNAUTHENTICATED"]
out["codes"] = [getattr(e, c) for c in codes]
out["classes"] = [e.exception_type_from_error_code(getattr(e, c)).__name__ for c in codes[1:]]
out["back"] = [e.error_code_from_exception_type(e.exception_type_from_error_code(k))
               for k in range(1, 17)]
made = [e.CancelledError(None, None, "stopped"), e.UnknownError(None, None, "odd"),
        e.DeadlineExceededError(None, None, "late"), e.UnavailableError(None, None, "away"),
        e.UnauthenticatedError(None, None, "who"), e.InternalError(None, None, "bug")]
out["made"] = [[type(x).__name__, str(x), x.message, x.error_code, isinstance(x, e.OpError),
                x.node_def is None] for x in made]
try:
    raise e.CancelledError(None, None, "queue closed")
except e.OpError as caught:
    out["caught"] = [type(caught).__name__, caught.error_code]
with e.raise_exception_on_not_ok_status():
    out["status_context"] = "ok"
out["public"] = sorted(n for n in dir(e) if not n.startswith("_") and n[0].isupper()
                       and n != "OperatorNotAllowedInGraphError")  # TF 2's tf.errors has it
''',
    "gfile": '''
import os, tempfile
g = tf.gfile
root = tempfile.mkdtemp()
g.MakeDirs(os.path.join(root, "a", "b"))
g.MkDir(os.path.join(root, "c"))
with g.GFile(os.path.join(root, "a", "x.txt"), "w") as f:
    f.write("hello")
with g.Open(os.path.join(root, "a", "x.txt")) as f:
    out["read"] = f.read()
with g.FastGFile(os.path.join(root, "a", "x.txt"), "rb") as f:
    out["read_bytes"] = f.read().decode()
g.Copy(os.path.join(root, "a", "x.txt"), os.path.join(root, "c", "y.txt"))
out["copy_again"] = error_of(lambda: g.Copy(os.path.join(root, "a", "x.txt"),
                                             os.path.join(root, "c", "y.txt"))).split(":")[0]
g.Copy(os.path.join(root, "a", "x.txt"), os.path.join(root, "c", "y.txt"), overwrite=True)
g.Rename(os.path.join(root, "c", "y.txt"), os.path.join(root, "c", "z.txt"))
out["exists"] = [g.Exists(os.path.join(root, p)) for p in ["a/x.txt", "c/y.txt", "c/z.txt"]]
out["isdir"] = [g.IsDirectory(os.path.join(root, p)) for p in ["a", "a/x.txt"]]
out["listdir"] = sorted(g.ListDirectory(os.path.join(root, "a")))
out["glob"] = sorted(os.path.relpath(p, root) for p in g.Glob(os.path.join(root, "*", "*.txt")))
out["walk"] = [[os.path.relpath(d, root), sorted(s), sorted(f)] for d, s, f in g.Walk(root)]
out["stat"] = [g.Stat(os.path.join(root, "a", "x.txt")).length,
               g.Stat(os.path.join(root, "a")).is_directory]
g.Remove(os.path.join(root, "c", "z.txt"))
g.DeleteRecursively(os.path.join(root, "a"))
out["after"] = sorted(g.ListDirectory(root))
out["missing"] = error_of(lambda: g.Remove(os.path.join(root, "nothing"))).split(":")[0]
out["names"] = sorted(n for n in dir(g) if not n.startswith("_") and n[0].isupper())
''',
    "python_io": '''
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
with tf.python_io.TFRecordWriter(path) as w:
    for k in range(3):
        w.write(b"record %d" % k)
out["records"] = [r.decode() for r in tf.python_io.tf_record_iterator(path)]
options = tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.GZIP)
zipped = path + ".gz"
w = tf.python_io.TFRecordWriter(zipped, options)
w.write(b"zipped")
w.close()
out["zipped"] = [r.decode() for r in tf.python_io.tf_record_iterator(zipped, options)]
out["kinds"] = [tf.python_io.TFRecordCompressionType.NONE,
                tf.python_io.TFRecordCompressionType.ZLIB,
                tf.python_io.TFRecordCompressionType.GZIP]
''',
    "manip_spectral": '''
x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
m = tf.manip
ops = {"roll": m.roll(x, 1, 1), "tile": m.tile(x[:1], [2, 1]), "reverse": m.reverse(x, [0]),
       "reshape": m.reshape(x, [4, 3]), "gather_nd": m.gather_nd(x, [[0, 1], [2, 3]]),
       "scatter_nd": m.scatter_nd([[1], [3]], [5., 6.], [4]),
       "s2b": m.space_to_batch_nd(tf.reshape(x, [1, 2, 6, 1]), [1, 2], [[0, 0], [0, 0]]),
       "b2s": m.batch_to_space_nd(tf.reshape(x, [4, 1, 3, 1]), [2, 2], [[0, 0], [0, 0]])}
s = tf.spectral
z = tf.complex(x, x * 0.5)
ops.update(dct=s.dct(x), idct=s.idct(x, norm="ortho"), fft=s.fft(z), ifft2d=s.ifft2d(z),
           fft3d=s.fft3d(tf.reshape(z, [1, 3, 4])), rfft=s.rfft(x), rfft2d=s.rfft2d(x),
           irfft=s.irfft(s.rfft(x)), irfft2d=s.irfft2d(s.rfft2d(x)),
           rfft3d=s.rfft3d(tf.reshape(x, [1, 3, 4])))
with tf.Session() as sess:
    got = sess.run(ops)
for key, value in got.items():
    out[key] = value
out["manip_names"] = sorted(n for n in dir(m) if not n.startswith("_"))
out["spectral_names"] = sorted(n for n in dir(s) if not n.startswith("_"))
''',
    "dtypes_random_debugging": '''
d = tf.dtypes
x = tf.constant([1.5, -300., 2e9])
ops = {"as_string": d.as_string(x, precision=1), "saturate": d.saturate_cast(x, tf.int8),
       "cast": d.cast(x, tf.int32), "complex": d.complex(x, x)}
logits = tf.constant([[0., 10., 0.], [10., 0., 0.]])
draws = tf.random.stateless_multinomial(logits, 5, seed=[1, 2], output_dtype=tf.int32)
tf.random.set_random_seed(7)
out["seed"] = [tf.random.get_seed(None)[0], list(tf.random.get_seed(5))]
sampled = tf.random.multinomial(tf.constant([[-50., 0.]]), 4, output_dtype=tf.int64)
rates = tf.random.poisson([1., 2.], [3], seed=1)
checked = tf.debugging.assert_all_finite(x, "x is bad")
with tf.control_dependencies([tf.debugging.assert_equal(x, x, data=["never"])]):
    same = tf.identity(x)
p = tf.placeholder(tf.float32, [2])
bad = tf.debugging.assert_less(p, 0., data=["p was", p], summarize=2)
with tf.Session() as sess:
    got = sess.run(ops)
    out["as_string"] = [s.decode() for s in got.pop("as_string")]
    for key, value in got.items():
        out[key] = value
    out["draws"] = [sess.run(draws).shape, sess.run(draws).dtype.name]
    out["sampled"] = sess.run(sampled)
    out["rates_shape"] = sess.run(rates).shape
    out["checked"], out["same"] = sess.run([checked, same])
    out["bad"] = error_of(lambda: sess.run(bad, {p: [1., -1.]})).split(":")[0]
    out["good"] = error_of(lambda: sess.run(bad, {p: [-1., -1.]}))
out["predicates"] = [tf.debugging.is_finite is tf.math.is_finite,
                     tf.debugging.is_nan is tf.math.is_nan,
                     tf.debugging.is_nan is tf.is_nan]
tf.debugging.set_log_device_placement(True)
with tf.Session() as sess:
    out["monotone"] = sess.run([tf.debugging.is_non_decreasing([1, 1, 2]),
                                tf.debugging.is_strictly_increasing([1, 1, 2])])
out["switches"] = [tf.debugging.get_log_device_placement(),
                   tf.debugging.is_traceback_filtering_enabled()]
tf.debugging.set_log_device_placement(False)
''',
    "compat": '''
import pathlib
c = tf.compat
out["bytes"] = [c.as_bytes("h\\u00e9").hex(), c.as_bytes(bytearray(b"ab")).hex(),
                c.as_text(b"h\\xc3\\xa9"), c.as_str(b"x"), c.as_str_any(b"y"), c.as_str_any(3.5),
                c.path_to_str(pathlib.PurePosixPath("/a/b")), c.path_to_str(7)]
out["bad"] = [error_of(lambda: c.as_bytes(3)), error_of(lambda: c.as_text(None))]
out["types"] = [isinstance(np.int8(1), c.integral_types), isinstance(2.5, c.real_types),
                isinstance(1j, c.complex_types), isinstance(b"", c.bytes_or_text_types),
                isinstance(np.float32(1), c.integral_types)]
out["forward"] = [c.forward_compatible(2026, 1, 15), c.forward_compatible(2026, 1, 16),
                  c.forward_compatible(2020, 5, 5)]
with c.forward_compatibility_horizon(2031, 1, 1):
    out["moved"] = c.forward_compatible(2030, 12, 31)
out["restored"] = c.forward_compatible(2030, 12, 31)
shape = tf.TensorShape([3, None])
out["dims"] = [c.dimension_value(shape[0]), str(c.dimension_value(shape[1])),
               c.dimension_at_index(shape, 0).value]
out["versions"] = [c.v1.compat.as_text(b"z"), c.v2.compat.as_text(b"w")]
out["names"] = sorted(n for n in dir(c) if not n.startswith("_"))
''',
    "summary_and_saved_model": '''
import tempfile
s = tf.summary
events = [s.Event(wall_time=1.5, step=3, session_log=s.SessionLog(status=s.SessionLog.START,
                                                                  msg="hi")),
          tf.Event(step=4, log_message=tf.LogMessage(level=tf.LogMessage.WARN, message="w")),
          s.Event(tagged_run_metadata=s.TaggedRunMetadata(tag="step1", run_metadata=b"xy")),
          s.Event(summary=s.Summary(value=[s.Summary.Value(tag="loss", simple_value=0.5)])),
          s.SessionLog(status=s.SessionLog.CHECKPOINT, checkpoint_path="/tmp/model.ckpt"),
          s.SummaryDescription(type_hint="image")]
out["serialized"] = [e.SerializeToString().hex() for e in events]
back = s.Event.FromString(events[0].SerializeToString())
out["back"] = [back.WhichOneof("what"), back.session_log.msg, back.session_log.status]
out["levels"] = [tf.LogMessage.UNKNOWN, tf.LogMessage.DEBUGGING, tf.LogMessage.INFO,
                 tf.LogMessage.WARN, tf.LogMessage.ERROR, tf.LogMessage.FATAL,
                 tf.SessionLog.STATUS_UNSPECIFIED, tf.SessionLog.STOP]
logdir = tempfile.mkdtemp()
w = s.FileWriterCache.get(logdir)
out["cached"] = [w is s.FileWriterCache.get(logdir), w.get_logdir() == logdir]
s.FileWriterCache.clear()
out["fresh"] = s.FileWriterCache.get(logdir) is not w
s.FileWriterCache.clear()
out["v2_ops"] = list(s.all_v2_summary_ops())
out["initialize"] = error_of(lambda: s.initialize())
sm = tf.saved_model
out["tags"] = [sm.tag_constants.SERVING, sm.tag_constants.TRAINING, sm.tag_constants.GPU,
               sm.tag_constants.TPU, sm.SERVING]
out["signatures"] = [getattr(sm.signature_constants, n) for n in sorted(
    n for n in dir(sm.signature_constants) if n.isupper())]
out["files"] = [str(getattr(sm.constants, n)) for n in sorted(
    n for n in dir(sm.constants) if n.isupper())]
out["top_level"] = [str(getattr(sm, n)) for n in sorted(n for n in dir(sm) if n.isupper())]
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_tensorflow_2_names_are_the_same_objects():
    assert tf.errors.CancelledError is v1.errors.CancelledError
    assert tf.compat.as_bytes is v1.compat.as_bytes
    assert v1.spectral.rfft is tf.signal.rfft and v1.manip.roll is tf.roll
    assert v1.python_io.TFRecordWriter is tf.io.TFRecordWriter
    assert v1.gfile.GFile is tf.io.gfile.GFile
    assert v1.dtypes.float32 is tf.float32 and v1.random.normal is tf.random.normal
