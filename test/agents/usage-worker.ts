import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';

/**
 * One agent process for the usage test: opens the real core on the shared home and project and
 * recalls `count` times through the API (agents.recall — what the MCP recall tool and the hooks
 * run), each recall counting for every attached note.
 */
const [home, project, count] = process.argv.slice(2);
const { ctx } = await createAppRoot({ home: home!, env: process.env }).open({ projectRoot: project! });
const handlers = createHandlers(ctx);
let attached = 0;
for (let i = 0; i < Number(count); i++) {
  const r = (await invokeApi(handlers, 'agents.recall', {
    message: 'how do we deploy with the pricing cards?',
  })) as {
    notes: unknown[];
  };
  attached += r.notes.length;
}
await ctx.core.close();
process.stdout.write(JSON.stringify({ attached }));
