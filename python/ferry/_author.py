"""ferry.author_alo and ferry.author_ala: a glTF made into the files the game
loads, by the library's authoring jobs (author.h), each checked by ferry
validate's rules before it is written; ferry.author_paa: an image made a
PAA/PAC texture."""

import os
from ctypes import byref, c_size_t, c_void_p
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from . import _native
from ._asset import Asset, PathLike, _fspath, _shown
from ._errors import ArgumentError, check
from ._export import _struct_dict
from ._jobs import Collector, Message, job_error, raise_kept
from ._native import lib

#: A glTF: a path to a .glb or .gltf (its folder holds what a .gltf names),
#: or a .glb's bytes (or a .gltf whose buffers and images are data: URIs).
GltfSource = Union[PathLike, bytes, bytearray, memoryview]


@dataclass(frozen=True)
class AuthorReport:
    """What an authoring job did (ferry_author_alo_report,
    ferry_author_ala_report): ``output`` the file written; ``details`` the
    job's counts as the library reports them (ALO: bones, meshes,
    submeshes, triangles, materials, ..., validation_errors,
    validation_warnings, animations_written, textures_written,
    textures_failed; ALA: fps, frames, tracks, ..., format);
    ``warnings`` and ``messages`` what it said (warnings about the input,
    validation's problems about the output, notes of what was written);
    ``ok`` whether every part was written (an ALO's animations and textures
    too)."""

    output: str
    ok: bool
    warnings: List[Message]
    messages: List[Message]
    details: Dict[str, Any] = field(default_factory=dict)


class _Scene:
    """A glTF read by the library (ferry_gltf_load or ferry_gltf_read),
    freed by close()."""

    def __init__(self, source: GltfSource, name: Optional[str], skip_images: bool):
        o = _native.GltfReadOptions()
        o.skip_images = skip_images
        self.handle = c_void_p()
        err = _native.Error()
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            self.name = name or "scene"
            self.path = None
            check(lib.ferry_gltf_read(data, len(data), byref(o), byref(self.handle), byref(err)), err, self.name)
        else:
            self.path = _fspath(source)
            self.name = name or _shown(source)
            check(lib.ferry_gltf_load(self.path, byref(o), byref(self.handle), byref(err)), err, self.name)

    def close(self) -> None:
        lib.ferry_scene_free(self.handle)
        self.handle = c_void_p()


def _result(messages: List[Message], output: PathLike, ok: bool, details: Dict[str, Any]) -> AuthorReport:
    return AuthorReport(_shown(output), ok, [m for m in messages if m.kind == "warning"], messages, details)


def author_alo(gltf: GltfSource, out_path: PathLike, textures_folder: Optional[PathLike] = None,
               ala_format: int = 0, allow_invalid: bool = False, name: Optional[str] = None) -> AuthorReport:
    """A glTF authored as the ALO model ``out_path`` (ferry_author_alo), as
    ``ferry convert IN.glb OUT.alo`` does: the model checked by ferry
    validate's rules before it is written (an error: nothing written,
    :class:`ferry.Error` raised with the problems in its ``messages``,
    unless ``allow_invalid``); then each of the glTF's animations as
    MODEL_NAME.ala beside it (format ``ala_format``: 1 or 2, 0: 2); then,
    with ``textures_folder``, the images its materials name as the game's
    .dds textures there. ``name``: how messages name the input (by default
    its path).

    Returns an :class:`AuthorReport` once the model is written; ``ok`` is
    False when an animation or a texture was not (the messages say why).
    """
    if ala_format not in (0, 1, 2):
        raise ValueError("ala_format is 1 or 2 (0: 2)")
    scene = _Scene(gltf, name, False)
    try:
        messages = Collector()
        o = _native.AuthorAloOptions()
        o.name = os.fsencode(scene.name)
        o.ala_format = ala_format
        o.allow_invalid = allow_invalid
        o.write.protect_input = scene.path
        o.message = messages.callback
        report = _native.AuthorAloReport()
        err = _native.Error()
        r = lib.ferry_author_alo(scene.handle, _fspath(out_path),
                                 _fspath(textures_folder) if textures_folder is not None else None, byref(o),
                                 byref(report), byref(err))
        raise_kept(messages)
        if r != _native.OK:
            raise job_error(err, r, _shown(out_path) if report.write_failed else scene.name, messages.messages)
        details = _struct_dict(report.model)
        details.pop("ferry_export", None)
        for key in ("validation_errors", "validation_warnings", "animations_written", "textures_written",
                    "textures_failed"):
            details[key] = int(getattr(report, key))
        ok = report.animation_result == _native.OK and report.textures_failed == 0
        return _result(messages.messages, out_path, ok, details)
    finally:
        scene.close()


def author_ala(gltf: GltfSource, out_path: PathLike, animation: Union[int, str] = 0, format: int = 0,
               fps: float = 0.0, model: Optional[Asset] = None, name: Optional[str] = None) -> AuthorReport:
    """One of a glTF's animations (``animation``: its index, or its name,
    read as ``ferry convert --animation N|NAME`` reads it:
    ferry_scene_find_animation) authored as the ALA file ``out_path``
    (ferry_author_ala), as ``ferry convert IN.glb OUT.ala`` does: sampled at
    ``fps`` (0: the animation's extras, else 30),
    in ALA ``format`` 1 or 2 (0: 2), its tracks bound by name to the bones
    of ``model`` (an ALO model's asset, in its bone order as the game binds
    them; None: the glTF's bones), validated before it is written. Raises
    :class:`ferry.Error` (its ``messages``: what the job said) when it is
    not written."""
    if format not in (0, 1, 2):
        raise ValueError("format is 1 or 2 (0: 2)")
    if isinstance(animation, int) and animation < 0:
        raise ValueError("animation is an index, 0 or more, or a name")
    if not (fps == 0 or 0 < fps <= 1000):
        raise ValueError("fps is above 0 and at most 1000 (0: the animation's own)")
    if model is not None and model.format.key != "alo":
        raise ArgumentError("argument", None, "", "the model given is %s, not an ALO model" % model.format.name,
                            model.name)
    scene = _Scene(gltf, name, True)
    try:
        messages = Collector()
        o = _native.AuthorAlaOptions()
        o.name = os.fsencode(scene.name)
        if isinstance(animation, str):
            index = c_size_t()
            if not lib.ferry_scene_find_animation(scene.handle, animation.encode("utf-8"), byref(index)):
                raise ArgumentError("argument", None, "", "no animation %r in the glTF" % animation, scene.name)
            o.animation_index = index.value
        else:
            o.animation_index = animation
        o.format = format
        o.fps = fps
        o.model = model._h() if model is not None else None
        o.write.protect_input = scene.path
        o.message = messages.callback
        report = _native.AuthorAlaReport()
        err = _native.Error()
        r = lib.ferry_author_ala(scene.handle, _fspath(out_path), byref(o), byref(report), byref(err))
        raise_kept(messages)
        if r != _native.OK:
            raise job_error(err, r, _shown(out_path) if report.write_failed else scene.name, messages.messages)
        details = _struct_dict(report.animation)
        details.update(format=int(report.format), warnings=int(report.warnings),
                       validation_errors=int(report.validation_errors))
        return _result(messages.messages, out_path, True, details)
    finally:
        scene.close()


def author_paa(image: PathLike, out_path: PathLike, type: Optional[str] = None, linear: Optional[bool] = None,
               no_lzo: bool = False) -> AuthorReport:
    """The PNG, TGA or DDS image file ``image`` as the PAA/PAC texture
    ``out_path`` (ferry_author_paa), as ``ferry convert IMAGE OUT.paa``
    writes it: ``type`` "dxt1" or "dxt5" (None: DXT1 when every pixel is
    opaque, else DXT5), ``linear`` whether the image is a data map (None:
    by the output's name, as the tool decides: _nohq, _smdi, ...),
    ``no_lzo`` every mipmap stored uncompressed (OFP, ArmA 1). ``details``:
    type, width, height, last_width, last_height, mip_count, lzo_count,
    bytes. Raises :class:`ferry.Error` naming the image when it is no
    image (another format's content, or no known content), the output
    when it cannot be written."""
    types = {None: 0, "dxt1": _native.PAA_DXT1, "dxt5": _native.PAA_DXT5}
    if type not in types:
        raise ValueError("type is 'dxt1', 'dxt5' or None (by the image's alpha)")
    path, out = _fspath(image), _fspath(out_path)
    o = _native.AuthorPaaOptions()
    o.encode.type = types[type]
    o.encode.linear = bool(lib.ferry_paa_data_map_name(out)) if linear is None else linear
    o.encode.no_lzo = no_lzo
    o.write.protect_input = path
    report = _native.AuthorPaaReport()
    err = _native.Error()
    r = lib.ferry_author_paa(path, out, byref(o), byref(report), byref(err))
    if r != _native.OK:
        raise job_error(err, r, _shown(out_path) if report.write_failed else _shown(image), [])
    details = {key: int(getattr(report, key)) for key in ("width", "height", "last_width", "last_height", "mip_count",
                                                          "lzo_count", "bytes")}
    details["type"] = (lib.ferry_paa_type_name(report.type) or b"").decode("ascii")
    return _result([], out_path, True, details)
