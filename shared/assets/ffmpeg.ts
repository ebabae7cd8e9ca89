import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * The ffmpeg binary for poster frames: the configured one (FFMPEG_PATH, e.g. a system package),
 * else one shipped in an npm package when installed (`@ffmpeg-installer/ffmpeg` or
 * `ffmpeg-static`). Folio depends on none: their Linux binaries are GPL builds, a distribution
 * decision left to whoever deploys. Without one, poster extraction is skipped.
 */

async function firstExecutable(candidates: Array<() => unknown>): Promise<string | null> {
  for (const candidate of candidates) {
    try {
      const value = candidate();
      const file = typeof value === 'string' ? value : (value as { path?: unknown } | null)?.path;
      if (typeof file === 'string') {
        await access(file, constants.X_OK);
        return file;
      }
    } catch {
      // not installed, or no binary for this platform
    }
  }
  return null;
}

/** `from`: where npm packages are resolved from, as a file URL (this module's place by default). */
export function locateFfmpeg(configured?: string, from: string = import.meta.url): Promise<string | null> {
  const require = createRequire(from);
  return firstExecutable([...(configured ? [() => configured] : []), () => require('@ffmpeg-installer/ffmpeg'), () => require('ffmpeg-static')]);
}

/** One JPEG frame at `atSeconds` (or the first frame of a shorter video), or null on any failure. */
export function extractFrame(ffmpeg: string, input: string, options: { atSeconds: number; timeoutMs: number }): Promise<Buffer | null> {
  const grab = (at: number) =>
    new Promise<Buffer | null>((resolve) => {
      const args = ['-v', 'error', '-ss', String(at), '-i', input, '-frames:v', '1', '-f', 'image2', '-c:v', 'mjpeg', '-q:v', '3', 'pipe:1'];
      const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'ignore'] });
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.on('error', () => resolve(null));
      child.on('close', (code) => {
        clearTimeout(timer);
        const out = Buffer.concat(chunks);
        resolve(code === 0 && out.length > 0 ? out : null);
      });
    });
  return grab(options.atSeconds).then((frame) => frame ?? (options.atSeconds > 0 ? grab(0) : null));
}
