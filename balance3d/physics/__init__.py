"""Physics: the World wrapper around one pybullet client, its settings and caches."""
from balance3d.physics.caches import caches_enabled, clear_caches
from balance3d.physics.heap import bound_heap
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.world import (Contact, InvalidStateError, OverlapError, SettleReport,
                                     Snapshot, World, WorldError)

__all__ = ["Contact", "InvalidStateError", "OverlapError", "PhysicsSettings", "SettleReport",
           "Snapshot", "World", "WorldError", "caches_enabled", "clear_caches"]

# Worlds are made and dropped by the hundred: have the C heap give back what they
# free (see balance3d.physics.heap)
bound_heap()
