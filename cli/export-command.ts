import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import cliProgress from 'cli-progress';
import { networkReason } from './network-reason.js';

export interface ExportCommandOptions {
  /** Where to write the NDJSON; a name ending in `.gz` is written gzip-compressed. */
  file: string;
  /** Base URL of the Folio API, e.g. http://localhost:3000. */
  url: string;
  /** A token with the `manage` scope. */
  token: string;
  /** Show progress (on a terminal). @default true */
  progress?: boolean;
  log?: (line: string) => void;
}

export interface ExportCommandResult {
  status: number;
  lines: number;
  bytes: number;
}

/**
 * Streams `GET /management/v1/export` into a file (never holding it whole), with a progress line
 * of the lines and bytes received. The file is the import's NDJSON: `folio import FILE` into
 * another organization recreates the content.
 */
export async function runExportCommand(o: ExportCommandOptions): Promise<ExportCommandResult> {
  const log = o.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const target = new URL('/management/v1/export', o.url);
  let res: Response;
  try {
    res = await fetch(target, { headers: { authorization: `Bearer ${o.token}`, 'accept-encoding': 'gzip' } });
  } catch (err) {
    throw new Error(`cannot reach ${target.href}: ${networkReason(err)}`, { cause: err });
  }
  if (!res.ok || !res.body) {
    const text = await res.text();
    let errors: string[] | undefined;
    try {
      errors = (JSON.parse(text) as { errors?: string[] }).errors;
    } catch {
      // not the envelope: the status and the start of the text say what happened
    }
    log(`export failed: HTTP ${res.status} ${errors?.join('; ') ?? text.slice(0, 500)}`);
    return { status: res.status, lines: 0, bytes: 0 };
  }
  const bar = o.progress === false ? null : new cliProgress.SingleBar({ format: 'export | {lines} lines | {mb} MB', hideCursor: true }, cliProgress.Presets.shades_classic);
  let lines = 0;
  let bytes = 0;
  bar?.start(0, 0, { lines: 0, mb: '0.0' });
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      bar?.update(0, { lines, mb: (bytes / 1_048_576).toFixed(1) });
      done(null, chunk);
    },
  });
  try {
    const source = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    if (o.file.endsWith('.gz')) await pipeline(source, counter, zlib.createGzip(), createWriteStream(o.file));
    else await pipeline(source, counter, createWriteStream(o.file));
  } catch (err) {
    throw new Error(`the export from ${target.href} broke off after ${lines} lines: ${networkReason(err)}`, { cause: err });
  } finally {
    bar?.stop();
  }
  log(`${lines} lines (${(bytes / 1_048_576).toFixed(1)} MB) written to ${o.file}.`);
  return { status: res.status, lines, bytes };
}
