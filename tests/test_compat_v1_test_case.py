"""`tf.test.TestCase` and `tf.compat.v1.test`: the same unittest module (graph-mode tests with
sessions and evaluate, the array assertions passing and failing, absl's assertions, the graph
gradient check, the build queries) run under wengert and under TensorFlow 2.21, each test's
outcome compared (TensorFlow's stored)."""
import numpy as np
import pytest

import wengert
from keras_tf_eval import tf_eval

SCRIPT = '''
import io, unittest
v1 = tf.compat.v1


class Checks(tf.test.TestCase):
    def test_all_close_structures(self):
        self.assertAllClose({"a": [1., 2.], "b": (3., np.float32(4.))},
                            {"a": np.array([1., 2.0000001]), "b": [3., 4.]})

    def test_all_close_fails(self):
        self.assertAllClose([1., 2.], [1., 2.1])

    def test_all_close_shape(self):
        self.assertAllClose(np.ones((2, 3)), np.ones((3, 2)))

    def test_all_close_by_type(self):
        self.assertAllCloseAccordingToType(np.float16([1., 2.]), np.float16([1.0005, 2.]))

    def test_not_all_close(self):
        self.assertNotAllClose([1., 2.], [1., 2.5])

    def test_all_equal_tensor(self):
        self.assertAllEqual(tf.constant([[1, 2]]), [[1, 2]])

    def test_all_equal_fails(self):
        self.assertAllEqual([1, 2], [1, 3])

    def test_not_all_equal(self):
        self.assertNotAllEqual([1, 2], [1, 3])

    def test_ordered(self):
        self.assertAllGreater([2, 3], 1)
        self.assertAllGreaterEqual([1, 3], 1)
        self.assertAllLess([2, 3], 4)
        self.assertAllLessEqual([2, 4], 4)
        self.assertAllInRange([0., 0.5, 1.], 0., 1.)
        self.assertAllInSet([1, 2, 2], {1, 2, 3})

    def test_open_range_fails(self):
        self.assertAllInRange([0., 0.5], 0., 1., open_lower_bound=True)

    def test_near(self):
        self.assertNear(1.0, 1.05, 0.1)
        self.assertArrayNear([1., 2.], [1.01, 2.01], 0.02)
        self.assertNDArrayNear(np.ones((2, 2)), np.ones((2, 2)) + 0.01, 0.02)

    def test_near_fails(self):
        self.assertNear(1.0, 1.5, 0.1)

    def test_dtype_and_shape(self):
        self.assertDTypeEqual(np.float32([1.]), np.float32)
        self.assertDTypeEqual(tf.constant([1, 2]), tf.int32)
        self.assertShapeEqual(np.zeros((2, 3)), tf.constant(np.zeros((2, 3))))

    def test_graph_session(self):
        with tf.Graph().as_default():
            x = v1.placeholder(tf.float32, [2])
            y = x * 3.
            with self.session() as sess:
                self.assertAllClose(sess.run(y, {x: [1., 2.]}), [3., 6.])
            with self.cached_session() as sess:
                self.assertAllClose(self.evaluate(tf.constant([4.]) * 2.), [8.])
                self.assertIs(sess, self._cached_session if hasattr(self, "_cached_session")
                              else sess)

    def test_eager_evaluate(self):
        self.assertAllEqual(self.evaluate({"a": tf.constant([1, 2])})["a"], [1, 2])

    def test_raises_op_error(self):
        with self.assertRaisesOpError("must be"):
            tf.debugging.assert_positive(tf.constant([-1.]), message="x must be positive")

    def test_raises_predicate(self):
        with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "odd" in str(e)):
            raise ValueError("an odd value")

    def test_raises_op_error_wrong(self):
        with self.assertRaisesOpError("must be"):
            tf.debugging.assert_positive(tf.constant([-1.]), message="something else")

    def test_absl(self):
        self.assertLen([1, 2], 2)
        self.assertEmpty([])
        self.assertNotEmpty([0])
        self.assertStartsWith("wengert", "wen")
        self.assertEndsWith("wengert", "ert")
        self.assertBetween(3, 1, 5)
        self.assertContainsSubset([1], [1, 2])
        self.assertNoCommonElements([1], [2])
        self.assertSameElements([1, 2, 2], [2, 1])
        self.assertItemsEqual([1, 2, 2], [2, 1, 2])
        self.assertContainsSubsequence([1, 2, 3, 4], [1, 3])
        self.assertContainsExactSubsequence([1, 2, 3, 4], [2, 3])
        self.assertContainsInOrder(["a", "c"], "abc")
        self.assertRegexMatch("abc", ["x", "b."])
        self.assertSameStructure({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]})
        self.assertSequenceStartsWith([1, 2], [1, 2, 3])
        self.assertDictAlmostEqual({"a": 1.0}, {"a": 1.000000001})
        self.assertSequenceAlmostEqual([1.0], [1.000000001])
        self.assertJsonEqual('{"a": 1, "b": [2]}', '{"b": [2], "a": 1}')
        self.assertUrlEqual("http://x/y?a=1&b=2", "http://x/y?b=2&a=1")
        self.assertIsSubclass(bool, int)
        self.assertTotallyOrdered([1, 1.0], [2], [3])
        self.assertMappingEqual({"a": 1}, {"a": 1})
        self.assertRaisesWithLiteralMatch(ValueError, "exact", self._raise, "exact")

    def _raise(self, text):
        raise ValueError(text)

    def test_same_structure_fails(self):
        self.assertSameStructure({"a": [1, 2]}, {"a": [1, 3]})

    def test_temp_dir(self):
        self.assertEqual(self.get_temp_dir(), self.get_temp_dir())
        self.assertTrue(tf.io.gfile.isdir(self.get_temp_dir()))

    def test_checked_thread(self):
        seen = []
        thread = self.checkedThread(seen.append, args=(1,))
        thread.start()
        thread.join()
        self.assertEqual(seen, [1])

    def test_gradient_check(self):
        with tf.Graph().as_default():
            x = v1.placeholder(tf.float64, [3])
            y = tf.reduce_sum(x * x) * tf.ones([2], tf.float64)
            with self.session():
                theoretical, numerical = v1.test.compute_gradient(
                    x, [3], y, [2], x_init_value=np.array([1., 2., 3.]))
                error = v1.test.compute_gradient_error(
                    x, [3], y, [2], x_init_value=np.array([1., 2., 3.]))
        self.assertAllClose(theoretical, [[2., 2.], [4., 4.], [6., 6.]])
        self.assertAllClose(numerical, theoretical, atol=1e-5)
        self.assertLess(error, 1e-5)

    def test_queries(self):
        self.assertFalse(tf.test.is_gpu_available())
        self.assertEqual(tf.test.gpu_device_name(), "")
        self.assertFalse(tf.test.is_built_with_rocm())
        self.assertIsInstance(v1.test.get_temp_dir(), str)

    def test_stub_out(self):
        class Holder:
            value = 1
        stubs = v1.test.StubOutForTesting()
        stubs.Set(Holder, "value", 2)
        stubs.SmartSet(Holder, "value", 3)
        self.assertEqual(Holder.value, 3)
        stubs.CleanUp()
        self.assertEqual(Holder.value, 1)


suite = unittest.defaultTestLoader.loadTestsFromTestCase(Checks)
outcomes = {test.id().split(".")[-1]: "ok" for test in suite}
result = unittest.TestResult()
suite.run(result)
for test, _ in result.failures:
    outcomes[test.id().split(".")[-1]] = "fail"
for test, text in result.errors:
    outcomes[test.id().split(".")[-1]] = "error: " + text.strip().splitlines()[-1][:60]
for test, _ in result.skipped:
    outcomes[test.id().split(".")[-1]] = "skipped"
out["outcomes"] = np.array(sorted(f"{k}: {v}" for k, v in outcomes.items()))
'''


@pytest.fixture(scope="module")
def theirs():
    return tf_eval(SCRIPT)


def test_test_case_outcomes_match_tensorflow(theirs):
    got = {"np": np, "out": {}}
    exec(SCRIPT, {"tf": wengert, **got})  # noqa: S102 (test code)
    mine, want = got["out"]["outcomes"].tolist(), theirs["outcomes"].tolist()
    assert [m for m in mine if m not in want] == [w for w in want if w not in mine], want


@pytest.fixture(autouse=True)
def fresh_seed():
    yield
    wengert.random.set_seed(None)
