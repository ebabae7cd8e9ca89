import { ApiError } from '../api';

/** A refused call said as the API said it: the envelope's message, then each of its reasons. */
export function Problems({ error }: { error: unknown }) {
  if (!error) return null;
  const lines = error instanceof ApiError ? error.errors : [error instanceof Error ? error.message : String(error)];
  return (
    <div role="alert" className="error-box">
      {lines.map((l, i) => (
        <div key={i}>{l}</div>
      ))}
    </div>
  );
}

/** The end of a form: the API's refusal, or what was done (a live status either way). */
export function Outcome({ error, done }: { error: unknown; done: string | null }) {
  return (
    <>
      <Problems error={error} />
      <p role="status" className="notice">
        {done}
      </p>
    </>
  );
}
