"""Protocol in and out: the RPC tables, both faces (gRPC and HTTP/JSON), every call's limits, log
line and metrics, translation to and from protobuf and the games' codecs.
"""
