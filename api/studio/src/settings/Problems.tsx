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
