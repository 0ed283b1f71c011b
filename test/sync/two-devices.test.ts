import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevice, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('two devices, one account', () => {
  it('copies a new note from one device to the other', async () => {
    const token = await server.token('alice');
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    await a.write('first-note', 'hello\n');
    expect((await a.sync()).outcome).toBe('ok');
    expect((await b.sync()).outcome).toBe('ok');
    expect(b.get('first-note')?.body).toBe('hello\n');
    await a.close();
    await b.close();
  });
});
