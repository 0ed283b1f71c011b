import { syncUiEn, syncUiZh } from './strings.js';

/** The words after a conflict marker: `<<<<<<< this computer`, `||||||| last synced`, `>>>>>>> cloud`. */
export interface MarkerLabels {
  local: string;
  base: string;
  cloud: string;
}

/** Every language's labels: a draft seeded (or started) in one language is recognised in another. */
const KNOWN: readonly MarkerLabels[] = [syncUiEn.markerLabels, syncUiZh.markerLabels];

const SIDE: Record<string, keyof MarkerLabels> = { '<': 'local', '|': 'base', '>': 'cloud' };
const LABELLED = /^(<{7}|\|{7}|>{7}) (.+)$/;

export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/**
 * The edits that give each marker line of `text` the labels of the page's language. Only a label
 * some language writes is replaced (the core writes English ones; a draft may hold another
 * language's); anything else on a marker line is the person's and stays. The marker characters
 * themselves never change, so whatever checks for markers (the page's save button, `memdesk sync
 * resolve --merged`) reads every language alike.
 */
export function relabelMarkers(text: string, labels: MarkerLabels): TextChange[] {
  const changes: TextChange[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    const m = LABELLED.exec(line);
    if (m) {
      const side = SIDE[m[1]![0]!]!;
      const label = m[2]!;
      if (label !== labels[side] && KNOWN.some((k) => k[side] === label)) {
        const from = at + m[1]!.length + 1;
        changes.push({ from, to: from + label.length, insert: labels[side] });
      }
    }
    at += line.length + 1;
  }
  return changes;
}
