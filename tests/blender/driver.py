"""The Blender add-on's test (ctest blender_addon, run by addon.sh): what
the add-on imports and exports in Blender 3.4, headless, compared with what
the ferry tool says of the same files (an independent reading: the tool
never runs the add-on).

    python3 driver.py FERRY LIBFERRY SRC SHARED TMP

- the add-on installs from its zip and enables with no warning and no output;
- every sample model and a deterministic sample of the corpus imported:
  ALO models (everything: view ALL): mesh nodes, bones, triangles and
  sub-mesh materials equal to `ferry info --json`; images and actions equal
  to those of `ferry convert --all --anim auto` (its .glb); P3D and ALM:
  triangles and images equal to the tool's .glb of the same options;
  proxies as empties with their names; the Alamo shader and its parameters
  on the materials as the tool's glTF extras have them;
- each action's bone poses, as Blender evaluates them, equal to `ferry
  sample` of the animation at every frame;
- an .ala imported onto the armature, and a model from inside a MEG: the
  same as imported directly;
- import then export: `ferry validate` finds no errors in the model and its
  animations; bones (names, rest transforms), triangles, shaders and their
  parameters equal to the original's (through the tool's glTF of both);
  each exported animation's poses equal to the original's at every frame;
- a model made in Blender from nothing exports to a valid ALO and ALA;
- a Workbench render of an imported model against a render of the tool's
  glTF of the same file imported by Blender's own importer (the PNGs are
  kept in TMP/renders for a look).

Times of the add-on's import and of Blender's own import of the same .glb
are printed (never asserted: bench/blender_import.sh measures them).
"""

import json
import math
import re
import os
import struct
import subprocess
import sys
from pathlib import Path

FERRY, LIB, SRC, SHARED, TMP = sys.argv[1:6]
SRC_P, TMP_P = Path(SRC), Path(TMP)
sys.path.insert(0, str(SRC_P / "python"))
sys.path.insert(0, str(SRC_P / "tests"))  # png_rows
os.environ["FERRY_LIBRARY"] = LIB
import ferry  # noqa: E402
from png_rows import decode_png  # noqa: E402

REQUIRE_ALL = os.environ.get("FERRY_REQUIRE_ALL", "") not in ("", "0")
passed = failed = 0


def check(what, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (": " + str(detail)[:600]) if detail else ""), file=sys.stderr)
    return cond


def left_out(what):
    global failed
    if REQUIRE_ALL:
        failed += 1
        print("FAIL: FERRY_REQUIRE_ALL is set, but a part was left out: " + what, file=sys.stderr)
    else:
        print("note: left out: " + what)


def tool(*args):
    return subprocess.run([FERRY] + [str(a) for a in args], capture_output=True, text=True)


def tool_json(*args):
    r = tool(*args)
    return json.loads(r.stdout) if r.stdout.strip() else None


def glb_json(path):
    data = Path(path).read_bytes()
    size = struct.unpack("<I", data[12:16])[0]
    return json.loads(data[20:20 + size])


def glb_material_images(doc):
    """Images the materials use (Blender's importer makes only those)."""
    used = set()
    mats = {p["material"] for n in doc.get("nodes", []) if "mesh" in n
            for p in doc["meshes"][n["mesh"]]["primitives"] if "material" in p}
    for k, m in enumerate(doc.get("materials", [])):
        if k not in mats:
            continue
        refs = [m.get("normalTexture"), m.get("emissiveTexture"), m.get("occlusionTexture")]
        pbr = m.get("pbrMetallicRoughness") or {}
        refs += [pbr.get("baseColorTexture"), pbr.get("metallicRoughnessTexture")]
        for ref in refs:
            if ref is not None:
                used.add(doc["textures"][ref["index"]]["source"])
    return len(used)


def action_names(names):
    """Action names without Blender's ".001" for a second object of a name,
    ignoring case (names from a MEG are stored upper case)."""
    return sorted({re.sub(r"\.\d{3}$", "", n).lower() for n in names})


def glb_triangles(doc):
    """Triangles of the meshes the document's nodes use (each use counted)."""
    total = 0
    for node in doc.get("nodes", []):
        if "mesh" in node:
            for prim in doc["meshes"][node["mesh"]]["primitives"]:
                if prim.get("mode", 4) == 4:
                    acc = prim.get("indices", prim["attributes"]["POSITION"])
                    total += doc["accessors"][acc]["count"] // 3
    return total


# ---- the files ----

def corpus_sample(pattern_dirs, suffix, count, keep=lambda files: files):
    """Every file of the folders with the suffix (those `keep` keeps), sorted
    by path, then every k-th so that `count` remain: deterministic, spread
    over the folders."""
    files = []
    for d in pattern_dirs:
        if d.is_dir():
            files += [p for p in d.rglob("*") if p.suffix.lower() == suffix and p.is_file()]
    files = keep(files)
    files.sort(key=lambda p: str(p).lower())
    if len(files) <= count:
        return files, []
    step = len(files) / count
    chosen = [files[int(i * step)] for i in range(count)]
    return chosen, [p for p in files if p not in chosen]


def alo_models(paths):
    """The ALO models among the files (particle systems and unreadable files
    left out), told by content as the library tells them."""
    out = []
    for p in paths:
        try:
            with ferry.open(p, bytes_only=True) as a:
                if a.format.key == "alo":
                    out.append(p)
        except ferry.Error:
            pass
    return out


samples = sorted((SRC_P / "samples" / "alamo").glob("*.alo"))
alos = alo_models(samples)
p3ds = sorted((SRC_P / "samples" / "odol").glob("*.p3d"))
alms = sorted((SRC_P / "fuzz" / "corpus" / "alm").glob("*.alm"))[:2]
corpus = Path(SHARED) / "corpus"
if corpus.is_dir():
    chosen, rest = corpus_sample([corpus / "alamo"], ".alo", 6, alo_models)
    print("corpus ALO models imported: %s; %d left out (every k-th of %d kept): %s" % (
        ", ".join(p.name for p in chosen), len(rest), len(chosen) + len(rest),
        ", ".join(p.name for p in rest[:40]) + (" ..." if len(rest) > 40 else "")))
    alos += chosen
    xwing = corpus / "alamo" / "ueaw" / "Models" / "VSF_XWING.ALO"
    if xwing.is_file() and xwing not in alos:  # textured, skinned, animated: the render's model
        alos.append(xwing)
    # a colorize texture and a normal map in the corpus' Textures folder:
    # the normal map is linked, the colour embedded
    nebulon = corpus / "alamo" / "ueaw" / "Models" / "VCFr_NEBULONB_D.ALO"
    if nebulon.is_file() and nebulon not in alos:
        alos.append(nebulon)
    chosen, rest = corpus_sample([corpus / "odol"], ".p3d", 3)
    print("corpus P3D models imported: %s; %d left out" % (", ".join(p.name for p in chosen), len(rest)))
    p3ds += chosen
else:
    left_out("the corpus models (%s is absent)" % corpus)

# ---- the jobs ----

jobs = []
expected = {}
renders = TMP_P / "renders"
renders.mkdir(parents=True, exist_ok=True)
for i, p in enumerate(alos):
    name = "alo%d_%s" % (i, p.stem)
    info = tool_json("info", "--json", p)[0]
    cli_glb = TMP_P / (name + ".glb")
    r = tool("convert", "--all", "--anim", "auto", p, cli_glb)
    if not check("%s: ferry convert --all --anim auto" % p.name, r.returncode == 0, r.stderr):
        continue
    doc = glb_json(cli_glb)
    expected[name] = {"kind": "alo", "path": p, "info": info, "doc": doc}
    out_dir = TMP_P / ("export_" + name)
    out_dir.mkdir(exist_ok=True)
    job = {"name": name, "op": "ferry_alo", "params": {"filepath": str(p), "view": "ALL"},
           "poses": True, "export": str(out_dir / p.name)}
    if p.name.lower() == "vcfr_nebulonb_d.alo":
        # Workbench draws no normal map: Cycles (16 samples, its fixed
        # seed) renders the import with native textures (the normal map
        # linked, the colour a DXT1) and with PNGs embedded; without its
        # normal map the picture differs by 0.33 per channel on average,
        # linked and embedded by 0.01 (measured by hand)
        jobs.append({"name": name + "_native", "op": "ferry_alo", "params": {"filepath": str(p)},
                     "render": str(renders / (name + "_native.png")), "engine": "CYCLES"})
        jobs.append({"name": name + "_embedded", "op": "ferry_alo",
                     "params": {"filepath": str(p), "native_textures": False},
                     "render": str(renders / (name + "_embedded.png")), "engine": "CYCLES"})
    if p.name.lower() in ("walker.alo", "vsf_xwing.alo", "vcfr_nebulonb_d.alo"):
        job["render"] = str(renders / (name + "_addon.png"))
        game_glb = TMP_P / (name + "_game.glb")
        tool("convert", "--anim", "auto", p, game_glb)
        jobs.append({"name": name + "_gltf", "op": "gltf", "params": {"filepath": str(game_glb)},
                     "render": str(renders / (name + "_cli.png"))})
        jobs.append({"name": name + "_game", "op": "ferry_alo", "params": {"filepath": str(p)},
                     "render": str(renders / (name + "_addon.png"))})
        jobs.append({"name": name + "_compact", "op": "ferry_alo",
                     "params": {"filepath": str(p), "compact_images": True, "native_textures": False}})
        jobs.append({"name": name + "_stored", "op": "ferry_alo",
                     "params": {"filepath": str(p), "native_textures": False}})
        job.pop("render")
    jobs.append(job)

for i, p in enumerate(p3ds):
    name = "p3d%d_%s" % (i, p.stem)
    cli_glb = TMP_P / (name + ".glb")
    r = tool("convert", p, cli_glb)
    if not check("%s: ferry convert" % p.name, r.returncode == 0, r.stderr):
        continue
    expected[name] = {"kind": "p3d", "path": p, "doc": glb_json(cli_glb)}
    jobs.append({"name": name, "op": "ferry_p3d", "params": {"filepath": str(p)}})
    jobs.append({"name": name + "_cli", "op": "gltf", "params": {"filepath": str(cli_glb)}})
    r = tool("convert", "--all", p, TMP_P / (name + "_all.glb"))
    jobs.append({"name": name + "_all_cli", "op": "gltf", "params": {"filepath": str(TMP_P / (name + "_all.glb"))}})
    expected[name + "_all"] = {"kind": "p3d", "path": p, "doc": glb_json(TMP_P / (name + "_all.glb")),
                               "info": tool_json("info", "--json", p)[0]}
    jobs.append({"name": name + "_all", "op": "ferry_p3d", "params": {"filepath": str(p), "view": "ALL"}})

for i, p in enumerate(alms):
    name = "alm%d_%s" % (i, p.stem)
    for tag, args, params in (("", [], {}), ("_lod1", ["--lod", "1"], {"detail": "COLLAPSES", "collapses": 1})):
        cli_glb = TMP_P / (name + tag + ".glb")
        r = tool("convert", p, cli_glb, *args)
        if check("%s: ferry convert %s" % (p.name, " ".join(args)), r.returncode == 0, r.stderr):
            expected[name + tag] = {"kind": "alm", "path": p, "doc": glb_json(cli_glb)}
            jobs.append({"name": name + tag, "op": "ferry_alm", "params": dict(filepath=str(p), **params)})
            jobs.append({"name": name + tag + "_cli", "op": "gltf", "params": {"filepath": str(cli_glb)}})

# a P3D's LODs chosen, an ALM at a triangle budget (against the tool's
# --lod 0 and --triangles 1 through Blender's own importer)
door = SRC_P / "samples" / "odol" / "door.p3d"
for name, src, args, op, params in (
        ("choice_p3d_lod0", door, ["--lod", "0"], "ferry_p3d", {"view": "LODS", "lods": "0"}),
        ("choice_alm_tri", SRC_P / "fuzz" / "corpus" / "alm" / "influence_v10.alm", ["--triangles", "3"], "ferry_alm",
         {"detail": "TRIANGLES", "triangles": 3})):
    if src is None:
        continue
    r = tool("convert", src, TMP_P / (name + ".glb"), *args)
    if check("%s: ferry convert %s" % (name, " ".join(args)), r.returncode == 0, r.stderr):
        jobs.append({"name": name, "op": op, "params": dict(filepath=str(src), **params)})
        jobs.append({"name": name + "_cli", "op": "gltf", "params": {"filepath": str(TMP_P / (name + ".glb"))}})

# a P3D from inside a PBO; an archive import without an entry, headless
pbo_dir = TMP_P / "pbo"
pbo_dir.mkdir(exist_ok=True)
(pbo_dir / "door.p3d").write_bytes(door.read_bytes())
r = tool("pack", "--prefix", "ferry\\test", TMP_P / "models.pbo", pbo_dir)
check("ferry pack models.pbo", r.returncode == 0, r.stderr)
jobs.append({"name": "pbo_entry", "op": "ferry_archive", "params": {"filepath": str(TMP_P / "models.pbo"),
                                                                   "entry": "door.p3d"}})
jobs.append({"name": "pbo_direct", "op": "ferry_p3d", "params": {"filepath": str(door)}})
jobs.append({"name": "pbo_pick", "op": "ferry_archive_pick", "params": {"filepath": str(TMP_P / "models.pbo"),
                                                                      "pick": "door.p3d"}})
jobs.append({"name": "archive_no_entry", "op": "ferry_archive", "params": {"filepath": str(TMP_P / "models.pbo")}})

# an animation onto the armature; a model from inside a MEG
walker = SRC_P / "samples" / "alamo" / "walker.alo"
walk = SRC_P / "samples" / "alamo" / "walker_walk_00.ala"
jobs.append({"name": "ala_onto", "op": "ferry_alo", "params": {"filepath": str(walker), "animations": False},
             "ala": {"path": str(walk)}, "poses": True})
packed = TMP_P / "pack"
(packed / "Data" / "Art" / "Models").mkdir(parents=True, exist_ok=True)
for f in ("walker.alo", "walker_idle_00.ala", "walker_walk_00.ala"):
    (packed / "Data" / "Art" / "Models" / f).write_bytes((SRC_P / "samples" / "alamo" / f).read_bytes())
r = tool("pack", TMP_P / "models.meg", packed)
check("ferry pack models.meg", r.returncode == 0, r.stderr)
entry = "DATA\\ART\\MODELS\\WALKER.ALO"
jobs.append({"name": "meg_entry", "op": "ferry_archive",
             "params": {"filepath": str(TMP_P / "models.meg"), "entry": entry, "view": "ALL"}, "poses": True})
jobs.append({"name": "meg_ala", "op": "ferry_archive",
             "params": {"filepath": str(TMP_P / "models.meg"), "entry": entry.lower().replace("\\", "/"),
                        "animations": False},
             "ala": {"path": str(walk)}, "poses": True})
jobs.append({"name": "built", "build": "model", "export": str(TMP_P / "built" / "rig.alo"),
             "export_params": {"dds_textures": True, "ala_format": "1"}})
(TMP_P / "built").mkdir(exist_ok=True)

(TMP_P / "jobs.json").write_text(json.dumps(jobs))
env = dict(os.environ, BLENDER_USER_SCRIPTS=str(TMP_P / "scripts"), FERRY_LIBRARY=LIB)
zip_path = TMP_P / "ferry-blender-addon.zip"
r = subprocess.run([sys.executable, str(SRC_P / "blender" / "make_addon.py"), LIB, str(zip_path)],
                   capture_output=True, text=True)
check("make_addon.py builds the zip", r.returncode == 0, r.stderr)
# The bundled library is the one loaded: FERRY_LIBRARY is not passed to Blender.
env.pop("FERRY_LIBRARY")
r = subprocess.run(["blender", "-b", "--factory-startup", "--python", str(SRC_P / "tests" / "blender" / "in_blender.py"),
                    "--", str(zip_path), str(TMP_P / "jobs.json"), str(TMP_P / "results.json")],
                   capture_output=True, text=True, env=env, timeout=3000)
(TMP_P / "blender.log").write_text(r.stdout + r.stderr)
if not check("blender ran the jobs", (TMP_P / "results.json").exists(), (r.stdout + r.stderr)[-3000:]):
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1)
results = json.loads((TMP_P / "results.json").read_text())
check("the add-on enables", results["enabled"])
check("the add-on enables without warnings", not results["enable_warnings"], results["enable_warnings"])
check("the add-on enables without printing", not results["enable_output"].strip(), results["enable_output"])
scripts = str(TMP_P / "scripts")
check("the add-on uses its bundled package", str(results["package"]).startswith(scripts), results["package"])
check("the add-on's package loads the bundled libferry.so", str(results["library"]).startswith(scripts),
      results["library"])
check("the File > Import menu has the add-on's entries",
      results["menus"]["TOPBAR_MT_file_import"] == ["ferry_blender.importing"], results["menus"])
check("the File > Export menu has the add-on's entry",
      results["menus"]["TOPBAR_MT_file_export"] == ["ferry_blender.exporting"], results["menus"])
check("every operator of the menus is registered", len(results["operators"]) == 6, results["operators"])
by_name = {j["name"]: j for j in results["jobs"]}


# ---- poses ----

def close_pose(a, b, tol_t, tol_q=1e-4, tol_s=1e-3):
    (ta, qa, sa), (tb, qb, sb) = a, b
    dot = abs(sum(x * y for x, y in zip(qa, qb)))
    return (max(abs(x - y) for x, y in zip(ta, tb)) <= tol_t and dot >= 1 - tol_q
            and max(abs(x - y) for x, y in zip(sa, sb)) <= tol_s)


def compare_poses(what, blender_poses, animation, model, tol_t=1e-5):
    """Blender's evaluated poses of one action against ferry's sample of the
    animation file at every frame (animated bones only)."""
    with ferry.open(animation) as anim, ferry.open(model) as alo:
        info = anim.info()
        check("%s: frames" % what, blender_poses["frames"] == info["frames"],
              (blender_poses["frames"], info["frames"]))
        worst = None
        for i in range(min(info["frames"], blender_poses["frames"])):
            s = anim.sample(frame=i, model=alo, exact=True)
            # Blender keys a bone's pose against its rest matrix in float32,
            # so beside the bone's own tolerance a few float32 steps of the
            # frame's largest coordinate are allowed (1.5e-5 off on a
            # 1.5-unit offset of the Nebulon B, whose bones lie hundreds of
            # units apart: 4 steps of 2^-23 there are about 1e-4)
            largest = max([1.0] + [abs(x) for b in s["bones"] for x in b["translation"]])
            for b in s["bones"]:
                # by the model's bone index: names may repeat in a model
                # (Blender renames the second), indices do not
                got = blender_poses["poses"][i].get(str(b["index"]))
                want = [b["translation"], b["rotation"], b["scale"]]
                scale = max(1, max(abs(x) for x in want[0])) + 4 * 2 ** -23 * largest / tol_t
                if got is None or not close_pose(got, want, tol_t * scale):
                    worst = worst or (i, b["name"], got, want)
        check("%s: every bone at every frame as ferry samples it" % what, worst is None, worst)


def animations_beside(model):
    with ferry.open(model) as m:
        report = m.to_gltf(TMP_P / "probe.glb", no_textures=True, animations="auto", all=True)
    doc = glb_json(TMP_P / "probe.glb")
    names = [a["name"] for a in doc.get("animations", [])]
    files = {}
    for f in model.parent.iterdir():
        if f.suffix.lower() == ".ala" and f.stem.lower() in [n.lower() for n in names]:
            files[f.stem.lower()] = f
    return report, names, files


# ---- imports ----

for name, exp in expected.items():
    job = by_name.get(name)
    if not check("%s: imported" % name, job is not None and job.get("result") == ["FINISHED"],
                 job and job.get("error")):
        continue
    doc = exp["doc"]
    if exp["kind"] == "alo":
        check("%s: triangles as the tool's glTF" % name, job["triangles"] == glb_triangles(doc),
              (job["triangles"], glb_triangles(doc)))
    else:
        # Blender's importer drops degenerate and repeated faces (the P3D
        # corpus has some): the add-on's import against Blender's own import
        # of the tool's file
        plain = by_name.get(name + "_cli", {})
        check("%s: triangles as Blender's import of the tool's glTF" % name,
              job["triangles"] == plain.get("triangles"), (job["triangles"], plain.get("triangles")))
        if job["triangles"] != glb_triangles(doc):
            print("note: %s: %d triangles in the tool's glTF, %d after Blender's importer" % (
                name, glb_triangles(doc), job["triangles"]))
    check("%s: images as the tool's glTF's materials use" % name, job["images"] == glb_material_images(doc),
          (job["images"], glb_material_images(doc)))
    check("%s: actions as the tool's glTF" % name,
          action_names(job["actions"]) == action_names(a["name"] for a in doc.get("animations", [])),
          (job["actions"], [a["name"] for a in doc.get("animations", [])]))
    if exp["kind"] == "alo":
        info = exp["info"]
        check("%s: meshes as ferry info" % name, job["alamo_meshes"] == info["meshes"],
              (job["alamo_meshes"], info["meshes"]))
        check("%s: bones as ferry info" % name, job["bones"] == info["bones"], (job["bones"], info["bones"]))
        check("%s: triangles as ferry info" % name, job["triangles"] == info["triangles"],
              (job["triangles"], info["triangles"]))
        check("%s: a material per sub-mesh as ferry info" % name, job["materials"] == info["submeshes"],
              (job["materials"], info["submeshes"]))
        check("%s: proxies as empties with their names" % name,
              len(job["proxies"]) == info["proxies"] and set(job["proxies"]) == set(info.get("proxy_names", [])),
              (job["proxies"], info["proxies"], info.get("proxy_names")))
        want = {m["name"]: {"shader": m["extras"]["shader"], "params": m["extras"]["params"]}
                for m in doc.get("materials", []) if (m.get("extras") or {}).get("shader")}
        got = job["material_props"]
        same = sorted(want) == sorted(got) and all(
            got[k]["shader"] == want[k]["shader"] and json.dumps(got[k]["params"], sort_keys=True) ==
            json.dumps(want[k]["params"], sort_keys=True) for k in want)
        if not same:  # floats stored as float32 custom properties: compare as numbers
            def approx(a, b):
                if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                    return abs(a - b) <= 1e-6 * max(1, abs(b))
                if isinstance(a, list) and isinstance(b, list):
                    return len(a) == len(b) and all(approx(x, y) for x, y in zip(a, b))
                if isinstance(a, dict) and isinstance(b, dict):
                    return sorted(a) == sorted(b) and all(approx(a[k], b[k]) for k in a)
                return a == b
            same = sorted(want) == sorted(got) and all(approx(got[k], want[k]) for k in want)
        check("%s: the Alamo shader and parameters on the materials" % name, same,
              [(k, got.get(k), want[k]) for k in want if k not in got or got[k] != want[k]][:2])
        hidden = sum(1 for n in doc.get("nodes", []) if (n.get("extras") or {}).get("not_drawn"))
        check("%s: what the game does not draw in the hidden collection" % name,
              (job["hidden_collection"] > 0) == (hidden > 0) and job["hidden_collection"] >= hidden,
              (job["hidden_collection"], hidden))
        # poses against ferry sample, each animation attached
        _, names, files = animations_beside(exp["path"])
        for anim_name in names:
            f = files.get(anim_name.lower())
            if f is None or anim_name not in job.get("poses", {}):
                check("%s: action %s evaluated" % (name, anim_name), False, sorted(job.get("poses", {})))
                continue
            compare_poses("%s: action %s" % (name, anim_name), job["poses"][anim_name], f, exp["path"])
    if exp["kind"] == "p3d" and name.endswith("_all"):
        lods = len(exp["info"]["lods"])
        check("%s: every LOD a node" % name, job["lod_nodes"] == lods, (job["lod_nodes"], lods))
        check("%s: all LODs but the one shown in the hidden collection" % name,
              lods == 1 or job["hidden_collection"] >= lods - 1, (job["hidden_collection"], lods))

# the animation imported onto the armature; the MEG's model
job = by_name.get("ala_onto", {})
if check("ala onto the armature: imported", job.get("ala_result") == ["FINISHED"], job.get("error")):
    check("ala onto the armature: one action, named as the animation", job["ala_actions"] == ["walker_walk_00"],
          job["ala_actions"])
    if "walker_walk_00" in job.get("poses", {}):
        compare_poses("ala onto the armature", job["poses"]["walker_walk_00"], walk, walker)
job = by_name.get("meg_ala", {})
if check("ala onto the armature of a MEG's model (its entry named as a path): imported",
         job.get("ala_result") == ["FINISHED"], job.get("error")):
    if check("ala onto the MEG's model: the action", "walker_walk_00" in job.get("poses", {}), job.get("ala_actions")):
        compare_poses("ala onto the MEG's model", job["poses"]["walker_walk_00"], walk, walker)
job = by_name.get("meg_entry", {})
direct = next((by_name[n] for n in by_name if n.startswith("alo") and n.endswith("_walker")), None)
if check("MEG entry: imported", job.get("result") == ["FINISHED"], job.get("error")) and direct:
    for key in ("triangles", "bones", "bone_names", "proxies", "materials", "alamo_meshes"):
        check("MEG entry: %s as the file's" % key, job[key] == direct[key], (job[key], direct[key]))
    check("MEG entry: actions as the file's (named as the archive stores them)",
          action_names(job["actions"]) == action_names(direct["actions"]), (job["actions"], direct["actions"]))
    check("MEG entry: the armature remembers the archive and entry",
          job["roots"] and job["roots"][0][2] == entry, job["roots"])
    for anim_name in ("walker_idle_00", "walker_walk_00"):
        if check("MEG entry: action %s evaluated" % anim_name, anim_name.upper() in job.get("poses", {}),
                 sorted(job.get("poses", {}))):
            compare_poses("MEG entry: action %s" % anim_name, job["poses"][anim_name.upper()],
                          SRC_P / "samples" / "alamo" / (anim_name + ".ala"), walker)


for name in ("choice_p3d_lod0", "choice_alm_tri"):
    job, plain = by_name.get(name, {}), by_name.get(name + "_cli", {})
    if check("%s: imported" % name, job.get("result") == ["FINISHED"], job.get("error")):
        check("%s: triangles as Blender's import of the tool's glTF" % name,
              job["triangles"] == plain.get("triangles") and job["triangles"] > 0,
              (job["triangles"], plain.get("triangles")))
job, direct = by_name.get("pbo_entry", {}), by_name.get("pbo_direct", {})
if check("PBO entry: imported", job.get("result") == ["FINISHED"], job.get("error")):
    for key in ("triangles", "mesh_objects", "materials", "actions"):
        check("PBO entry: %s as the file's" % key, job[key] == direct.get(key), (job[key], direct.get(key)))
job = by_name.get("pbo_pick", {})
if check("PBO entry picked from the list: imported", job.get("result") == ["FINISHED"], job.get("error")):
    check("PBO entry picked from the list: triangles as the file's", job["triangles"] == direct.get("triangles"),
          (job["triangles"], direct.get("triangles")))
job = by_name.get("archive_no_entry", {})
check("an archive without an entry, headless: refused with a message",
      "result" not in job and "name the entry" in job.get("error", ""), job.get("error", "")[-300:])


# ---- exports ----

def bone_keys(doc):
    """Each bone index of the tool's glTF of a model -> (name, k): its name
    and how many bones of that name come before it (names may repeat in a
    model; the order of bones may differ between a model and its export)."""
    seen, keys = {}, {}
    bones = sorted((n["extras"]["bone_index"], n["name"]) for n in doc.get("nodes", [])
                   if (n.get("extras") or {}).get("alamo") == "bone")
    for index, name in bones:
        keys[index] = (name, seen.get(name, 0))
        seen[name] = seen.get(name, 0) + 1
    return keys


def bone_nodes(doc):
    keys = bone_keys(doc)
    return {keys[n["extras"]["bone_index"]]: n for n in doc.get("nodes", [])
            if (n.get("extras") or {}).get("alamo") == "bone"}


def materials(doc):
    return sorted((m["extras"]["shader"], json.dumps(m["extras"]["params"], sort_keys=True))
                  for m in doc.get("materials", []) if (m.get("extras") or {}).get("shader"))


for name, exp in expected.items():
    if exp["kind"] != "alo":
        continue
    job = by_name.get(name, {})
    if not check("%s: exported" % name, job.get("export_result") == ["FINISHED"], job.get("error")):
        continue
    out = TMP_P / ("export_" + name) / exp["path"].name
    r = tool("validate", "--json", *sorted(out.parent.iterdir()))
    report = json.loads(r.stdout) if r.stdout.strip() else []
    errors = [(e["file"], d["message"]) for e in report for d in e.get("errors", [])]
    check("%s: ferry validate read every exported file" % name,
          len(report) == len(list(out.parent.iterdir())) and all("valid" in e for e in report), r.stdout[-600:])
    check("%s: ferry validate finds no errors in the export" % name, r.returncode == 0 and not errors,
          errors or r.stderr)
    a, b = exp["info"], tool_json("info", "--json", out)[0]
    for key in ("bones", "meshes", "submeshes", "triangles", "lights", "proxies", "dazzles"):
        check("%s: exported %s as the original's" % (name, key), a[key] == b[key], (a[key], b[key]))
    # the game draws meshes in the file's order; Blender's exporter orders
    # nodes its own way (docs/blender.md: limits)
    check("%s: exported shaders as the original's" % name, sorted(a["shaders"]) == sorted(b["shaders"]),
          (a["shaders"], b["shaders"]))
    check("%s: exported bounds as the original's" % name,
          all(abs(x - y) <= 1e-3 * max(1, abs(y)) for x, y in zip(a["bounds_min"] + a["bounds_max"],
                                                                   b["bounds_min"] + b["bounds_max"])),
          (a["bounds_min"], a["bounds_max"], b["bounds_min"], b["bounds_max"]))
    # bones and materials through the tool's glTF of both
    tool("convert", "--all", "--no-textures", out, TMP_P / (name + "_back.glb"))
    tool("convert", "--all", "--no-textures", exp["path"], TMP_P / (name + "_orig.glb"))
    da, db = glb_json(TMP_P / (name + "_orig.glb")), glb_json(TMP_P / (name + "_back.glb"))
    ba, bb = bone_nodes(da), bone_nodes(db)
    check("%s: exported bone names as the original's" % name, sorted(ba) == sorted(bb), (sorted(ba), sorted(bb)))
    worst = None
    for k in set(ba) & set(bb):
        for field, default in (("translation", [0, 0, 0]), ("rotation", [0, 0, 0, 1]), ("scale", [1, 1, 1])):
            x, y = ba[k].get(field, default), bb[k].get(field, default)
            if field == "rotation":
                dot = abs(sum(p * q for p, q in zip(x, y)))
                if dot < 1 - 1e-5:
                    worst = (k, field, x, y)
            elif max(abs(p - q) for p, q in zip(x, y)) > 1e-4 * max(1, max(abs(p) for p in x)):
                worst = (k, field, x, y)
    check("%s: exported bones' rest transforms as the original's" % name, worst is None, worst)
    def drawn(doc):  # each mesh and why the game does not draw it (hidden, collision, lower LOD, ...)
        return sorted((n["name"], tuple(n["extras"].get("not_drawn") or [])) for n in doc.get("nodes", [])
                      if (n.get("extras") or {}).get("alamo") == "mesh")
    check("%s: exported meshes' names and flags (hidden, collision, LOD) as the original's" % name,
          drawn(da) == drawn(db), [m for m in drawn(da) if m not in drawn(db)][:3])
    check("%s: exported shaders and parameters as the original's" % name, materials(da) == materials(db),
          [m for m in materials(da) if m not in materials(db)][:2])
    # each animation back, its poses
    _, names, files = animations_beside(exp["path"])
    for anim_name in names:
        original = files.get(anim_name.lower())
        back = [f for f in out.parent.iterdir() if f.suffix.lower() == ".ala" and f.stem.lower() == anim_name.lower()]
        if not check("%s: animation %s exported" % (name, anim_name), original is not None and len(back) == 1,
                     sorted(f.name for f in out.parent.iterdir())):
            continue
        with ferry.open(original) as o, ferry.open(back[0]) as e, ferry.open(exp["path"]) as m, ferry.open(out) as m2:
            io_, ie = o.info(), e.info()
            check("%s: %s frames and fps" % (name, anim_name), (io_["frames"], io_["fps"]) == (ie["frames"], ie["fps"]),
                  ((io_["frames"], io_["fps"]), (ie["frames"], ie["fps"])))
            worst = None
            rest_b = bone_nodes(db)
            ka, kb = bone_keys(da), bone_keys(db)
            for i in range(min(io_["frames"], ie["frames"])):
                so = {ka.get(b["index"]): b for b in o.sample(frame=i, model=m, exact=True)["bones"]}
                se = {kb.get(b["index"]): b for b in e.sample(frame=i, model=m2, exact=True)["bones"]}
                for bn, bo in so.items():
                    be = se.get(bn)
                    if be is None and bn in rest_b:
                        # No track for the bone in the export: ferry's glTF of
                        # the original carries none for a track that never
                        # leaves the rest pose, so the bone stays at its rest
                        # transform, which must then be the original's pose.
                        node = rest_b[bn]
                        be = {"translation": node.get("translation", [0, 0, 0]),
                              "rotation": node.get("rotation", [0, 0, 0, 1]), "scale": node.get("scale", [1, 1, 1])}
                    if be is None or not close_pose([be["translation"], be["rotation"], be["scale"]],
                                                     [bo["translation"], bo["rotation"], bo["scale"]],
                                                     1e-3 * max(1, max(abs(x) for x in bo["translation"])), 1e-5,
                                                     1e-3):
                        worst = worst or (i, bn, be and [be["translation"], be["rotation"]],
                                          [bo["translation"], bo["rotation"]])
            check("%s: %s poses equal the original's at every frame" % (name, anim_name), worst is None, worst)

job = by_name.get("built", {})
if check("a model made from nothing exports", job.get("export_result") == ["FINISHED"], job.get("error")):
    built = sorted((TMP_P / "built").iterdir())
    check("a model made from nothing: the ALO, its ALA and its texture as DDS",
          [f.name for f in built] == ["Rig_wave.ala", "rig.alo", "rig_skin.dds"], [f.name for f in built])
    r = tool("validate", *[f for f in built if f.suffix in (".alo", ".ala")])
    check("a model made from nothing: ferry validate finds no errors", r.returncode == 0, r.stdout + r.stderr)
    ala = [f for f in built if f.suffix == ".ala"]
    if ala:
        with ferry.open(ala[0]) as anim:
            info = anim.info()
            q0 = [b for b in anim.sample(frame=0)["bones"] if b["name"] == "Arm"]
            q1 = [b for b in anim.sample(frame=10)["bones"] if b["name"] == "Arm"]
        check("a model made from nothing: 21 frames at 30 fps", (info["frames"], info["fps"]) == (21, 30.0),
              (info["frames"], info["fps"]))
        check("a model made from nothing: ALA format 1 as asked", info["ala_format"] == 1, info["ala_format"])
        if check("a model made from nothing: the arm bone is animated", q0 and q1):
            # keyed at 0 and 0.8 radians about the bone's x axis
            dot = abs(sum(a * b for a, b in zip(q0[0]["rotation"], q1[0]["rotation"])))
            check("a model made from nothing: the arm turns 0.8 radians", abs(2 * math.acos(min(1, dot)) - 0.8) < 1e-3,
                  2 * math.acos(min(1, dot)))
    r = tool("validate", "--json", TMP_P / "built" / "rig.alo")
    report = json.loads(r.stdout)[0] if r.stdout.strip() else {}
    rules = [d.get("rule") for d in report.get("errors", []) + report.get("warnings", [])]
    check("a model made from nothing: validated", report.get("valid") is True, r.stdout[-600:])
    check("a model made from nothing: its texture found beside it (DDS)", "texture-missing" not in rules,
          r.stdout[-600:])
    info = tool_json("info", "--json", TMP_P / "built" / "rig.alo")[0]
    check("a model made from nothing: mapped to a skinned shader with its texture",
          info["textures"] == ["rig_skin.dds"] and all(s.startswith("RSkin") for s in info["shaders"]),
          (info["shaders"], info["textures"]))


# ---- renders ----

def png_pixels(path):
    """RGB rows of an 8-bit RGB or RGBA PNG (Blender's), decoded apart from Blender."""
    width, _, channels, rows = decode_png(Path(path).read_bytes())
    return [[tuple(row[x:x + 3]) for x in range(0, width * channels, channels)] for row in rows]


for name in sorted(n for n in by_name if n.endswith("_game")):
    base = name[:-len("_game")]
    a, b = by_name[name], by_name.get(base + "_gltf", {})
    if not check("%s: both rendered" % base, a.get("rendered") and b.get("rendered"), (a.get("error"), b.get("error"))):
        continue
    pa, pb = png_pixels(a["rendered"]), png_pixels(b["rendered"])
    diff = sum(abs(x - y) for ra, rb in zip(pa, pb) for p, q in zip(ra, rb) for x, y in zip(p, q))
    mean = diff / (len(pa) * len(pa[0]) * 3)
    background = pa[0][0]
    drawn = sum(1 for row in pa for p in row if max(abs(x - y) for x, y in zip(p, background)) > 8)
    print("render %s: mean difference %.3f per channel, %d pixels drawn" % (base, mean, drawn))
    check("%s: the add-on's render shows the model" % base, drawn > 500, drawn)
    check("%s: the add-on's render is the tool's glTF's render" % base, mean < 1.0, mean)

for name in sorted(n for n in by_name if n.endswith("_native")):
    base = name[:-len("_native")]
    a, b = by_name[name], by_name.get(base + "_embedded", {})
    if not check("%s: native and embedded textures rendered" % base, a.get("rendered") and b.get("rendered"),
                 (a.get("error"), b.get("error"))):
        continue
    pa, pb = png_pixels(a["rendered"]), png_pixels(b["rendered"])
    mean = sum(abs(x - y) for ra, rb in zip(pa, pb) for p, q in zip(ra, rb) for x, y in zip(p, q)) / (
        len(pa) * len(pa[0]) * 3)
    print("render %s (Cycles): native textures (the normal map linked, the colour as DXT1) against PNGs, "
          "mean difference %.3f per channel" % (base, mean))
    check("%s: the native textures render as the embedded PNGs" % base, mean < 0.1, mean)


def dds_stems(textures_dir):
    """Lower-case stems of the DDS files in a Textures folder."""
    if not os.path.isdir(textures_dir):
        return set()
    return {os.path.splitext(f)[0].lower() for f in os.listdir(textures_dir) if f.lower().endswith(".dds")}


def linked_expected(doc, textures_dir):
    """The texture files a default import links: the tool's images that are
    a texture file's pixels unchanged (named by its stem alone: no
    " (colour)", " (faction mask)" or " (additive)"), which the materials
    use, found in the Textures folder (ignoring case, as the game does)."""
    files = {os.path.splitext(f)[0].lower(): os.path.join(textures_dir, f) for f in os.listdir(textures_dir)
             if f.lower().endswith((".dds", ".tga"))}
    used = set()
    for m in doc.get("materials", []):
        refs = [m.get("normalTexture"), m.get("emissiveTexture"),
                (m.get("pbrMetallicRoughness") or {}).get("baseColorTexture")]
        used.update(doc["textures"][r["index"]]["source"] for r in refs if r is not None)
    names = [doc["images"][i].get("name", "") for i in sorted(used)]
    return sorted(files[n.lower()] for n in names if " (" not in n and n.lower() in files)


# ---- linked texture files, and the packed images' compression ----
# By default a texture found as a file on the disk whose image is the file's
# pixels unchanged is linked: the image is the game's DDS or TGA file
# itself, unpacked (the renders above show Blender draws the same pixels);
# the others are packed. Without linking, stored PNGs are packed (the
# fastest embedded import), compressed ones with Compact images.
for name in sorted(n for n in by_name if n.endswith("_compact")):
    base = name[:-len("_compact")]
    game, plain, compact = by_name.get(base + "_game", {}), by_name.get(base + "_stored", {}), by_name[name]
    textures_dir = os.path.realpath(str(expected[base]["path"].parent.parent / "Textures"))
    game_doc = glb_json(TMP_P / (base + "_game.glb"))
    want = linked_expected(game_doc, textures_dir) if os.path.isdir(textures_dir) else []
    linked = game.get("linked") or []
    print("linked images %s: %s (expected %s)" % (base, linked, want))
    check("%s: the default import links the texture files used unchanged" % base, linked == want, (linked, want))
    # a colorize colour from a DXT texture: packed as the DXT1 of its colour
    # blocks (the renders above show the same pixels as the tool's PNG)
    want_dds = ["DXT1"] * sum(1 for i in game_doc.get("images", []) if i.get("name", "").endswith(" (colour)")
                              and i["name"][:-len(" (colour)")].lower() in dds_stems(textures_dir))
    dds = game.get("packed_dds") or []
    print("packed DDS images %s: %s (expected %s)" % (base, dds, want_dds))
    check("%s: a colorize colour packed as DXT1" % base, dds == want_dds, (dds, want_dds))
    check("%s: linked or packed, as many images as without native textures" % base,
          game.get("images") == plain.get("images") == len(linked) + len(dds) + len(game.get("png_blocks") or []),
          (game.get("images"), plain.get("images"), linked, dds, game.get("png_blocks")))
    blocks, compact_blocks = plain.get("png_blocks"), compact.get("png_blocks")
    print("packed PNGs %s: first deflate block types %s, with Compact images %s" % (base, blocks, compact_blocks))
    check("%s: the import packs stored (uncompressed) PNGs" % base,
          blocks is not None and all(t == 0 for t in blocks) and not plain.get("packed_dds"), blocks)
    check("%s: with Compact images, as many PNGs, compressed" % base,
          compact_blocks is not None and len(compact_blocks) == len(blocks or [])
          and all(t in (1, 2) for t in compact_blocks), compact_blocks)

# ---- times ----
for name in sorted(by_name):
    if name.endswith("_gltf") and (name[:-5] + "_game") in by_name:
        t_addon, t_gltf = by_name[name[:-5] + "_game"].get("seconds"), by_name[name].get("seconds")
        if t_addon and t_gltf:
            print("import %s: add-on %.3f s, Blender's glTF importer on ferry's .glb %.3f s (%.2fx)" % (
                name[:-5], t_addon, t_gltf, t_addon / t_gltf))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
