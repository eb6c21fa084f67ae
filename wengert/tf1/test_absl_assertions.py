"""The assertions `tf.test.TestCase` inherits from absl's `absltest.TestCase`, as a mixin over
`unittest.TestCase` (wengert does not depend on absl): containers (assertLen, assertEmpty,
assertContainsSubset, assertSameElements, assertNoCommonElements, the subsequence checks),
strings (assertStartsWith, assertEndsWith, assertRegexMatch, assertContainsInOrder), ranges
and orders (assertBetween, assertTotallyOrdered), structures (assertSameStructure,
assertMappingEqual, assertDictAlmostEqual, assertSequenceAlmostEqual, assertDataclassEqual,
assertUrlEqual), classes (assertIsSubclass), and assertRaisesWithLiteralMatch; and unittest's
old aliases (assertEquals, failUnless, assertRaisesRegexp, ...), which newer Pythons dropped.
"""
import collections.abc
import dataclasses
import math
import re
import urllib.parse

__all__ = ["AbslAssertions"]


class AbslAssertions:  # noqa: PLR0904 (one method per assertion)
    """absltest.TestCase's assertions."""

    def assertLen(self, container, expected_len, msg=None):  # noqa: N802 (absl's names)
        if len(container) != expected_len:
            self.fail(msg or f"{container!r} has length of {len(container)}, expected "
                             f"{expected_len}.")

    def assertEmpty(self, container, msg=None):  # noqa: N802
        if len(container):
            self.fail(msg or f"{container!r} has length of {len(container)}.")

    def assertNotEmpty(self, container, msg=None):  # noqa: N802
        if not len(container):
            self.fail(msg or f"{container!r} has length of 0.")

    def assertBetween(self, value, minv, maxv, msg=None):  # noqa: N802
        if not minv <= value <= maxv:
            self.fail(msg or f"{value!r} is not between {minv!r} and {maxv!r}")

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        if not actual.startswith(expected_start):
            self.fail(msg or f"{actual!r} does not start with {expected_start!r}")

    def assertNotStartsWith(self, actual, unexpected_start, msg=None):  # noqa: N802
        if actual.startswith(unexpected_start):
            self.fail(msg or f"{actual!r} does start with {unexpected_start!r}")

    def assertEndsWith(self, actual, expected_end, msg=None):  # noqa: N802
        if not actual.endswith(expected_end):
            self.fail(msg or f"{actual!r} does not end with {expected_end!r}")

    def assertNotEndsWith(self, actual, unexpected_end, msg=None):  # noqa: N802
        if actual.endswith(unexpected_end):
            self.fail(msg or f"{actual!r} does end with {unexpected_end!r}")

    def assertSequenceStartsWith(self, prefix, whole, msg=None):  # noqa: N802
        if list(whole[:len(prefix)]) != list(prefix):
            self.fail(msg or f"{whole!r} does not start with {prefix!r}")

    def assertContainsSubset(self, expected_subset, actual_set, msg=None):  # noqa: N802
        missing = set(expected_subset) - set(actual_set)
        if missing:
            self.fail(msg or f"Missing elements {missing!r}")

    def assertNoCommonElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        common = set(expected_seq) & set(actual_seq)
        if common:
            self.fail(msg or f"Common elements {common!r}")

    def assertSameElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        self.assertEqual(set(expected_seq), set(actual_seq), msg)

    def assertItemsEqual(self, first, second, msg=None):  # noqa: N802
        self.assertCountEqual(first, second, msg)

    def assertContainsSubsequence(self, container, subsequence, msg=None):  # noqa: N802
        """subsequence's items appear in container in order, not necessarily together."""
        items = iter(container)
        if not all(any(x == y for y in items) for x in subsequence):
            self.fail(msg or f"{container!r} does not contain the subsequence {subsequence!r}")

    def assertContainsExactSubsequence(self, container, subsequence, msg=None):  # noqa: N802
        """subsequence appears in container as a contiguous run."""
        c, s = list(container), list(subsequence)
        if not any(c[i:i + len(s)] == s for i in range(len(c) - len(s) + 1)):
            self.fail(msg or f"{container!r} does not contain {subsequence!r} contiguously")

    def assertContainsInOrder(self, strings, target, msg=None):  # noqa: N802
        """Each string occurs in target after the previous one."""
        position = 0
        for text in [strings] if isinstance(strings, str) else strings:
            found = target.find(text, position)
            if found < 0:
                self.fail(msg or f"Did not find {text!r} after position {position} in "
                                 f"{target!r}")
            position = found + len(text)

    def assertRegexMatch(self, actual_str, regexes, message=None):  # noqa: N802
        """Some regex of `regexes` matches actual_str."""
        if isinstance(regexes, (str, bytes)):
            raise AssertionError("regexes is a string; it needs to be a list of strings.")
        if not regexes:
            raise AssertionError("No regexes specified.")
        if not any(re.search(r, actual_str) for r in regexes):
            self.fail(message or f"String {actual_str!r} does not contain any of these "
                                 f"regexes: {list(regexes)!r}.")

    def assertIsSubclass(self, cls, parent_cls, msg=None):  # noqa: N802
        if not issubclass(cls, parent_cls):
            self.fail(msg or f"{cls!r} is not a subclass of {parent_cls!r}")

    def assertNotIsSubclass(self, cls, parent_cls, msg=None):  # noqa: N802
        if issubclass(cls, parent_cls):
            self.fail(msg or f"{cls!r} is a subclass of {parent_cls!r}")

    def assertTotallyOrdered(self, *groups, **kwargs):  # noqa: N802
        """Items of one group compare equal; every item is less than those of later groups."""
        msg = kwargs.pop("msg", None)
        if kwargs:
            raise TypeError(f"assertTotallyOrdered: unexpected arguments {sorted(kwargs)}.")
        for i, group in enumerate(groups):
            for a in group:
                for b in group:
                    self.assertTrue(a == b and not a < b, msg)
                for later in groups[i + 1:]:
                    for b in later:
                        self.assertTrue(a < b and b > a and a != b and a <= b, msg)

    def assertSequenceAlmostEqual(self, expected_seq, actual_seq, places=None, msg=None,  # noqa: N802
                                  delta=None):
        self.assertEqual(len(expected_seq), len(actual_seq), msg)
        for a, b in zip(expected_seq, actual_seq):
            self.assertAlmostEqual(a, b, places=places, msg=msg, delta=delta)

    def assertDictAlmostEqual(self, a, b, places=None, msg=None, delta=None):  # noqa: N802
        self.assertEqual(sorted(a), sorted(b), msg)
        for key in a:
            self.assertAlmostEqual(a[key], b[key], places=places, msg=msg, delta=delta)

    def assertMappingEqual(self, a, b, msg=None, mapping_type=collections.abc.Mapping):  # noqa: N802
        for value, name in ((a, "a"), (b, "b")):
            if not isinstance(value, mapping_type):
                self.fail(msg or f"{name} should be a {mapping_type.__name__}, found "
                                 f"{type(value).__name__}")
        self.assertEqual(dict(a), dict(b), msg)

    def assertDataclassEqual(self, first, second, msg=None):  # noqa: N802
        for value in (first, second):
            if not dataclasses.is_dataclass(value):
                self.fail(msg or f"{value!r} is not a dataclass")
        self.assertEqual(first, second, msg)

    def assertUrlEqual(self, a, b, msg=None):  # noqa: N802
        """Two URLs equal up to the order of their query parameters."""
        pa, pb = urllib.parse.urlparse(a), urllib.parse.urlparse(b)
        self.assertEqual(pa._replace(query=""), pb._replace(query=""), msg)
        self.assertEqual(sorted(urllib.parse.parse_qsl(pa.query)),
                         sorted(urllib.parse.parse_qsl(pb.query)), msg)

    def assertSameStructure(self, a, b, aname="a", bname="b", msg=None):  # noqa: N802
        """Nested dicts, lists and values equal, failures naming the path."""
        pending = [(a, b, aname, bname)]
        while pending:
            x, y, xn, yn = pending.pop()
            if isinstance(x, collections.abc.Mapping) and isinstance(y, collections.abc.Mapping):
                if sorted(x) != sorted(y):
                    self.fail(msg or f"{xn} has keys {sorted(x)!r}, {yn} has {sorted(y)!r}")
                pending += [(x[k], y[k], f"{xn}[{k!r}]", f"{yn}[{k!r}]") for k in x]
            elif isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
                if len(x) != len(y):
                    self.fail(msg or f"{xn} has {len(x)} items, {yn} has {len(y)}")
                pending += [(p, q, f"{xn}[{i}]", f"{yn}[{i}]") for i, (p, q) in
                            enumerate(zip(x, y))]
            elif x != y and not (isinstance(x, float) and isinstance(y, float) and
                                 math.isnan(x) and math.isnan(y)):
                self.fail(msg or f"{xn} is {x!r} but {yn} is {y!r}")

    def assertRaisesWithLiteralMatch(self, expected_exception, expected_exception_message,  # noqa: N802
                                     callable_obj=None, *args, **kwargs):
        """expected_exception raised with exactly this message."""
        context = self.assertRaises(expected_exception)
        if callable_obj is None:
            return _LiteralMatch(context, expected_exception_message, self)
        with context as caught:
            callable_obj(*args, **kwargs)
        self.assertEqual(str(caught.exception), expected_exception_message)
        return None

    # unittest's old names (gone from Python 3.12)
    def assertEquals(self, *args, **kwargs):  # noqa: N802
        return self.assertEqual(*args, **kwargs)

    def assertNotEquals(self, *args, **kwargs):  # noqa: N802
        return self.assertNotEqual(*args, **kwargs)

    def assertAlmostEquals(self, *args, **kwargs):  # noqa: N802
        return self.assertAlmostEqual(*args, **kwargs)

    def assertNotAlmostEquals(self, *args, **kwargs):  # noqa: N802
        return self.assertNotAlmostEqual(*args, **kwargs)

    def assert_(self, *args, **kwargs):
        return self.assertTrue(*args, **kwargs)

    def failUnless(self, *args, **kwargs):  # noqa: N802
        return self.assertTrue(*args, **kwargs)

    def failIf(self, *args, **kwargs):  # noqa: N802
        return self.assertFalse(*args, **kwargs)

    def failUnlessEqual(self, *args, **kwargs):  # noqa: N802
        return self.assertEqual(*args, **kwargs)

    def failIfEqual(self, *args, **kwargs):  # noqa: N802
        return self.assertNotEqual(*args, **kwargs)

    def failUnlessAlmostEqual(self, *args, **kwargs):  # noqa: N802
        return self.assertAlmostEqual(*args, **kwargs)

    def failIfAlmostEqual(self, *args, **kwargs):  # noqa: N802
        return self.assertNotAlmostEqual(*args, **kwargs)

    def failUnlessRaises(self, *args, **kwargs):  # noqa: N802
        return self.assertRaises(*args, **kwargs)

    def assertRaisesRegexp(self, *args, **kwargs):  # noqa: N802
        return self.assertRaisesRegex(*args, **kwargs)

    def assertRegexpMatches(self, *args, **kwargs):  # noqa: N802
        return self.assertRegex(*args, **kwargs)

    def assertNotRegexpMatches(self, *args, **kwargs):  # noqa: N802
        return self.assertNotRegex(*args, **kwargs)

    def assertDictContainsSubset(self, subset, dictionary, msg=None):  # noqa: N802
        missing = {k: v for k, v in subset.items() if k not in dictionary or dictionary[k] != v}
        if missing:
            self.fail(msg or f"Missing or different: {missing!r}")


class _LiteralMatch:
    def __init__(self, context, message, case):
        self.context, self.message, self.case = context, message, case

    def __enter__(self):
        return self.context.__enter__()

    def __exit__(self, *exc):
        handled = self.context.__exit__(*exc)
        if handled:
            self.case.assertEqual(str(self.context.exception), self.message)
        return handled
