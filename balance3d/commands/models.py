"""``balance3d models export``: write every part's mesh to files.

Each part of each bundled scene (or of the scenes named with ``--scene``) is written
in its design frame (the frame its dimensions are given in, metres) as
``OUT/<scene>/<part>.<format>``, one line per file.  The meshes are the watertight
trimesh meshes the World's mass properties come from.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from balance3d.commands import plain

#: Formats ``models export`` writes (trimesh file types).
FORMATS = ("obj", "glb", "stl")
#: Folder written to when ``--out`` is not given (relative to the working folder).
DEFAULT_OUT = "models-export"


def add_parser(subparsers) -> None:
    """Register ``models export``."""
    description = plain(__doc__.split("\n\n")[1])
    parser = subparsers.add_parser("models", help="export the parts' meshes",
                                   description=description)
    sub = parser.add_subparsers(dest="models_command", metavar="ACTION")
    sub.required = True
    export = sub.add_parser("export", help="write every part's mesh (design frame, metres)",
                            description=description)
    export.add_argument("--format", choices=FORMATS, default="obj",
                        help="mesh file format (default: obj)")
    export.add_argument("--out", type=Path, default=Path(DEFAULT_OUT),
                        help=f"output folder (default: ./{DEFAULT_OUT})")
    export.add_argument("--scene", action="append", metavar="NAME|PATH",
                        help="export this scene's parts only (repeatable; default: every "
                             "bundled scene)")
    export.set_defaults(run=run)


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
