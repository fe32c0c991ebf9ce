"""Upstream versions of package modules, copied into exported task folders instead of the originals (``source_modules.UPSTREAM_VERSIONS``)."""
