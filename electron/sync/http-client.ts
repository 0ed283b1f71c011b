import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import {
  type Device,
  DeviceSchema,
  DevicesResponseSchema,
  SYNC_AUTH_ROUTES,
} from '../../shared/sync-auth.js';
import {
  CommitResponseSchema,
  IdentityResponseSchema,
  KeyringResponseSchema,
  KeyringUpdateResponseSchema,
  SnapshotResponseSchema,
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  SYNC_ROUTES,
  SyncErrorBodySchema,
  type CommitRequest,
  type CommitResponse,
  type IdentityResponse,
  type KeyringResponse,
  type KeyringUpdateRequest,
  type KeyringUpdateResponse,
  SNAPSHOT_MAX_HAVE,
  type SnapshotRequest,
  type SnapshotResponse,
  type SyncLimits,
} from '../../shared/sync-protocol.js';

/**
 * The HTTP client of the sync protocol (shared/sync-protocol.ts). Validates every response with
 * the protocol's zod schemas, honours an AbortSignal (sync switched off), counts requests and bytes
 * (bench/sync), and turns every failure into a SyncRequestError a person can read. Responses are
 * taken gzipped; request bodies of 1 KiB or more are gzipped once the server has announced
 * (`accept-encoding: gzip` on a response) that it reads them, so an older server never gets one.
 */
const gzip = promisify(gzipCallback);
const GZIP_MIN_BYTES = 1024;

/** What went wrong, as the engine distinguishes it. Server codes pass through as they are. */
export type SyncFailure =
  | 'offline' // no connection to the server
  | 'aborted' // sync was switched off while the request was in flight
  | 'bad_response' // the server answered with something that is not the protocol
  | 'lost_response' // the connection broke after the request was sent: it may have been applied
  | string;

export class SyncRequestError extends AppError {
  constructor(
    readonly failure: SyncFailure,
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
    readonly limits: SyncLimits | null = null,
    details?: unknown,
  ) {
    super('sync_error', message, details);
    this.name = 'SyncRequestError';
  }

  /** Worth retrying after the 60 s pause (the server or the network may recover on their own). */
  get transient(): boolean {
    return (
      ['offline', 'lost_response', 'bad_response', 'internal', 'busy', 'storage_unavailable'].includes(
        this.failure,
      ) ||
      (this.status !== null && this.status >= 500)
    );
  }
}

export interface TransferStats {
  requests: number;
  bytesSent: number;
  bytesReceived: number;
}

export interface SyncHttpClientOptions {
  origin: string;
  token: string;
  protocolVersion?: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * A snapshot as the round asks for it: `held` names the versions this device holds, per note, so
 * the server can leave their contents out. The plain client sends their hashes as `have`; the
 * end-to-end encrypted one keys each hash by its note (crypto/account-keys.ts keyedHash).
 */
export interface SnapshotCall extends SnapshotRequest {
  held?: ReadonlyArray<{ id: string; hash: string }>;
}

export class SyncHttpClient {
  readonly origin: string;
  private readonly token: string;
  protocolVersion: number;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  /** The server said it reads gzip request bodies. */
  private serverTakesGzip = false;
  readonly stats: TransferStats = { requests: 0, bytesSent: 0, bytesReceived: 0 };

  constructor(opts: SyncHttpClientOptions) {
    this.origin = opts.origin.replace(/\/+$/, '');
    this.token = opts.token;
    this.protocolVersion = opts.protocolVersion ?? SYNC_PROTOCOL_VERSION;
    this.fetchImpl = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 60_000;
  }

  identity(signal?: AbortSignal): Promise<IdentityResponse> {
    return this.request('GET', SYNC_ROUTES.identity, undefined, IdentityResponseSchema, signal);
  }

  snapshot(req: SnapshotCall, signal?: AbortSignal): Promise<SnapshotResponse> {
    const { held, ...rest } = req;
    const have = [...new Set([...(rest.have ?? []), ...(held ?? []).map((h) => h.hash)])];
    const body: SnapshotRequest = { ...rest, have: have.slice(0, SNAPSHOT_MAX_HAVE) };
    return this.request('POST', SYNC_ROUTES.snapshot, body, SnapshotResponseSchema, signal);
  }

  commit(req: CommitRequest, signal?: AbortSignal): Promise<CommitResponse> {
    return this.request('POST', SYNC_ROUTES.commit, req, CommitResponseSchema, signal);
  }

  /** This account's signed-in devices (built-in sign-in only). */
  devices(signal?: AbortSignal): Promise<z.output<typeof DevicesResponseSchema>> {
    return this.request('GET', SYNC_AUTH_ROUTES.devices, undefined, DevicesResponseSchema, signal);
  }

  revokeDevice(id: string, signal?: AbortSignal): Promise<{ device: Device }> {
    return this.request(
      'POST',
      SYNC_AUTH_ROUTES.revokeDevice,
      { id },
      z.object({ device: DeviceSchema }),
      signal,
    );
  }

  /** Protocol 3: the account's end-to-end encryption keyring (null: not encrypted). */
  keyring(signal?: AbortSignal): Promise<KeyringResponse> {
    return this.request('GET', SYNC_ROUTES.keyring, undefined, KeyringResponseSchema, signal);
  }

  updateKeyring(req: KeyringUpdateRequest, signal?: AbortSignal): Promise<KeyringUpdateResponse> {
    return this.request('POST', SYNC_ROUTES.keyringUpdate, req, KeyringUpdateResponseSchema, signal);
  }

  private async request<S extends z.ZodType>(
    method: 'GET' | 'POST',
    route: string,
    body: unknown,
    schema: S,
    signal?: AbortSignal,
  ): Promise<z.output<S>> {
    signal?.throwIfAborted();
    const url = this.origin + route;
    const requestText = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      [SYNC_PROTOCOL_HEADER]: String(this.protocolVersion),
      accept: 'application/json',
      'accept-encoding': 'gzip',
    };
    let payload: string | Uint8Array<ArrayBuffer> | undefined = requestText;
    if (requestText !== undefined) {
      headers['content-type'] = 'application/json';
      if (this.serverTakesGzip && requestText.length >= GZIP_MIN_BYTES) {
        payload = new Uint8Array(await gzip(requestText));
        headers['content-encoding'] = 'gzip';
      }
    }
    this.stats.requests++;
    this.stats.bytesSent +=
      byteLength(`${method} ${route} HTTP/1.1\r\nhost: ${new URL(url).host}\r\n`) +
      headerBytes(headers) +
      (payload ? payloadBytes(payload) + byteLength(`content-length: ${payloadBytes(payload)}\r\n`) : 0);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await this.fetchImpl(url, { method, headers, body: payload, signal: combined });
    } catch (err) {
      if (signal?.aborted)
        throw new SyncRequestError('aborted', 'cloud sync was switched off; the request was cancelled', null);
      throw new SyncRequestError(
        'offline',
        `cannot reach the sync server at ${this.origin} (${describe(err)}); notes keep working on this computer`,
        null,
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      if (signal?.aborted)
        throw new SyncRequestError('aborted', 'cloud sync was switched off; the request was cancelled', null);
      throw new SyncRequestError(
        'lost_response',
        `the connection to ${this.origin} broke while reading the answer (${describe(err)})`,
        response.status,
      );
    }
    let respHeaderBytes = byteLength(`HTTP/1.1 ${response.status} ${response.statusText}\r\n`);
    response.headers.forEach((value, key) => (respHeaderBytes += byteLength(`${key}: ${value}\r\n`)));
    // fetch inflates a gzip answer; what crossed the wire is its content-length.
    const wireLength = response.headers.get('content-encoding')
      ? Number(response.headers.get('content-length') ?? NaN)
      : NaN;
    this.stats.bytesReceived +=
      respHeaderBytes + (Number.isFinite(wireLength) ? wireLength : byteLength(text));
    if (/\bgzip\b/i.test(response.headers.get('accept-encoding') ?? '')) this.serverTakesGzip = true;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined; // not JSON (a proxy's error page): checked against the protocol below
    }
    if (!response.ok) {
      const parsed = SyncErrorBodySchema.safeParse(json);
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      if (parsed.success) {
        const { code, message, details } = parsed.data.error;
        throw new SyncRequestError(
          code,
          message,
          response.status,
          retryAfterMs,
          parsed.data.limits ?? null,
          details,
        );
      }
      if (response.status === 429)
        throw new SyncRequestError(
          'rate_limited',
          'the sync server says sync ran too often; it will retry',
          429,
          retryAfterMs,
        );
      throw new SyncRequestError(
        response.status >= 500 ? 'internal' : 'bad_response',
        `the sync server answered ${response.status} ${response.statusText}`,
        response.status,
        retryAfterMs,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new SyncRequestError(
        'bad_response',
        `the sync server at ${this.origin} answered something that is not the sync protocol (${parsed.error.issues[0]?.message ?? 'unknown'}); is the URL right?`,
        response.status,
      );
    }
    return parsed.data;
  }
}

function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function payloadBytes(payload: string | Uint8Array): number {
  return typeof payload === 'string' ? byteLength(payload) : payload.length;
}

function headerBytes(headers: Record<string, string>): number {
  let n = 0;
  for (const [k, v] of Object.entries(headers)) n += byteLength(`${k}: ${v}\r\n`);
  return n + 2;
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
