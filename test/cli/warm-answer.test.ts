import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { WarmReplySchema } from '../../shared/warm-protocol.js';
import { startWebBridge } from '../../electron/transports/http/web-bridge.js';
import { readAdvertisement } from '../../electron/transports/warm/advertisement.js';
import { warmDir } from '../../electron/transports/warm/dir.js';
import { advertisementPath, envKey } from '../../electron/transports/warm/place.js';
import { fixture as hookInput } from '../hooks/helpers.js';
import {
  WORDS,
  advertisement,
  ask,
  cli,
  coldInProcess,
  hookLog,
  place,
  request,
  startServer,
  stopServer,
  useCliBundle,
  usageCounts,
  withServer,
  writeCorpus,
  writeQuokkaNote,
  type Place,
} from './warm-fixture.js';

/** Warm answers of recall and hooks (docs/agents.md "Warm answers"); the fixture: warm-fixture.ts. */
useCliBundle();

const QUERIES = [
  'how do we deploy to staging?',
  'postgres vacuum and index maintenance',
  'redis cache invalidation after a release',
  'retry with backoff on queue timeout',
  'rotate the certificate before renewal',
  'which eslint and vitest settings do we use',
  'docker image registry for kubernetes helm',
  'backup restore snapshot budget',
  'nothing in here matches zebra xylophone',
  'billing invoice alert pager oncall',
];

describe('warm answers from a running memdesk process', () => {
  it('are served by the web bridge too', async () => {
    const p = await place('bridge');
    await writeCorpus(p, 20);
    const bridge = await startWebBridge({
      home: p.home,
      projectRoot: p.root,
      port: 0,
      env: {},
      sync: false,
      consolidation: false,
    });
    try {
      // The bridge runs in this test worker, whose first answer also pays vitest's transform of the
      // CLI modules (seconds on a loaded machine, past the client's wait): one request first.
      const { ad } = readAdvertisement(advertisementPath(warmDir(process.env), p.home, p.root));
      await ask(ad!, request(p, ad!, ['recall', QUERIES[1]!]));
      const w = await cli(p, ['recall', QUERIES[0]!], { runtime: null });
      const c = await cli(p, ['recall', QUERIES[0]!]);
      expect(w.warm, w.stderr).toBe(true);
      expect(c.warm).toBe(false);
      expect(w.stdout).toBe(c.stdout);
    } finally {
      await bridge.close();
    }
  }, 120_000);

  it('answers recall and hooks exactly as the cold path does, and counts each recall once', async () => {
    const warm = await place('a');
    const cold = await place('b');
    await writeCorpus(warm, 60);
    await writeCorpus(cold, 60);
    const server = await startServer(warm);
    const noServer = path.join(warm.base, 'no-server');
    try {
      // Whole processes for the plumbing (stdout, stderr, exit code; a question, a plain query, one
      // that matches nothing); the answers themselves over many more queries just below.
      for (const q of [QUERIES[0]!, QUERIES[3]!, QUERIES[8]!]) {
        for (const args of [
          ['recall', q],
          ['--json', 'recall', q],
          ['recall', q, '--attached', 'note-1,note-3'],
        ]) {
          const w = await cli(warm, args);
          const c = await cli(warm, args, { runtime: noServer });
          expect(w.warm, `${args.join(' ')}: ${w.stderr}`).toBe(true);
          expect(c.warm).toBe(false);
          expect({ code: w.code, stdout: w.stdout, stderr: w.stderr }).toEqual({
            code: c.code,
            stdout: c.stdout,
            stderr: c.stderr,
          });
        }
      }
      // Many more queries straight over the socket, against the cold path run in this process.
      const { ad } = (await advertisement(warm))!;
      for (let i = 0; i < 40; i++) {
        const q = `${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 13 + 5) % WORDS.length]} ${i % 3 ? 'notes' : ''}`;
        const json = i % 2 === 0;
        const reply = WarmReplySchema.parse(await ask(ad, request(warm, ad, ['recall', q], json)));
        const expected = await coldInProcess(warm, [...(json ? ['--json'] : []), 'recall', q]);
        expect(reply, q).toEqual({ v: 2, status: 'answer', ...expected });
      }
      // Hooks record usage and session state: the same calls in two homes with the same notes, one
      // answered warm, one cold, must give the same answers and the same counts.
      const calls: Array<[string, string, (p: Place) => Promise<Record<string, unknown>>]> = [
        ['claude-code', 'SessionStart', (p) => hookInput('claude-code', 'SessionStart', { cwd: p.root })],
        ...QUERIES.slice(0, 6).map(
          (prompt, i) =>
            [
              'claude-code',
              'UserPromptSubmit',
              (p: Place) =>
                hookInput(
                  'claude-code',
                  'UserPromptSubmit',
                  { cwd: p.root },
                  { prompt, session_id: `s${i % 2}` },
                ),
            ] as [string, string, (p: Place) => Promise<Record<string, unknown>>],
        ),
        [
          'gemini',
          'BeforeAgent',
          (p) => hookInput('gemini', 'BeforeAgent', { cwd: p.root }, { prompt: QUERIES[0] }),
        ],
      ];
      for (const [harness, event, input] of calls) {
        const w = await cli(warm, ['hook', harness, event], { stdin: JSON.stringify(await input(warm)) });
        const c = await cli(cold, ['hook', harness, event], { stdin: JSON.stringify(await input(cold)) });
        expect(w.warm, `${harness} ${event}: ${w.stderr}`).toBe(true);
        expect(c.warm).toBe(false);
        expect(w.stdout).toBe(c.stdout);
        expect(w.code).toBe(0);
      }
      expect(Object.keys(await usageCounts(warm)).length).toBeGreaterThan(0);
      expect(await usageCounts(warm)).toEqual(await usageCounts(cold));
    } finally {
      await stopServer(server);
    }
    // The server is gone: the same home answers cold from here on, and the counts still add up.
    expect(await advertisement(warm)).toBeNull();
    for (const prompt of QUERIES.slice(6)) {
      for (const p of [warm, cold]) {
        const r = await cli(p, ['hook', 'claude-code', 'UserPromptSubmit'], {
          stdin: JSON.stringify(
            await hookInput(
              'claude-code',
              'UserPromptSubmit',
              { cwd: p.root },
              { prompt, session_id: 'late' },
            ),
          ),
        });
        expect(r.warm).toBe(false);
      }
    }
    expect(await usageCounts(warm)).toEqual(await usageCounts(cold));
    expect(await hookLog(warm)).toBe(''); // no server advertised is the usual case: nothing to log
  }, 600_000);

  it('sees a note edited on disk in the next warm answer', async () => {
    await withServer('edit', 20, async (p) => {
      const { file, note: written } = await writeQuokkaNote(p);
      const added = await cli(p, ['--json', 'recall', 'quokka survey']);
      expect(added.warm).toBe(true);
      expect((JSON.parse(added.stdout) as { notes: Array<{ id: string }> }).notes.map((n) => n.id)).toEqual([
        'quokka-habitat',
      ]);
      // A hook run from another directory (as Cursor runs user hooks) asks the session project's server.
      const elsewhere = await cli(p, ['hook', 'claude-code', 'UserPromptSubmit'], {
        cwd: p.base,
        noProject: true,
        stdin: JSON.stringify(
          await hookInput('claude-code', 'UserPromptSubmit', { cwd: p.root }, { prompt: 'quokka survey' }),
        ),
      });
      expect(elsewhere.warm).toBe(true);
      expect(elsewhere.stdout).toContain('Quokka habitat survey');
      // Edited in place: the summary now names wombats, not quokkas.
      await fs.writeFile(
        file,
        serializeNote({ ...written, summary: 'Wombat burrow survey', body: 'Wombat burrows.\n' }),
      );
      const edited = await cli(p, ['--json', 'recall', 'wombat burrow survey']);
      expect(edited.warm).toBe(true);
      expect((JSON.parse(edited.stdout) as { notes: Array<{ summary: string }> }).notes[0]?.summary).toBe(
        'Wombat burrow survey',
      );
      expect((await cli(p, ['recall', 'quokka'])).stdout).toBe('nothing would be recalled\n');
      await fs.rm(file);
      const removed = await cli(p, ['recall', 'wombat burrow survey']);
      expect(removed.warm).toBe(true);
      expect(removed.stdout).toBe('nothing would be recalled\n');
    });
  }, 300_000);

  it('answers cold after the server is killed, and from a stale advertisement', async () => {
    await withServer('kill', 20, async (p, server) => {
      const before = await cli(p, ['recall', QUERIES[0]!]);
      expect(before.warm).toBe(true);
      const { ad, file } = (await advertisement(p))!;
      await stopServer(server, 'SIGKILL');
      // kill -9 leaves the advertisement and the socket behind.
      expect((await advertisement(p))?.ad.pid).toBe(ad.pid);
      const after = await cli(p, ['recall', QUERIES[0]!]);
      expect(after.warm).toBe(false);
      expect(after.stdout).toBe(before.stdout);
      expect(await hookLog(p)).toMatch(/ warm recall: answered cold: advertised process is gone\n$/);
      // A pid that is alive but another process now (its start differs): this test's own.
      await fs.writeFile(file, JSON.stringify({ ...ad, pid: process.pid, start: 'another start' }), {
        mode: 0o600,
      });
      const reused = await cli(p, ['recall', QUERIES[0]!]);
      expect(reused.warm).toBe(false);
      expect(reused.stdout).toBe(before.stdout);
      expect(await hookLog(p)).toMatch(/answered cold: advertised pid belongs to another process now\n$/);
      // An advertisement others could read is not believed.
      await fs.chmod(file, 0o644);
      expect((await cli(p, ['recall', QUERIES[0]!])).warm).toBe(false);
      expect(await hookLog(p)).toMatch(/answered cold: advertisement not private to this user\n$/);
    });
  }, 300_000);

  it('refuses a wrong token and another home, and never logs the token or the message', async () => {
    await withServer('token', 20, async (p) => {
      const { ad, file } = (await advertisement(p))!;
      const good = WarmReplySchema.parse(await ask(ad, request(p, ad, ['recall', QUERIES[0]!])));
      expect(good).toMatchObject({ status: 'answer', exitCode: 0 });
      const wrong =
        `${ad.token.slice(0, -4)}AAAA` === ad.token
          ? `${ad.token.slice(0, -4)}BBBB`
          : `${ad.token.slice(0, -4)}AAAA`;
      expect(await ask(ad, { ...request(p, ad, ['recall', QUERIES[0]!]), token: wrong })).toEqual({
        v: 2,
        status: 'cold',
        reason: 'token refused',
      });
      expect(
        await ask(ad, { ...request(p, ad, ['recall', QUERIES[0]!]), home: path.join(p.base, 'other-home') }),
      ).toEqual({
        v: 2,
        status: 'cold',
        reason: 'another home or project',
      });
      expect(
        await ask(ad, {
          ...request(p, ad, ['recall', QUERIES[0]!]),
          envKey: envKey({ OHARNESS_MEMORY_RECALL_PER_TURN: '1' }),
        }),
      ).toMatchObject({
        status: 'cold',
      });
      // The CLI given a wrong token (an advertisement replaced meanwhile) answers cold, the same.
      await fs.writeFile(file, JSON.stringify({ ...ad, token: wrong }), { mode: 0o600 });
      const refused = await cli(p, ['recall', QUERIES[0]!]);
      expect(refused.warm).toBe(false);
      expect(refused.stdout).toBe(good.status === 'answer' ? good.stdout : '');
      const log = await hookLog(p);
      expect(log).toMatch(/answered cold: warm process declined: token refused\n$/);
      expect(log).not.toContain(ad.token);
      expect(log).not.toContain(wrong);
      expect(log).not.toContain('deploy');
    });
  }, 300_000);
});
