import { lintSource } from '@secretlint/core';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { RawFinding } from './credential-rules.js';

/**
 * The maintained part of the credential check: secretlint's recommended preset (AWS, GCP, GitHub,
 * GitLab, Slack, npm, OpenAI, Anthropic, Stripe, SendGrid, database URLs, private keys, …), kept
 * current by upgrading the package. The comment filter is left out: a note saying
 * `secretlint-disable` must not switch the check off.
 */
const CONFIG = {
  rules: recommendedRules
    .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
    .map((rule) => ({ id: rule.meta.id, rule })),
};

/** secretlint message id → what to tell people ("found AWS Secret Access Key" → "an AWS Secret Access Key"). */
function kindOf(message: string, ruleId: string): string {
  const named = /^found (.+?)(?:\s*\(|:|$)/.exec(message)?.[1]?.trim();
  const what = named ?? ruleId.replace(/^@secretlint\/secretlint-rule-/, '') + ' credential';
  return `${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}`;
}

export async function secretlintFindings(text: string): Promise<RawFinding[]> {
  const result = await lintSource({
    source: { content: text, filePath: '/note.md', ext: '.md', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  return result.messages.map((m) => ({
    kind: kindOf(m.message, m.ruleId),
    index: m.range[0],
    length: m.range[1] - m.range[0],
  }));
}
