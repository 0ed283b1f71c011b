import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Warning } from '../../shared/api/notes.js';
import { CONFIG_LEAVES, DEFAULT_MEMORY_CONFIG, type MemoryConfig } from './config-schema.js';

/**
 * The layered memory config: built-in defaults < `$OHARNESS_HOME/config.json` < the project's
 * `.oharness/config.json` < environment (`OHARNESS_MEMORY_*`). Each setting is checked on its own;
 * a bad value keeps the value of the layer below and a warning names the key and the file.
 * A project config may switch automatic extraction and background consolidation off, never on.
 */
export interface ConfigSources {
  home: string;
  projectRoot?: string;
  env?: Record<string, string | undefined>;
}

export interface LoadedConfig {
  config: MemoryConfig;
  warnings: Warning[];
}

type Layer = 'user' | 'project' | 'env';

export function userConfigPath(home: string): string {
  return path.join(home, 'config.json');
}

export function projectConfigPath(projectRoot: string): string {
  return path.join(projectRoot, '.oharness', 'config.json');
}

/** `memory.recall.perTurn` → `OHARNESS_MEMORY_RECALL_PER_TURN`. */
export function envNameForKey(key: string): string {
  return (
    'OHARNESS_' +
    key
      .split('.')
      .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase())
      .join('_')
  );
}

export async function loadMemoryConfig(sources: ConfigSources): Promise<LoadedConfig> {
  const warnings: Warning[] = [];
  const config = structuredClone(DEFAULT_MEMORY_CONFIG) as MemoryConfig;
  const userFile = userConfigPath(sources.home);
  const user = await readJsonObject(userFile, warnings);
  applyLayer(config, user, 'user', userFile, warnings);
  if (sources.projectRoot !== undefined) {
    const projectFile = projectConfigPath(sources.projectRoot);
    const project = await readJsonObject(projectFile, warnings);
    applyLayer(config, project, 'project', projectFile, warnings);
  }
  const env = sources.env ?? process.env;
  applyLayer(config, envLayer(env), 'env', 'the environment', warnings);
  return { config, warnings };
}

async function readJsonObject(file: string, warnings: Warning[]): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    warnings.push({
      code: 'invalid_config',
      message: `cannot read ${file}: ${(err as Error).message}; using defaults`,
      path: file,
    });
    return null;
  }
  try {
    const data: unknown = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
    if (data && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, unknown>;
    warnings.push({
      code: 'invalid_config',
      message: `${file} is not a JSON object; its settings are ignored`,
      path: file,
    });
  } catch (err) {
    warnings.push({
      code: 'invalid_config',
      message: `${file} is not valid JSON (${(err as Error).message}); its settings are ignored`,
      path: file,
    });
  }
  return null;
}

function lookup(root: Record<string, unknown>, key: string): { found: boolean; value: unknown } {
  let node: unknown = root;
  for (const part of key.split('.')) {
    if (
      !node ||
      typeof node !== 'object' ||
      Array.isArray(node) ||
      !Object.prototype.hasOwnProperty.call(node, part)
    ) {
      return { found: false, value: undefined };
    }
    node = (node as Record<string, unknown>)[part];
  }
  return { found: true, value: node };
}

function assign(config: MemoryConfig, key: string, value: unknown): void {
  const parts = key.split('.').slice(1); // drop "memory"
  let node = config as unknown as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts[parts.length - 1]!] = value;
}

function current(config: MemoryConfig, key: string): unknown {
  return lookup({ memory: config }, key).value;
}

function applyLayer(
  config: MemoryConfig,
  layer: Record<string, unknown> | null,
  kind: Layer,
  where: string,
  warnings: Warning[],
): void {
  if (!layer) return;
  if (kind !== 'env') {
    // Legacy top-level `memoryDir` (a newer `memory.dir` in the same file wins).
    const legacy = lookup(layer, 'memoryDir');
    if (legacy.found && !lookup(layer, 'memory.dir').found)
      layer = { ...layer, memory: { ...asObject(layer.memory), dir: legacy.value } };
    const memory = lookup(layer, 'memory');
    if (
      memory.found &&
      (typeof memory.value !== 'object' || memory.value === null || Array.isArray(memory.value))
    ) {
      warnings.push({
        code: 'invalid_config',
        message: `memory in ${where} must be an object; its settings are ignored`,
        path: where,
      });
      return;
    }
  }
  for (const leaf of CONFIG_LEAVES) {
    const { found, value } = lookup(layer, leaf.key);
    if (!found) continue;
    const parsed = leaf.schema.safeParse(value);
    if (!parsed.success) {
      warnings.push({
        code: 'invalid_config',
        message: `${leaf.key} in ${where} is invalid (${parsed.error.issues[0]?.message ?? 'bad value'}): ${JSON.stringify(value)}; using ${JSON.stringify(current(config, leaf.key))}`,
        ...(kind === 'env' ? {} : { path: where }),
      });
      continue;
    }
    if (kind === 'project' && leaf.projectMayOnlyTurnOff && parsed.data !== false) {
      // Restating the value already in force changes nothing; asking for more is refused.
      if (parsed.data === current(config, leaf.key)) continue;
      warnings.push({
        code: 'config_not_allowed',
        message: `${leaf.key} in ${where}: a project config may only turn this off; ${JSON.stringify(parsed.data)} is ignored (set it in your own config.json)`,
        path: where,
      });
      continue;
    }
    assign(config, leaf.key, parsed.data);
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function envLayer(env: Record<string, string | undefined>): Record<string, unknown> | null {
  const layer: Record<string, unknown> = {};
  let any = false;
  for (const leaf of CONFIG_LEAVES) {
    const raw = env[envNameForKey(leaf.key)];
    if (raw === undefined || raw === '') continue;
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // Plain strings (memory.dir, "subscribers") need no quotes.
    }
    any = true;
    let node = layer;
    const parts = leaf.key.split('.');
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]!] = value;
  }
  return any ? layer : null;
}
