import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an external embeddings model (an OpenAI-compatible `POST /v1/embeddings`),
 * answering deterministic vectors: each word, after a small synonym table maps paraphrases to one
 * word, adds 1 to a dimension chosen by hashing it. So "automobile servicing" and "car maintenance"
 * get the same vector, as a real model would make them close. It counts what it was asked.
 */
const SYNONYMS: Record<string, string> = {
  automobile: 'car',
  vehicle: 'car',
  servicing: 'maintenance',
  service: 'maintenance',
  timetable: 'plan',
  schedule: 'plan',
};
export const STAND_IN_DIMS = 64;

export function standInVector(text: string, dims = STAND_IN_DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = SYNONYMS[raw] ?? raw;
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % dims]! += 1;
  }
  return v;
}

export interface StandInServer {
  baseUrl: string;
  /** Every text embedded so far, in order. */
  inputs: string[];
  requests: number;
  /** Numbers per vector it answers (a model swapped behind the same URL answers another size). */
  dimensions: number;
  close(): Promise<void>;
}

/**
 * A model that knows nothing: a text's vector is pseudo-random, seeded by a hash of the whole text
 * (deterministic, unrelated to meaning), so its ranking is noise to fusion.
 */
export function noiseVector(text: string, dims = STAND_IN_DIMS): number[] {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return Array.from({ length: dims }, () => {
    h = (Math.imul(h, 1664525) + 1013904223) >>> 0;
    return h / 2 ** 32 - 0.5;
  });
}

/**
 * `apiKey`: answer 401 to a request without `Authorization: Bearer <apiKey>`, as hosted providers do.
 * `vectorOf`: the model's vectors (`standInVector` unless given, e.g. `noiseVector`).
 */
export async function startStandInEmbeddings(
  opts: { apiKey?: string; vectorOf?: (text: string, dims: number) => number[] } = {},
): Promise<StandInServer> {
  const vectorOf = opts.vectorOf ?? standInVector;
  const state = { inputs: [] as string[], requests: 0, dimensions: STAND_IN_DIMS };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404).end('not found');
        return;
      }
      if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid api key"}');
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      state.requests++;
      state.inputs.push(...input);
      const data = input.map((t, index) => ({
        object: 'embedding',
        index,
        embedding: vectorOf(t, state.dimensions),
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get inputs() {
      return state.inputs;
    },
    get requests() {
      return state.requests;
    },
    get dimensions() {
      return state.dimensions;
    },
    set dimensions(n: number) {
      state.dimensions = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
