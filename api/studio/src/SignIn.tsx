import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, call } from './api';

/** Email and password → a session (cookie) in the member's organization. */
export function SignIn({ organization, onDone }: { organization?: string; onDone?: () => void }) {
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await call('POST', '/auth/sign-in', { email: String(form.get('email')), password: String(form.get('password')), ...(organization ? { organization } : {}) });
      // everything read so far was another session's (or none): read it again as this one
      await qc.resetQueries();
      onDone?.();
    } catch (err) {
      setError(err instanceof ApiError ? err.errors.join(' ') : 'The sign-in failed: is the server reachable?');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>Folio Studio</h1>
      <form onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
