import { register } from 'node:module';

/** `node --import <this>`: logs every resolved module to stderr (see hooks.mjs). */
register('./hooks.mjs', import.meta.url);
