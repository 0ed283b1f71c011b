import { register } from 'node:module';

/** `node --import <this>`: holds back the MCP SDK, ajv and zod (see hooks.mjs). */
register('./hooks.mjs', import.meta.url);
