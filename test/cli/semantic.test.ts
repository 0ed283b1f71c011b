import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  embeddingsKeyPath,
  embeddingsSettingsPath,
  readEmbeddingsKey,
} from '../../electron/memory/semantic/settings.js';
import { fixture, note, writeNoteFile, type Fixture } from '../memory/helpers.js';
import { SEMANTIC_WEIGHT } from '../../electron/memory/search/fusion.js';
import { startStandInEmbeddings, type StandInServer } from '../semantic/stand-in-embeddings.js';
import { memdeskChild as memdesk } from '../support/memdesk-cli.js';

/**
 * `memdesk semantic status|on|off|configure|test` (issue 20) in a real CLI child process, against
 * a local stand-in embeddings server (deterministic vectors, a required API key as hosted providers
 * have): the key goes in through stdin only and never comes out; a search by another CLI process
 * then fills the vectors that `semantic status` counts.
 */
const KEY = 'sk-stand-in-7c1f0a9e44d2';
let fx: Fixture;
let standIn: StandInServer;
let g: string[];

beforeAll(async () => {
  standIn = await startStandInEmbeddings({ apiKey: KEY });
  fx = await fixture();
  g = ['--home', fx.home, '--project', fx.root];
  await writeNoteFile(
    fx.userDir,
    note('car-maintenance-plan', { summary: 'Car maintenance plan', body: 'Change the oil every 10,000 km.\n' }),
  );
});

afterAll(async () => {
  await standIn?.close();
});

const run = (args: string[], stdin?: string) =>
  memdesk([...g, ...args], { cwd: fx.root, ...(stdin !== undefined ? { stdin } : {}) });

/** `semantic.settings` once the stand-in endpoint and its key are saved. */
const savedSettings = (on: boolean) => ({
  enabled: on,
  baseUrl: standIn.baseUrl,
  model: 'stand-in',
  hasApiKey: true,
  active: on,
  weight: null,
  defaultWeight: SEMANTIC_WEIGHT,
});

/** Nothing the CLI prints, and no settings file, ever holds the key. */
async function expectKeyNowhere(...outputs: string[]): Promise<void> {
  for (const o of outputs) expect(o).not.toContain(KEY);
  expect(await fs.readFile(embeddingsSettingsPath(fx.home), 'utf8')).not.toContain(KEY);
}

describe('memdesk semantic (stand-in embeddings server)', { timeout: 180_000 }, () => {
  it('is off on a new home, and cannot be turned on before an endpoint is configured', async () => {
    const status = await run(['--json', 'semantic', 'status']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({
      settings: {
        enabled: false,
        baseUrl: null,
        model: null,
        hasApiKey: false,
        active: false,
        weight: null,
        defaultWeight: SEMANTIC_WEIGHT,
      },
      status: { active: false, embedded: 0, notes: 1, updatedAt: null, downSince: null },
    });
    const on = await run(['semantic', 'on']);
    expect(on.code).toBe(1);
    expect(on.stderr).toContain('run `memdesk semantic configure --url URL --model NAME` first');
  });

  it('configures the endpoint with the key from stdin, and never prints or stores it in the clear', async () => {
    const conf = await run(
      ['semantic', 'configure', '--url', standIn.baseUrl, '--model', 'stand-in', '--key-stdin'],
      `${KEY}\n`,
    );
    expect(conf.code).toBe(0);
    expect(conf.stdout).toBe(
      `semantic recall: off\nendpoint: ${standIn.baseUrl}\nmodel: stand-in\nAPI key: set\n`,
    );
    expect(conf.stderr).toBe('semantic recall is off: `memdesk semantic on` turns it on\n');
    expect(await readEmbeddingsKey(fx.home)).toBe(KEY);
    expect((await fs.stat(embeddingsKeyPath(fx.home))).mode & 0o777).toBe(0o600);
    await expectKeyNowhere(conf.stdout, conf.stderr);

    // On the command line the key is refused (other users can read a process's arguments), unechoed.
    const inArgv = await run(['semantic', 'configure', '--url', standIn.baseUrl, '--model', 'x', `--key=${KEY}`]);
    expect(inArgv.code).toBe(2);
    expect(inArgv.stderr).toContain('unknown option --key');
    await expectKeyNowhere(inArgv.stdout, inArgv.stderr);
    // From a pipe with nothing in it: a usage error, the stored key untouched.
    const empty = await run(['semantic', 'configure', '--url', standIn.baseUrl, '--model', 'stand-in', '--key-stdin']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--key-stdin: nothing on stdin');
    expect(await readEmbeddingsKey(fx.home)).toBe(KEY);
  });

  it('tests the saved endpoint (with the stored key) and a given one, saving nothing', async () => {
    const ok = await run(['--json', 'semantic', 'test']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, dimensions: 64 });

    const gone = await startStandInEmbeddings();
    await gone.close();
    const down = await run(['--json', 'semantic', 'test', '--url', gone.baseUrl, '--model', 'stand-in']);
    expect(down.code).toBe(1);
    expect(JSON.parse(down.stdout)).toMatchObject({ error: { code: 'unavailable' } });
    expect(down.stderr).toMatch(/^memdesk: the embeddings endpoint test failed \(down\): cannot reach/);

    // A wrong key typed for the test: the endpoint's 401, the stored key and settings unchanged.
    const wrong = await run(['semantic', 'test', '--key-stdin'], 'sk-wrong\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('test failed (unauthorized)');
    expect(await readEmbeddingsKey(fx.home)).toBe(KEY);
    await expectKeyNowhere(ok.stdout, ok.stderr, down.stdout, down.stderr, wrong.stdout, wrong.stderr);
  });

  it('turns on; a search by another process embeds the notes that status then counts; turns off', async () => {
    const on = await run(['--json', 'semantic', 'on']);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toEqual(savedSettings(true));

    // Words alone share none with the note: found through the stand-in's vectors.
    const search = await run(['--json', 'search', 'automobile servicing']);
    expect(search.code).toBe(0);
    expect(
      (JSON.parse(search.stdout) as { notes: { id: string }[] }).notes.map((n) => n.id),
    ).toContain('car-maintenance-plan');

    const status = await run(['semantic', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(
        `^semantic recall: on\\nendpoint: ${standIn.baseUrl.replace(/\./g, '\\.')}\\nmodel: stand-in\\nAPI key: set\\n` +
          'notes embedded: 1 of 1 \\(the rest are embedded as searches and recalls run\\)\\n' +
          'last update: \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\n$',
      ),
    );

    const off = await run(['--json', 'semantic', 'off']);
    expect(off.code).toBe(0);
    // Off keeps the endpoint, model and key for the next `semantic on`.
    expect(JSON.parse(off.stdout)).toEqual(savedSettings(false));
    await expectKeyNowhere(on.stdout, search.stdout, status.stdout, off.stdout);
  });
});
