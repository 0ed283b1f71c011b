/** A field's problem in words, right under the field (referenced by its aria-describedby). */
export function FieldError(props: { id: string; message: string | undefined }) {
  if (!props.message) return null;
  return (
    <span className="field-error" id={props.id} role="alert" data-testid={props.id}>
      {props.message}
    </span>
  );
}
