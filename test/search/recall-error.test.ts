import { describe, expect, it } from 'vitest';
import { logRecallError, recallErrorLine } from '../../electron/api/recall-error.js';

describe('recall failures are logged, not lost', () => {
  it('one line naming the failure, clipped, without the rest of a multi-line message', () => {
    const err = new TypeError(`boom\nsecret note body line\n${'x'.repeat(500)}`);
    const lines: string[] = [];
    logRecallError(err, (l) => lines.push(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe('memdesk: recall failed, nothing attached (TypeError: boom)\n');
    expect(lines[0]).not.toContain('secret');
    const long = recallErrorLine(new Error('y'.repeat(1000)));
    expect(long.split('\n')).toHaveLength(2);
    expect(long.length).toBeLessThan(300);
    expect(recallErrorLine('plain')).toContain('(plain)');
  });
});
