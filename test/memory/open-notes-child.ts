import { createMemoryCore } from '../../electron/memory/core.js';

/**
 * Opens a home's user notes as a one-shot command does (index cache primed, saved at close) and
 * prints what loaded and what was held: mode-change.test.ts runs it as another user.
 */
const core = await createMemoryCore({ home: process.argv[2]! });
const store = core.store('user')!;
const ids = store.list().map((n) => n.id);
const held = store.held().map((h) => ({ id: h.id, reason: h.reason }));
await core.close();
process.stdout.write(JSON.stringify({ ids, held }));
