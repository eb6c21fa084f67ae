"""TensorFlow 1's make_tensor_proto / make_ndarray (byte-equal protos), DeviceSpec, setdiff1d,
timestamp, create_partitioned_variables, resource_loader and the flag validators
(mark_flag_as_required, register_validator, the mutual-exclusion marks), each run as a TF 1
program in wengert and in TensorFlow 2.21's `tf.compat.v1` (tf1_scenarios.py, answers stored)."""
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "tensor_protos": '''
values = [([1., 2.], {}), (1.0, {"shape": [2, 2]}), (np.array([[1, 2]], np.int64), {}),
          (["ab", b"c"], {}), (np.float32(3), {}), (True, {}), ([1, 2], {"dtype": tf.float64}),
          (np.arange(6, dtype=np.int8).reshape(2, 3), {}), (np.float16([1.5, 2.]), {}),
          (2 ** 40, {}), ([[1, 2]], {"shape": [1, 2], "verify_shape": True}),
          (np.array([1 + 2j], np.complex64), {}), (7, {"shape": [3], "allow_broadcast": True}),
          ([], {"dtype": tf.float32, "shape": [0, 2]})]
out["serialized"] = [tf.make_tensor_proto(v, **kw).SerializeToString().hex() for v, kw in values]
out["back"] = tf.make_ndarray(tf.make_tensor_proto(1.0, shape=[2, 2]))
out["back_int"] = tf.make_ndarray(tf.make_tensor_proto(np.arange(4, dtype=np.int64)))
out["back_str"] = [s.decode() for s in tf.make_ndarray(tf.make_tensor_proto(["x", "yz"]))]
out["too_many"] = error_of(lambda: tf.make_tensor_proto([1, 2, 3], shape=[2]))
out["verify"] = error_of(lambda: tf.make_tensor_proto([1, 2], shape=[1, 2], verify_shape=True))
out["bad_dtype"] = error_of(lambda: tf.make_tensor_proto([1.5], dtype=tf.int32)).split(":")[0]
''',
    "device_spec": '''
D = tf.DeviceSpec
d = D.from_string("/job:worker/replica:0/task:1/device:GPU:2")
out["parts"] = [d.to_string(), d.job, d.replica, d.task, d.device_type, d.device_index]
e = D(job="ps", device_type="CPU", device_index=0)
out["strings"] = [D(job="ps", device_type="cpu").to_string(), D.from_string("/cpu:0").to_string(),
                  D.from_string("gpu:*").to_string(), d.make_merged_spec(e).to_string(),
                  d.replace(task=5).to_string(),
                  D.from_string("/job:a").parse_from_string("/task:4").to_string()]
e.merge_from(D.from_string("/task:3/device:GPU:1"))
out["merged"] = e.to_string()
out["equal"] = [d == D.from_string(d.to_string()), hash(d) == hash(D.from_string(d.to_string()))]
out["bad"] = error_of(lambda: D.from_string("/bad:x"))
''',
    "setdiff_timestamp_partitioned": '''
x = tf.placeholder(tf.int32, [None])
diff = tf.setdiff1d(x, [2, 4])
diff64 = tf.setdiff1d([1., 2.], tf.constant([], tf.float32), index_dtype=tf.int64)
t = tf.timestamp()
parts = tf.create_partitioned_variables([4, 3], [2, 1], tf.ones_initializer(), name="emb")
plain = tf.create_partitioned_variables([4, 3], [1, 3], tf.zeros_initializer())
again = tf.create_partitioned_variables([4, 3], [1, 3], tf.zeros_initializer())
with tf.variable_scope("outer"):
    inner = tf.create_partitioned_variables([2], [2], tf.zeros_initializer(), name="x")
shared = tf.create_partitioned_variables([4, 3], [2, 1], None, name="emb", reuse=True)
out["names"] = [v.name for v in parts + plain + again + inner]
out["shapes"] = [str(v.shape.as_list()) for v in parts + plain]
out["shared"] = all(a is b for a, b in zip(parts, shared))
out["rank_error"] = error_of(lambda: tf.create_partitioned_variables([4], [2, 1], None))
out["diff_fields"] = list(diff._fields)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["diff"], out["idx"] = sess.run(diff, {x: [1, 2, 3, 4, 2, 5]})
    out["diff64"], out["idx64"] = sess.run(diff64)
    t1, t2 = sess.run(t), sess.run(t)
    out["stamps"] = [bool(t2 >= t1 > 1.7e9), str(sess.run(t).dtype)]
    out["parts"] = sess.run(parts)
''',
    "resource_loader": '''
r = tf.resource_loader
out["loader"] = [r.readahead_file_path("/x/y"), r.get_path_to_datafile("a/b.txt"),
                 r.get_data_files_path()]
''',
    "flags": '''
f = tf.flags
fv = f.FlagValues()
f.DEFINE_string("data", None, "data dir", flag_values=fv)
f.DEFINE_integer("n", 3, "count", flag_values=fv)
f.DEFINE_bool("a", False, "a", flag_values=fv)
f.DEFINE_bool("b", False, "b", flag_values=fv)
f.DEFINE_string("left", None, "left", flag_values=fv)
f.DEFINE_string("right", None, "right", flag_values=fv)
f.DEFINE_multi_enum("color", ["red"], ["red", "green"], "colors", flag_values=fv)
f.DEFINE_spaceseplist("words", "x y", "words", flag_values=fv)
f.mark_flag_as_required("data", flag_values=fv)
f.register_validator("n", lambda v: v > 0, message="n must be positive", flag_values=fv)
f.mark_bool_flags_as_mutual_exclusive(["a", "b"], flag_values=fv)
f.mark_flags_as_mutual_exclusive(["left", "right"], required=True, flag_values=fv)

@f.multi_flags_validator(["n", "data"], message="n too big for data", flag_values=fv)
def _small(values):
    return values["n"] < 100 or values["data"] == "big"

runs = [["p"], ["p", "--data=x", "--n=0", "--left=l"], ["p", "--data=x", "--a", "--b", "--left=l"],
        ["p", "--data=x", "--left=l", "--right=r"], ["p", "--data=x", "--n=500", "--left=l"],
        ["p", "--data=x", "--right=r", "--color=green", "--color=red", "--words=u v  w", "rest"]]
for k, argv in enumerate(runs):
    out[f"run{k}"] = error_of(lambda: fv(argv)).replace("\\n", " | ")
    fv.unparse_flags()
fv(runs[-1])
out["values"] = [fv.data, fv.n, fv.right, str(fv.color), str(fv.words)]
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
