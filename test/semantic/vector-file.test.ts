import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchDocument } from '../../electron/memory/search/types.js';
import { OpenAiEmbeddings } from '../../electron/memory/semantic/embeddings-client.js';
import { SemanticRecall, textKey } from '../../electron/memory/semantic/semantic-recall.js';
import {
  decodeVectors,
  encodeVectors,
  readVectorFile,
  writeVectorFile,
} from '../../electron/memory/semantic/vector-file.js';
import type { NoteVector } from '../../electron/memory/semantic/vector-file.js';
import { tempDir } from '../support/temp-dir.js';
import { startStandInEmbeddings } from './stand-in-embeddings.js';
import type { StandInServer } from './stand-in-embeddings.js';

/** The binary vector file: compact, checked per record, migrated from the first version's JSON. */
let dir: string;
let server: StandInServer;

function vectors(n: number, dims: number): Map<string, NoteVector> {
  const out = new Map<string, NoteVector>();
  for (let i = 0; i < n; i++) {
    const vector = new Float32Array(dims).map((_, j) => Math.sin(i * 31 + j));
    out.set(`note-${i}`, { key: `key-${i}`, vector });
  }
  return out;
}

function note(id: string, summary: string): SearchDocument {
  return { id, scope: 'project', summary, tags: [], body: '', updatedAt: 1 };
}

function semantic(): SemanticRecall {
  return new SemanticRecall({
    dir,
    provider: new OpenAiEmbeddings({
      baseUrl: server.baseUrl,
      model: 'stand-in',
      apiKey: null,
      timeoutMs: 2000,
    }),
    batchSize: 8,
    scopeKeys: { project: 'project-test', user: 'user' },
    now: () => 0,
  });
}

beforeEach(async () => {
  dir = path.join(await tempDir('vector-file'), 'memory-vectors');
  await fs.mkdir(dir, { recursive: true });
  server = await startStandInEmbeddings();
});
afterEach(async () => {
  await server.close();
});

describe('vector file (binary, Float32)', () => {
  it('round-trips ids, keys and vectors exactly, in less space than base64 JSON', () => {
    const v = vectors(50, 768);
    const bytes = encodeVectors('space-a', v);
    const back = decodeVectors(bytes, 'space-a');
    expect([...back.keys()]).toEqual([...v.keys()]);
    for (const [id, nv] of v) {
      expect(back.get(id)!.key).toBe(nv.key);
      expect(back.get(id)!.vector).toEqual(nv.vector);
    }
    const json = JSON.stringify(
      Object.fromEntries(
        [...v].map(([id, x]) => [id, [x.key, Buffer.from(x.vector.buffer).toString('base64')]]),
      ),
    );
    expect(bytes.length).toBeLessThan(json.length * 0.8);
    // Another space (endpoint or model) is never compared: the file reads as empty.
    expect(decodeVectors(bytes, 'space-b').size).toBe(0);
  });

  it('drops a damaged record (CRC) and the records past a cut, keeps the rest; a bad header drops all', () => {
    const v = vectors(4, 16);
    const bytes = encodeVectors('s', v);
    const recordBytes = 2 + 'note-0'.length + 2 + 'key-0'.length + 16 * 4 + 4;
    const firstRecord = bytes.length - 4 * recordBytes;
    const damaged = Buffer.from(bytes);
    damaged[firstRecord + recordBytes + 20]! ^= 0x40; // inside note-1's vector
    expect([...decodeVectors(damaged, 's').keys()]).toEqual(['note-0', 'note-2', 'note-3']);
    const cut = bytes.subarray(0, bytes.length - recordBytes - 7);
    expect([...decodeVectors(cut, 's').keys()]).toEqual(['note-0', 'note-1']);
    const badMagic = Buffer.from(bytes);
    badMagic[0] = 0;
    expect(decodeVectors(badMagic, 's').size).toBe(0);
    expect(decodeVectors(Buffer.from('{"version":1}'), 's').size).toBe(0);
  });

  it('a damaged record is embedded again, the others are not', async () => {
    const notes = ['alpha', 'beta', 'gamma'].map((w) => note(w, `${w} note`));
    await semantic().update(notes);
    expect(server.inputs).toHaveLength(3);
    const file = path.join(dir, 'project-test.vec');
    const bytes = await fs.readFile(file);
    bytes[bytes.length - 10]! ^= 0xff; // the last record's vector
    await fs.writeFile(file, bytes);
    const again = semantic();
    await again.update(notes);
    expect(server.inputs.slice(3)).toHaveLength(1);
    expect((await readVectorFile(file, again.space)).size).toBe(3);
  });

  it('migrates the first version JSON file on read: nothing embedded again, the JSON replaced', async () => {
    const s = semantic();
    const v = vectors(3, 64);
    const notes = [...v.keys()].map((id) => note(id, id));
    // The keys the vectors were computed from must match the notes, as the JSON file's would.
    for (const n of notes) v.get(n.id)!.key = textKey(n);
    const legacy = {
      version: 1,
      space: s.space,
      notes: Object.fromEntries(
        [...v].map(([id, x]) => [id, [x.key, Buffer.from(x.vector.buffer).toString('base64')]]),
      ),
    };
    await fs.writeFile(path.join(dir, 'project-test.json'), JSON.stringify(legacy));
    await s.update(notes);
    expect(server.inputs).toHaveLength(0);
    const files = await fs.readdir(dir);
    expect(files).toContain('project-test.vec');
    expect(files).not.toContain('project-test.json');
    const back = await readVectorFile(path.join(dir, 'project-test.vec'), s.space);
    for (const [id, x] of v) expect(back.get(id)!.vector).toEqual(x.vector);
  });

  it('writes atomically: no temp file is left beside it', async () => {
    const file = path.join(dir, 'user.vec');
    await writeVectorFile(file, 's', vectors(2, 8));
    await writeVectorFile(file, 's', vectors(3, 8));
    expect(await fs.readdir(dir)).toEqual(['user.vec']);
    expect((await readVectorFile(file, 's')).size).toBe(3);
  });
});
