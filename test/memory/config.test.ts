import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envNameForKey, loadMemoryConfig } from '../../electron/memory/config.js';
import { DEFAULT_MEMORY_CONFIG } from '../../electron/memory/config-schema.js';
import { fixture, note, writeNoteFile } from './helpers.js';

async function writeJson(file: string, data: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, typeof data === 'string' ? data : JSON.stringify(data));
}

describe('memory config', () => {
  it('has every memory.* setting of the seed with its default', () => {
    expect(DEFAULT_MEMORY_CONFIG).toEqual({
      dir: 'MEMORY',
      maxNotes: 5000,
      maxNoteBytes: 131072,
      indexChars: 4000,
      recall: { enabled: true, perTurn: 3, budgetChars: 2000, minScore: 1.2 },
      autoExtract: { onCompaction: false, onStop: false, minUserTurns: 3 },
      consolidate: { auto: 'subscribers', cooldownHours: 24, maxMerges: 3, unusedDays: 90 },
      retain: { scoping: 'per-project-tagged' },
    });
  });

  it('layers defaults < user < project < environment', async () => {
    const fx = await fixture();
    await writeJson(path.join(fx.home, 'config.json'), {
      memory: { maxNotes: 100, indexChars: 500, recall: { perTurn: 5 } },
    });
    await writeJson(path.join(fx.root, '.oharness', 'config.json'), { memory: { indexChars: 600 } });
    const { config, warnings } = await loadMemoryConfig({
      home: fx.home,
      projectRoot: fx.root,
      env: { [envNameForKey('memory.recall.perTurn')]: '7', OHARNESS_MEMORY_RECALL_MIN_SCORE: '2.5' },
    });
    expect(warnings).toEqual([]);
    expect(config.maxNotes).toBe(100);
    expect(config.indexChars).toBe(600);
    expect(config.recall.perTurn).toBe(7);
    expect(config.recall.minScore).toBe(2.5);
    expect(config.recall.budgetChars).toBe(2000);
    expect(envNameForKey('memory.autoExtract.minUserTurns')).toBe(
      'OHARNESS_MEMORY_AUTO_EXTRACT_MIN_USER_TURNS',
    );
  });

  it('falls back to the default for an invalid value with a warning naming the key, keeping the rest', async () => {
    const fx = await fixture();
    await writeJson(path.join(fx.home, 'config.json'), {
      memory: { maxNotes: -3, indexChars: 'lots', recall: { perTurn: 2 } },
    });
    const { config, warnings } = await loadMemoryConfig({
      home: fx.home,
      env: { OHARNESS_MEMORY_MAX_NOTE_BYTES: 'big' },
    });
    expect(config.maxNotes).toBe(5000);
    expect(config.indexChars).toBe(4000);
    expect(config.maxNoteBytes).toBe(131072);
    expect(config.recall.perTurn).toBe(2);
    const messages = warnings.map((w) => w.message);
    expect(messages.some((m) => m.startsWith('memory.maxNotes in') && m.includes('using 5000'))).toBe(true);
    expect(messages.some((m) => m.startsWith('memory.indexChars in'))).toBe(true);
    expect(messages.some((m) => m.startsWith('memory.maxNoteBytes in the environment'))).toBe(true);
    expect(warnings.every((w) => w.code === 'invalid_config')).toBe(true);
  });

  it('memory.retain.scoping: default per-project-tagged, any case, invalid → default + warning naming the key, env wins', async () => {
    const fx = await fixture();
    expect(DEFAULT_MEMORY_CONFIG.retain.scoping).toBe('per-project-tagged');
    await writeJson(path.join(fx.home, 'config.json'), { memory: { retain: { scoping: 'per-galaxy' } } });
    const bad = await loadMemoryConfig({ home: fx.home, env: {} });
    expect(bad.config.retain.scoping).toBe('per-project-tagged');
    expect(bad.warnings).toHaveLength(1);
    expect(bad.warnings[0]!.code).toBe('invalid_config');
    expect(bad.warnings[0]!.message).toMatch(
      /^memory\.retain\.scoping in .*"per-galaxy".*per-project-tagged/,
    );
    await writeJson(path.join(fx.home, 'config.json'), { memory: { retain: { scoping: ' GLOBAL ' } } });
    expect((await loadMemoryConfig({ home: fx.home, env: {} })).config.retain.scoping).toBe('global');
    const env = { [envNameForKey('memory.retain.scoping')]: 'per-project' };
    expect(Object.keys(env)).toEqual(['OHARNESS_MEMORY_RETAIN_SCOPING']);
    const fromEnv = await loadMemoryConfig({ home: fx.home, env });
    expect(fromEnv.config.retain.scoping).toBe('per-project');
    expect(fromEnv.warnings).toEqual([]);
  });

  it('reports a config file that is not JSON and uses the defaults', async () => {
    const fx = await fixture();
    await writeJson(path.join(fx.home, 'config.json'), '{"memory": {');
    const { config, warnings } = await loadMemoryConfig({ home: fx.home, env: {} });
    expect(config).toEqual(DEFAULT_MEMORY_CONFIG);
    expect(warnings[0]!.message).toMatch(/config\.json is not valid JSON/);
    expect(await fs.readFile(path.join(fx.home, 'config.json'), 'utf8')).toBe('{"memory": {');
  });

  it('lets a project config turn extraction and consolidation off, never on', async () => {
    const fx = await fixture();
    await writeJson(path.join(fx.home, 'config.json'), {
      memory: { autoExtract: { onStop: true }, consolidate: { auto: false } },
    });
    await writeJson(path.join(fx.root, '.oharness', 'config.json'), {
      memory: { autoExtract: { onStop: false, onCompaction: true }, consolidate: { auto: true } },
    });
    const { config, warnings } = await loadMemoryConfig({ home: fx.home, projectRoot: fx.root, env: {} });
    expect(config.autoExtract.onStop).toBe(false);
    expect(config.autoExtract.onCompaction).toBe(false);
    expect(config.consolidate.auto).toBe(false);
    expect(warnings.map((w) => w.code)).toEqual(['config_not_allowed', 'config_not_allowed']);
    expect(warnings[0]!.message).toMatch(/memory\.autoExtract\.onCompaction .* may only turn this off/);

    // The user's own config can turn them on; the project turning "subscribers" off works too.
    await writeJson(path.join(fx.root, '.oharness', 'config.json'), {
      memory: { consolidate: { auto: false } },
    });
    await writeJson(path.join(fx.home, 'config.json'), { memory: { autoExtract: { onCompaction: true } } });
    const again = await loadMemoryConfig({ home: fx.home, projectRoot: fx.root, env: {} });
    expect(again.config.autoExtract.onCompaction).toBe(true);
    expect(again.config.consolidate.auto).toBe(false);
    expect(again.warnings).toEqual([]);
  });

  it('memory.dir and legacy memoryDir relocate the project notes, relative to the project root', async () => {
    const fx = await fixture();
    await writeJson(path.join(fx.root, '.oharness', 'config.json'), { memoryDir: 'docs/memory' });
    await writeNoteFile(path.join(fx.root, 'docs', 'memory'), note('moved'));
    const { core } = await fx.open();
    expect(core.project!.memoryDir).toBe(path.join(fx.root, 'docs', 'memory'));
    expect(core.store('project')!.get('moved')).toBeDefined();
    await core.close();

    await writeJson(path.join(fx.root, '.oharness', 'config.json'), {
      memoryDir: 'ignored',
      memory: { dir: 'notes' },
    });
    const { core: c2 } = await fx.open();
    expect(c2.project!.memoryDir).toBe(path.join(fx.root, 'notes'));
    await c2.close();
  });

  it('OHARNESS_HOME never moves the project notes', async () => {
    const fx = await fixture();
    const { core } = await fx.open({ env: { OHARNESS_HOME: '/elsewhere' } });
    expect(core.project!.memoryDir).toBe(fx.memoryDir);
    await core.close();
  });
});
