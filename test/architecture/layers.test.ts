import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, importGraph } from './import-graph.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const graph = importGraph(REPO, ['shared', 'electron', 'server', 'renderer']);

/** Which parts each part may import (docs/architecture.md); a part always may import itself. */
const ALLOWED: Record<string, string[]> = {
  shared: [],
  'electron/memory': ['shared'],
  'electron/cleanup': ['shared', 'electron/memory'],
  'electron/agents': ['shared', 'electron/memory'],
  // sync implements cleanup's port (electron/cleanup/merge-sync-port.ts): types only.
  'electron/sync': ['shared', 'electron/memory', 'electron/cleanup/merge-sync-port.ts'],
  'electron/api': ['shared', 'electron/memory', 'electron/sync', 'electron/cleanup', 'electron/agents'],
  'electron/app': ['shared', 'electron/memory', 'electron/sync', 'electron/cleanup', 'electron/agents', 'electron/api'],
  'electron/transports': [
    'shared',
    'electron/memory',
    'electron/sync',
    'electron/cleanup',
    'electron/agents',
    'electron/api',
    'electron/app',
  ],
  'electron/main': ['shared', 'electron'],
  'electron/preload.ts': ['shared'],
  'electron/demo': ['shared', 'electron'],
  renderer: ['shared'],
  server: ['shared'],
};

function partOf(file: string): string {
  const parts = Object.keys(ALLOWED).sort((a, b) => b.length - a.length);
  const part = parts.find((p) => file === p || file.startsWith(`${p}/`));
  if (!part) throw new Error(`${file} belongs to no layer: add it to ALLOWED in test/architecture/layers.test.ts`);
  return part;
}

function cycleKey(cycle: string[]): string {
  return [...new Set(cycle)].sort().join(' <-> ');
}

describe('architecture', () => {
  it('reads the whole tree', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('electron/memory/core.ts')).toContain('shared/note.ts');
  });

  it('keeps every import inside the layers of docs/architecture.md (type-only imports too)', () => {
    const violations: string[] = [];
    for (const [file, deps] of graph) {
      const from = partOf(file);
      for (const dep of deps) {
        const ok = partOf(dep) === from || ALLOWED[from]!.some((p) => dep === p || dep.startsWith(`${p}/`));
        if (!ok) violations.push(`${file} -> ${dep}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('has no import cycle (runtime or type-only)', () => {
    expect([...new Set(findCycles(graph).map(cycleKey))]).toEqual([]);
  });
});
