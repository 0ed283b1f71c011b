import fs from 'node:fs/promises';
import path from 'node:path';
import { serializeNote } from '../../shared/note-format.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * The project the MCP start tests run `memdesk mcp` in: a home and a "Shop" project with one note,
 * both notes directories dated well in the past so a snapshot taken now is not refused as racy
 * (prompt-snapshot.ts RACY_MS).
 */
export interface ShopProject {
  tmp: string;
  home: string;
  project: string;
  memoryDir: string;
  writeNote(id: string, summary: string, updatedAt: number): Promise<void>;
}

export const PAST = new Date(Date.now() - 3_600_000);

export async function createShopProject(name: string): Promise<ShopProject> {
  const tmp = await tempDir(name);
  const home = path.join(tmp, 'home');
  const project = path.join(tmp, 'Shop');
  const memoryDir = path.join(project, 'MEMORY');
  const writeNote = async (id: string, summary: string, updatedAt: number): Promise<void> => {
    await fs.mkdir(memoryDir, { recursive: true });
    const note = { id, summary, type: 'project' as const, tags: [], createdAt: updatedAt, updatedAt };
    await fs.writeFile(
      path.join(memoryDir, `${id}.md`),
      serializeNote({ ...note, body: `Body of ${id}.\n` }),
    );
  };
  await writeNote('invoices', 'Invoices are numbered per year', 1_780_000_000_000);
  const userDir = path.join(home, 'memory', 'user');
  await fs.mkdir(userDir, { recursive: true });
  for (const dir of [memoryDir, userDir]) await fs.utimes(dir, PAST, PAST);
  return { tmp, home, project, memoryDir, writeNote };
}
