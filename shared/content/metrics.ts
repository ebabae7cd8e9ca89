import { componentAsModel } from './field-values.js';
import type { ModelDefinition } from './model-types.js';
import { blockTexts, inlineImageCount, richTargets, type RichDoc } from './rich-content.js';

/** `CmsMetrics` as stored in `entries.metrics`. */
export interface EntryMetrics {
  wordCount: number;
  characterCount: number;
  sentenceCount: number;
  imageCount: number;
  readingTime: number;
}

export const WORDS_PER_MINUTE = 200;

// Whitespace as the regex class \s defines it.
const isSpace = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
const isTerminal = (c: number) => c === 46 || c === 33 || c === 63; // . ! ?
// Block-level tags separate words; inline tags (<b>, <a>…) do not.
const BLOCK_TAG = /<\/?(?:p|div|br|hr|li|ul|ol|h[1-6]|blockquote|pre|tr|td|th|table|section|article|figure|figcaption)\b[^>]*>/gi;
const TAG = /<[^>]*>/g;
// An entity (&amp; …) stands for one character.
const ENTITY = /&(?:[a-z]+|#\d+|#x[0-9a-f]+);/gi;

/**
 * One pass over the text (it runs for every entry of a bulk import): a word starts at a
 * non-space after a space; a sentence ends at a run of . ! ? followed by whitespace or the end;
 * characters are code points (a surrogate pair counts once).
 */
function countText(s: string, into: { words: number; chars: number; sentences: number }) {
  let inWord = false;
  let lowSurrogates = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      inWord = false;
      continue;
    }
    if (!inWord) {
      into.words++;
      inWord = true;
    }
    if (c >= 0xdc00 && c <= 0xdfff && i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff) lowSurrogates++;
    else if (isTerminal(c) && (i + 1 === s.length || isSpace(s.charCodeAt(i + 1)))) into.sentences++;
  }
  into.chars += s.length - lowSurrogates;
}

/** The visible text of a richtext (HTML) value, whitespace collapsed. */
function plainOfHtml(html: string): string {
  const text = html.includes('<') || html.includes('&')
    ? html.replace(BLOCK_TAG, ' ').replace(TAG, '').replace(/&nbsp;/gi, ' ').replace(ENTITY, 'x')
    : html;
  return text.replace(/\s+/g, ' ').trim();
}

/** Adds the counts of one model's (or component's) values to `acc`; component values are counted with their own fields. */
function countFields(model: ModelDefinition, fields: Record<string, unknown>, isImage: (assetId: string) => boolean, acc: { words: number; chars: number; sentences: number; images: number }): void {
  for (const f of model.fields) {
    const v = fields[f.alias];
    if (v === undefined) continue;
    if (f.type === 'text') for (const s of Array.isArray(v) ? (v as string[]) : [v as string]) countText(s, acc);
    else if (f.type === 'richtext') countText(plainOfHtml(v as string), acc);
    else if (f.type === 'richcontent') {
      const doc = v as RichDoc;
      for (const t of blockTexts(doc)) countText(t, acc);
      acc.images += richTargets(doc).media.filter(isImage).length + inlineImageCount(doc);
    } else if (f.type === 'media') {
      acc.images += (Array.isArray(v) ? (v as string[]) : [v as string]).filter(isImage).length;
    } else if (f.type === 'component') {
      for (const item of Array.isArray(v) ? v : [v]) {
        const inner = componentAsModel(model, String((item as Record<string, unknown>).component));
        if (inner) countFields(inner, item as Record<string, unknown>, isImage, acc);
      }
    }
  }
}

/**
 * Metrics over every text, richtext and richcontent field (those inside components too): words are runs of
 * non-space characters, characters are code points, sentences end in `.`, `!` or `?`, images
 * are image assets in media fields and rich content plus inline image nodes, reading time is
 * ceil(words / 200) minutes. `isImage` says whether an asset id is an image.
 */
export function metricsOf(model: ModelDefinition, fields: Record<string, unknown>, isImage: (assetId: string) => boolean): EntryMetrics {
  const acc = { words: 0, chars: 0, sentences: 0, images: 0 };
  countFields(model, fields, isImage, acc);
  return {
    wordCount: acc.words,
    characterCount: acc.chars,
    sentenceCount: acc.sentences,
    imageCount: acc.images,
    readingTime: Math.ceil(acc.words / WORDS_PER_MINUTE),
  };
}
