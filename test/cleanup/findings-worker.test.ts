import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CleanupService } from '../../electron/cleanup/cleanup-service.js';
import { FindingsAnalyser } from '../../electron/cleanup/findings-analyser.js';
import { MemoryKeyStore } from '../../electron/cleanup/model/key-store.js';
import { sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c.close();
  await sb?.close();
});

/** Notes giving every kind of finding: same topic, broken link, missing file, unused, too long. */
async function notesWithFindings(s: Sandbox): Promise<void> {
  await s.put('project', {
    id: 'pricing-a',
    summary: 'Pricing cards use fills, not borders',
    tags: ['design'],
  });
  await s.put('project', {
    id: 'pricing-b',
    summary: 'Pricing page cards: use fill instead of borders',
    tags: ['design'],
  });
  await s.put('project', {
    id: 'links',
    summary: 'Links',
    body: 'See [[nowhere]] and [[pricing-a]] and [[Deploy]].',
  });
  await s.put('project', {
    id: 'files',
    summary: 'Files',
    body: 'Edit src/missing/File.tsx and docs/here.md.',
  });
  await s.put('user', { id: 'deploy', summary: 'Deploys go out on Fridays', body: 'x'.repeat(9000) });
  await fs.mkdir(path.join(s.root, 'docs'), { recursive: true });
  await fs.writeFile(path.join(s.root, 'docs', 'here.md'), '');
}

describe('findings off the request path', () => {
  it('a worker thread finds exactly what the in-thread analysis finds', async () => {
    sb = await sandbox();
    await notesWithFindings(sb);
    const inThread = new CleanupService({ core: sb.core, keyStore: new MemoryKeyStore() });
    const worker = new CleanupService({
      core: sb.core,
      keyStore: new MemoryKeyStore(),
      analysisWorker: true,
    });
    closing.push(worker);
    const expected = await inThread.findings();
    expect(new Set(expected.map((f) => f.kind))).toEqual(
      new Set(['same_topic', 'broken_link', 'missing_file', 'too_long']),
    );
    expect(await worker.findings()).toEqual(expected);
  });

  it('analyses once per store version, in the worker; a change is picked up; files appearing are seen without a change', async () => {
    sb = await sandbox();
    await notesWithFindings(sb);
    const analyser = new FindingsAnalyser(sb.core, { worker: true });
    closing.push(analyser);
    const first = analyser.analyse('project');
    expect(analyser.inWorker).toBe(true);
    expect(analyser.analyse('project')).toBe(first); // same version: the same analysis
    const content = await first;
    expect(content.brokenLinks).toEqual([{ id: 'links', targets: ['nowhere'] }]);
    // [[Deploy]] resolves in the user scope (ids ignoring case): a change there changes the answer.
    await sb.core.store('user')!.delete('deploy', { backupReason: 'test' });
    const after = analyser.analyse('project');
    expect(after).not.toBe(first);
    expect((await after).brokenLinks).toEqual([{ id: 'links', targets: ['nowhere', 'Deploy'] }]);
    expect(analyser.inWorker).toBe(true);

    // missing_file is checked against the disk at every listing, from the kept analysis.
    const service = new CleanupService({
      core: sb.core,
      keyStore: new MemoryKeyStore(),
      analysisWorker: true,
    });
    closing.push(service);
    const missing = async () => (await service.findings()).filter((f) => f.kind === 'missing_file');
    expect((await missing()).map((f) => f.targets)).toEqual([['src/missing/File.tsx']]);
    await fs.mkdir(path.join(sb.root, 'src', 'missing'), { recursive: true });
    await fs.writeFile(path.join(sb.root, 'src', 'missing', 'File.tsx'), '');
    expect(await missing()).toEqual([]);
  });

  it('closing stops the worker (a pending analysis is refused); in-thread gives the answer', async () => {
    sb = await sandbox();
    await notesWithFindings(sb);
    const analyser = new FindingsAnalyser(sb.core, { worker: true });
    const pending = analyser.analyse('user');
    await analyser.close(); // the worker is gone before it answered
    await expect(pending).rejects.toThrow(/stopped/);
    const inThread = new FindingsAnalyser(sb.core, { worker: false });
    expect((await inThread.analyse('user')).tooLong).toEqual([{ id: 'deploy', chars: 9000 }]);
    expect(inThread.inWorker).toBe(false);
  });
});
