"""The HTTP/JSON face: the Connect protocol over Starlette and uvicorn (the app, the
face built from the RPC tables, the encoded VerifyHistory route, the HTTP limits)."""
