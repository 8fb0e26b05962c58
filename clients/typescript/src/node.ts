/**
 * Node transports to a referee: gRPC (HTTP/2, binary) to its gRPC port, or the Connect
 * protocol with JSON over HTTP/1.1 to its HTTP port. Everything of the main entry is
 * re-exported, so one import is enough.
 */
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";

export * from "./index.js";

/** Options of the Node transports. */
export interface NodeTransportOptions {
  /** Interceptors run on every call, e.g. `bearerAuth(token)` to act as one seat. */
  interceptors?: Interceptor[];
  /** A deadline for every call that sets none itself. */
  defaultTimeoutMs?: number;
}

/**
 * gRPC to the referee's gRPC port, e.g. `http://127.0.0.1:50051` (HTTP/2 cleartext) or
 * `https://referee.example:443` (TLS).
 */
export function createRefereeGrpcTransport(
  baseUrl: string,
  options: NodeTransportOptions = {},
): Transport {
  return createGrpcTransport({ baseUrl, ...options });
}

/**
 * The Connect protocol with JSON bodies over HTTP/1.1, to the referee's HTTP port, e.g.
 * `http://127.0.0.1:8080`: the same wire format a browser uses.
 */
export function createRefereeJsonTransport(
  baseUrl: string,
  options: NodeTransportOptions = {},
): Transport {
  return createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: false, ...options });
}
