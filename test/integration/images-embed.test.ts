import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));

describe('video embeds: /embed/{org}/{asset}.html|.js|.json', () => {
  let app: TestApp;
  let org: TestOrg;
  let video: { id: string; url: string };
  let image: { id: string };

  const upload = async (body: Buffer, query = '') =>
    (await app.json(`/management/v1/assets${query}`, { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(body) })).body.result;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg();
    video = await upload(await fixture('clip.mp4'), '?title=Test%20%3Cclip%3E');
    image = await upload(await fixture('the-mouse.jpg'));
    await app.json(`/management/v1/assets/${video.id}`, { method: 'PATCH', token: org.manageToken, body: { posterAssetId: image.id } });
  });
  afterAll(async () => app?.close());

  it('JSON: the player configuration with source, poster and embed URLs', async () => {
    const res = await app.json(`/embed/${org.orgId}/${video.id}.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toMatchObject({
      id: video.id,
      title: 'Test <clip>',
      orientation: 'HORIZONTAL',
      aspectRatio: '16:9',
      width: 320,
      height: 180,
      duration: 3,
      sources: [{ src: video.url, type: 'video/mp4' }],
      embed: {
        html: `${app.baseUrl}/embed/${org.orgId}/${video.id}.html`,
        js: `${app.baseUrl}/embed/${org.orgId}/${video.id}.js`,
      },
    });
    expect(res.body.poster).toMatch(new RegExp(`^${app.baseUrl}/img/[^/]+/${org.orgId}/${video.id}/`));
    expect((await fetch(res.body.poster)).headers.get('content-type')).toBe('image/jpeg');
    const vertical = await app.json(`/embed/${org.orgId}/${video.id}.json?orientation=vertical`);
    expect(vertical.body).toMatchObject({ orientation: 'VERTICAL', aspectRatio: '9:16' });
    expect(vertical.body.embed.html).toContain('?orientation=vertical');
  });

  it('HTML: a player page with an escaped title, the video and its poster', async () => {
    const res = await app.fetch(`/embed/${org.orgId}/${video.id}.html`);
    const html = await res.text();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('<title>Test &#60;clip&#62;</title>');
    expect(html).toContain(`<source src="${video.url}" type="video/mp4">`);
    expect(html).toMatch(/<video controls playsinline preload="metadata" poster="http[^"]+\/img\//);
    expect(html).toContain('aspect-ratio: 16 / 9');
    expect(await (await app.fetch(`/embed/${org.orgId}/${video.id}.html?orientation=vertical`)).text()).toContain('aspect-ratio: 9 / 16');
  });

  it('JS: a script that mounts the player page', async () => {
    const res = await app.fetch(`/embed/${org.orgId}/${video.id}.js`);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    const js = await res.text();
    expect(js).toContain(JSON.stringify(`${app.baseUrl}/embed/${org.orgId}/${video.id}.html`).slice(1, -1));
    expect(js).not.toContain('<clip>');
    expect(() => new Function(js)).not.toThrow();
  });

  it('404 for images, unknown ids, other organizations and unknown kinds; 400 for a bad orientation', async () => {
    expect((await app.fetch(`/embed/${org.orgId}/${image.id}.html`)).status).toBe(404);
    expect((await app.fetch(`/embed/${org.orgId}/nope.json`)).status).toBe(404);
    const other = await app.createOrg();
    expect((await app.fetch(`/embed/${other.orgId}/${video.id}.json`)).status).toBe(404);
    expect((await app.fetch(`/embed/${org.orgId}/${video.id}.xml`)).status).toBe(404);
    expect((await app.fetch(`/embed/${org.orgId}/${video.id}.json?orientation=diagonal`)).status).toBe(400);
  });
});
