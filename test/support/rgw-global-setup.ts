import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/rgw.sh');

function rgw(command: 'status' | 'start' | 'stop'): boolean {
  try {
    execFileSync('bash', [SCRIPT, command], { stdio: command === 'status' ? 'ignore' : 'inherit' });
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm test` on a fresh machine: the RGW storage tests need Ceph RGW on loopback. When none is
 * running (CI's .ci/run starts one first), start it for this run and stop it afterwards. If it
 * cannot start (no root to install Ceph), the run goes on and those tests fail with the reason.
 */
export default function setup(): (() => void) | void {
  if (rgw('status')) return;
  if (!rgw('start')) {
    console.error('rgw: could not start Ceph RGW; the RGW storage tests will fail and say how to start it.');
    return;
  }
  return () => {
    rgw('stop');
  };
}
