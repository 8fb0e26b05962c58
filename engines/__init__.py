"""Pure game engines: rules as data and functions, no I/O, no clock, no global randomness."""
