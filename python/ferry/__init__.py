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

See docs/python.md.
"""

from ._asset import (AlmLod, Asset, Diagnostic, EntryReport, Format, Places, Report, SimulationWarning, TextureWarning, formats, open)
from ._errors import (ArgumentError, Error, FileError, LimitError, MalformedError, OutOfMemoryError, TruncatedError,
                      UnsupportedError)
from ._jobs import Archive, ArchiveEntry, AuthorReport, ExportReport, Message, author_alo
from ._native import LIBRARY_ENV, library_path

__version__ = "0.1.0"

__all__ = [
    "open", "formats", "Asset", "Format", "Diagnostic", "Report", "EntryReport", "AlmLod", "Places",
    "Error", "TruncatedError", "MalformedError", "UnsupportedError", "LimitError", "OutOfMemoryError",
    "FileError", "ArgumentError", "SimulationWarning", "TextureWarning", "library_path", "LIBRARY_ENV",
    "Archive", "ArchiveEntry", "ExportReport", "Message", "AuthorReport", "author_alo",
]
