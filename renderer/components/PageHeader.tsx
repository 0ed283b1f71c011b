/** A page's title, what the page is for, and why it cannot show what it should (absent when nothing is wrong). */
export function PageHeader(props: { title: string; intro: string; error: string | null | undefined }) {
  return (
    <>
      <h2>{props.title}</h2>
      <p className="muted">{props.intro}</p>
      {props.error ? (
        <p className="error" role="alert">
          {props.error}
        </p>
      ) : null}
    </>
  );
}
