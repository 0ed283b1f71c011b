import { describe, expect, it } from 'vitest';
import { asRelativePath, extractRelativePaths } from '../../electron/cleanup/relative-paths.js';

describe('what counts as a relative path in a note', () => {
  it('takes paths with a directory and a known extension, ./ or ../ prefixes, or a trailing slash', () => {
    const body = [
      'The pricing layout lives in `src/pricing/Cards.tsx` and styles in src/pricing/cards.css.',
      'Run ./scripts/dev and read docs/ first (see ./README.md, line ref src/app.ts:12).',
      'Also packages/core/index.ts#L10-L20, and sub/../other/file.json.',
    ].join('\n');
    expect(extractRelativePaths(body).sort()).toEqual(
      [
        'README.md',
        'docs/',
        'other/file.json',
        'packages/core/index.ts',
        'scripts/dev',
        'src/app.ts',
        'src/pricing/Cards.tsx',
        'src/pricing/cards.css',
      ].sort(),
    );
  });

  it('ignores URLs, absolute paths, npm scopes, globs, ambiguous words, bare file names and code blocks', () => {
    const body = [
      'See https://example.com/docs/page.html and www.example.com/a.js or mailto:x@y.z/a.md.',
      'Absolute: /etc/hosts.conf, ~/notes/a.md, C:\\work\\a.ts, C:/work/a.ts.',
      'Packages: @types/node/index.d.ts. Globs: src/**/*.ts, src/{a,b}.ts, $HOME/a.ts.',
      'Words: read/write, and/or, TCP/IP, client/server. Bare: app.ts, package.json.',
      'A link [[src/notes.md]] and an escape ../../outside.ts.',
      '```',
      'import x from "./lib/x.js";',
      'cat src/in-code.ts',
      '```',
    ].join('\n');
    expect(extractRelativePaths(body)).toEqual([]);
  });

  it('normalises single tokens', () => {
    expect(asRelativePath('./a/b.ts,')).toBe('a/b.ts');
    expect(asRelativePath('a/b.ts:3:4')).toBe('a/b.ts');
    expect(asRelativePath('a/./b/../c.md')).toBe('a/c.md');
    expect(asRelativePath('a/b')).toBeNull();
  });
});
