/**
 * A <select> inside its label, its options given as [value, words] pairs. `labelHidden` (the
 * header's and the list toolbar's compact controls): the label is for screen readers only, and is
 * the select's own name too.
 */
export function LabelledSelect<V extends string>(props: {
  label: string;
  labelHidden?: boolean;
  value: string;
  onChange: (value: V) => void;
  options: ReadonlyArray<readonly [value: V, words: string]>;
  testId: string;
}) {
  const { label, labelHidden = false } = props;
  return (
    <label>
      <span className={labelHidden ? 'sr-only' : undefined}>{label}</span>
      <select
        {...(labelHidden ? { 'aria-label': label } : {})}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as V)}
        data-testid={props.testId}
      >
        {props.options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}
