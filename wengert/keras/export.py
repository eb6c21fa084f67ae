"""`keras.export`: ExportArchive, the builder of SavedModel inference artifacts
(keras/saving/export_archive.py)."""
from .saving.export_archive import ExportArchive

__all__ = ["ExportArchive"]
