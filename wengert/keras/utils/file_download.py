"""`keras.utils.get_file` without a network: files from the Keras cache or from `file://` paths.

get_file(fname, origin, ...) answers the path Keras would: the cache directory is `cache_dir`
(default $KERAS_HOME or ~/.keras; /tmp/.keras when that is not writable), the file is
`<cache_dir>/<cache_subdir>/<fname>` (fname defaults to the last part of the origin's path).
A file already there is used (checked against `file_hash` when given: SHA-256 for a 64-digit
hash or hash_algorithm="sha256", else MD5); a `file://` origin (or a plain local path) is copied
there; any other origin is an error naming the URL and the exact path to put the file at, since
wengert never downloads. With `extract=True` (or `untar=True`) a tar or zip archive is unpacked
next to it, as Keras 3 names it ("<stem>_extracted" when fname has an extension, else the archive
is stored as "<fname>_archive" and unpacked into "<fname>"), members escaping the target folder
skipped, and that folder's path is returned.
"""
import hashlib
import os
import shutil
import tarfile
import tempfile
import urllib.parse
import urllib.request
import zipfile

from .interactive_logging import print_msg

__all__ = ["get_file", "validate_file", "extract_archive"]


def _hasher(algorithm, file_hash):
    if algorithm == "sha256" or (algorithm == "auto" and file_hash and len(file_hash) == 64):
        return hashlib.sha256()
    if algorithm not in ("auto", "md5"):
        raise ValueError(f"get_file: unknown hash_algorithm={algorithm!r}; use 'auto', "
                         "'sha256' or 'md5'.")
    return hashlib.md5()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """True when the file's digest equals `file_hash`."""
    hasher = _hasher(algorithm, file_hash)
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest() == str(file_hash)


def _inside(base, name):
    target = os.path.realpath(os.path.join(base, name))
    return os.path.commonpath([os.path.realpath(base), target]) == os.path.realpath(base)


def extract_archive(file_path, path=".", archive_format="auto"):
    """Unpack a tar or zip archive into `path`; False when it is neither."""
    if archive_format is None:
        return False
    formats = ["tar", "zip"] if archive_format == "auto" else (
        [archive_format] if isinstance(archive_format, str) else list(archive_format))
    for kind in formats:
        if kind not in ("tar", "zip"):
            raise ValueError(f"get_file: unknown archive_format {kind!r}; use 'auto', 'tar' "
                             "or 'zip'.")
        if kind == "tar" and tarfile.is_tarfile(file_path):
            with tarfile.open(file_path) as archive:
                archive.extractall(path, members=[m for m in archive.getmembers()
                                                  if _inside(path, m.name)], filter="data")
            return True
        if kind == "zip" and zipfile.is_zipfile(file_path):
            with zipfile.ZipFile(file_path) as archive:
                archive.extractall(path, members=[m for m in archive.namelist()
                                                  if _inside(path, m)])
            return True
    return False


def _cache_folder(cache_dir, cache_subdir):
    if cache_dir is None:
        cache_dir = os.environ.get("KERAS_HOME") or os.path.join("~", ".keras")
    base = os.path.expanduser(cache_dir)
    os.makedirs(base, exist_ok=True)
    if not os.access(base, os.W_OK):
        base = os.path.join(tempfile.gettempdir(), ".keras")
    folder = os.path.join(base, cache_subdir)
    os.makedirs(folder, exist_ok=True)
    return folder


def _targets(folder, fname, given, unpack):
    """(where the file is stored, where it is unpacked or None)."""
    if not unpack:
        return os.path.join(folder, fname), None
    if given and "." in fname:
        return os.path.join(folder, fname), os.path.join(folder, fname[:fname.find(".")]
                                                        + "_extracted")
    return os.path.join(folder, fname + "_archive"), os.path.join(folder, fname)


def _local_source(origin):
    parts = urllib.parse.urlsplit(origin)
    if parts.scheme == "file":
        return urllib.request.url2pathname(parts.path)
    if parts.scheme == "" and os.path.exists(origin):
        return origin
    return None


def _fetch(origin, target):
    source = _local_source(origin)
    if source is None:
        raise OSError(f"get_file: cannot download {origin!r}: wengert works offline and never "
                      f"downloads. Fetch the file yourself and place it at {target!r} (or pass "
                      "a file:// origin).")
    if not os.path.isfile(source):
        raise FileNotFoundError(f"get_file: the local origin {origin!r} is not a file "
                                f"({source!r} does not exist).")
    print_msg(f"Copying data from {origin}")
    shutil.copyfile(source, target)


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None, force_download=False):
    """The cached path of `origin`'s file (see the module docstring)."""
    if origin is None:
        raise ValueError('get_file: please specify the "origin" argument (URL of the file).')
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    given = fname
    fname = os.fspath(fname) if fname else os.path.basename(urllib.parse.urlsplit(origin).path)
    if not fname:
        raise ValueError(f"get_file: can't parse the file name from origin={origin!r}; pass "
                         "`fname`.")
    if os.sep in fname:
        raise ValueError(f"get_file: `fname` must be a file name, not a path (got {fname!r}); "
                         "use `cache_dir` for the folder.")
    target, unpacked = _targets(_cache_folder(cache_dir, cache_subdir), fname, given,
                                extract or untar)
    stale = os.path.exists(target) and file_hash is not None and not validate_file(
        target, file_hash, hash_algorithm)
    if force_download or stale or not os.path.exists(target):
        _fetch(origin, target)
        if file_hash is not None and not validate_file(target, file_hash, hash_algorithm):
            raise ValueError(f"get_file: the file at {target!r} does not match the "
                             f"{hash_algorithm} hash {file_hash}: it is incomplete or "
                             "corrupted; replace it.")
    if unpacked is None:
        return target
    extract_archive(target, unpacked, "tar" if untar else archive_format)
    return unpacked
