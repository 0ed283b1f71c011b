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
  ruleTitle: 'Project rule: the memory in every chat',
  ruleIntro:
    "Cursor's hooks cannot add recalled notes to a turn in which the agent uses no tool. A project rule that is always applied (.cursor/rules/memory-desk.mdc) puts the guidance and the index of your notes into every chat in that project. It is kept out of git and kept current by Memory Desk's MCP server in Cursor; writing it connects Cursor too.",
  ruleProject: 'Project',
  ruleOption: '{{name}} — {{root}}',
  ruleOpenOption: '{{name}} — {{root}} (open here)',
  ruleOther: 'Another folder…',
  ruleFolder: 'Project folder',
  ruleFolderHint: 'absolute path, e.g. /home/me/code/shop',
  ruleNoProject: 'No project is open here: type a project folder, or open one first (File → Open Project Folder…).',
  ruleChoose: 'Type the project folder to check or write its rule.',
  rulePresent: 'The rule is there: {{file}}',
  ruleAbsent: 'No rule in this project.',
  ruleForeign: '{{file}} exists but was not written by Memory Desk: it is left alone.',
  ruleUnknown: 'Not checked yet: Preview shows what writing the rule would change.',
  ruleWrite: 'Write the rule',
  ruleRemove: 'Remove the rule',
  ruleCli: 'Same from a terminal: memdesk --project DIR setup cursor --project-rule [--dry-run] [--undo]',
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
  ruleTitle: '项目规则：每次对话都带上记忆',
  ruleIntro:
    'Cursor 的钩子无法在智能体未使用工具的回合中加入召回的笔记。始终应用的项目规则（.cursor/rules/memory-desk.mdc）会把写笔记的指引和笔记索引放进该项目的每次对话。它不会进入 git，并由 Cursor 中 Memory Desk 的 MCP 服务器保持最新；写入规则也会连接 Cursor。',
  ruleProject: '项目',
  ruleOption: '{{name}} — {{root}}',
  ruleOpenOption: '{{name}} — {{root}}（当前打开）',
  ruleOther: '其他文件夹…',
  ruleFolder: '项目文件夹',
  ruleFolderHint: '绝对路径，例如 /home/me/code/shop',
  ruleNoProject: '此处未打开项目：请输入项目文件夹，或先打开一个（文件 → 打开项目文件夹…）。',
  ruleChoose: '输入项目文件夹以检查或写入它的规则。',
  rulePresent: '规则已存在：{{file}}',
  ruleAbsent: '此项目中没有规则。',
  ruleForeign: '{{file}} 已存在，但不是 Memory Desk 写入的：保持原样。',
  ruleUnknown: '尚未检查：“预览”会显示写入规则将做的更改。',
  ruleWrite: '写入规则',
  ruleRemove: '移除规则',
  ruleCli: '终端中同样可用：memdesk --project DIR setup cursor --project-rule [--dry-run] [--undo]',
};

export type AgentsStrings = typeof en;

export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
}

export function useAgentsStrings(): { s: AgentsStrings; f: typeof fill } {
  const { i18n } = useTranslation();
  return { s: i18n.language?.startsWith('zh') ? zh : en, f: fill };
}
