import { promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerHook } from '../../electron/agents/hooks/answer-hook.js';
import { EffectsRefused, withEffectsGate } from '../../electron/agents/hooks/effects-gate.js';
import { sessionsDir } from '../../electron/agents/hooks/session-state.js';
import { fixture as memoryFixture, note, writeNoteFile } from '../memory/helpers.js';
import { fixture as hookInput } from './helpers.js';

/**
 * A warm answer whose caller stopped waiting changes nothing (effects-gate.ts): the caller runs the
 * hook cold, and a recall must not be counted twice or a note marked attached by an answer nobody
 * got.
 */
describe('hook effects gate', () => {
  it('a refused gate leaves usage and session state untouched; an open one records them once', async () => {
    const fx = await memoryFixture();
    await writeNoteFile(fx.memoryDir, note('deploy', { summary: 'Deploy with the release checklist' }));
    const { core } = await fx.open();
    const call = {
      harness: 'claude-code' as const,
      event: 'UserPromptSubmit',
      payload: JSON.stringify(
        await hookInput('claude-code', 'UserPromptSubmit', { cwd: fx.root }, { prompt: 'how do we deploy?' }),
      ),
    };
    const deps = { core, env: {}, startExtraction: () => {} };
    let asked = 0;
    await expect(
      withEffectsGate({ mayStart: async () => (asked++, false) }, () => answerHook(deps, call)),
    ).rejects.toBeInstanceOf(EffectsRefused);
    expect(asked).toBe(1);
    await core.usage.refresh();
    expect(core.usage.get('project', 'deploy').count).toBe(0);
    expect(await fs.readdir(sessionsDir(fx.home)).catch(() => [])).toEqual([]);

    const answered = await withEffectsGate({ mayStart: async () => true }, () => answerHook(deps, call));
    expect(answered.output).toContain('Deploy with the release checklist');
    await core.usage.refresh();
    expect(core.usage.get('project', 'deploy').count).toBe(1);
    expect(await fs.readdir(sessionsDir(fx.home))).toHaveLength(1);
    await core.close();
  });
});
