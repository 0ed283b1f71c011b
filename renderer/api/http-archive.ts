import type { InvokeReply } from '../../shared/ipc-contract.js';
import type { ArchiveRequest } from '../../shared/note-archives.js';
import { errorFromUnknownBody } from './errors.js';

/**
 * Export / import over the web bridge (electron/transports/http/archive-routes.ts): an export comes
 * back as the zip's bytes and is saved as a download; an import sends the bytes of the file the
 * person picked in the browser's own file input. Same outcome shape as the desktop's dialogs.
 */
export interface HttpArchiveOptions {
  base: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** The browser's file picker; null when the person cancelled. */
  pickFile?: () => Promise<File | null>;
  /** Saves bytes under a name as the browser's download. */
  download?: (blob: Blob, name: string) => void;
}

async function failure(res: Response): Promise<InvokeReply> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the text is the message
  }
  const err = errorFromUnknownBody(res.status, body, body === null ? text : '');
  return { ok: false, error: { code: err.code, message: err.message } };
}

export async function httpArchive(opts: HttpArchiveOptions, request: ArchiveRequest): Promise<InvokeReply> {
  try {
    if (request.op === 'export') {
      const res = await opts.fetch(`${opts.base}/api/archive/export`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...opts.headers },
        body: JSON.stringify({ scope: request.scope }),
      });
      if (!res.ok) return await failure(res);
      const file = res.headers.get('X-Memdesk-File') ?? 'memory-desk.zip';
      (opts.download ?? browserDownload)(await res.blob(), file);
      return { ok: true, result: { op: 'export', file, notes: Number(res.headers.get('X-Memdesk-Notes') ?? 0) } };
    }
    const picked = await (opts.pickFile ?? pickZipFile)();
    if (!picked) return { ok: true, result: { op: 'cancelled' } };
    const q = new URLSearchParams({ scope: request.scope, onCollision: request.onCollision, name: picked.name });
    const res = await opts.fetch(`${opts.base}/api/archive/import?${q}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/zip', ...opts.headers },
      body: picked,
    });
    if (!res.ok) return await failure(res);
    return { ok: true, result: ((await res.json()) as { result: unknown }).result };
  } catch (err) {
    return {
      ok: false,
      error: { code: 'unavailable', message: `Memory Desk's bridge is not reachable (${(err as Error).message}).` },
    };
  }
}

/** The browser's file input for one .zip; resolves null when the picker is dismissed. */
export function pickZipFile(): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.zip,application/zip';
    input.dataset.testid = 'archive-file-input';
    input.style.display = 'none';
    const done = (file: File | null) => {
      input.remove();
      resolve(file);
    };
    input.addEventListener('change', () => done(input.files?.[0] ?? null), { once: true });
    input.addEventListener('cancel', () => done(null), { once: true });
    document.body.append(input);
    input.click();
  });
}

function browserDownload(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
