import type { PlayerConfig } from '../../../shared/assets/player-config.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON safe inside a <script> element and any JS context. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The player page: an HTML5 video of the original (served by /files, with Range), its poster, sized 16:9 or 9:16. */
export function renderPlayerPage(config: PlayerConfig): string {
  const [w, h] = config.aspectRatio.split(':');
  const source = config.sources[0];
  const poster = config.poster ? ` poster="${escapeHtml(config.poster)}"` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(config.title ?? 'Video')}</title>
<style>
  html, body { margin: 0; height: 100%; background: #000; }
  .player { position: relative; width: 100%; max-height: 100vh; aspect-ratio: ${w} / ${h}; margin: 0 auto; max-width: calc(100vh * ${w} / ${h}); }
  video { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; background: #000; }
</style>
</head>
<body>
<div class="player" data-orientation="${config.orientation.toLowerCase()}">
  <video controls playsinline preload="metadata"${poster} title="${escapeHtml(config.title ?? '')}">
    <source src="${escapeHtml(source.src)}" type="${escapeHtml(source.type)}">
  </video>
</div>
</body>
</html>
`;
}

/**
 * The embed script: mounts the player page in an iframe right after the <script> tag (or into
 * the element named by its `data-target` selector), keeping the player's aspect ratio.
 */
export function renderPlayerScript(config: PlayerConfig): string {
  const [w, h] = config.aspectRatio.split(':');
  return `(function () {
  var config = ${scriptJson({ html: config.embed.html, title: config.title ?? 'Video', ratio: `${w} / ${h}`, maxWidth: `${Math.round((480 * Number(w)) / Number(h))}px` })};
  var script = document.currentScript;
  var box = document.createElement('div');
  box.className = 'folio-player';
  box.style.cssText = 'position:relative;width:100%;aspect-ratio:' + config.ratio + ';' + (config.ratio === '9 / 16' ? 'max-width:' + config.maxWidth + ';' : '');
  var frame = document.createElement('iframe');
  frame.src = config.html;
  frame.title = config.title;
  frame.allow = 'autoplay; fullscreen; picture-in-picture';
  frame.allowFullscreen = true;
  frame.style.cssText = 'position:absolute;inset:0;width:100%;height:100%;border:0';
  box.appendChild(frame);
  var selector = script && script.getAttribute('data-target');
  var target = selector ? document.querySelector(selector) : null;
  if (target) target.appendChild(box);
  else if (script && script.parentNode) script.parentNode.insertBefore(box, script.nextSibling);
  else document.body.appendChild(box);
})();
`;
}
