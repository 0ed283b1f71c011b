import { afterEach, describe, expect, it } from 'vitest';
import type { HandlerContext } from '../../electron/api/context.js';
import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';
import { DAY, sandbox, type Sandbox } from './helpers.js';
import { startStandInModel, type StandInModel } from './model-standin.js';

let sb: Sandbox;
let ctx: HandlerContext;
let model: StandInModel;
afterEach(async () => {
  await model?.close();
  await ctx?.core.close();
  await sb?.close();
});

describe('cleanup.* through the API table (the path every transport takes)', () => {
  it('validates input with the shared schemas, plans with a model and cancels a draft in progress (stand-in model server)', async () => {
    sb = await sandbox();
    const t = sb.clock.t;
    await sb.put('project', { id: 'a', summary: 'Use pnpm for packages', createdAt: t - DAY });
    await sb.put('project', { id: 'b', summary: 'Packages: use pnpm', createdAt: t });
    ({ ctx } = await createAppRoot({ home: sb.home, now: sb.clock.now, env: {} }).open({ projectRoot: sb.root }));
    const handlers = createHandlers(ctx);
    const call = (method: string, input: unknown): Promise<unknown> => invokeApi(handlers, method, input);

    await expect(call('cleanup.mergePlan', { ids: ['a'] })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/at least 2 notes/),
    });
    await expect(call('cleanup.mergeApply', { keepId: 'a' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(await call('cleanup.modelStatus', {})).toMatchObject({
      available: false,
      reason: expect.any(String),
    });
    expect(await call('cleanup.findings', {})).toMatchObject({
      findings: [expect.objectContaining({ id: 'same_topic:project:a,b' })],
    });
    // The tab badge's count: the same findings, counted on the core.
    expect(await call('cleanup.count', {})).toEqual({ count: 1 });

    model = await startStandInModel();
    model.respond({ kind: 'hang' });
    await call('cleanup.modelConfigure', { baseUrl: model.baseUrl, model: 'stand-in' });
    const pending = call('cleanup.mergePlan', { ids: ['a', 'b'], draft: 'model', requestId: 'r1' });
    while (model.requests.length < 1) await new Promise((r) => setTimeout(r, 5));
    expect(await call('cleanup.cancelDraft', { requestId: 'r1' })).toEqual({ cancelled: true });
    expect(await pending).toMatchObject({
      draftSource: 'manual',
      keepId: 'a',
      fallback: expect.stringMatching(/cancelled/),
    });
    expect(await call('cleanup.cancelDraft', { requestId: 'r1' })).toEqual({ cancelled: false });
  });
});
