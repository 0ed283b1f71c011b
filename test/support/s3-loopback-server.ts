import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-protocol server for loopback tests — a local stand-in for R2/S3/MinIO, since no npm or
 * Debian S3 server honours conditional PUT. It speaks just what the sync server's S3 adapter uses,
 * path-style: PUT/GET/HEAD/DELETE of objects (with ETags, `If-Match` and `If-None-Match: *`
 * answering 412 when they do not hold), ListObjectsV2, DeleteObjects and HeadBucket. Objects live in
 * memory; requests are not signature-checked. `setOutage(true)` makes every request fail with 503,
 * to test how the sync server reports broken storage. `failConditionalPuts` makes the next
 * conditional PUTs answer `500 UnknownError` as Ceph RGW does for some losers of a race — before
 * or after applying the write — so the adapter's "outcome unknown" path runs in fast tests too.
 * `If-Match` is compared without quotes (S3 and R2 accept both forms); GET honours
 * `If-None-Match` with 304.
 */
export interface S3LoopbackServer {
  endpoint: string;
  bucket: string;
  /** Requests served, by operation name. */
  counts: Map<string, number>;
  objectCount(): number;
  setOutage(on: boolean): void;
  failConditionalPuts(count: number, when: 'before-applying' | 'after-applying'): void;
  close(): Promise<void>;
}

interface Obj {
  body: Buffer;
  etag: string;
  modified: Date;
}

export async function startS3LoopbackServer(bucket = 'memory-sync-test'): Promise<S3LoopbackServer> {
  const objects = new Map<string, Obj>();
  const counts = new Map<string, number>();
  let outage = false;
  let failing = { count: 0, when: 'before-applying' as 'before-applying' | 'after-applying' };
  const count = (op: string): void => {
    counts.set(op, (counts.get(op) ?? 0) + 1);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks));
      } catch (err) {
        sendError(res, 500, 'InternalError', (err as Error).message, req.method === 'HEAD');
      }
    });
  });

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const head = req.method === 'HEAD';
    if (outage)
      return sendError(
        res,
        503,
        'ServiceUnavailable',
        'the loopback S3 server is in a simulated outage',
        head,
      );
    const parts = url.pathname.split('/').slice(1);
    const bucketName = decodeURIComponent(parts[0] ?? '');
    if (bucketName !== bucket) return sendError(res, 404, 'NoSuchBucket', `no bucket ${bucketName}`, head);
    const key = parts.slice(1).map(decodeURIComponent).join('/');

    if (key === '') {
      if (req.method === 'HEAD') {
        count('HeadBucket');
        res.writeHead(200).end();
        return;
      }
      if (req.method === 'GET' && url.searchParams.get('list-type') === '2') {
        count('ListObjectsV2');
        return listObjects(res, url.searchParams);
      }
      if (req.method === 'POST' && url.searchParams.has('delete')) {
        count('DeleteObjects');
        const keys = [...body.toString('utf8').matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((m) =>
          xmlUnescape(m[1] ?? ''),
        );
        for (const k of keys) objects.delete(k);
        const xml = `<?xml version="1.0" encoding="UTF-8"?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"></DeleteResult>`;
        res.writeHead(200, { 'content-type': 'application/xml' }).end(xml);
        return;
      }
      return sendError(res, 400, 'InvalidRequest', 'unsupported bucket operation', head);
    }

    const current = objects.get(key);
    switch (req.method) {
      case 'PUT': {
        count('PutObject');
        const ifMatch = req.headers['if-match'];
        const ifNoneMatch = req.headers['if-none-match'];
        const conditional = ifMatch !== undefined || ifNoneMatch !== undefined;
        const fail = conditional && failing.count > 0 ? failing.when : null;
        if (fail) failing.count--;
        if (fail === 'before-applying')
          return sendError(res, 500, 'UnknownError', 'simulated outcome-unknown failure', false);
        if (ifNoneMatch === '*' && current)
          return sendError(res, 412, 'PreconditionFailed', 'the object exists', false);
        if (ifMatch !== undefined && (!current || unquote(current.etag) !== unquote(ifMatch))) {
          return sendError(
            res,
            current ? 412 : 404,
            current ? 'PreconditionFailed' : 'NoSuchKey',
            'If-Match did not hold',
            false,
          );
        }
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        objects.set(key, { body, etag, modified: new Date() });
        if (fail === 'after-applying')
          return sendError(res, 500, 'UnknownError', 'simulated outcome-unknown failure', false);
        res.writeHead(200, { etag }).end();
        return;
      }
      case 'GET':
      case 'HEAD': {
        count(head ? 'HeadObject' : 'GetObject');
        if (!current) return sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.', head);
        const ifNoneMatch = req.headers['if-none-match'];
        if (ifNoneMatch !== undefined && unquote(ifNoneMatch) === unquote(current.etag)) {
          res.writeHead(304, { etag: current.etag }).end();
          return;
        }
        res.writeHead(200, {
          etag: current.etag,
          'content-length': current.body.length,
          'content-type': 'application/octet-stream',
          'last-modified': current.modified.toUTCString(),
        });
        res.end(head ? undefined : current.body);
        return;
      }
      case 'DELETE':
        count('DeleteObject');
        objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        return sendError(res, 405, 'MethodNotAllowed', 'unsupported method', head);
    }
  };

  const listObjects = (res: http.ServerResponse, params: URLSearchParams): void => {
    const prefix = params.get('prefix') ?? '';
    const max = Math.min(1000, Number(params.get('max-keys') ?? 1000));
    const after = params.get('continuation-token') ?? params.get('start-after') ?? '';
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
    const page = keys.slice(0, max);
    const truncated = keys.length > page.length;
    const contents = page
      .map((k) => {
        const o = objects.get(k)!;
        return `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${o.modified.toISOString()}</LastModified><ETag>${xmlEscape(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    const xml =
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
      `<Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys>` +
      `<IsTruncated>${truncated}</IsTruncated>${contents}` +
      (truncated
        ? `<NextContinuationToken>${xmlEscape(page[page.length - 1]!)}</NextContinuationToken>`
        : '') +
      `</ListBucketResult>`;
    res.writeHead(200, { 'content-type': 'application/xml' }).end(xml);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    counts,
    objectCount: () => objects.size,
    setOutage: (on) => {
      outage = on;
    },
    failConditionalPuts: (count, when) => {
      failing = { count, when };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sendError(
  res: http.ServerResponse,
  status: number,
  code: string,
  message: string,
  head: boolean,
): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(head ? undefined : xml);
}

function unquote(etag: string): string {
  return etag.replace(/"/g, '');
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function xmlUnescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}
