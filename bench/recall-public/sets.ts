/**
 * Public retrieval sets, read from files the user downloads (docs/search.md, "Public benchmarks",
 * says from where and under which licence); nothing here is shipped with the repository.
 *
 * A set is one or more stores of notes with questions over each store: SciFact is one store of
 * 5,183 abstracts; REALTALK is ten stores, one per two-person chat, one note per message (so a
 * question is only ever asked of its own chat's memory, as an agent's memory would be).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchDocument } from '../../electron/memory/search/index.js';
import type { Judged } from '../recall-quality/metrics.js';
import { parseCsv } from './csv.js';

export interface PublicQuery extends Judged {
  query: string;
}

export interface Store {
  notes: SearchDocument[];
  queries: PublicQuery[];
}

export interface PublicSet {
  name: string;
  stores: Store[];
}

const UPDATED_AT = 1_800_000_000_000;

function note(id: string, summary: string, body: string, tags: string[] = [], i = 0): SearchDocument {
  // Distinct times keep tie-breaks deterministic and unrelated to relevance.
  return { id, scope: 'project', summary, tags, body, updatedAt: UPDATED_AT + i };
}

/**
 * SciFact (BEIR's test split: 300 claims over 5,183 abstracts, 339 judgements). Reads either the
 * BEIR layout (`corpus.jsonl`, `queries.jsonl`, `qrels/test.tsv`) or the Hugging Face CSV layout
 * (`corpus_train.csv`, `claims_validation.csv`, whose `cited_doc_ids` are BEIR's test qrels).
 * A note is one abstract: the title as summary, the abstract as body, no tags.
 */
export function loadSciFact(dir: string): PublicSet {
  if (existsSync(join(dir, 'corpus.jsonl'))) return loadBeir('SciFact', dir);
  const corpus = parseCsv(readFileSync(join(dir, 'corpus_train.csv'), 'utf8'));
  const notes = corpus.map((r, i) =>
    note(r.doc_id!, r.title!, pythonStringList(r.abstract!).join(' '), [], i),
  );
  const byClaim = new Map<string, PublicQuery>();
  for (const r of parseCsv(readFileSync(join(dir, 'claims_validation.csv'), 'utf8'))) {
    const cited = r.cited_doc_ids!.replace(/[[\]]/g, ' ').trim().split(/\s+/).filter(Boolean);
    const q = byClaim.get(r.id!) ?? { query: r.claim!, relevant: [] };
    q.relevant = [...new Set([...q.relevant, ...cited])];
    byClaim.set(r.id!, q);
  }
  return {
    name: 'SciFact',
    stores: [{ notes, queries: [...byClaim.values()].filter((q) => q.relevant.length) }],
  };
}

/** Any BEIR-format set: `corpus.jsonl` (title → summary, text → body), `queries.jsonl`, `qrels/test.tsv`. */
export function loadBeir(name: string, dir: string): PublicSet {
  const lines = (f: string) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
  const notes = lines('corpus.jsonl').map((l, i) => {
    const d = JSON.parse(l) as { _id: string; title?: string; text: string };
    return note(d._id, d.title ?? '', d.text, [], i);
  });
  const text = new Map(
    lines('queries.jsonl').map((l) => {
      const q = JSON.parse(l) as { _id: string; text: string };
      return [q._id, q.text] as const;
    }),
  );
  const rel = new Map<string, string[]>();
  for (const l of lines(join('qrels', 'test.tsv')).slice(1)) {
    const [qid, did, score] = l.split('\t');
    if (Number(score) > 0) rel.set(qid!, [...(rel.get(qid!) ?? []), did!]);
  }
  const queries = [...rel].map(([qid, relevant]) => ({ query: text.get(qid) ?? '', relevant }));
  return { name, stores: [{ notes, queries }] };
}

/** The items of a Python / numpy list-of-strings repr: `['a' "b's"]` → ["a", "b's"]. */
export function pythonStringList(repr: string): string[] {
  const out: string[] = [];
  const item = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/gs;
  for (let m = item.exec(repr); m; m = item.exec(repr)) out.push((m[1] ?? m[2]!).replace(/\\(.)/g, '$1'));
  return out;
}

interface RealTalkTurn {
  clean_text: string;
  speaker: string;
  dia_id: string;
}
interface RealTalkChat {
  qa: { question: string; evidence?: string[] }[];
  [session: string]: unknown;
}

/**
 * REALTALK (the `data/Chat_*.json` files: ten 21-day chats between real people, ~70 memory
 * questions each with the ids of the messages holding the answer). One store per chat, one note
 * per message: the message as summary, its speaker as the only tag, no body. Questions whose
 * evidence names no message of the chat are left out.
 */
export function loadRealTalk(dir: string): PublicSet {
  const files = readdirSync(dir)
    .filter((f) => /^Chat_\d+_.*\.json$/.test(f))
    .sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
  const stores = files.map((f) => {
    const chat = JSON.parse(readFileSync(join(dir, f), 'utf8')) as RealTalkChat;
    const notes: SearchDocument[] = [];
    for (const [key, value] of Object.entries(chat)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      for (const t of value as RealTalkTurn[]) {
        if (t.clean_text?.trim()) notes.push(note(t.dia_id, t.clean_text, '', [t.speaker], notes.length));
      }
    }
    const ids = new Set(notes.map((n) => n.id));
    const queries = chat.qa
      .map((qa) => ({
        query: qa.question,
        relevant: (qa.evidence ?? []).map((e) => e.trim()).filter((e) => ids.has(e)),
      }))
      .filter((q) => q.relevant.length > 0);
    return { notes, queries };
  });
  return { name: 'REALTALK', stores };
}
