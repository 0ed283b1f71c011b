import { writeSync } from 'node:fs';

/**
 * Module hooks for test/cli/lazy-load.test.ts and the warm tests: prints every module URL the
 * process resolves. Written to fd 2 directly: these hooks run on their own thread, whose
 * process.stderr hands each write to the main thread, and a process that ends while its main
 * thread is busy (compiling the CLI's file) would drop the last of them.
 */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, `module-log ${result.url}\n`);
  return result;
}
