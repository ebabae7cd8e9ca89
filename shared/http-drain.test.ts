import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './paths.js';

// A server whose event loop is busy when it stops accepting (a loaded machine): the connections
// the kernel completed meanwhile were reset when the listener closed at once; they are answered.

const SERVER = `
import http from 'node:http';
import { httpDrain } from ${JSON.stringify(path.join(projectRoot, 'shared/http-drain.ts'))};
const server = http.createServer();
const drain = httpDrain(server);
server.on('request', drain.wrap((req, res) => res.end('ok')));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(server.address().port + '\\n');
  process.stdin.once('data', () => {
    drain.startDraining();
    const busyUntil = Date.now() + 800;
    while (Date.now() < busyUntil);
    drain.close(4000).then(() => process.exit(0));
  });
});
`;

function get(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(`${res.statusCode} ${res.headers.connection}`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe('httpDrain', () => {
  it('answers the connections queued while the event loop was busy, then refuses new ones', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SERVER], { cwd: projectRoot, stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const port = await new Promise<number>((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
      child.stdin.write('go\n');
      await new Promise((r) => setTimeout(r, 200));
      // 20 connections made while the server is busy, then nothing: it closes once quiet
      const answers = await Promise.all(Array.from({ length: 20 }, () => get(port)));
      expect(answers).toEqual(Array.from({ length: 20 }, () => '200 close'));
      await new Promise((r) => setTimeout(r, 600));
      expect(await get(port)).toBe('ECONNREFUSED');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
