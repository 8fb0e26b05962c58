"""Where tables live: the game store and its Lua compare-and-set, the repository that decodes a
stored game into a Table, group commits, the deadline index, the feed that follows games'
streams, presence, the lobby listing and join codes.
"""
