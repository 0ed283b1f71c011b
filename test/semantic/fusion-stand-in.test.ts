import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEMANTIC_WEIGHT } from '../../electron/memory/search/fusion.js';
import { SearchIndex } from '../../electron/memory/search/index.js';
import type { SearchDocument, SearchHit } from '../../electron/memory/search/types.js';
import { OpenAiEmbeddings } from '../../electron/memory/semantic/embeddings-client.js';
import { SemanticRecall } from '../../electron/memory/semantic/semantic-recall.js';
import { tempDir } from '../support/temp-dir.js';
import { noiseVector, startStandInEmbeddings } from './stand-in-embeddings.js';
import type { StandInServer } from './stand-in-embeddings.js';

/**
 * Search's fusion end to end — SemanticRecall against a local stand-in for an external embeddings
 * model API (deterministic vectors), then SearchIndex.search: a model whose ranking is noise cannot
 * push a clear word match out, a model that knows the paraphrases adds what words miss, and a
 * model that is down leaves words alone at once, said once.
 */
let server: StandInServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOPICS = ['deploy', 'backup', 'invoice', 'garden', 'printer', 'kubernetes', 'coffee', 'holiday'];
/** Notes whose word match with "deploy release checklist" runs from strong to none. */
function notes(): SearchDocument[] {
  const out: SearchDocument[] = [
    { summary: 'Deploy release checklist', body: 'Tag, build, deploy the release.' },
    { summary: 'Release checklist for mobile', body: 'Store review first.' },
    { summary: 'Deploy notes', body: 'The staging deploy is automatic.' },
    { summary: 'Car maintenance plan', body: 'Change the oil every 10,000 km.' },
  ].map((n, i) => ({ id: `n${i}`, scope: 'project' as const, tags: [], updatedAt: 1 + i, ...n }));
  TOPICS.forEach((t, i) =>
    [0, 1, 2].forEach((j) =>
      out.push({
        id: `${t}-${j}`,
        scope: 'project',
        summary: `${t} note ${j}`,
        tags: [t],
        body: `Something about ${t}, part ${j}.`,
        updatedAt: 100 + i * 3 + j,
      }),
    ),
  );
  return out;
}

async function semanticAt(baseUrl: string, timeoutMs = 5000): Promise<SemanticRecall> {
  return new SemanticRecall({
    dir: path.join(await tempDir('fusion-stand-in'), 'memory-vectors'),
    provider: new OpenAiEmbeddings({ baseUrl, model: 'stand-in', apiKey: null, timeoutMs }),
    batchSize: 16,
    scopeKeys: { project: 'project-test', user: 'user' },
    now: () => 1_000_000,
  });
}
const ids = (hits: readonly SearchHit[]) => hits.map((h) => h.id);

describe('fusion against a stand-in for an external embeddings model API', { timeout: 60_000 }, () => {
  it('a model whose ranking is noise cannot push a clear word match out', async () => {
    server = await startStandInEmbeddings({ vectorOf: noiseVector });
    const docs = notes();
    const semantic = await semanticAt(server.baseUrl);
    const index = new SearchIndex(docs);
    for (const query of ['deploy release checklist', 'release checklist', 'kubernetes note', 'coffee']) {
      const answer = await semantic.match(query, docs);
      expect(answer.matches).not.toBeNull();
      const words = index.search(query, { limit: 10 });
      const fused = index.search(query, { limit: 10, semantic: answer.matches! });
      const best = words[0]!.score;
      const allowance = SEMANTIC_WEIGHT / (1 - SEMANTIC_WEIGHT);
      // Every word match leading the next one by more than the allowance keeps its place.
      for (let i = 0; i + 1 < words.length; i++) {
        if ((words[i]!.score - words[i + 1]!.score) / best <= allowance) continue;
        expect(ids(fused.slice(0, i + 1)).sort()).toEqual(ids(words.slice(0, i + 1)).sort());
      }
      expect(fused[0]!.id).toBe(words[0]!.id);
    }
  });

  it('a model that knows the paraphrase finds the note sharing no word, below the clear word match', async () => {
    server = await startStandInEmbeddings();
    const docs = notes();
    const semantic = await semanticAt(server.baseUrl);
    const index = new SearchIndex(docs);
    const query = 'automobile servicing timetable checklist';
    const answer = await semantic.match(query, docs);
    const words = ids(index.search(query, { limit: 10 }));
    expect(words).not.toContain('n3');
    const fused = index.search(query, { limit: 10, semantic: answer.matches! });
    const car = fused.find((h) => h.id === 'n3');
    expect(car?.why.semantic?.rank).toBe(1);
    expect(car?.why.parts.semantic).toBeCloseTo(SEMANTIC_WEIGHT, 12);
    expect(fused[0]!.id).toBe(words[0]);
  });

  it('endpoint down: words alone at once, said once — the endpoint is not waited for again', async () => {
    // A stand-in that accepts requests and never answers: the first query waits out the timeout,
    // the next ones do not ask at all while it is down.
    let asked = 0;
    const hanging = http.createServer(() => void asked++);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    try {
      const docs = notes();
      const semantic = await semanticAt(`http://127.0.0.1:${port}/v1`, 200);
      const first = await semantic.match('deploy release checklist', docs);
      expect(first.matches).toBeNull();
      expect(first.notice).toMatch(/semantic recall is off until the embeddings endpoint answers again/);
      for (const query of ['release checklist', 'coffee', 'deploy'])
        expect(await semantic.match(query, docs)).toEqual({ matches: null });
      expect(asked).toBe(1);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
