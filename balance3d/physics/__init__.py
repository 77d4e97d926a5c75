"""Physics: the World wrapper around one pybullet client, and its settings."""
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.world import (Contact, InvalidStateError, OverlapError, SettleReport,
                                     Snapshot, World, WorldError)

__all__ = ["Contact", "InvalidStateError", "OverlapError", "PhysicsSettings", "SettleReport",
           "Snapshot", "World", "WorldError"]
