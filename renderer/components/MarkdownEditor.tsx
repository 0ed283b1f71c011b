import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  keymap,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';

import { WIKI_LINK } from '../../shared/links.js';
import { uiStore, useUi } from '../state/ui-store.js';

/** `[[id]]` links in a body: the core's pattern (its own copy: MatchDecorator moves lastIndex). */
const LINK_RE = new RegExp(WIKI_LINK);

function linkDecorations(resolve: (id: string) => boolean, openHint: string) {
  const decorator = new MatchDecorator({
    regexp: LINK_RE,
    decoration: (match) => {
      const id = match[1]!.trim();
      const ok = resolve(id);
      return Decoration.mark({
        class: ok ? 'cm-wikilink' : 'cm-wikilink cm-wikilink-dangling',
        attributes: { 'data-link': id, title: openHint },
      });
    },
  });
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = decorator.createDeco(view);
      }
      update(u: ViewUpdate) {
        this.decorations = decorator.updateDeco(u, this.decorations);
      }
    },
    { decorations: (v) => v.decorations },
  );
}

export interface MarkdownEditorProps {
  /** A new key starts a fresh editor state (new undo history): another note was opened. */
  docKey: string;
  value: string;
  onChange: (value: string) => void;
  onSave: () => void;
  resolveLink: (id: string) => boolean;
  onOpenLink: (id: string) => void;
  ariaLabel: string;
  openHint: string;
  /** Changes when the set of existing notes changes, to re-mark dangling links. */
  linksVersion: string;
}

export function MarkdownEditor(props: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const linkCompartment = useRef(new Compartment());
  // Callbacks change every render; the editor reads the latest through this ref.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const state = EditorState.create({
      doc: props.value,
      extensions: [
        history(),
        keymap.of([
          { key: 'Mod-s', preventDefault: true, run: () => (latest.current.onSave(), true) },
          // The page's Tab-moves-focus setting (shown in the status bar), not only this editor's.
          {
            key: 'Ctrl-m',
            mac: 'Shift-Alt-m',
            preventDefault: true,
            run: () => (uiStore.getState().setTabMovesFocus(!uiStore.getState().tabMovesFocus), true),
          },
          indentWithTab,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        markdown(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': props.ariaLabel, 'aria-multiline': 'true' }),
        linkCompartment.current.of(linkDecorations((id) => latest.current.resolveLink(id), props.openHint)),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) latest.current.onChange(u.state.doc.toString());
        }),
        EditorView.domEventHandlers({
          mousedown(event) {
            if (!(event.ctrlKey || event.metaKey)) return false;
            const target = (event.target as HTMLElement).closest<HTMLElement>('[data-link]');
            const id = target?.dataset.link;
            if (!id) return false;
            event.preventDefault();
            latest.current.onOpenLink(id);
            return true;
          },
        }),
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    v.setTabFocusMode(uiStore.getState().tabMovesFocus);
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // Only a new note recreates the editor; value changes are applied below.
  }, [props.docKey]);

  // A version loaded from disk (not typed here) replaces the document.
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const current = v.state.doc.toString();
    if (current !== props.value)
      v.dispatch({ changes: { from: 0, to: current.length, insert: props.value } });
  }, [props.value]);

  const tabMovesFocus = useUi((s) => s.tabMovesFocus);
  useEffect(() => view.current?.setTabFocusMode(tabMovesFocus), [tabMovesFocus]);

  useEffect(() => {
    view.current?.dispatch({
      effects: linkCompartment.current.reconfigure(
        linkDecorations((id) => latest.current.resolveLink(id), props.openHint),
      ),
    });
  }, [props.linksVersion, props.openHint]);

  return <div className="md-editor" ref={host} data-testid="body-editor" translate="no" />;
}
