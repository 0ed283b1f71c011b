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

export function standInVector(text: string): number[] {
  const v = new Array<number>(STAND_IN_DIMS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = SYNONYMS[raw] ?? raw;
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % STAND_IN_DIMS]! += 1;
  }
  return v;
}

export interface StandInServer {
  baseUrl: string;
  /** Every text embedded so far, in order. */
  inputs: string[];
  requests: number;
  close(): Promise<void>;
}

export async function startStandInEmbeddings(): Promise<StandInServer> {
  const state = { inputs: [] as string[], requests: 0 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404).end('not found');
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      state.requests++;
      state.inputs.push(...input);
      const data = input.map((t, index) => ({ object: 'embedding', index, embedding: standInVector(t) }));
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
