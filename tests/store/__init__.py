"""Storage tests against a real redis-server: the store, its scripts and the launcher."""
