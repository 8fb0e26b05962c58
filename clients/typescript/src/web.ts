/**
 * The browser transport: the Connect protocol over fetch to the referee's HTTP port, with
 * JSON bodies by default (readable in the network tab). It works wherever fetch does
 * (browsers, Deno, Bun, Node 18+). Everything of the main entry is re-exported.
 */
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";

export * from "./index.js";

/** Options of the browser transport. */
export interface WebTransportOptions {
  /** Protobuf binary bodies instead of JSON (smaller; JSON is the default). */
  binary?: boolean;
  /** Interceptors run on every call, e.g. `bearerAuth(token)` to act as one seat. */
  interceptors?: Interceptor[];
  /** A deadline for every call that sets none itself. */
  defaultTimeoutMs?: number;
  /** The fetch to use; the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** The Connect protocol over fetch, e.g. to `https://referee.example` or `/api`. */
export function createRefereeWebTransport(
  baseUrl: string,
  { binary = false, ...options }: WebTransportOptions = {},
): Transport {
  return createConnectTransport({ baseUrl, useBinaryFormat: binary, ...options });
}
