import { expect, it } from 'vitest';
import { HOOK_BUDGET_MS, hookBudget } from '../../electron/agents/hooks/answer-hook.js';

it('MEMDESK_HOOK_BUDGET_MS sets the hook budget in whole ms below the harness’s 10 s; anything else is the default', () => {
  expect(hookBudget({})).toBe(HOOK_BUDGET_MS);
  expect(hookBudget({ MEMDESK_HOOK_BUDGET_MS: '6000' })).toBe(6000);
  for (const bad of ['', '0', '-5', '1.5', '10000', 'soon', '1e3x'])
    expect(hookBudget({ MEMDESK_HOOK_BUDGET_MS: bad })).toBe(HOOK_BUDGET_MS);
});
