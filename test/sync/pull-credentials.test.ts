import { describe, expect, it } from 'vitest';
import { expectOk, startDevice, type Device, type TestServer, useTestServer } from './harness.js';

let server: TestServer;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

describe('notes arriving by sync pull are checked for credentials', () => {
  it('a pulled note holding a key is kept and named in the round’s notices; ordinary notes are not', async () => {
    const token = await server.token('pull-credentials');
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('deploy', `deploy with ghp_${'A1b2C3d4E5'.repeat(4)}\n`);
    await a.write('plain', 'We release on Fridays.\n');
    expectOk(await a.sync());
    expectOk(await b.sync());
    expect(b.ids()).toEqual(['deploy', 'plain']);
    const notices = (await b.engine.status(b.svc)).notices;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/Your own notes: note "deploy" looks like it contains .*GitHub.* it is kept/);
  });
});
