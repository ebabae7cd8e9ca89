import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import cliProgress from 'cli-progress';
import { networkReason } from './network-reason.js';

export interface ImportCommandOptions {
  file: string;
  /** Base URL of the Folio API, e.g. http://localhost:3000. */
  url: string;
  /** A token with the `manage` scope. */
  token: string;
  /** Show a progress bar (on a terminal). @default true */
  progress?: boolean;
  log?: (line: string) => void;
}

interface LineResult {
  line: number;
  type: string;
  ok: boolean;
  id?: string;
  errors?: string[];
}

export interface ImportCommandResult {
  status: number;
  lines: number;
  succeeded: number;
  failed: number;
  failures: LineResult[];
}

/**
 * Streams an NDJSON file (gzip-compressed when its name ends in `.gz`) to `POST
 * /management/v1/import` (never loading it whole) with a progress bar over the bytes sent, then
 * prints the server's per-line report.
 */
export async function runImportCommand(o: ImportCommandOptions): Promise<ImportCommandResult> {
  const log = o.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const size = (await stat(o.file)).size;
  const bar = o.progress === false ? null : new cliProgress.SingleBar(
    { format: 'upload {bar} {percentage}% | {sent}/{size} MB | ETA {eta}s', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  const mb = (n: number) => (n / 1_048_576).toFixed(1);
  let sent = 0;
  bar?.start(size, 0, { sent: mb(0), size: mb(size) });
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sent += chunk.length;
      bar?.update(sent, { sent: mb(sent), size: mb(size) });
      done(null, chunk);
    },
  });
  const body = Readable.toWeb(createReadStream(o.file).pipe(counter)) as ReadableStream<Uint8Array>;
  const target = new URL('/management/v1/import', o.url);
  let res: Response;
  try {
    res = await fetch(target, {
      method: 'POST',
      // a .gz file goes as it is, and the server decodes it as it reads
      headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/x-ndjson', ...(o.file.endsWith('.gz') ? { 'content-encoding': 'gzip' } : {}) },
      body,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
  } catch (err) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is in its cause.
    throw new Error(`cannot reach ${target.href}: ${networkReason(err)}`, { cause: err });
  } finally {
    bar?.stop();
  }
  const text = await res.text();
  let envelope: { success?: boolean; errors?: string[]; result?: { lines: number; succeeded: number; failed: number; results: LineResult[] } } = {};
  try {
    envelope = JSON.parse(text);
  } catch {
    // not JSON: reported below with the status
  }
  if (!res.ok || !envelope.result) {
    log(`import failed: HTTP ${res.status} ${envelope.errors?.join('; ') ?? text.slice(0, 500)}`);
    return { status: res.status, lines: 0, succeeded: 0, failed: 0, failures: [] };
  }
  const r = envelope.result;
  const failures = r.results.filter((x) => !x.ok);
  log(`${r.succeeded} of ${r.lines} lines applied, ${r.failed} failed.`);
  for (const f of failures.slice(0, 50)) log(`  line ${f.line} (${f.type}): ${(f.errors ?? []).join('; ')}`);
  if (failures.length > 50) log(`  … ${failures.length - 50} more failed lines listed in the server response`);
  return { status: res.status, lines: r.lines, succeeded: r.succeeded, failed: r.failed, failures };
}
