import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryCore } from '../types.js';
import { embeddingsSpace } from './embeddings-client.js';
import { readEndpointState } from './endpoint-state.js';
import { notesOf, scopeKeysOf } from './for-core.js';
import { readEmbeddingsSettings, semanticConfigured, vectorsDir } from './settings.js';
import { readVectorFile } from './vector-file.js';

export interface VectorStoreStatus {
  active: boolean;
  /** The open scopes' notes with a vector stored for the configured endpoint and model. */
  embedded: number;
  notes: number;
  /** Sizes of the stored vectors (null when none is stored). */
  dimensions: number | null;
  /** When a vectors file was last written (ms since epoch). */
  updatedAt: number | null;
  downSince: number | null;
}

async function mtime(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * What the vector store holds for a core's open scopes, read from the files (the vectors are
 * brought up to date by searches and recalls, not here: a status never calls the endpoint).
 * `space` defaults to the configured endpoint and model's.
 */
export async function vectorStoreStatus(core: MemoryCore, space?: string): Promise<VectorStoreStatus> {
  const dir = vectorsDir(core.home);
  const settings = await readEmbeddingsSettings(core.home);
  const active = semanticConfigured(settings);
  const notes = notesOf(core);
  const of = space ?? (active ? embeddingsSpace(settings.baseUrl, settings.model) : null);
  let embedded = 0;
  let dimensions: number | null = null;
  let updatedAt: number | null = null;
  const keys = scopeKeysOf(core);
  for (const scope of ['project', 'user'] as const) {
    const key = keys[scope];
    if (key === null || of === null) continue;
    const file = path.join(dir, `${key}.vec`);
    const stored = await readVectorFile(file, of);
    for (const n of notes)
      if (n.scope === scope && stored.has(n.id)) {
        embedded++;
        dimensions ??= stored.get(n.id)!.vector.length;
      }
    const written = await mtime(file);
    if (written !== null && stored.size > 0) updatedAt = Math.max(updatedAt ?? 0, written);
  }
  const { downSince } = await readEndpointState(dir);
  return {
    active,
    embedded,
    notes: notes.length,
    dimensions,
    updatedAt,
    downSince: active ? downSince : null,
  };
}
