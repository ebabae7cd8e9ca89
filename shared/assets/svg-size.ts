/**
 * Width and height of an SVG from its root element's attributes (or viewBox), read as text:
 * SVGs are never rasterized here, so no XML parser or renderer touches them.
 */
export function svgSize(head: Buffer): { width: number; height: number } | null {
  const root = /<svg\b[^>]*>/i.exec(head.subarray(0, 65536).toString('utf8'))?.[0];
  if (!root) return null;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']\\s*([0-9.]+)(px)?\\s*["']`, 'i').exec(root)?.[1];
  let width = Number(attr('width'));
  let height = Number(attr('height'));
  if (!(width > 0 && height > 0)) {
    const vb = /\sviewBox\s*=\s*["']\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)\s*["']/i.exec(root);
    if (!vb) return null;
    width = Number(vb[1]);
    height = Number(vb[2]);
  }
  return width > 0 && height > 0 ? { width: Math.round(width), height: Math.round(height) } : null;
}
