import { useTranslation } from 'react-i18next';
import type { SemanticProblem } from '../../shared/api/semantic.js';

/** The semantic recall panel's strings (English and Chinese like the rest). */
const en = {
  title: 'Semantic recall',
  intro:
    'Off by default. When on, notes are also found by meaning through an embeddings model you run (Ollama, llama.cpp, LM Studio) or a hosted one: each note’s summary, tags and text are sent to it. The vectors stay on this machine; recall still attaches only notes that match by words.',
  enabled: 'Use semantic recall',
  baseUrl: 'Embeddings endpoint URL',
  baseUrlHint: 'An OpenAI-compatible address ending in /v1; http:// only for this machine.',
  model: 'Model',
  apiKey: 'API key (only if the endpoint needs one)',
  apiKeyStored: 'A key is stored; type a new one to replace it',
  apiKeyNone: 'none',
  removeKey: 'Remove the stored key when saving',
  weight: 'Share of meaning in a score',
  weightDefault: 'default {{weight}}',
  weightHint:
    'From 0 (words alone) to 1. Raise it only for a model measured better on your notes (bench/recall-public/fusion-fit.ts). A share belongs to its model: changing the endpoint or the model goes back to the default.',
  weightReset: 'Back to the default: the share was set for the model saved before.',
  badWeight: 'Give a number from 0 to 1, or leave it empty for the default.',
  test: 'Test connection',
  testing: 'Testing…',
  save: 'Save',
  saving: 'Saving…',
  saved: 'Saved.',
  needUrl: 'Give the endpoint URL.',
  needModel: 'Give the model name.',
  badUrl: 'This is not a URL (for example http://127.0.0.1:11434/v1).',
  insecureUrl:
    'Notes’ text and the key are sent here: use https://, or http:// only for a server on this machine (localhost, 127.0.0.1, [::1]).',
  saveFailed: 'Not saved: {{reason}}. Your entries are kept.',
  testOk: 'Connected: the endpoint answered a vector of {{dimensions}} numbers.',
  details: 'Details',
  problem: {
    down: 'Cannot reach the endpoint: is the server running at this URL?',
    timeout: 'The endpoint did not answer in time.',
    unauthorized: 'The endpoint refused the API key (HTTP 401/403): check the key.',
    http: 'The endpoint answered with an error: check the URL (usually ending in /v1) and the model name.',
    bad_response: 'The answer is not an embeddings answer: is this an OpenAI-compatible /v1 endpoint?',
    dimensions: 'Wrong dimensions: the vectors’ sizes do not match.',
  } satisfies Record<SemanticProblem, string>,
  statusTitle: 'Vectors on this machine',
  statusOff: 'Semantic recall is off.',
  statusEmbedded: '{{embedded}} of {{notes}} notes embedded.',
  statusCatchUp: 'The rest follow as searches and recalls run.',
  statusUpdated: 'Last updated {{time}}.',
  statusNever: 'Nothing embedded yet.',
  statusDown: 'The endpoint has not answered since {{time}}: recall goes on by words alone until it does.',
  refresh: 'Refresh',
};

const zh: typeof en = {
  title: '语义召回',
  intro:
    '默认关闭。开启后，还会通过你运行的嵌入模型（Ollama、llama.cpp、LM Studio）或托管服务按含义查找笔记：每条笔记的摘要、标签和正文会发送给它。向量只保存在本机；召回仍然只附上按词语匹配的笔记。',
  enabled: '使用语义召回',
  baseUrl: '嵌入服务地址',
  baseUrlHint: '兼容 OpenAI 的地址，以 /v1 结尾；http:// 仅限本机。',
  model: '模型',
  apiKey: 'API 密钥（仅当服务需要时）',
  apiKeyStored: '已保存密钥；输入新密钥可替换',
  apiKeyNone: '无',
  removeKey: '保存时删除已保存的密钥',
  weight: '含义在得分中的占比',
  weightDefault: '默认 {{weight}}',
  weightHint:
    '从 0（只按词语）到 1。只有当某个模型在你的笔记上测得更好时才调高（bench/recall-public/fusion-fit.ts）。占比属于它的模型：更换服务地址或模型会恢复默认值。',
  weightReset: '已恢复默认：该占比是为之前保存的模型设置的。',
  badWeight: '请填写 0 到 1 之间的数字，或留空使用默认值。',
  test: '测试连接',
  testing: '测试中…',
  save: '保存',
  saving: '保存中…',
  saved: '已保存。',
  needUrl: '请填写服务地址。',
  needModel: '请填写模型名称。',
  badUrl: '这不是有效的地址（例如 http://127.0.0.1:11434/v1）。',
  insecureUrl:
    '笔记内容和密钥会发送到这里：请使用 https://；http:// 仅限本机上的服务（localhost、127.0.0.1、[::1]）。',
  saveFailed: '未保存：{{reason}}。你的输入已保留。',
  testOk: '连接成功：服务返回了 {{dimensions}} 维向量。',
  details: '详情',
  problem: {
    down: '无法连接服务：该地址上的服务是否在运行？',
    timeout: '服务没有及时响应。',
    unauthorized: '服务拒绝了 API 密钥（HTTP 401/403）：请检查密钥。',
    http: '服务返回错误：请检查地址（通常以 /v1 结尾）和模型名称。',
    bad_response: '返回的不是嵌入结果：这是兼容 OpenAI 的 /v1 服务吗？',
    dimensions: '维度不符：向量的长度不一致。',
  },
  statusTitle: '本机上的向量',
  statusOff: '语义召回已关闭。',
  statusEmbedded: '已嵌入 {{embedded}} / {{notes}} 条笔记。',
  statusCatchUp: '其余会在搜索和召回时补上。',
  statusUpdated: '最近更新：{{time}}。',
  statusNever: '尚未嵌入任何笔记。',
  statusDown: '服务自 {{time}} 起没有响应：在它恢复之前，召回只按词语进行。',
  refresh: '刷新',
};

export type SemanticStrings = typeof en;

export function useSemanticStrings(): { s: SemanticStrings; lang: string } {
  const { i18n } = useTranslation();
  const lang = i18n.language ?? 'en';
  return { s: lang.startsWith('zh') ? zh : en, lang };
}
