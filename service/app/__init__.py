"""The use cases: the one table writer (the unit of work), the referee's moves and reads, the
lobby, the clock firer, watching, limits.
"""
