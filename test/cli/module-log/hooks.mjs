import process from 'node:process';

/** Module hooks for test/cli/lazy-load.test.ts: prints every module URL the process resolves. */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  process.stderr.write(`module-log ${result.url}\n`);
  return result;
}
