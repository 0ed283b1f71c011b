/**
 * Reusable buffers for the UTF-8 bytes of large strings that are written and then dropped (a
 * manifest is ~140 KB at 1,000 notes, and every commit writes one). A fresh buffer that size is
 * memory the process has not touched yet, paid in page faults on every commit: in the commits
 * phase of bench/server-load, `Buffer.from` of the manifest was ~18 % of the server's main thread.
 * Encoding into a buffer written before costs ~10 µs. Small texts take Node's own pool. A large
 * text comes best in parts (`manifestJsonParts` says why).
 */
export class ScratchBuffers {
  private readonly free: Buffer[] = [];

  constructor(
    /** How many buffers are kept for reuse (one per write in flight is enough). */
    private readonly keep = 8,
    /** Larger buffers are not kept, so a rare huge write does not pin its memory. */
    private readonly keepBytes = 4 * 1024 * 1024,
  ) {}

  /**
   * `text` (whole or in parts, one after another) as UTF-8; `release` hands the buffer back, after
   * which `bytes` must not be used.
   */
  encode(text: string | readonly string[]): { bytes: Buffer; release: () => void } {
    const parts = typeof text === 'string' ? [text] : text;
    let size = 0;
    for (const part of parts) size += Buffer.byteLength(part, 'utf8');
    if (size < SMALL_BYTES) return { bytes: Buffer.from(parts.join(''), 'utf8'), release: () => undefined };
    let buffer = this.free.pop();
    if (buffer === undefined || buffer.length < size) buffer = Buffer.allocUnsafeSlow(roundUp(size));
    let length = 0;
    for (const part of parts) length += buffer.write(part, length, 'utf8');
    const bytes = buffer.subarray(0, length);
    let released = false;
    return {
      bytes,
      release: () => {
        if (released) return;
        released = true;
        if (this.free.length < this.keep && buffer.length <= this.keepBytes) this.free.push(buffer);
      },
    };
  }
}

const SMALL_BYTES = 16 * 1024;

/** Sizes rounded up to 64 KB, so a manifest that grows a little still fits the buffer it had. */
function roundUp(size: number): number {
  return Math.ceil(size / 65_536) * 65_536;
}
