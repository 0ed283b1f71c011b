import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';

/**
 * Whether the embeddings endpoint was last found down, shared by every process on this machine
 * (hooks run one process per message): while it is down, recall skips it at once instead of
 * waiting for a timeout on every message, and the "semantic recall is off" notice is given once
 * per outage, not once per process.
 */
export interface EndpointState {
  /** When the endpoint was found down; null when it answered last. */
  downSince: number | null;
  /** Last attempt (a down endpoint is tried again RETRY_MS after it). */
  triedAt: number;
}

/** How long recall goes on without the endpoint before asking it again. */
export const RETRY_MS = 60_000;

export function endpointStatePath(dir: string): string {
  return path.join(dir, 'endpoint.json');
}

export async function readEndpointState(dir: string): Promise<EndpointState> {
  try {
    const raw = JSON.parse(await fs.readFile(endpointStatePath(dir), 'utf8')) as Partial<EndpointState>;
    return {
      downSince: typeof raw.downSince === 'number' ? raw.downSince : null,
      triedAt: typeof raw.triedAt === 'number' ? raw.triedAt : 0,
    };
  } catch {
    return { downSince: null, triedAt: 0 };
  }
}

export async function writeEndpointState(dir: string, state: EndpointState): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  await writeFileAtomic(endpointStatePath(dir), JSON.stringify(state));
}
