import sharp from 'sharp';

/**
 * The demo image, drawn at first start (the repository's sample photos are test material and
 * not shipped): a 1200×800 JPEG of overlapping circles on a gradient.
 */
export async function drawDemoImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#1d4ed8"/></linearGradient></defs>
    <rect width="1200" height="800" fill="url(#g)"/>
    <circle cx="420" cy="400" r="220" fill="#f59e0b" fill-opacity="0.85"/>
    <circle cx="700" cy="360" r="180" fill="#e11d48" fill-opacity="0.75"/>
    <circle cx="860" cy="520" r="140" fill="#22c55e" fill-opacity="0.7"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
