import { promises as fs, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { getFileMatchers } from 'app-builder-lib/out/fileMatcher.js';
import { PlatformPackager, type Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import forgeConfig from '../../forge.config.js';
import { bundledCliEntry } from '../../electron/agents/setup/app-cli.js';
import { buildCliBundle, VENDORED_SQL_JS } from '../../scripts/build-cli.js';

/**
 * The packaging config as the builders read it: electron-builder.yml through electron-builder's own
 * loader, schema check, file matcher and fuse mapping, and forge.config.ts's own hook. The app ships
 * its CLI inside app.asar, and the Electron fuses are what docs/security.md says.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let config: Configuration;
let tmp: string;

beforeAll(async () => {
  config = await getConfig(repo, 'electron-builder.yml', null);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-packaging-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Every directory and file under `dir`, relative to `root`, with its stats (a builder's walk). */
async function walk(root: string, dir: string): Promise<Array<[string, Stats]>> {
  const out: Array<[string, Stats]> = [];
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file);
    out.push([file, stat]);
    if (stat.isDirectory()) out.push(...(await walk(root, file)));
  }
  return out;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema check', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('puts the CLI bundle the app runs into app.asar: every file of a real build matches its `files`, none unpacked', async () => {
    // A project laid out as `npm run build:electron` leaves it: main beside .vite/cli.
    const project = path.join(tmp, 'project');
    const mainDir = path.join(project, '.vite', 'build');
    await fs.mkdir(mainDir, { recursive: true });
    await fs.writeFile(path.join(mainDir, 'main.cjs'), '');
    await fs.writeFile(path.join(project, 'package.json'), '{}');
    const entry = bundledCliEntry(mainDir);
    await buildCliBundle(path.dirname(entry), { app: true });
    const matchers = getFileMatchers(config, 'files', path.join(project, 'app'), {
      macroExpander: (p) => p,
      customBuildOptions: config.linux ?? {},
      globalOutDir: path.join(project, 'release'),
      defaultSrc: project,
    })!;
    expect(matchers).toHaveLength(1);
    const filter = matchers[0]!.createFilter();
    const tree = await walk(project, path.join(project, '.vite'));
    const rel = (f: string) => path.relative(project, f);
    expect(tree.map(([f]) => rel(f))).toEqual(
      expect.arrayContaining([
        '.vite/cli/memdesk.js',
        `.vite/cli/${VENDORED_SQL_JS}/dist/sql-wasm.wasm`,
        `.vite/cli/${VENDORED_SQL_JS}/package.json`,
      ]),
    );
    for (const [file, stat] of tree) expect(filter(file, stat), rel(file)).toBe(true);
    // The app's package.json ("type": "module") is packed: the bundle's .js files are ES modules.
    expect(filter(path.join(project, 'package.json'), await fs.stat(path.join(project, 'package.json')))).toBe(true);
    expect(JSON.parse(await fs.readFile(path.join(repo, 'package.json'), 'utf8')).type).toBe('module');
    // Inside the archive, where ASAR integrity covers it.
    expect(config.asar).toBe(true);
    expect(config.asarUnpack ?? []).toEqual([]);
    expect(config.extraResources ?? []).toEqual([]);
  });

  it('`npm run build:electron` builds that bundle (the app variant) where main looks for it', async () => {
    const scripts = JSON.parse(await fs.readFile(path.join(repo, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts['build:electron']).toContain('tsx scripts/build-cli.ts .vite/cli --app');
    expect(scripts.dist).toMatch(/^npm run build:electron && electron-builder/);
    expect(bundledCliEntry(path.join('.vite', 'build'))).toBe(path.join('.vite', 'cli', 'memdesk.js'));
  });

  it('flips the Electron fuses docs/security.md lists, as electron-builder maps them onto the fuse wire', async () => {
    const wire = (await (
      PlatformPackager.prototype as unknown as { generateFuseConfig(f: unknown): Promise<Record<number, unknown>> }
    ).generateFuseConfig.call(null, config.electronFuses)) as Record<string | number, unknown>;
    expect(wire.version).toBe(FuseVersion.V1);
    expect({
      runAsNode: wire[FuseV1Options.RunAsNode],
      nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      inspect: wire[FuseV1Options.EnableNodeCliInspectArguments],
      cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
      asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyFromAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
      fileProtocolPrivileges: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
    }).toEqual({
      runAsNode: false,
      nodeOptions: false,
      inspect: false,
      cookieEncryption: true,
      asarIntegrity: true,
      onlyFromAsar: true,
      fileProtocolPrivileges: false,
    });
  });
});

describe('forge.config.ts', () => {
  it('makes no installer (so no fuses of its own to set) and packs the CLI where main looks for it', async () => {
    expect(forgeConfig.makers ?? []).toEqual([]);
    const buildPath = path.join(tmp, 'forge-app');
    await fs.mkdir(path.join(buildPath, '.vite', 'build'), { recursive: true });
    await forgeConfig.hooks!.packageAfterCopy!(forgeConfig as never, buildPath, '45.5.0', 'linux', 'x64');
    const entry = bundledCliEntry(path.join(buildPath, '.vite', 'build'));
    await expect(fs.stat(entry)).resolves.toBeTruthy();
    await expect(fs.stat(path.join(path.dirname(entry), VENDORED_SQL_JS, 'dist', 'sql-wasm.wasm'))).resolves.toBeTruthy();
  });
});
