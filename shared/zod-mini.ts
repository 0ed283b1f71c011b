import * as z from 'zod/mini';

/**
 * zod/mini for the schemas a note command or the per-message hook builds (docs/architecture.md):
 * zod registers its English messages when the first schema of its full API is built, zod/mini
 * registers none, so a process that loads only zod/mini would answer "Invalid input" for every
 * issue. Every module on that path takes `z` from here.
 */
z.config(z.locales.en());

export { z };
