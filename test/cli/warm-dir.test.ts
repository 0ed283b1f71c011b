import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anyWarmAdvertised, warmDir } from '../../electron/transports/warm/dir.js';
import { tempDir } from '../memory/helpers.js';

describe.skipIf(process.platform === 'win32')(
  'whether any warm server is advertised (the bin’s check before the warm step)',
  () => {
    it('only a private warm directory holding an advertisement says yes', async () => {
      const runtime = await tempDir('warm-dir');
      const env = { XDG_RUNTIME_DIR: runtime };
      const dir = warmDir(env);
      expect(dir).toBe(path.join(runtime, 'memdesk'));
      expect(anyWarmAdvertised(env)).toBe(false); // no directory
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      expect(anyWarmAdvertised(env)).toBe(false); // empty
      await fs.writeFile(path.join(dir, 'abc-123.sock'), '');
      expect(anyWarmAdvertised(env)).toBe(false); // a socket left behind is no advertisement
      await fs.writeFile(path.join(dir, `${'f'.repeat(32)}.json`), '{}');
      expect(anyWarmAdvertised(env)).toBe(true);
      // A directory others can enter is never used (its files hold tokens): as if nothing were there.
      await fs.chmod(dir, 0o755);
      expect(anyWarmAdvertised(env)).toBe(false);
    });
  },
);
