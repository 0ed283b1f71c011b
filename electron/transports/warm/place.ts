import { createHash } from 'node:crypto';
import path from 'node:path';

/** One advertisement per home and project: its file name, from both paths. */
function placeKey(home: string, projectRoot: string): string {
  return createHash('sha256').update(`${home}\0${projectRoot}`).digest('hex').slice(0, 32);
}

export function advertisementPath(dir: string, home: string, projectRoot: string): string {
  return path.join(dir, `${placeKey(home, projectRoot)}.json`);
}

/** A fresh socket path for one server (the random part keeps two servers of one place apart). */
export function socketPath(dir: string, home: string, projectRoot: string, nonce: string): string {
  const name = `${placeKey(home, projectRoot).slice(0, 16)}-${nonce}`;
  return process.platform === 'win32' ? `\\\\.\\pipe\\memdesk-${name}` : path.join(dir, `${name}.sock`);
}

/**
 * The config overrides an environment carries (`OHARNESS_*` but the home, which is compared on
 * its own): a server answers only clients whose overrides are its own, so an answer never
 * depends on whose environment computed it.
 */
export function envKey(env: Record<string, string | undefined>): string {
  const entries = Object.entries(env)
    .filter(([k, v]) => k.startsWith('OHARNESS_') && k !== 'OHARNESS_HOME' && v !== undefined && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  return createHash('sha256').update(entries.join('\0')).digest('hex');
}
