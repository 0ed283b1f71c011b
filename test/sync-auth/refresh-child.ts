import { existsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { accessTokenFor } from '../../electron/sync/auth/access-token.js';
import { FileTokenStore } from '../../electron/sync/token-store.js';

/**
 * One process of test/sync-auth/refresh-processes.test.ts: says it is loaded (the `ready` file),
 * waits until the `go` file exists (so both processes ask at the same moment), then asks for an access token from the shared token
 * file and prints what it got.
 */
const [file, origin, ready, go] = process.argv.slice(2) as [string, string, string, string];
writeFileSync(ready, '');
while (!existsSync(go)) await sleep(2);
try {
  process.stdout.write(JSON.stringify({ token: await accessTokenFor(new FileTokenStore(file), origin) }));
} catch (err) {
  process.stdout.write(JSON.stringify({ error: (err as Error).message }));
}
