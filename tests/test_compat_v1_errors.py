"""TensorFlow's error classes made as TensorFlow makes them, `tf.errors.OpError(node_def, op,
message, error_code)` and `tf.compat.v1.errors.InvalidArgumentError(node_def, op, message)`, as
TF 1 programs (and their tests) raise and catch them: the message, op, node_def and error_code
against TensorFlow 2.21 (tf1_scenarios.py, answers stored); wengert's own way, the message
first, keeps working."""
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "constructors": '''
classes = ["AbortedError", "AlreadyExistsError", "CancelledError", "DataLossError",
           "DeadlineExceededError", "FailedPreconditionError", "InternalError",
           "InvalidArgumentError", "NotFoundError", "OutOfRangeError", "PermissionDeniedError",
           "ResourceExhaustedError", "UnauthenticatedError", "UnavailableError",
           "UnimplementedError", "UnknownError"]
for name in classes:
    cls = getattr(tf.errors, name)
    error = cls(None, None, "went wrong in " + name)
    out[name] = [str(error), error.message, str(error.op), str(error.node_def),
                 str(error.error_code), str(isinstance(error, tf.errors.OpError))]
    out[name + "_keywords"] = str(cls(node_def=None, op=None, message="kw").message)
error = tf.errors.OpError(None, None, "generic", tf.errors.NOT_FOUND)
out["OpError"] = [str(error), error.message, str(error.error_code)]
try:
    raise tf.errors.OutOfRangeError(None, None, "End of sequence")
except tf.errors.OpError as caught:
    out["caught"] = [type(caught).__name__, caught.message, str(caught.error_code)]
out["codes"] = [tf.errors.error_code_from_exception_type(tf.errors.InvalidArgumentError),
                tf.errors.exception_type_from_error_code(5).__name__ == "NotFoundError"]
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
def test_errors_made_as_tensorflow_makes_them(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_wengerts_own_errors_keep_the_message_first():
    error = tf.errors.InvalidArgumentError("shapes differ", "an op")
    assert (error.message, error.op, error.node_def, error.error_code) == (
        "shapes differ", "an op", None, tf.errors.INVALID_ARGUMENT)
    assert isinstance(error, ValueError) and tf.errors.OpError("x").error_code == 2
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.reshape(tf.ones([6]), [4])
    assert raised.value.error_code == tf.errors.INVALID_ARGUMENT and raised.value.message
