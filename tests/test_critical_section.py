"""tf.CriticalSection: `execute(fn)` under the section's lock, eagerly, in a traced tf.function
and in a TF 1 Session, compared with TensorFlow 2.21 running the same code (values, the mutex op
types in the graph, and TensorFlow's errors: a nested execute, a variable two sections use
exclusively, `name` of an eager section); the serialization itself is checked here, without
TensorFlow, by two threads that each add to a counter through a read, a pause and a write."""
import re
import threading
import time

import numpy as np

import wengert as tf
from keras_tf_eval import tf_eval
from tf1_scenarios import assert_same, tf_answers, wengert_answers

PROGRAM = '''
import re


def fact(fn):
    """The error's class and the line stating it (a traced function's error comes after
    'in user code:' and a traceback), with the signature's handle id written as 'ID'."""
    try:
        fn()
    except Exception as e:
        lines = [l.strip() for l in str(e).splitlines() if l.strip()]
        text = lines[-1] if lines else ""
        text = text.removeprefix(type(e).__name__ + ": ")
        return type(e).__name__ + ": " + re.sub(r"signature=\\(.*?\\)\\)", "signature=ID)", text)
    return "no error"


def mutex_types(graph):
    return sorted({op.type for op in graph.get_operations()} & {
        "MutexV2", "MutexLock", "ConsumeMutexLock"})


cs = tf.CriticalSection(name="cs1")
v = tf.Variable(0.0)
out["eager_assign"] = cs.execute(lambda: v.assign_add(1.0)).numpy()
pair = cs.execute(lambda: (v.read_value(), tf.constant(2)))
out["eager_pair"] = [float(pair[0]), float(pair[1])]
out["eager_python_value"] = cs.execute(lambda: 3, exclusive_resource_access=False).numpy()
out["eager_none"] = str(cs.execute(lambda: None))
nested = cs.execute(lambda: [1.0, {"a": tf.constant(2)}])
out["eager_nested"] = [str(type(nested).__name__), float(nested[0]), int(nested[1]["a"])]
out["eager_name"] = fact(lambda: cs.name)
out["eager_reentry"] = fact(lambda: cs.execute(lambda: cs.execute(lambda: v.read_value())))


@tf.function
def f():
    return cs.execute(lambda: v.assign_add(1.0))


out["function_value"] = f().numpy()
out["function_again"] = f().numpy()
out["function_mutex_ops"] = mutex_types(f.get_concrete_function().graph)


@tf.function
def h():
    return cs.execute(lambda: cs.execute(lambda: v.read_value()))


out["function_reentry"] = fact(h)
cs2 = tf.CriticalSection()
w = tf.Variable(1.0)


@tf.function
def k():
    return cs.execute(lambda: w.assign_add(1.0)), cs2.execute(lambda: w.assign_add(1.0))


try:
    k()
    out["exclusive_error"] = "no error"
except ValueError as e:
    text = str(e).strip().splitlines()[-1].strip().removeprefix("ValueError: ")
    out["exclusive_error"] = [text[:text.index("[")],
                              text[text.index(" requested exclusive"):]]


out["eager_two_sections"] = [float(cs.execute(lambda: w.assign_add(1.0))),
                             float(cs2.execute(lambda: w.assign_add(1.0)))]
'''

TF1 = {"session": '''
cs = tf.CriticalSection(name="cs1")
v = tf.Variable(0.0)
step = cs.execute(lambda: v.assign_add(1.0))
out["name"] = cs.name
out["mutex_ops"] = sorted((op.type, op.name) for op in tf.get_default_graph().get_operations()
                          if op.type in ("MutexV2", "MutexLock", "ConsumeMutexLock"))
out["sections"] = len(tf.get_collection("critical_sections"))
out["shared_name_only"] = tf.CriticalSection(shared_name="shr").name
out["reentry"] = error_of(lambda: cs.execute(lambda: cs.execute(lambda: v.read_value())))
with tf.Session() as sess:
    sess.run(v.initializer)
    out["values"] = [sess.run(step), sess.run(step)]
'''}


def wengert_program():
    got = {}
    exec(PROGRAM, {"tf": tf, "np": np, "out": got})  # noqa: S102 (test code)
    return {key: np.asarray(value) for key, value in got.items()}


def test_execute_agrees_with_tensorflow():
    theirs = tf_eval(PROGRAM)
    mine = wengert_program()
    assert sorted(mine) == sorted(theirs)
    for key, want in theirs.items():
        got = mine[key]
        if want.dtype.kind in "fiu":
            np.testing.assert_allclose(got, want, err_msg=key)
        else:
            assert got.astype(str).tolist() == want.astype(str).tolist(), key


def test_tf1_session_agrees_with_tensorflow():
    theirs = tf_answers(TF1)
    assert_same(wengert_answers(TF1["session"]), theirs["session"])


def _counter_race(execute, threads=2, rounds=20):
    """Each thread adds 1 to a counter `rounds` times by reading it, pausing and writing it
    back: without a lock, a pause lets the other thread read the same value."""
    counter = tf.Variable(0)

    def add_one():
        seen = counter.read_value()
        time.sleep(0.001)
        counter.assign(seen + 1)
        return seen

    def work():
        for _ in range(rounds):
            execute(add_one)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return int(counter.numpy())


def test_two_threads_on_one_section_serialize():
    cs = tf.CriticalSection()
    assert _counter_race(cs.execute) == 40
    assert _counter_race(lambda fn: fn()) < 40  # the same work without the section races


def test_a_failing_fn_releases_the_lock():
    cs = tf.CriticalSection()

    def fail():
        raise RuntimeError("boom")

    for _ in range(2):
        try:
            cs.execute(fail)
        except RuntimeError:
            pass
    assert int(cs.execute(lambda: tf.constant(5))) == 5


def test_raw_ops_lock_and_release():
    handle = tf.raw_ops.MutexV2()
    lock = tf.raw_ops.MutexLock(mutex=handle)
    assert lock.dtype == tf.variant
    tf.raw_ops.ConsumeMutexLock(mutex_lock=lock)
    tf.raw_ops.ConsumeMutexLock(mutex_lock=tf.raw_ops.MutexLock(mutex=handle))  # not held


def test_reentry_message_names_the_signature():
    cs = tf.CriticalSection(shared_name="mine")
    try:
        cs.execute(lambda: cs.execute(lambda: 1))
    except ValueError as e:
        assert re.search(r"signature=\('', 'mine', '/job:localhost/replica:0/task:0/device:CPU:0'",
                         str(e)), str(e)
    else:
        raise AssertionError("a nested execute on one section must raise")
