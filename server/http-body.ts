import type http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { z } from 'zod';
import { SyncError } from './sync-error.js';

/**
 * Request bodies in, JSON out. Bodies are capped before anything is parsed: the declared length
 * is refused outright when over the cap, the bytes read are counted against it, and a gzip body
 * (`content-encoding: gzip`) is inflated with the same cap on its output, so neither a large nor a
 * small-but-inflating body can make the server hold more than the cap. All bodies being read at once
 * share one budget (`BodyBudget`): past it a request is refused `busy` instead of buffered.
 * Responses over 1 KiB are gzipped when the client accepts it.
 */
export const GZIP_MIN_BYTES = 1024;

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Bytes of request bodies held in memory at once, across requests. */
export class BodyBudget {
  private used = 0;
  constructor(readonly limit: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

/** Reads and validates a JSON body of at most `maxBytes` (after inflating). */
export async function readJson<S extends z.ZodType>(
  req: http.IncomingMessage,
  maxBytes: number,
  schema: S,
  budget: BodyBudget,
): Promise<z.output<S>> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    req.resume();
    throw new SyncError(
      'invalid_request',
      `This server reads request bodies as gzip or plain, not ${encoding}.`,
    );
  }
  const tooLarge = (what: string): SyncError =>
    new SyncError(
      'request_too_large',
      `The request is ${what}; this server accepts at most ${Math.floor(maxBytes)} bytes here.`,
      { maxBytes: Math.floor(maxBytes) },
    );
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw tooLarge(`${declared} bytes`);
  }
  const chunks: Buffer[] = [];
  let held = 0;
  try {
    for await (const chunk of req) {
      const bytes = (chunk as Buffer).length;
      if (held + bytes > maxBytes) {
        req.resume();
        throw tooLarge(`over ${Math.floor(maxBytes)} bytes`);
      }
      if (!budget.take(bytes)) {
        req.resume();
        throw new SyncError(
          'busy',
          'The sync server is reading many large requests at once; try again shortly.',
          undefined,
          { 'retry-after': '1' },
        );
      }
      held += bytes;
      chunks.push(chunk as Buffer);
    }
    let body = Buffer.concat(chunks);
    if (encoding === 'gzip') {
      try {
        body = await gunzip(body, { maxOutputLength: Math.floor(maxBytes) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          throw tooLarge('over the limit once inflated');
        throw new SyncError('invalid_request', 'The request body is not valid gzip.');
      }
    }
    let data: unknown;
    try {
      data = JSON.parse(body.toString('utf8'));
    } catch {
      throw new SyncError('invalid_request', 'The request body is not valid JSON.');
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
      throw new SyncError(
        'invalid_request',
        `The request is not valid (${where}): ${issue?.message ?? 'unknown problem'}.`,
      );
    }
    return parsed.data;
  } finally {
    budget.give(held);
  }
}

/** Whether the client takes gzip responses (`accept-encoding` lists gzip without q=0). */
export function acceptsGzip(req: http.IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    return (name === 'gzip' || name === '*') && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

export async function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  options: { gzip: boolean; headers: Record<string, string> },
): Promise<number> {
  let data: Buffer | string = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    // Announces (RFC 7694) that request bodies may be gzipped; clients gzip only after seeing it,
    // so an older server is never sent a body it cannot read.
    'accept-encoding': 'gzip',
    ...options.headers,
  };
  if (options.gzip && data.length >= GZIP_MIN_BYTES) {
    data = await gzip(data);
    headers['content-encoding'] = 'gzip';
    headers.vary = 'accept-encoding';
  }
  headers['content-length'] = Buffer.byteLength(data);
  res.sendDate = false; // keeps a no-change poll small; clients use their own clock
  res.writeHead(status, headers);
  res.end(data);
  return status;
}
