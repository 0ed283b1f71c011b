/**
 * The server's log lines, written to a stream once per turn of the event loop instead of once per
 * line. Standard error on Linux is written synchronously when it is a pipe or a file (journald, a
 * log file), so a line per request was a blocking write per request; under load a turn handles
 * many requests, and their lines go out in one write. Flushed on exit, so a line logged just
 * before a clean stop is not lost.
 */
export function batchedLineWriter(stream: NodeJS.WritableStream): {
  log: (line: string) => void;
  /** Writes what is pending now (before the server prints its address, so startup lines come first). */
  flush: () => void;
} {
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    stream.write(text);
  };
  process.once('exit', flush);
  return {
    log: (line) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push(`${line}\n`);
    },
    flush,
  };
}
