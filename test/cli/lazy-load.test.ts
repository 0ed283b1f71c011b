import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { cliCommandIndex } from '../../electron/transports/cli/commands/index.js';
import { warmDir } from '../../electron/transports/warm/dir.js';
import { indexCacheFile } from '../../electron/memory/index-cache.js';
import { CORE_PREFIX } from '../../electron/transports/cli/core-file.js';
import { fixture, tempDir } from '../memory/helpers.js';
import {
  CLI_SOURCE_ENTRY as sourceEntry,
  runProcess,
  TSX_LOADER as tsxLoader,
} from '../support/memdesk-cli.js';

const moduleLog = new URL('./module-log/register.mjs', import.meta.url).href;

/** Node with these arguments (a loader, an entry point) and then the CLI's. */
/** The hook's budget at its most: run from sources with a module log, on a loaded machine it may need it. */
const run = (nodeArgs: string[], args: string[], cwd: string, stdin = '', env: Record<string, string> = {}) =>
  runProcess([process.execPath, ...nodeArgs, ...args], {
    cwd,
    stdin,
    env: { MEMDESK_HOOK_BUDGET_MS: '9999', ...env },
  });

/** What a one-shot note command must never load: the MCP SDK, the sync engine, zip and SQLite code, other areas' schemas. */
const HEAVY = [
  '@modelcontextprotocol/sdk',
  'ajv',
  'zod-to-json-schema',
  'sql.js',
  'fflate',
  '@aws-sdk',
  '/electron/sync/',
  '/electron/transports/mcp/',
  '/electron/cleanup/',
  // The API table of other areas: a command builds only its own area's schemas (shared/api/methods.ts).
  '/shared/api.ts',
  '/shared/api/sync.ts',
  '/shared/api/account.ts',
  '/shared/api/cleanup.ts',
  '/shared/api/encryption.ts',
  '/shared/sync-protocol.ts',
];
/** zod's full (classic) API, as the module log names its files. */
const ZOD_CLASSIC = /\/node_modules\/zod\/(index\.js|v4\/classic\/)/;
/** Leaves a one-shot command may load under a HEAVY folder: the warm step's pid check (node: modules only). */
const LEAVES = ['/electron/sync/owner/process-identity.ts'];
/**
 * The warm step (warm-first.ts, when any warm server is advertised: warm/dir.ts) runs before
 * anything else of a recall or hook: these files and zod/mini, nothing more, until it hands over
 * to the cold path (load-cli.ts).
 */
const WARM_STEP = [
  '/electron/transports/cli/memdesk.ts',
  '/electron/transports/warm/dir.ts',
  '/electron/transports/cli/warm-first.ts',
  '/electron/agents/hooks/contracts.ts',
  '/electron/transports/cli/globals.ts',
  '/electron/transports/cli/types.ts',
  '/electron/memory/default-home.ts',
  '/electron/transports/warm/client.ts',
  '/electron/transports/warm/advertisement.ts',
  '/electron/transports/warm/place.ts',
  '/electron/sync/owner/process-identity.ts',
  '/shared/warm-protocol.ts',
];
/** What a command that writes no note never loads: the credential check runs only on writes. */
const WRITE_ONLY = ['@secretlint/'];

describe('memdesk CLI loading', () => {
  it('lists every command of every command file exactly once, with the file that defines it', async () => {
    const areas = [...new Set(cliCommandIndex.map(([, area]) => area))];
    const defined = new Set<string>();
    for (const area of areas) for (const c of await area()) defined.add(c.name);
    const listed = cliCommandIndex.map(([name]) => name);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...defined].sort()).toEqual([...listed].sort());
    // Each command is listed with the file that defines it.
    for (const [name, area] of cliCommandIndex)
      expect((await area()).some((c) => c.name === name)).toBe(true);
  });

  it('loads only what a note command needs (no MCP SDK, sync engine, zip or SQLite code)', async () => {
    const fx = await fixture();
    const g = ['--home', fx.home, '--project', fx.root];
    const remember = await run(
      ['--import', tsxLoader, '--import', moduleLog, sourceEntry],
      [...g, 'remember', '--summary', 'Deploy with the release checklist', '--body', 'Run the checks.'],
      fx.root,
    );
    expect(remember.code, remember.stderr).toBe(0);
    // The per-message hook: recall for the prompt, no extraction or setup code (those load when called).
    const prompt = JSON.stringify({
      session_id: 'lazy-load',
      hook_event_name: 'UserPromptSubmit',
      cwd: fx.root,
      prompt: 'how do we deploy?',
    });
    // Some warm server is advertised (another project's: this one's is not), so the warm step runs
    // and hands over to the cold path; a private runtime directory keeps other tests' servers out.
    const runtime = await tempDir('lazy-load-runtime');
    await fs.chmod(runtime, 0o700);
    const runtimeEnv = { XDG_RUNTIME_DIR: runtime, LOCALAPPDATA: runtime }; // Windows: %LOCALAPPDATA%
    await fs.mkdir(warmDir(runtimeEnv), { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(warmDir(runtimeEnv), `${'0'.repeat(32)}.json`), '{}');
    for (const [args, stdin] of [
      [['recall', 'how do we deploy?'], ''],
      [['list'], ''],
      [['search', 'deploy']],
      [['hook', 'claude-code', 'UserPromptSubmit'], prompt],
    ] as Array<[string[], string?]>) {
      const r = await run(
        ['--import', tsxLoader, '--import', moduleLog, sourceEntry],
        [...g, ...args],
        fx.root,
        stdin,
        runtimeEnv,
      );
      expect(r.code, r.stderr).toBe(0);
      const modules = r.stderr.split('\n').filter((l) => l.startsWith('module-log '));
      expect(modules.length).toBeGreaterThan(10);
      const notForHooks = args[0] === 'hook' ? ['/electron/agents/extract/', '/electron/agents/setup/'] : [];
      if (args[0] === 'hook') expect(r.stdout).toContain('Deploy with the release checklist');
      if (['recall', 'hook', 'list', 'search'].includes(args[0]!)) {
        // Up to the hand-over to the cold path (load-cli.ts, which loads run.ts).
        const first = modules.slice(
          0,
          modules.findIndex((m) => m.includes('/electron/transports/cli/load-cli.ts')),
        );
        const unexpected = first.filter(
          (m) =>
            !m.includes('module-log node:') &&
            !m.includes('/node_modules/zod/') &&
            !WARM_STEP.some((w) => m.endsWith(w)),
        );
        expect(unexpected, `${args[0]}: the warm step`).toEqual([]);
        expect(first.some((m) => m.endsWith('/electron/transports/cli/warm-first.ts'))).toBe(true);
        // zod/mini and the core it is built on, never zod's full (classic) API.
        expect(first.filter((m) => ZOD_CLASSIC.test(m))).toEqual([]);
      }
      // The schemas of the note commands and the hook are zod/mini (shared/note.ts, the notes and agents
      // tables, the config): zod's full API is the MCP server's and the other areas', never theirs.
      expect(
        modules.filter((m) => ZOD_CLASSIC.test(m)),
        `${args[0]}: zod`,
      ).toEqual([]);
      // The agents table (and the schemas it builds) is the hook's: the memory config's bank-scope
      // enum is in shared/bank-scope.ts, so a note command no longer builds it (issue 14).
      const agentsTable = args[0] === 'hook' ? [] : ['/shared/api/agents.ts'];
      for (const heavy of [...HEAVY, ...WRITE_ONLY, ...notForHooks, ...agentsTable])
        expect(
          modules.filter((m) => m.includes(heavy) && !LEAVES.some((leaf) => m.endsWith(leaf))),
          `${args[0]}: ${heavy}`,
        ).toEqual([]);
    }
    expect(
      remember.stderr
        .split('\n')
        .filter((l) => [...HEAVY, '/shared/api/agents.ts'].some((h) => l.includes(h))),
    ).toEqual([]);
    expect(remember.stderr.split('\n').filter((l) => ZOD_CLASSIC.test(l))).toEqual([]);
    // zod/mini alone still speaks English (shared/zod-mini.ts): zod registers its messages only
    // when its full API builds a schema, and without them every issue read "Invalid input".
    const tooMany = await run(
      ['--import', tsxLoader, '--import', moduleLog, sourceEntry],
      [...g, 'search', 'deploy', '--limit', '5000'],
      fx.root,
    );
    expect(tooMany.code).not.toBe(0);
    expect(tooMany.stderr).toContain('limit: Too big: expected number to be <=1000');
    expect(tooMany.stderr.split('\n').filter((l) => ZOD_CLASSIC.test(l))).toEqual([]);
    // The note was checked for credentials: the check itself still loads where it is needed.
    expect(remember.stderr).toContain('@secretlint/core');
    // With no warm server advertised at all, a recall goes straight to the cold path: the warm
    // step is not loaded, and the answer is the same.
    const quiet = await tempDir('lazy-load-no-warm');
    await fs.chmod(quiet, 0o700);
    const straight = await run(
      ['--import', tsxLoader, '--import', moduleLog, sourceEntry],
      [...g, 'recall', 'how do we deploy?'],
      fx.root,
      '',
      { XDG_RUNTIME_DIR: quiet, LOCALAPPDATA: quiet },
    );
    expect(straight.code, straight.stderr).toBe(0);
    expect(straight.stdout).toContain('Deploy with the release checklist');
    const loaded = straight.stderr.split('\n').filter((l) => l.startsWith('module-log '));
    const beforeCold = loaded
      .slice(
        0,
        loaded.findIndex((m) => m.includes('/electron/transports/cli/load-cli.ts')),
      )
      .filter((m) => !m.includes('module-log node:'));
    expect(beforeCold.map((m) => m.replace(/^.*\/electron\//, '/electron/'))).toEqual([
      '/electron/transports/cli/memdesk.ts',
      '/electron/transports/warm/dir.ts',
    ]);
    // Six processes under the tsx loader: on the shared machine each can take several seconds.
  }, 120_000);

  it('loads no zod with AppError: shared/errors.ts and the CLI error classes are zod-free', async () => {
    // Every command reaches shared/errors.ts; its schemas are in shared/error-schemas.ts. When
    // AppError sat beside them, each command loaded zod's full API through it (docs/performance.md).
    const files = ['shared/errors.ts', 'electron/transports/cli/exit-code-error.ts'].map(
      (f) => new URL(`../../${f}`, import.meta.url).href,
    );
    const script = files.map((f) => `await import(${JSON.stringify(f)});`).join(' ');
    const r = await run(
      ['--import', tsxLoader, '--import', moduleLog, '--input-type=module', '-e', script],
      [],
      path.dirname(sourceEntry),
    );
    expect(r.code, r.stderr).toBe(0);
    const modules = r.stderr.split('\n').filter((l) => l.startsWith('module-log '));
    expect(modules.some((m) => m.endsWith('/shared/errors.ts'))).toBe(true);
    expect(
      modules.filter((m) => m.includes('/node_modules/zod/') || m.endsWith('/shared/error-schemas.ts')),
    ).toEqual([]);
  }, 60_000);

  it('ships as a bundle that runs the commands, the help and the MCP server', async () => {
    const out = await tempDir('bundle');
    const bin = await buildCliBundle(path.join(out, 'cli'));
    // The files built apart (the warm step, the MCP front) hold zod/mini at most, never zod's full
    // API: their dynamic imports are bundled in, so a module the source run never loads (the hook
    // log's error helpers) can still drag it in. "ZodString" names the full API's string schema.
    for (const apart of ['warm-first.js', 'mcp-first.js'])
      expect((await fs.readFile(path.join(out, 'cli', apart), 'utf8')).includes('"ZodString"'), apart).toBe(
        false,
      );
    // The bundle says it is ESM wherever it is copied (else Node compiles each file twice, as CommonJS first).
    expect(JSON.parse(await fs.readFile(path.join(out, 'cli', 'package.json'), 'utf8'))).toEqual({
      type: 'module',
    });
    const fx = await fixture();
    const g = ['--home', fx.home, '--project', fx.root];
    const help = await run([bin], ['--help'], fx.root);
    expect(help.code).toBe(0);
    for (const [name] of cliCommandIndex) expect(help.stdout).toContain(`  ${name}`);
    const remembered = await run(
      [bin],
      [
        ...g,
        '--json',
        'remember',
        '--summary',
        'Deploy with the release checklist',
        '--body',
        'Run the checks.',
      ],
      fx.root,
    );
    expect(remembered.code, remembered.stderr).toBe(0);
    expect(JSON.parse(remembered.stdout)).toMatchObject({ scope: 'project' });
    const recalled = await run(
      [bin],
      [...g, '--json', 'recall', 'how do we deploy with the checklist?'],
      fx.root,
    );
    expect(recalled.code, recalled.stderr).toBe(0);
    expect((JSON.parse(recalled.stdout) as { notes: Array<{ summary: string }> }).notes[0]?.summary).toBe(
      'Deploy with the release checklist',
    );
    const unknown = await run([bin], [...g, 'no-such-command'], fx.root);
    expect(unknown.code).toBe(2);
    // The CLI is one CommonJS file named after its content, strict as the ESM sources (so are the
    // workers'); each command that ran well in this home kept V8's code cache for it there
    // (memdesk-core-<build>-<variant>-<command>-v8-<version>-<arch>.bin): not the mistyped one, nor
    // --help in a home of its own.
    const built = await fs.readdir(path.join(out, 'cli'));
    const core = built.filter((f) => /^memdesk-core-[0-9a-f]{16}\.cjs$/.test(f));
    expect(core).toHaveLength(1);
    for (const file of [...core, 'findings-worker.cjs', 'import-worker.cjs'])
      expect((await fs.readFile(path.join(out, 'cli', file), 'utf8')).startsWith('"use strict";'), file).toBe(
        true,
      );
    // ASCII throughout: one character past it and V8 holds the CLI's whole 1 MB source as two-byte
    // text, decoded from UTF-8 at every start (~8 ms CPU). esbuild escapes strings and names, not
    // regular expression literals: the sources write those with \u escapes.
    for (const file of built.filter((f) => /\.(c?js)$/.test(f)))
      expect(
        /[\u0080-\uffff]/.exec(await fs.readFile(path.join(out, 'cli', file), 'latin1'))?.index,
        `${file}: the first character that is not ASCII`,
      ).toBeUndefined();
    const build = core[0]!.replace(/\.cjs$/, '');
    // The bundle tells the index cache its build (ProjectOptions.analyzerBuild): the caches it
    // saved say who wrote them, so its next runs take them without analysing the probe.
    const cacheFile = await fs.readFile(indexCacheFile(fx.home, 'project', fx.memoryDir));
    const cacheHeader = JSON.parse(cacheFile.toString('utf8', 0, cacheFile.indexOf(0x0a))) as {
      writtenBy: string;
    };
    expect(cacheHeader.writtenBy.split(' ')[0]).toBe(build.slice(CORE_PREFIX.length));
    const suffix = `-v8-${process.versions.v8}-${process.arch}.bin`;
    const codeDir = path.join(fx.home, 'memory-cache', 'cli-code');
    const cached = async () => {
      const names = (await fs.readdir(codeDir)).filter((n) => n.startsWith(build)).sort();
      for (const n of names)
        expect(n).toMatch(new RegExp(`^${build}-[0-9a-f]{16}-[a-z-]+${suffix.replace(/\./g, '\\.')}$`));
      return names.map((n) => n.slice(build.length + 18, -suffix.length));
    };
    expect(await cached()).toEqual(['recall', 'remember']);
    const helpHome = path.join(out, 'help-home');
    expect((await run([bin], ['--home', helpHome, 'recall', '--help'], fx.root)).code).toBe(0);
    await expect(fs.stat(path.join(helpHome, 'memory-cache'))).rejects.toThrow();
    // V8 took the cache at the next recall: a refused one would have been written again.
    const recallCache = path.join(
      codeDir,
      (await fs.readdir(codeDir)).find((n) => n.includes('-recall-'))!,
    );
    const before = (await fs.stat(recallCache)).mtimeMs;
    expect((await run([bin], [...g, 'recall', 'deploy'], fx.root)).code).toBe(0);
    expect((await fs.stat(recallCache)).mtimeMs).toBe(before);
    // Once a cache is written, other builds' caches for this V8 go, all but the newest two builds';
    // another V8's cache (the app's Electron) stays unless a month old, as does anything that old.
    const earlier = (hex: string, command: string, v8 = process.versions.v8) =>
      `memdesk-core-${hex.repeat(16)}-0000000000000000-${command}-v8-${v8}-${process.arch}.bin`;
    const left = [
      earlier('a', 'recall'),
      earlier('b', 'recall'),
      earlier('b', 'list'),
      earlier('c', 'hook'),
      earlier('d', 'recall', '0.0.0'),
      earlier('e', 'recall', '0.0.1'), // a month old
    ];
    const minutes = (n: number) => new Date(Date.now() - n * 60_000);
    for (const [i, name] of left.entries()) {
      await fs.writeFile(path.join(codeDir, name), 'an earlier version’s cache');
      const at = i === 5 ? minutes(31 * 24 * 60) : minutes(10 - i); // a oldest … d newest
      await fs.utimes(path.join(codeDir, name), at, at);
    }
    expect((await run([bin], [...g, 'list'], fx.root)).code).toBe(0);
    expect((await fs.readdir(codeDir)).filter((n) => !n.startsWith(build)).sort()).toEqual(
      left.slice(1, 5).sort(),
    );
    expect(await cached()).toEqual(['list', 'recall', 'remember']);
    // Inside the desktop app (Electron runs the bundle) no cache is read or kept: bytecode from the
    // home would be code the app's ASAR integrity does not cover.
    const asElectron = path.join(out, 'as-electron.mjs');
    await fs.writeFile(
      asElectron,
      "Object.defineProperty(process.versions, 'electron', { value: '99.0.0' });\n",
    );
    const appHome = path.join(out, 'app-home');
    const inApp = await run(
      ['--import', pathToFileURL(asElectron).href, bin],
      ['--home', appHome, '--project', fx.root, 'list'],
      fx.root,
    );
    expect(inApp.code, inApp.stderr).toBe(0);
    expect(await fs.readdir(path.join(appHome, 'memory-cache')).catch(() => [])).not.toContain('cli-code');
    // The bin ends its process itself once nothing is left to do (process.exit at 'beforeExit',
    // skipping V8's teardown of its heap), with the command's exit code and its writes done. And a
    // note command never loads child_process (with net and dgram, ~3 ms of every cold start): only
    // registering a project runs a process (git, for the root commit).
    const exitLog = path.join(out, 'exit-log.mjs');
    await fs.writeFile(
      exitLog,
      "import { writeSync } from 'node:fs';\n" +
        'const exit = process.exit.bind(process);\n' +
        'process.exit = (code) => { writeSync(2, `process.exit(${code})\\n`); return exit(code); };\n' +
        "process.on('exit', () => writeSync(2, `child_process loaded: ${process.moduleLoadList.includes('NativeModule child_process')}\\n`));\n",
    );
    // A runtime directory of its own: a warm server another test advertises would bring in the warm
    // step, whose process check is what may load child_process.
    const noWarm = await tempDir('lazy-load-exit-runtime');
    await fs.chmod(noWarm, 0o700);
    const logged = (args: string[]) =>
      run(['--import', pathToFileURL(exitLog).href, bin], [...g, ...args], fx.root, '', {
        XDG_RUNTIME_DIR: noWarm,
        LOCALAPPDATA: noWarm,
      });
    const secondNote = await logged(['--json', 'remember', '--summary', 'Release notes go out on Fridays']);
    expect(secondNote.code, secondNote.stderr).toBe(0);
    expect(secondNote.stderr).toContain('process.exit(0)\nchild_process loaded: false');
    const { id } = JSON.parse(secondNote.stdout) as { id: string };
    await expect(fs.readFile(path.join(fx.root, 'MEMORY', `${id}.md`), 'utf8')).resolves.toContain(
      'Release notes go out on Fridays',
    );
    for (const args of [['recall', 'release notes'], ['list']]) {
      const r = await logged(args);
      expect([r.code, r.stderr], args[0]).toEqual([0, 'process.exit(0)\nchild_process loaded: false\n']);
    }
    const mistyped = await logged(['no-such-command']);
    expect([mistyped.code, mistyped.stderr.includes('process.exit(2)')]).toEqual([2, true]);
    // The MCP command (the SDK bundled into the CLI's file) loads and answers on stdin/stdout.
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    };
    const mcp = await run([bin], [...g, 'mcp'], fx.root, JSON.stringify(initialize) + '\n');
    expect(mcp.code, mcp.stderr).toBe(0);
    expect(JSON.parse(mcp.stdout.split('\n')[0]!)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'memory-desk' } },
    });
    await fs.rm(out, { recursive: true, force: true });
    // Seven esbuild builds (the CLI's file, the workers, the bin and its first steps) and seven processes on a loaded machine.
  }, 120_000);
});
