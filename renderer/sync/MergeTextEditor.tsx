import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { EditorState, RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  keymap,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';

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
 * a heading underline) with the conflict-marker lines highlighted. Mod-S saves.
 */
export function MergeTextEditor(props: {
  docKey: string;
  value: string;
  onChange: (value: string) => void;
  onSave: () => void;
  ariaLabel: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    const view = new EditorView({
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
    return () => view.destroy();
  }, [props.docKey]);
  return <div className="merge-text" ref={host} data-testid="merge-text" translate="no" />;
}
