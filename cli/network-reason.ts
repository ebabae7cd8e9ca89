/** Why a fetch failed: it says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is in its cause. */
export function networkReason(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code && cause.message) return cause.message.includes(cause.code) ? cause.message : `${cause.code} ${cause.message}`;
  return cause?.message ?? (err instanceof Error ? err.message : String(err));
}
