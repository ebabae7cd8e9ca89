import type { ChildProcess } from 'node:child_process';

/**
 * SIGTERM, then wait for the exit (SIGKILL after `graceMs`). A test that removes a child's data
 * folder right after `kill()` races the child's last writes: PGlite flushing `pg_logical` while
 * `rm -r` walks it fails the run with ENOTEMPTY. 30 s by default: an HTTP process first keeps
 * serving for SHUTDOWN_READINESS_DELAY_MS (5 s unless set).
 */
export async function stopChild(child: ChildProcess | undefined, graceMs = 30_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
