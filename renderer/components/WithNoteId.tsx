/** Stands for the id while the sentence is looked up in the string tables. */
const MARK = '\u0000';

/**
 * A sentence from the string tables that names a note by its id, the id marked translate="no"
 * (it is the person's text, not the UI's: neither the zh check nor a page translator touches it).
 */
export function WithNoteId(props: { sentence: (id: string) => string; id: string }) {
  const [before = '', ...rest] = props.sentence(MARK).split(MARK);
  return (
    <>
      {before}
      <span translate="no">{props.id}</span>
      {rest.join(props.id)}
    </>
  );
}
