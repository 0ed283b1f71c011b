import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMemdesk } from './run-cli.js';
import { tempDir } from '../support/temp-dir.js';

let tmp: string;
let home: string;
let cwd: string;
beforeAll(async () => {
  tmp = await tempDir('retain-cli');
  home = path.join(tmp, 'home');
  cwd = path.join(tmp, 'Billing Service');
  await fs.mkdir(cwd, { recursive: true });
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const userFiles = async () =>
  (await fs.readdir(path.join(home, 'memory', 'user')).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.md'),
  );

describe('memdesk retain (JSON on stdin → receipts)', { timeout: 180_000 }, () => {
  it('prints one receipt per item, in order', async () => {
    const input = JSON.stringify({
      items: [
        { content: 'Invoices are generated on the 1st of each month.', context: 'billing runbook' },
        { content: '' },
        { content: 'api_key = "sk-abcdefghijklmnopqrstuvwx"' },
      ],
    });
    const run = await runMemdesk(['retain'], { cwd, home, input });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      receipts: Array<{ index: number; status: string; id: string | null; reason?: string }>;
      bankScope: string;
    };
    expect(out.bankScope).toBe('per-project-tagged');
    expect(out.receipts.map((r) => [r.index, r.status])).toEqual([
      [0, 'stored'],
      [1, 'refused'],
      [2, 'refused'],
    ]);
    expect(await userFiles()).toEqual([`${out.receipts[0]!.id}.md`]);
    const text = await fs.readFile(path.join(home, 'memory', 'user', `${out.receipts[0]!.id}.md`), 'utf8');
    expect(text).toContain('"project:billing-service"');
  });

  it('two processes retaining at once: every item stored once, the later identical one updated, none failed', async () => {
    const shared = [
      'Shared fact alpha about billing.',
      'Shared fact beta about invoices.',
      'Shared fact gamma about refunds.',
    ];
    const inputA = JSON.stringify({
      items: [...shared, 'Only A: taxes are computed per country.', 'Only A: VAT ids are validated.'].map(
        (content) => ({ content }),
      ),
    });
    const inputB = JSON.stringify({
      items: [...shared, 'Only B: credit notes need approval.', 'Only B: currency is EUR.'].map(
        (content) => ({ content }),
      ),
    });
    const before = (await userFiles()).length;
    const [a, b] = await Promise.all([
      runMemdesk(['retain'], { cwd, home, input: inputA }),
      runMemdesk(['retain'], { cwd, home, input: inputB }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    type Out = { receipts: Array<{ status: string; id: string }> };
    const ra = (JSON.parse(a.stdout) as Out).receipts;
    const rb = (JSON.parse(b.stdout) as Out).receipts;
    expect([...ra, ...rb].filter((r) => r.status !== 'stored' && r.status !== 'updated')).toEqual([]);
    for (let i = 0; i < shared.length; i++) {
      expect(ra[i]!.id).toBe(rb[i]!.id);
      expect([ra[i]!.status, rb[i]!.status].sort()).toEqual(['stored', 'updated']);
    }
    expect((await userFiles()).length - before).toBe(7);
  });

  it('bad stdin and a bad --bank-scope are refused with a message and write nothing', async () => {
    const before = await userFiles();
    const notJson = await runMemdesk(['retain'], { cwd, home, input: '{"items": [' });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/stdin is not valid JSON/);
    const badScope = await runMemdesk(['--json', 'retain', '--bank-scope', 'per-team'], {
      cwd,
      home,
      input: JSON.stringify({ items: [{ content: 'A fact.' }] }),
    });
    expect(badScope.code).toBe(1);
    expect(JSON.parse(badScope.stdout)).toEqual({
      error: { code: 'invalid_input', message: expect.stringMatching(/bankScope/) },
    });
    expect(await userFiles()).toEqual(before);
  });
});
