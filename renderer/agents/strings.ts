import { useTranslation } from 'react-i18next';

/** The "Connect an agent" panel's strings (kept with the panel; English and Chinese like the rest). */
const en = {
  title: 'Connect an agent',
  intro:
    'Memory Desk gives an agent its memory through its own config: the MCP server (the memory tools and the index) and hooks (the index at session start, recalled notes on every message). Setup backs each file up first; Disconnect takes it out again.',
  connected: 'connected',
  partly: 'partly connected',
  notConnected: 'not connected',
  mcp: 'MCP server',
  hooks: 'hooks',
  files: 'Files',
  preview: 'Preview',
  connect: 'Connect',
  disconnect: 'Disconnect',
  working: 'Working…',
  nothingToChange: 'Nothing to change: already as it should be.',
  changed: '{{file}}: {{action}}',
  filterTitle: 'Notes in this project',
  filterNone: 'No project is open: agents see every note.',
  filterOn:
    'Agents in this project ({{label}}) see project notes, untagged notes of yours, and those tagged project:{{label}}.',
  hidden: 'Not seen here: {{count}} of your notes tagged for {{labels}}.',
  cli: 'Same from a terminal: memdesk setup {{harness}} [--dry-run] [--undo]',
};

const zh: typeof en = {
  title: '连接智能体',
  intro:
    'Memory Desk 通过智能体自己的配置为其提供记忆：MCP 服务器（记忆工具与索引）和钩子（会话开始时的索引、每条消息的召回笔记）。设置前会先备份每个文件；“断开”会再次移除。',
  connected: '已连接',
  partly: '部分连接',
  notConnected: '未连接',
  mcp: 'MCP 服务器',
  hooks: '钩子',
  files: '文件',
  preview: '预览',
  connect: '连接',
  disconnect: '断开',
  working: '处理中…',
  nothingToChange: '无需更改：已是正确设置。',
  changed: '{{file}}：{{action}}',
  filterTitle: '本项目中的笔记',
  filterNone: '未打开项目：智能体可见全部笔记。',
  filterOn:
    '本项目（{{label}}）中的智能体可见项目笔记、你的未加标签笔记，以及标签为 project:{{label}} 的笔记。',
  hidden: '此处不可见：你的 {{count}} 条笔记标记给了 {{labels}}。',
  cli: '终端中同样可用：memdesk setup {{harness}} [--dry-run] [--undo]',
};

export type AgentsStrings = typeof en;

export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
}

export function useAgentsStrings(): { s: AgentsStrings; f: typeof fill } {
  const { i18n } = useTranslation();
  return { s: i18n.language?.startsWith('zh') ? zh : en, f: fill };
}
