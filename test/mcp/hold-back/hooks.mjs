import { existsSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Module hooks for test/mcp/mcp-first.test.ts: loading the MCP SDK, ajv or zod waits until the file
 * named by MEMDESK_TEST_RELEASE exists, so the test can see what the process answers without them.
 */
const HELD = /\/node_modules\/(?:@modelcontextprotocol\/sdk|ajv|zod)\//;

export async function load(url, context, next) {
  const release = process.env.MEMDESK_TEST_RELEASE;
  if (release && HELD.test(url)) {
    if (!existsSync(release)) process.stderr.write(`held back: ${url}\n`);
    while (!existsSync(release)) await sleep(20);
  }
  return next(url, context);
}
