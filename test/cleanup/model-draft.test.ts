import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CleanupService, NO_MODEL_REASON } from '../../electron/cleanup/cleanup-service.js';
import { FileKeyStore } from '../../electron/cleanup/model/key-store.js';
import { DAY, sandbox, type Sandbox } from './helpers.js';
import { startStandInModel, type StandInModel } from './model-standin.js';

let sb: Sandbox;
let model: StandInModel;
let svc: CleanupService;

beforeEach(async () => {
  sb = await sandbox();
  model = await startStandInModel();
  const t = sb.clock.t;
  await sb.put('project', {
    id: 'old',
    summary: 'Run migrations before the dev server',
    tags: ['dev'],
    createdAt: t - 9 * DAY,
    body: 'npm run migrate first. See [[setup]].',
  });
  await sb.put('project', {
    id: 'new',
    summary: 'Migrations must run before starting the dev server',
    tags: ['database'],
    createdAt: t - DAY,
    body: 'Otherwise the server crashes.',
  });
  svc = new CleanupService({ core: sb.core, keyStore: new FileKeyStore(sb.home) });
});
afterEach(async () => {
  await model.close();
  await sb.close();
});

const answer = (o: unknown): { kind: 'content'; content: string } => ({
  kind: 'content',
  content: JSON.stringify(o),
});

describe('生成合并建议 against a stand-in for the external model (local chat-completions server)', () => {
  it('is disabled with a one-line reason while no model is configured', async () => {
    const status = await svc.modelStatus();
    expect(status).toMatchObject({
      available: false,
      reason: NO_MODEL_REASON,
      baseUrl: null,
      model: null,
      hasApiKey: false,
    });
    expect(status.reason).not.toContain('\n');
    const plan = await svc.planMerge({ ids: ['old', 'new'], draft: 'model' });
    expect(plan).toMatchObject({ draftSource: 'manual', fallback: NO_MODEL_REASON, keepId: 'old' });
    expect(model.requests).toEqual([]);
  });

  it('stand-in model: uses a valid answer, sends the key as a Bearer token, keeps the key in a 0600 file only', async () => {
    const status = await svc.configureModel({
      baseUrl: model.baseUrl,
      model: 'tiny-merge',
      apiKey: 'sk-test-standin-key-0123456789abcdef',
    });
    expect(status).toMatchObject({ available: true, reason: null, hasApiKey: true, model: 'tiny-merge' });
    model.respond(
      answer({
        summary: 'Run DB migrations before the dev server',
        type: 'project',
        tags: ['dev', 'database', 'dev'],
        body: 'Run `npm run migrate` before `npm run dev`, or the server crashes. See [[setup]].',
      }),
    );
    const plan = await svc.planMerge({ ids: ['new', 'old'], draft: 'model' });
    expect(plan).toMatchObject({
      keepId: 'old',
      draftSource: 'model',
      draft: {
        summary: 'Run DB migrations before the dev server',
        type: 'project',
        tags: ['dev', 'database'],
      },
    });
    expect(plan.fallback).toBeUndefined();
    expect(plan.draft.body).toContain('[[setup]]'); // shown to the model (linked from an original): kept

    const req = model.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.authorization).toBe('Bearer sk-test-standin-key-0123456789abcdef');
    expect(req.body.model).toBe('tiny-merge');
    expect(req.body.messages.map((m) => m.content).join('\n')).toContain('"id":"old"');

    const keyFile = path.join(sb.home, 'memory-cleanup', 'model-key');
    expect((await fs.stat(keyFile)).mode & 0o777).toBe(0o600);
    const elsewhere = [
      path.join(sb.home, 'memory-cleanup', 'model.json'),
      path.join(sb.home, 'config.json'),
      path.join(sb.home, 'plugins.json'),
    ];
    for (const f of elsewhere)
      expect(await fs.readFile(f, 'utf8').catch(() => '')).not.toContain('sk-test-standin');

    // Applying the model's plan takes the same path as a manual one.
    const result = await svc.applyMerge(plan);
    expect(result.deletedIds).toEqual(['new']);
    expect(await sb.raw('project', 'old')).toContain('Run DB migrations before the dev server');
  });

  it('stand-in model: unbrackets links to ids it was not shown and masks credentials in its answer', async () => {
    await svc.configureModel({ baseUrl: model.baseUrl, model: 'm' });
    model.respond({
      kind: 'content',
      content:
        'Here is the merged note:\n```json\n' +
        JSON.stringify({
          summary: 'Migrations first; token sk-live-ABCDEFGHIJKLMNOPQRSTUVWX',
          type: null,
          tags: 'dev, database',
          body: 'See [[setup]], [[invented-note]] and [[made-up|the guide]]. password = hunter2hunter2 and ghp_0123456789abcdefghijABCDEFGHIJ0123',
        }) +
        '\n```',
    });
    const plan = await svc.planMerge({ ids: ['old', 'new'], draft: 'model' });
    expect(plan.draftSource).toBe('model');
    expect(plan.draft.body).toContain('[[setup]]');
    expect(plan.draft.body).toContain('invented-note and the guide.');
    expect(plan.draft.body).not.toMatch(/hunter2|ghp_0123/);
    expect(plan.draft.summary).not.toContain('sk-live');
    expect(plan.draft.summary).toContain('[redacted]');
    expect(plan.draft.type).toBeUndefined();
    expect(plan.draft.tags).toEqual(['dev', 'database']);
    expect(plan.remarks).toEqual([
      'links to unknown notes lost their brackets: invented-note, made-up',
      'credential-looking text was masked',
    ]);
  });

  it.each([
    [
      'prose instead of JSON',
      { kind: 'content', content: 'Sure! I merged them: migrations go first.' },
      /did not answer with a JSON object/,
    ],
    [
      'JSON of the wrong shape',
      { kind: 'content', content: '{"title":"x","text":"y"}' },
      /not a note \(summary/,
    ],
    [
      'an unknown note type',
      { kind: 'content', content: '{"summary":"s","type":"opinion","tags":[],"body":"b"}' },
      /not a note \(type/,
    ],
    [
      'an HTTP error',
      { kind: 'raw', status: 500, body: '{"error":{"message":"model overloaded"}}' },
      /HTTP 500: .*model overloaded/,
    ],
    [
      'a non-chat-completions body',
      { kind: 'raw', status: 200, body: '{"choices":[]}' },
      /no message content/,
    ],
  ] as const)(
    'stand-in model: falls back to the manual draft with an explanation on %s',
    async (_name, behaviour, reason) => {
      await svc.configureModel({ baseUrl: model.baseUrl, model: 'm' });
      model.respond(behaviour);
      const manual = await svc.planMerge({ ids: ['old', 'new'], draft: 'manual' });
      const plan = await svc.planMerge({ ids: ['old', 'new'], draft: 'model' });
      expect(plan.draftSource).toBe('manual');
      expect(plan.draft).toEqual(manual.draft);
      expect(plan.fallback).toMatch(reason);
      expect(plan.fallback).toContain('手动合并');
    },
  );

  it('stand-in model: falls back when the model does not answer within the configured timeout, or is cancelled', async () => {
    await svc.configureModel({ baseUrl: model.baseUrl, model: 'm', timeoutMs: 150 });
    model.respond({ kind: 'hang' });
    const plan = await svc.planMerge({ ids: ['old', 'new'], draft: 'model' });
    expect(plan.draftSource).toBe('manual');
    expect(plan.fallback).toMatch(/did not answer within 0\.2 s/);

    await svc.configureModel({ baseUrl: model.baseUrl, model: 'm', timeoutMs: 60_000 });
    const cancel = new AbortController();
    const pending = svc.planMerge({ ids: ['old', 'new'], draft: 'model', signal: cancel.signal });
    while (model.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    cancel.abort();
    expect((await pending).fallback).toMatch(/cancelled/);
  });

  it('stand-in model: an oversized answer falls back; an unreachable model falls back', async () => {
    await sb.reopen({ OHARNESS_MEMORY_MAX_NOTE_BYTES: '500' });
    svc = new CleanupService({ core: sb.core, keyStore: new FileKeyStore(sb.home) });
    await svc.configureModel({ baseUrl: model.baseUrl, model: 'm' });
    model.respond(answer({ summary: 's', tags: [], body: 'x'.repeat(501) }));
    expect((await svc.planMerge({ ids: ['old', 'new'], draft: 'model' })).fallback).toMatch(
      /501 bytes, over memory\.maxNoteBytes/,
    );

    await svc.configureModel({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
    expect((await svc.planMerge({ ids: ['old', 'new'], draft: 'model' })).fallback).toMatch(
      /cannot reach the model/,
    );
  });

  // The user store takes the user config's memory.maxNoteBytes (core.config is project-layered): a
  // model's draft for a user-scope merge is checked against that limit, the one applyMerge uses.
  // A 3,000-byte answer between the two limits, one way and the other.
  it.each([
    { userMax: 2000, projectMax: 4000, usable: false },
    { userMax: 4000, projectMax: 2000, usable: true },
  ])(
    "stand-in model (fake model API): a user-scope merge's draft is checked against the user store's maxNoteBytes ($userMax; project $projectMax)",
    async ({ userMax, projectMax, usable }) => {
      await fs.writeFile(
        path.join(sb.home, 'config.json'),
        JSON.stringify({ memory: { maxNoteBytes: userMax } }),
      );
      await fs.mkdir(path.join(sb.root, '.oharness'), { recursive: true });
      await fs.writeFile(
        path.join(sb.root, '.oharness', 'config.json'),
        JSON.stringify({ memory: { maxNoteBytes: projectMax } }),
      );
      await sb.reopen();
      expect(sb.core.config.maxNoteBytes).toBe(projectMax);
      expect(sb.core.store('user')?.maxNoteBytes).toBe(userMax);
      await sb.put('user', { id: 'u1', summary: 'One', createdAt: sb.clock.t - 2 * DAY, body: 'one' });
      await sb.put('user', { id: 'u2', summary: 'Two', createdAt: sb.clock.t - DAY, body: 'two' });
      svc = new CleanupService({ core: sb.core, keyStore: new FileKeyStore(sb.home) });
      await svc.configureModel({ baseUrl: model.baseUrl, model: 'm' });
      const body = 'm'.repeat(3000);
      model.respond(answer({ summary: 'One and two', tags: [], body }));

      const plan = await svc.planMerge({ ids: ['u1', 'u2'], scope: 'user', draft: 'model' });
      expect(model.requests).toHaveLength(1);
      expect(plan).toMatchObject({ scope: 'user', keepId: 'u1' });
      if (!usable) {
        expect(plan.draftSource).toBe('manual');
        expect(plan.fallback).toMatch(/3000 bytes, over memory\.maxNoteBytes \(2000\)/);
        return;
      }
      expect(plan.fallback).toBeUndefined();
      expect(plan).toMatchObject({ draftSource: 'model', draft: { summary: 'One and two', body } });
      // The draft the plan carries is one the user store takes.
      expect(await svc.applyMerge(plan)).toMatchObject({ scope: 'user', keptId: 'u1', deletedIds: ['u2'] });
      const store = sb.core.store('user')!;
      await store.load();
      expect(store.get('u1')?.body).toBe(body);
      expect(store.held()).toEqual([]);
    },
  );

  it('removes the key and the model again', async () => {
    await svc.configureModel({ baseUrl: model.baseUrl, model: 'm', apiKey: 'sk-abc' });
    expect(await svc.configureModel({ baseUrl: null, model: null, apiKey: null })).toMatchObject({
      available: false,
      hasApiKey: false,
    });
  });
});
