"""ferry: the assets of classic game engines from Python.

Alamo (Star Wars: Empire at War): ALO models and particle systems, ALA
animations, MEG archives; Real Virtuality (ArmA): ODOL P3D models, PAA/PAC
textures, rvmat and config files, PBO archives; ALM progressive meshes; glTF.
Read, validate, describe, write back byte for byte, convert to glTF, sample,
simulate and draw: every rule is libferry's (loaded through ctypes), the same
library the ``ferry`` tool is made of, so the results are the tool's.

    import ferry
    with ferry.open("walker.alo") as model:
        print(model.format.name, model.info()["bones"])
        for problem in model.validate():
            print(problem)
        model.to_gltf("walker.glb")
    with ferry.Archive("data.meg") as meg:
        meg.extract("unpacked")
    ferry.convert("mod/", "mod_gltf/")

See docs/python.md.
"""

from ._archive import Archive, Entry, ExtractReport, PackReport, pack
from ._asset import (AlmLod, Asset, Diagnostic, EntryReport, Format, Places, Report, SimulationWarning, TextureWarning, formats, open)
from ._author import AuthorReport, author_ala, author_alo, author_paa
from ._errors import (ArgumentError, Error, FileError, LimitError, MalformedError, OutOfMemoryError, TruncatedError,
                      UnsupportedError)
from ._export import ExportReport, FolderSkip, TreeReport, convert
from ._jobs import Message
from ._validate import ValidatedFile, ValidateReport, validate_tree
from ._native import LIBRARY_ENV, lib as _lib, library_path


def version() -> str:
    """The version of the libferry loaded (ferry_version), e.g. "0.1.0"."""
    return str(_lib.ferry_version().decode("ascii"))


#: The package's version: the library's (one build, one version).
__version__ = version()

__all__ = [
    "open", "formats", "Asset", "Format", "Diagnostic", "Report", "EntryReport", "AlmLod", "Places",
    "Error", "TruncatedError", "MalformedError", "UnsupportedError", "LimitError", "OutOfMemoryError",
    "FileError", "ArgumentError", "SimulationWarning", "TextureWarning", "library_path", "LIBRARY_ENV",
    "Archive", "Entry", "ExtractReport", "PackReport", "pack", "convert", "ExportReport", "TreeReport", "FolderSkip",
    "author_alo", "author_ala", "author_paa", "AuthorReport", "Message", "version", "validate_tree", "ValidateReport", "ValidatedFile",
]
