"""Running it: the server, workers, embedded Redis, logs and the command line."""
