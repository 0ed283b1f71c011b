import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { batchedLineWriter } from '../../server/log-lines.js';

function recordingStream(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, writes };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('batchedLineWriter', () => {
  it('writes the lines of one turn in one write, in order, and nothing when there are none', async () => {
    const { stream, writes } = recordingStream();
    const lines = batchedLineWriter(stream);
    lines.log('first');
    lines.log('second');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['first\nsecond\n']);
    await nextTurn();
    lines.log('third');
    await nextTurn();
    expect(writes).toEqual(['first\nsecond\n', 'third\n']);
  });

  it('flush writes what is pending at once, and the turn after writes nothing twice', async () => {
    const { stream, writes } = recordingStream();
    const lines = batchedLineWriter(stream);
    lines.log('storage UNAVAILABLE');
    lines.flush();
    expect(writes).toEqual(['storage UNAVAILABLE\n']);
    await nextTurn();
    expect(writes).toEqual(['storage UNAVAILABLE\n']);
  });
});
