import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A STAND-IN FOR THE EXTERNAL MODEL: a real HTTP server on 127.0.0.1 that speaks the OpenAI
 * chat-completions protocol (POST /v1/chat/completions). Each test decides what it answers.
 */
export interface StandInRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: Array<{ role: string; content: string }> };
}

export type StandInBehaviour =
  { kind: 'content'; content: string } | { kind: 'raw'; status: number; body: string } | { kind: 'hang' };

export interface StandInModel {
  baseUrl: string;
  requests: StandInRequest[];
  respond(b: StandInBehaviour): void;
  close(): Promise<void>;
}

export async function startStandInModel(): Promise<StandInModel> {
  let behaviour: StandInBehaviour = { kind: 'content', content: '{}' };
  const requests: StandInRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(data || '{}'),
      });
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      if (behaviour.kind === 'hang') {
        hanging.add(res);
        return;
      }
      if (behaviour.kind === 'raw') {
        res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end(behaviour.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-standin',
          object: 'chat.completion',
          model: 'stand-in',
          choices: [
            { index: 0, message: { role: 'assistant', content: behaviour.content }, finish_reason: 'stop' },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respond(b) {
      behaviour = b;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
