"""``balance3d models``: the parts' meshes and a digest of their physics inputs.

``models export`` writes each part of each bundled scene (or of the scenes named
with ``--scene``) in its design frame (the frame its dimensions are given in,
metres) as ``OUT/<scene>/<part>.<format>``, one line per file.  The meshes are the
watertight meshes the World's mass properties come from.

``models digest`` prints, for each bundled scene (or each ``--scene``) and each of
its parts, the SHA-256 of every input the physics engine gets: the body-frame mesh
vertices and faces, the engine's collision-shape arguments with the text of every
hull file they name, the mass, the centre of mass and axes (``design_from_body``)
and the principal moments of inertia; then the SHA-256 of each body's start pose.
``--write FILE`` also writes them as canonical JSON (sorted keys), the form of
``tests/golden/physics_inputs.json``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from balance3d.commands import plain

#: Formats ``models export`` writes (trimesh file types).
FORMATS = ("obj", "glb", "stl")
#: Folder written to when ``--out`` is not given (relative to the working folder).
DEFAULT_OUT = "models-export"
#: Version of the digest file's layout.
DIGEST_FORMAT = 1


def add_parser(subparsers) -> None:
    """Register ``models export`` and ``models digest``."""
    paragraphs = __doc__.split("\n\n")
    parser = subparsers.add_parser("models", help="export the parts' meshes, digest their "
                                   "physics inputs", description=plain(paragraphs[0]))
    sub = parser.add_subparsers(dest="models_command", metavar="ACTION")
    sub.required = True
    export = sub.add_parser("export", help="write every part's mesh (design frame, metres)",
                            description=plain(paragraphs[1]))
    export.add_argument("--format", choices=FORMATS, default="obj",
                        help="mesh file format (default: obj)")
    export.add_argument("--out", type=Path, default=Path(DEFAULT_OUT),
                        help=f"output folder (default: ./{DEFAULT_OUT})")
    export.add_argument("--scene", action="append", metavar="NAME|PATH",
                        help="export this scene's parts only (repeatable; default: every "
                             "bundled scene)")
    export.set_defaults(run=run)
    digest = sub.add_parser("digest", help="SHA-256 of every part's physics inputs and "
                            "every body's start pose", description=plain(paragraphs[2]))
    digest.add_argument("--scene", action="append", metavar="NAME|PATH",
                        help="digest this scene only (repeatable; default: every bundled "
                             "scene)")
    digest.add_argument("--write", type=Path, metavar="FILE",
                        help="also write the digests to FILE as canonical JSON")
    digest.set_defaults(run=run_digest)


def export_scene_parts(scene, out: Path, file_format: str) -> list[Path]:
    """Write every part of ``scene`` as ``out/<scene name>/<part>.<file_format>``;
    returns the paths written, in the scene's part order."""
    folder = out / scene.name
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, part in scene.parts.items():
        path = folder / f"{name}.{file_format}"
        part.design_mesh().export(path, file_type=file_format)
        written.append(path)
    return written


def run(args: argparse.Namespace) -> int:
    """Run ``models export``; returns the exit status."""
    from balance3d.commands import CommandError
    from balance3d.scene import list_scenes, load_scene

    scenes = [load_scene(name) for name in (args.scene or list_scenes())]
    total = 0
    for scene in scenes:
        try:
            written = export_scene_parts(scene, args.out, args.format)
        except OSError as exc:
            raise CommandError(f"cannot write to {exc.filename or args.out}: "
                               f"{exc.strerror or exc}") from None
        for path, part in zip(written, scene.parts.values()):
            mesh = part.mesh
            print(f"wrote {path}  ({len(mesh.faces)} faces, volume {mesh.volume:.4g} m^3, "
                  f"mass {part.mass:.4g} kg)")
        total += len(written)
    print(f"{total} meshes in {args.out}")
    return 0


def _sha(values, dtype: str) -> str:
    """SHA-256 (hex) of ``values`` as little-endian ``dtype`` bytes in C order."""
    return hashlib.sha256(np.ascontiguousarray(values, dtype=dtype).tobytes()).hexdigest()


def shape_inputs(part, settings) -> dict:
    """The engine's collision-shape arguments of ``part`` under ``settings``
    (:func:`balance3d.physics.engine_shapes.collision_shape_args`), with each hull
    file name replaced by the file's text: what pybullet reads."""
    from balance3d.physics.engine_shapes import collision_shape_args

    args = collision_shape_args(part, settings)
    args["fileNames"] = [Path(name).read_text(encoding="ascii") if name else ""
                         for name in args["fileNames"]]
    return args


def part_digest(part, settings) -> dict[str, str]:
    """SHA-256 (hex) of each physics input of ``part``: ``vertices``, ``faces``,
    ``shapes`` (:func:`shape_inputs` as canonical JSON), ``mass``,
    ``design_from_body`` (centre of mass and principal axes) and ``inertia``."""
    shapes = json.dumps(shape_inputs(part, settings), sort_keys=True, separators=(",", ":"))
    return {
        "vertices": _sha(part.mesh.vertices, "<f8"),
        "faces": _sha(part.mesh.faces, "<i8"),
        "shapes": hashlib.sha256(shapes.encode()).hexdigest(),
        "mass": _sha([part.mass], "<f8"),
        "design_from_body": _sha(part.design_from_body, "<f8"),
        "inertia": _sha(part.inertia, "<f8"),
    }


def scene_digest(scene) -> dict:
    """``{"parts": {part: part_digest}, "bodies": {body: SHA-256 of its start pose}}``
    for ``scene``; a pose is the body frame's position (3,) and quaternion (4,) as
    :meth:`balance3d.scene.Scene.build_world` places it."""
    from balance3d.scene import body_pose, rpy_to_quat

    bodies = {}
    for body in scene.bodies:
        pos, quat = body_pose(scene.parts[body.part], body.position, rpy_to_quat(body.rpy))
        bodies[body.name] = _sha([*pos, *quat], "<f8")
    return {"parts": {name: part_digest(part, scene.physics)
                      for name, part in scene.parts.items()},
            "bodies": bodies}


def physics_digest(names) -> dict:
    """The digest file's content for the scenes ``names`` (bundled names or paths)."""
    from balance3d.scene import load_scene

    scenes = {}
    for name in names:
        scene = load_scene(name)
        scenes[scene.name] = scene_digest(scene)
    return {"format": DIGEST_FORMAT, "scenes": scenes}


def digest_json(digest: dict) -> str:
    """``digest`` as canonical JSON text (sorted keys, two-space indent, final
    newline)."""
    return json.dumps(digest, sort_keys=True, indent=2) + "\n"


def run_digest(args: argparse.Namespace) -> int:
    """Run ``models digest``; returns the exit status."""
    from balance3d.commands import CommandError
    from balance3d.scene import list_scenes

    digest = physics_digest(args.scene or list_scenes())
    for scene, entry in digest["scenes"].items():
        for part, inputs in entry["parts"].items():
            for key, value in inputs.items():
                print(f"{scene} part {part} {key} {value}")
        for body, value in entry["bodies"].items():
            print(f"{scene} body {body} pose {value}")
    if args.write:
        try:
            args.write.write_text(digest_json(digest), encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.write}: {exc.strerror or exc}") from None
        print(f"wrote {args.write}")
    return 0
