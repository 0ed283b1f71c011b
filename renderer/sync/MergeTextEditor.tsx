import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { EditorState, RangeSetBuilder, Transaction } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  keymap,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { relabelMarkers } from './markers.js';

/** Lines that are conflict markers (<<<<<<< this computer, ||||||| last synced, =======, >>>>>>> cloud). */
const MARKER_LINE = /^(<{7}|\|{7}|={7}|>{7})( .*)?$/;
const markerLine = Decoration.line({ class: 'cm-conflict-marker' });

function markerDecorations(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = view.state.doc.lineAt(pos);
      if (MARKER_LINE.test(line.text)) builder.add(line.from, line.from, markerLine);
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

const markers = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = markerDecorations(view);
    }
    update(u: ViewUpdate) {
      if (u.docChanged || u.viewportChanged) this.decorations = markerDecorations(u.view);
    }
  },
  { decorations: (v) => v.decorations },
);

/**
 * The hand-merge text: plain CodeMirror (no Markdown styling, so a "=======" marker is not read as
 * a heading underline) with the conflict-marker lines highlighted and labelled in the page's
 * language (relabelled as an edit when the language changes, so the cursor and undo keep working
 * and the draft given to onChange reads as shown). Mod-S saves.
 */
export function MergeTextEditor(props: {
  docKey: string;
  value: string;
  onChange: (value: string) => void;
  onSave: () => void;
  ariaLabel: string;
}) {
  const { t, i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          history(),
          keymap.of([
            { key: 'Mod-s', preventDefault: true, run: () => (latest.current.onSave(), true) },
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.lineWrapping,
          markers,
          EditorView.contentAttributes.of({
            'aria-label': latest.current.ariaLabel,
            'aria-multiline': 'true',
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      view.current = null;
      created.destroy();
    };
  }, [props.docKey]);
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const changes = relabelMarkers(v.state.doc.toString(), {
      local: t('syncUi.markerLabels.local'),
      base: t('syncUi.markerLabels.base'),
      cloud: t('syncUi.markerLabels.cloud'),
    });
    // Not an undo step of its own: Ctrl+Z undoes the person's edits, not the language.
    if (changes.length > 0) v.dispatch({ changes, annotations: Transaction.addToHistory.of(false) });
  }, [props.docKey, i18n.language, t]);
  return <div className="merge-text" ref={host} data-testid="merge-text" translate="no" />;
}
