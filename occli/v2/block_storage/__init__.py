"""Cinder (block-storage v3): volumes, snapshots and quotas;
:mod:`occli.v2.block_storage.base` holds their base manager."""
