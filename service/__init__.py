"""The referee service: gRPC edge, application use cases, Redis storage."""
