import { useState, type FormEvent } from 'react';
import { ApiError, call } from './api';
import { navigate } from './router';

/**
 * The link of an invitation (and of the demo organization's first member): choose a password,
 * then sign in. The token travels in the fragment, so it never reaches an access log.
 */
export function AcceptInvitation() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('new-password'));
    try {
      const res = await call<{ email: string }>('POST', '/auth/invitations/accept', { token, password });
      setDone(res.result.email);
    } catch (err) {
      setError(err instanceof ApiError ? err.errors.join(' ') : 'The server could not be reached.');
    }
  };

  if (done) {
    return (
      <main className="sign-in">
        <h1>Welcome</h1>
        <p>
          Your account <strong>{done}</strong> is ready.
        </p>
        <button type="button" onClick={() => navigate('')}>
          Continue to sign-in
        </button>
      </main>
    );
  }
  return (
    <main className="sign-in">
      <h1>Join Folio</h1>
      {!token && <p role="alert">This link has no invitation token: open the link you were given.</p>}
      <form onSubmit={submit}>
        <label>
          Choose a password
          <input name="new-password" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        <button type="submit" disabled={!token}>
          Set password
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
