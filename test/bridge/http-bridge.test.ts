import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeNote, parseNote } from '../../shared/note-format.js';
import { startSeededBridge, type BridgeEnv } from './helpers.js';

let env: BridgeEnv;
beforeAll(async () => {
  env = await startSeededBridge();
});
afterAll(async () => {
  await env?.close();
});

/** Raw requests, so Host and Origin can be set to anything (fetch would refuse to). */
function request(opts: {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: env.bridge.port,
        path: opts.path,
        method: opts.method ?? 'GET',
        headers: opts.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

function invoke(method: string, input: unknown, headers: Record<string, string> = {}) {
  return request({
    path: '/api/invoke',
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...env.auth, ...headers },
    body: JSON.stringify({ method, input }),
  });
}

describe('web bridge', () => {
  it('listens on loopback only', () => {
    expect(env.bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#s=/);
  });

  it('carries the secret in the URL fragment; the page is served with a strict CSP and sets no cookie', async () => {
    const page = await request({ path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('refuses API calls without the secret header or with a wrong one', async () => {
    const none = await request({
      path: '/api/invoke',
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(none.status).toBe(401);
    expect(none.body).toContain('npm run demo');
    expect((await invoke('notes.list', {}, { 'x-memdesk-secret': 'guess' })).status).toBe(401);
    expect((await request({ path: '/api/events' })).status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin (another web site)', async () => {
    const host = await invoke('notes.list', {}, { Host: `evil.example:${env.bridge.port}` });
    expect(host.status).toBe(403);
    expect(host.body).toContain('127.0.0.1');
    const origin = await invoke('notes.list', {}, { Origin: 'https://evil.example' });
    expect(origin.status).toBe(403);
    const ok = await invoke(
      'notes.list',
      {},
      { Origin: `http://localhost:${env.bridge.port}`, Host: `localhost:${env.bridge.port}` },
    );
    expect(ok.status).toBe(200);
  });

  it('accepts API calls only as application/json POSTs', async () => {
    const form = await request({
      path: '/api/invoke',
      method: 'POST',
      headers: { ...env.auth, 'Content-Type': 'text/plain' },
      body: '{"method":"notes.list"}',
    });
    expect(form.status).toBe(415);
    const get = await request({ path: '/api/invoke', headers: env.auth });
    expect(get.status).toBe(405);
    const garbage = await request({
      path: '/api/invoke',
      method: 'POST',
      headers: { ...env.auth, 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body).error.code).toBe('invalid_input');
  });

  it('validates input with the API table and loses nothing on bad input', async () => {
    const before = await fs.readFile(path.join(env.projectDir, 'api-error-format-5e2.md'), 'utf8');
    const bad = await invoke('notes.edit', { id: 'api-error-format-5e2', summary: '   ' });
    expect(bad.status).toBe(400);
    const body = JSON.parse(bad.body);
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.message).toContain('notes.edit');
    expect(await fs.readFile(path.join(env.projectDir, 'api-error-format-5e2.md'), 'utf8')).toBe(before);

    const unknown = await invoke('notes.explode', {});
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error.message).toContain('unknown method "notes.explode"');

    const missing = await invoke('notes.get', { id: 'no-such-note' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe('not_found');
  });

  it('answers the API table: list, search, get', async () => {
    const list = JSON.parse((await invoke('notes.list', { scope: 'both' })).body).result;
    expect(list.notes.length).toBe(17);
    const search = JSON.parse((await invoke('notes.search', { query: '发布' })).body).result;
    expect(search.notes[0].id).toBe('release-process-zh-3c9');
    const note = JSON.parse((await invoke('notes.get', { id: 'deploy-staging-44e' })).body).result;
    expect(note.links).toContainEqual({ id: 'release-checklist-9d1', resolved: null });
  });

  it('serves only files inside the renderer directory', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt']) {
      const res = await request({ path: p, headers: env.auth });
      expect(res.body).not.toContain('outside the static dir');
    }
    expect((await request({ path: '/missing.js', headers: env.auth })).status).toBe(404);
    // Paths without an extension are the single page.
    expect((await request({ path: '/memory/some-note', headers: env.auth })).body).toContain('test page');
  });

  it('pushes a change event when a note file changes on disk', async () => {
    const events: string[] = [];
    const got = new Promise<void>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port: env.bridge.port, path: '/api/events', headers: env.auth },
        (res) => {
          expect(res.headers['content-type']).toContain('text/event-stream');
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            for (const line of chunk.split('\n')) if (line.startsWith('data: ')) events.push(line.slice(6));
            if (events.some((e) => e.includes('ci-pipeline-6d4'))) {
              req.destroy();
              resolve();
            }
          });
          // Once the stream is open, an agent edits a note.
          void (async () => {
            const file = path.join(env.projectDir, 'ci-pipeline-6d4.md');
            const parsed = parseNote(await fs.readFile(file, 'utf8'));
            if (!parsed.ok) throw new Error(parsed.reason);
            await fs.writeFile(
              file,
              serializeNote({
                ...parsed.note,
                body: parsed.note.body + '\nEdited by an agent.\n',
                createdAt: 1,
                updatedAt: 2,
              }),
            );
          })().catch(reject);
        },
      );
      req.on('error', (err) => (events.length ? undefined : reject(err)));
    });
    await got;
    const event = JSON.parse(events.find((e) => e.includes('ci-pipeline-6d4'))!);
    expect(event).toMatchObject({ type: 'notes.changed', scope: 'project' });
  });
});
