import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams a blob into the response. Headers are already sent when a store fails mid-stream, so
 * the connection is cut (the client sees a truncated body, not a corrupt "complete" one).
 */
export async function pipeBody(body: Readable, res: ServerResponse): Promise<void> {
  try {
    await pipeline(body, res);
  } catch {
    body.destroy();
    res.destroy();
  }
}
