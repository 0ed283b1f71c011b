import { promises as fs } from 'node:fs';
import path from 'node:path';
import { missingOr } from '../../memory/unexpected-error.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a URL path to a file inside root, or null when it would leave root or does not exist.
 * Paths without an extension fall back to index.html (the renderer is a single page).
 */
export async function resolveStaticFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null; // URIError: a malformed %-escape names no file
  }
  if (decoded.includes('\0')) return null;
  const rel = decoded.replace(/^\/+/, '') || 'index.html';
  const full = path.resolve(root, rel);
  const rootResolved = path.resolve(root);
  if (full !== rootResolved && !full.startsWith(rootResolved + path.sep)) return null;
  const stat = await fs.stat(full).catch(missingOr(null, 'static files: stat'));
  if (stat?.isFile()) return full;
  if (!path.extname(rel)) {
    const index = path.join(rootResolved, 'index.html');
    if (await fs.stat(index).catch(missingOr(null, 'static files: stat'))) return index;
  }
  return null;
}
