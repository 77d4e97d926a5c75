"""Physics: the World wrapper around one pybullet client, its settings and caches."""
from balance3d.physics.caches import caches_enabled, clear_caches
from balance3d.physics.heap import release_freed_memory
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.world import (Contact, InvalidStateError, OverlapError, SettleReport,
                                     Snapshot, World, WorldError)

__all__ = ["Contact", "InvalidStateError", "OverlapError", "PhysicsSettings", "SettleReport",
           "Snapshot", "World", "WorldError", "caches_enabled", "clear_caches",
           "release_freed_memory"]
