import { afterAll, beforeAll, expect, it } from 'vitest';
import { SYNC_ROUTES } from '../../shared/sync-protocol.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * The fault proxy passes on what the server answers, not how the server's connection behaves: the
 * client must hear the proxy's own keep-alive timeout. With the server's (65 s) passed on, a client
 * kept idle sockets the proxy had closed after 5 s, and a round reusing one ended "offline" (the
 * soak's seed 20077, which the simulation's stability check then took for a quiet round).
 */
let server: TestServer;
let proxy: FaultProxy;
beforeAll(async () => {
  server = await startTestServer();
  proxy = await startFaultProxy(server.url, () => 'pass');
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

it('the client hears the proxy’s keep-alive timeout, not the server’s', async () => {
  const direct = await fetch(server.url + SYNC_ROUTES.identity);
  await direct.arrayBuffer();
  const proxied = await fetch(proxy.url + SYNC_ROUTES.identity);
  await proxied.arrayBuffer();
  expect(proxied.status).toBe(direct.status);
  expect(direct.headers.get('keep-alive')).toBe('timeout=65');
  expect(proxied.headers.get('keep-alive')).toBe('timeout=5');
});
