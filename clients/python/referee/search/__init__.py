"""Search bots: information-set Monte Carlo tree search over a seat's view.

They are ordinary bots (:class:`referee.bots.base.Bot`): a seat's view and legal moves in,
one legal move out. Unlike :mod:`referee.bots` they need the rules, as a forward model, so
this package imports ``engines`` (and :mod:`referee.codecs`); the client a frontend uses
(:mod:`referee.client`, :mod:`referee.v1`) and the simple bots never do.
"""
