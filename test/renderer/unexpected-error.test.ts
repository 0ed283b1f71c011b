import { afterEach, describe, expect, it, vi } from 'vitest';
import { onUnexpectedError, reportedOr, unexpectedErrorCount } from '../../renderer/api/unexpected-error.js';

describe("the renderer's unexpected-error sink", () => {
  // console.warn is the browser's, not ours: watched to see what a person would find in devtools.
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  afterEach(() => warn.mockClear());

  it('counts every report and warns once per distinct place and message', () => {
    const before = unexpectedErrorCount();
    onUnexpectedError(new TypeError('boom'), 'test: once');
    onUnexpectedError(new TypeError('boom'), 'test: once');
    onUnexpectedError(new TypeError('other'), 'test: once');
    onUnexpectedError(new TypeError('boom'), 'test: elsewhere');
    expect(unexpectedErrorCount() - before).toBe(4);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      'Memory Desk: unexpected error in test: once: TypeError: boom',
      'Memory Desk: unexpected error in test: once: TypeError: other',
      'Memory Desk: unexpected error in test: elsewhere: TypeError: boom',
    ]);
  });

  it('warns without credentials: the bridge secret, URL queries, bearer tokens', () => {
    const secret = 'b7f3c1d2e4a5968877665544332211ffeeddccbb';
    onUnexpectedError(
      new Error(
        `GET http://127.0.0.1:5173/api/events?secret=${secret} failed; Authorization: Bearer abc.def`,
      ),
      'test: secrets',
    );
    const line = String(warn.mock.calls[0]?.[0]);
    expect(line).toContain('http://127.0.0.1:5173/api/events?[redacted]');
    for (const s of [secret, 'abc.def']) expect(line).not.toContain(s);
  });

  it('reportedOr reports a rejection and carries on with the fallback', async () => {
    const before = unexpectedErrorCount();
    const value = await Promise.reject(new Error('refused')).catch(
      reportedOr('fallback', 'test: reportedOr'),
    );
    expect(value).toBe('fallback');
    expect(unexpectedErrorCount() - before).toBe(1);
    expect(String(warn.mock.calls[0]?.[0])).toBe(
      'Memory Desk: unexpected error in test: reportedOr: Error: refused',
    );
  });

  it('warns about a value thrown that is not an Error', () => {
    onUnexpectedError('plain string', 'test: non-error');
    expect(String(warn.mock.calls[0]?.[0])).toBe(
      'Memory Desk: unexpected error in test: non-error: plain string',
    );
  });
});
