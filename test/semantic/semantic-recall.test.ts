import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchDocument } from '../../electron/memory/search/types.js';
import { OpenAiEmbeddings } from '../../electron/memory/semantic/embeddings-client.js';
import { RETRY_MS } from '../../electron/memory/semantic/endpoint-state.js';
import { SemanticRecall } from '../../electron/memory/semantic/semantic-recall.js';
import { readVectorFile } from '../../electron/memory/semantic/vector-file.js';
import { tempDir } from '../support/temp-dir.js';
import { startStandInEmbeddings } from './stand-in-embeddings.js';
import type { StandInServer } from './stand-in-embeddings.js';

let dir: string;
let server: StandInServer;
let clock: number;

function note(id: string, summary: string, updatedAt = 1): SearchDocument {
  return { id, scope: 'project', summary, tags: [], body: '', updatedAt };
}

function semantic(baseUrl: string, batchSize = 2): SemanticRecall {
  return new SemanticRecall({
    dir,
    provider: new OpenAiEmbeddings({ baseUrl, model: 'stand-in', apiKey: null, timeoutMs: 2000 }),
    batchSize,
    scopeKeys: { project: 'project-test', user: 'user' },
    now: () => clock,
  });
}

beforeEach(async () => {
  dir = path.join(await tempDir('semantic'), 'memory-vectors');
  server = await startStandInEmbeddings();
  clock = 1_000_000;
});
afterEach(async () => {
  await server.close();
});

describe('semantic recall against a stand-in embeddings server (deterministic vectors)', () => {
  it('embeds only new and changed notes, in batches, and forgets removed ones', async () => {
    const notes = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((w) => note(w, `${w} note`));
    await semantic(server.baseUrl).update(notes);
    expect(server.inputs).toHaveLength(5);
    expect(server.requests).toBe(3); // batches of 2

    // A new instance (a new process) reads the vectors back: nothing to embed.
    const again = semantic(server.baseUrl);
    await again.update(notes);
    expect(server.inputs).toHaveLength(5);

    const edited = [note('alpha', 'alpha note, reworded', 2), ...notes.slice(1, 4)];
    await again.update(edited);
    expect(server.inputs.slice(5)).toEqual(['alpha note, reworded\n\n']);
    const file = await readVectorFile(path.join(dir, 'project-test.vec'), again.space);
    expect([...file.keys()].sort()).toEqual(['alpha', 'beta', 'delta', 'gamma']);
  });

  it('matches by meaning: a paraphrase sharing no word comes first', async () => {
    const notes = [
      note('car', 'Car maintenance plan'),
      note('coffee', 'Descaling the coffee machine'),
      note('garden', 'Watering the garden'),
    ];
    const answer = await semantic(server.baseUrl).match('automobile servicing timetable', notes);
    expect(answer.notice).toBeUndefined();
    expect(answer.matches![0]).toMatchObject({ id: 'car' });
    expect(answer.matches![0]!.similarity).toBeGreaterThan(0.9);
  });

  it('endpoint down: no matches at once, the notice once per outage, asked again after a while', async () => {
    const notes = [note('car', 'Car maintenance plan')];
    await server.close();
    const down = semantic(server.baseUrl);
    const first = await down.match('automobile', notes);
    expect(first.matches).toBeNull();
    expect(first.notice).toMatch(/semantic recall is off until the embeddings endpoint answers again/);

    // Another process (a new instance) within the retry window: silent, and does not even try.
    const second = await semantic(server.baseUrl).match('automobile', notes);
    expect(second).toEqual({ matches: null });

    // Back up after the retry window: matches again, and the next outage is noticed again.
    server = await startStandInEmbeddings();
    clock += RETRY_MS;
    const back = await semantic(server.baseUrl).match('automobile', notes);
    expect(back.notice).toBeUndefined();
    expect(back.matches?.[0]?.id).toBe('car');
    await server.close();
    clock += 1;
    expect((await semantic(server.baseUrl).match('automobile', notes)).notice).toMatch(/answers again/);
  });
});
