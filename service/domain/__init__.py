"""The hosting domain, pure: records, a table's hosting record and its transitions, clocks, the
audit chain, seat tokens, move limits and quotas. No I/O.
"""
