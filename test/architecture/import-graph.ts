import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/** Every relative import (runtime, type-only, re-export, dynamic) of every .ts/.tsx file under `roots`. */
export function importGraph(repo: string, roots: string[]): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const root of roots) walk(path.join(repo, root));
  const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(specifier)) {
      const target = resolveImport(file, match[1]!);
      if (target) deps.push(path.relative(repo, target));
    }
    graph.set(path.relative(repo, file), deps);
  }
  return graph;
}

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Each import cycle once, as the list of files around it. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}
